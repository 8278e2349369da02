package llm

// llama.cpp's llama-server (https://github.com/ggml-org/llama.cpp/tree/master/tools/server).
// A prompt over --ctx-size is a 400 of type exceed_context_size_error:
// "request (N tokens) exceeds the available context size (M tokens), try
// increasing it"; older builds (and LM Studio, which runs llama.cpp) say
// "Cannot truncate prompt with n_keep (N) >= n_ctx (M)". Without --jinja
// it refuses tools with a 500 ("tools param requires --jinja flag") or a
// 400 for tool_choice.

func init() {
	register(&provider{
		name:           "llamacpp",
		contextPhrases: []string{"exceeds the available context size", "exceed_context_size", "cannot truncate prompt with n_keep"},
		toolsRefusals: []toolsRefusal{
			{"requires --jinja", "llama.cpp's llama-server serves tools only when started with --jinja"},
			{"unsupported param: tool_choice", "llama.cpp's llama-server serves tools only when started with --jinja"},
		},
	})
}
