package llm

// DeepSeek (https://api-docs.deepseek.com/api/create-chat-completion):
// reasoning_content goes back on the turn's assistant messages (echo.go);
// usage reports prompt_cache_hit_tokens; it streams with usage.

func init() {
	register(&provider{name: "deepseek", hosts: []string{"api.deepseek.com"}, stream: true})
}
