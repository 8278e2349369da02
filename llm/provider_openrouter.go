package llm

// OpenRouter (https://openrouter.ai/docs/api-reference/overview): the
// default endpoint. It streams with usage in the last chunk
// (https://openrouter.ai/docs/api-reference/streaming), sends ": OPENROUTER
// PROCESSING" comment lines while it waits, and reports errors inside a
// 200 and as finish_reason "error" (see checkCompletion); its moderation
// 403 carries metadata.reasons (see moderated).

func init() {
	register(&provider{
		name:   "openrouter",
		hosts:  []string{"openrouter.ai"},
		stream: true,
		toolsRefusals: []toolsRefusal{
			{"no endpoints found that support tool use", "no OpenRouter provider of this model supports tool use; pick another model"},
		},
	})
}
