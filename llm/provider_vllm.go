package llm

// vLLM's OpenAI-compatible server (https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html),
// default port 8000. Errors are {"object": "error", "message", ...} at the
// top level. A prompt over --max-model-len is "This model's maximum context
// length is N tokens..." (the generic wording) or, from the engine's input
// check, "The decoder prompt (length N) is longer than the maximum model
// length of M". Without --enable-auto-tool-choice a request with tools is
// a 400 naming that flag.

func init() {
	register(&provider{
		name:           "vllm",
		port:           "8000",
		contextPhrases: []string{"longer than the maximum model length"},
		toolsRefusals: []toolsRefusal{
			{"--enable-auto-tool-choice", "vLLM serves tools only when started with --enable-auto-tool-choice and a --tool-call-parser for the model"},
		},
	})
}
