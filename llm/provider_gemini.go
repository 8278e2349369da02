package llm

// Gemini's OpenAI compatibility (https://ai.google.dev/gemini-api/docs/openai):
// thought signatures ride on tool calls and go back as sent (echo.go);
// errors come as a JSON array with Google's status and RetryInfo (see
// apierror.go); a prompt over the window "exceeds the maximum number of
// tokens allowed". It streams with usage.

func init() {
	register(&provider{
		name:           "gemini",
		hosts:          []string{"generativelanguage.googleapis.com"},
		stream:         true,
		contextPhrases: []string{"exceeds the maximum number of tokens"},
	})
}
