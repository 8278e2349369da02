package llm

import "net/http"

// LM Studio's local server (https://lmstudio.ai/docs/app/api/endpoints/openai),
// default port 1234. A prompt over the loaded context length is refused in
// its own words, with a 400 or, in some versions, inside a 200: "Trying to
// keep the first N tokens when context the overflows. However, the model
// is loaded with context length of only M tokens, which is not enough";
// its MLX engine says "Context size has been exceeded"; a model without
// mid-generation overflow "Reached context length of M tokens".

func init() {
	register(&provider{
		name:            "lmstudio",
		port:            "1234",
		contextStatuses: []int{http.StatusBadRequest, http.StatusOK},
		contextPhrases:  []string{"when context the overflows", "context size has been exceeded", "reached context length of"},
	})
}
