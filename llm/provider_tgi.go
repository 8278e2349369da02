package llm

import "net/http"

// Hugging Face Text Generation Inference's Messages API
// (https://huggingface.co/docs/text-generation-inference/messages_api).
// A prompt over the window is a 422 validation error:
// {"error": "Input validation error: `inputs` tokens + `max_new_tokens`
// must be <= N. Given: ...", "error_type": "validation"}, or "`inputs` must
// have less than N tokens".

func init() {
	register(&provider{
		name:            "tgi",
		contextStatuses: []int{http.StatusUnprocessableEntity},
		contextPhrases:  []string{"`inputs` tokens + `max_new_tokens` must be", "`inputs` must have less than"},
	})
}
