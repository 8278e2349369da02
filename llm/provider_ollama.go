package llm

import "net/http"

// Ollama's OpenAI compatibility (https://github.com/ollama/ollama/blob/main/docs/openai.md),
// default port 11434. Ollama runs a model with a small context window
// unless told otherwise (OLLAMA_CONTEXT_LENGTH, or num_ctx in a Modelfile)
// and cuts a longer prompt without an error, counting only what it kept
// in prompt_tokens (its log: "truncating input prompt" limit=4096
// prompt=7268 keep=4 new=4096); the client detects that (see
// Session.account). With truncation off it refuses with "the input length
// exceeds the context length" (a 400 or, in some versions, a 500). A model
// without the tools capability refuses tools: "... does not support tools".

func init() {
	register(&provider{
		name:            "ollama",
		port:            "11434",
		contextStatuses: []int{http.StatusBadRequest, http.StatusInternalServerError},
		contextPhrases:  []string{"input length exceeds the context length"},
		toolsRefusals: []toolsRefusal{
			{"does not support tools", "this Ollama model has no tool support; pick a model whose page lists the tools capability"},
		},
	})
}
