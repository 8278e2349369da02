package llm

import "encoding/json"

// Mistral's API (https://docs.mistral.ai/api/#tag/chat/operation/chat_completion_v1_chat_completions_post)
// names the answer's token cap max_tokens and refuses members it does not
// define (422, "Extra inputs are not permitted"), so max_completion_tokens
// is sent under its name. A Mistral chat template (here, or served by
// vLLM or llama.cpp) needs tool call ids of 9 characters [a-zA-Z0-9]: the
// ids the client makes up for a server that sends none are of that form
// everywhere (see withCallIDs).

func init() {
	register(&provider{
		name:   "mistral",
		hosts:  []string{"api.mistral.ai"},
		stream: true,
		adjust: func(_ string, body map[string]json.RawMessage) {
			if v, ok := body["max_completion_tokens"]; ok {
				delete(body, "max_completion_tokens")
				body["max_tokens"] = v
			}
		},
	})
}
