package llm

// Groq (https://console.groq.com/docs/openai): OpenAI's wire format and
// OpenAI's rate-limit headers (x-ratelimit-reset-requests / -tokens, read
// for every provider; https://console.groq.com/docs/rate-limits); it
// streams with usage.

func init() {
	register(&provider{name: "groq", hosts: []string{"api.groq.com"}, stream: true})
}
