package llm

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// A stream as https://platform.openai.com/docs/api-reference/chat-streaming
// documents it, with what providers add: OpenRouter's comment lines
// (https://openrouter.ai/docs/api-reference/streaming), a role sent again,
// Gemini's thought signature on a call, arguments in pieces by index, the
// usage in a chunk without choices.
const sampleStream = `: OPENROUTER PROCESSING

data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}

data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","reasoning_content":"Let me "},"finish_reason":null}]}

data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"reasoning_content":"read a.go."},"finish_reason":null}]}

data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"read_file","arguments":""},"extra_content":{"google":{"thought_signature":"SIG=="}}}]},"finish_reason":null}]}

data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"path\":"}}]},"finish_reason":null}]}

data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"b.go\"}"}}]},"finish_reason":null}]}

data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"a.go\"}"}}]},"finish_reason":null}]}

data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}

data: {"id":"c1","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":50,"completion_tokens":9,"total_tokens":59,"prompt_tokens_details":{"cached_tokens":32}}}

data: [DONE]

`

func TestStreamAssemblesOneCompletion(t *testing.T) {
	t.Parallel()
	res, err := readStream(strings.NewReader(sampleStream), func() {})
	if err != nil {
		t.Fatal(err)
	}
	ch := res.Choices[0]
	if ch.FinishReason != "tool_calls" || res.Usage.PromptTokens != 50 || res.Usage.cached() != 32 || string(res.ID) != "c1" {
		t.Errorf("finish %q, usage %+v, id %q", ch.FinishReason, res.Usage, res.ID)
	}
	calls := ch.Message.ToolCalls
	if len(calls) != 2 || calls[0].ID != "call_a" || calls[0].Function.Arguments != `{"path":"a.go"}` || calls[1].Function.Arguments != `{"path":"b.go"}` {
		t.Fatalf("tool calls = %+v", calls)
	}
	// What goes back to the provider is the message as one answer would
	// have carried it: reasoning joined, the signature on its call, no
	// stream indexes.
	got, _ := echo(withCallIDs(ch.Message, 0)).MarshalJSON()
	want := `{"role":"assistant","content":"","reasoning_content":"Let me read a.go.","tool_calls":[{"id":"call_a","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a.go\"}"},"extra_content":{"google":{"thought_signature":"SIG=="}}},{"id":"call_b","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"b.go\"}"}}]}`
	if string(got) != want {
		t.Errorf("echo =\n%s\nwant\n%s", got, want)
	}
}

func TestStreamEnds(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		stream  string
		wantErr error // nil: a completion
		check   func(*chatResponse) bool
	}{
		"cut before the answer ended": {
			stream:  "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Looks\"}}]}\n\n",
			wantErr: io.ErrUnexpectedEOF,
		},
		"no [DONE] after the finish reason": {
			stream: "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}\n\n",
			check:  func(r *chatResponse) bool { return string(r.Choices[0].Message.Content) == "ok" },
		},
		"an error chunk midway is the answer's error": {
			stream: "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"The change\"}}]}\n\ndata: {\"error\":{\"code\":502,\"message\":\"Upstream stream terminated\"}}\n\n",
			check:  func(r *chatResponse) bool { return len(r.Choices) == 0 && strings.Contains(string(r.Error), "502") },
		},
		// https://openrouter.ai/docs/api-reference/errors#error-during-streaming
		"OpenRouter's error midway, with finish_reason error": {
			stream: "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"The change\"}}]}\n\ndata: {\"id\":\"g\",\"error\":{\"code\":502,\"message\":\"Provider disconnected\"},\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\"},\"finish_reason\":\"error\"}]}\n\n",
			check: func(r *chatResponse) bool {
				return r.Choices[0].FinishReason == "error" && strings.Contains(string(r.Choices[0].Error), "Provider disconnected")
			},
		},
		"a chunk that is not JSON": {
			stream:  "data: {\"choices\":[\n\n",
			wantErr: errors.New("a streamed event is not a chat completion chunk"),
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			res, err := readStream(strings.NewReader(tc.stream), func() {})
			switch {
			case tc.wantErr != nil && (err == nil || !errors.Is(err, tc.wantErr) && !strings.Contains(err.Error(), tc.wantErr.Error())):
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			case tc.wantErr == nil && (err != nil || !tc.check(res)):
				t.Fatalf("readStream = %+v, %v", res, err)
			}
		})
	}
}

// A streamed answer times out by silence, not by length: events three
// seconds apart outlast a five-second RequestTimeout and still answer; a
// stream that stops is ended five seconds after its last event and retried.
// On synctest's clock, against the fake in process.
func TestStreamTimesOutBySilence(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		fault        fakellm.Fault
		wantRequests int
		wantElapsed  time.Duration
	}{
		"slow but steady": {fault: fakellm.Fault{StreamGap: 3 * time.Second}, wantRequests: 1},
		"stalled":         {fault: fakellm.Fault{StreamStall: true}, wantRequests: 2},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, fakellm.Config{})
			f.SetDefault(fakellm.Reply{Text: "Looks fine to me, no problems found."})
			f.InjectNext(1, tc.fault)
			synctest.Test(t, func(t *testing.T) {
				on := true
				c := newTestClient(t, f, func(o *Options) {
					o.HTTPClient = &http.Client{Transport: streamTransport{f}}
					o.Stream = &on
				})
				reply, err := c.NewSession("", nil).Ask(t.Context(), Label{Task: "q"}, "question")
				// Inside the synctest bubble the clock is fake: answered is
				// exact, whatever the machine's load.
				answered := time.Now()
				if err != nil || reply.Text != "Looks fine to me, no problems found." {
					t.Fatalf("Ask = %q, %v", reply.Text, err)
				}
				synctest.Wait() // the handler records the request when it returns
				reqs := f.Requests()
				if len(reqs) != tc.wantRequests || !reqs[0].Stream || !reqs[0].StreamUsage {
					t.Fatalf("%d requests (stream %v, usage %v), want %d streamed with usage", len(reqs), reqs[0].Stream, reqs[0].StreamUsage, tc.wantRequests)
				}
				if tc.wantRequests == 1 && answered.Sub(reqs[0].Time) <= 5*time.Second {
					t.Errorf("the answer took %v on the fake clock; the test needs it to outlast the 5s timeout", answered.Sub(reqs[0].Time))
				}
				if tc.wantRequests == 2 && reqs[1].Time.Sub(reqs[0].Time) < 5*time.Second {
					t.Errorf("retried %v after the first attempt; want after 5s of silence", reqs[1].Time.Sub(reqs[0].Time))
				}
				if reply.Usage.PromptTokens == 0 {
					t.Errorf("no usage from the stream: %+v", reply.Usage)
				}
			})
		})
	}
}

// Each provider that documents streaming is asked with stream: true by
// default, one that does not only when asked, and a stream-only model
// always.
func TestStreamDefaults(t *testing.T) {
	t.Parallel()
	on, off := true, false
	tests := map[string]struct {
		base, provider, model string
		set                   *bool
		want                  bool
	}{
		"OpenRouter":                         {base: "https://openrouter.ai/api/v1", want: true},
		"OpenAI":                             {base: "https://api.openai.com/v1", want: true},
		"Mistral":                            {base: "https://api.mistral.ai/v1", want: true},
		"an unknown server":                  {base: "https://llm.example.com/v1"},
		"an unknown server, asked":           {base: "https://llm.example.com/v1", set: &on, want: true},
		"OpenAI, turned off":                 {base: "https://api.openai.com/v1", set: &off},
		"Ollama by its port":                 {base: "http://localhost:11434/v1"},
		"vLLM by its port, named in compose": {base: "http://vllm:8000/v1"},
		"QwQ on DashScope, turned off":       {base: "https://dashscope-intl.aliyuncs.com/compatible-mode/v1", model: "qwq-plus", set: &off, want: true},
		"Qwen on DashScope, turned off":      {base: "https://dashscope-intl.aliyuncs.com/compatible-mode/v1", model: "qwen-plus", set: &off},
		"named over the URL":                 {base: "https://gateway.example.com/v1", provider: "anthropic", want: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			model := tc.model
			if model == "" {
				model = "m"
			}
			c, err := New(Options{BaseURL: tc.base, APIKey: "k", Model: model, Provider: tc.provider, Stream: tc.set})
			if err != nil {
				t.Fatal(err)
			}
			if c.stream.Load() != tc.want {
				t.Errorf("stream = %v, want %v (provider %s)", c.stream.Load(), tc.want, c.prov.name)
			}
		})
	}
}

// A server that ignores stream and answers JSON is read as JSON.
func TestStreamRequestAnsweredWithJSON(t *testing.T) {
	t.Parallel()
	f := newFake(t, fakellm.Config{})
	f.SetDefault(fakellm.Reply{Text: "unused"})
	f.InjectNext(1, fakellm.Fault{Body: `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"plain JSON"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}`})
	on := true
	c := newTestClient(t, f, func(o *Options) { o.Stream = &on })
	reply, err := c.NewSession("", nil).Ask(context.Background(), Label{Task: "q"}, "question")
	if err != nil || reply.Text != "plain JSON" {
		t.Fatalf("Ask = %q, %v", reply.Text, err)
	}
}

// A base URL names its provider by host, or by a local server's default
// port; llm_provider overrides it.
func TestProviderDetection(t *testing.T) {
	t.Parallel()
	tests := map[string]struct{ base, name, want string }{
		"OpenRouter":                 {base: "https://openrouter.ai/api/v1", want: "openrouter"},
		"Azure AI Foundry":           {base: "https://x.services.ai.azure.com/openai/v1", want: "azure"},
		"Mistral":                    {base: "https://api.mistral.ai/v1", want: "mistral"},
		"Ollama on loopback":         {base: "http://127.0.0.1:11434/v1", want: "ollama"},
		"LM Studio on a private LAN": {base: "http://192.168.1.20:1234/v1", want: "lmstudio"},
		"vLLM as a compose service":  {base: "http://vllm:8000/v1", want: "vllm"},
		"a public host on port 8000": {base: "https://llm.example.com:8000/v1", want: "openai-compatible"},
		"named":                      {base: "https://gw.example.com/v1", name: "mistral", want: "mistral"},
		"named generic over a host":  {base: "https://api.openai.com/v1", name: "openai-compatible", want: "openai-compatible"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, err := New(Options{BaseURL: tc.base, APIKey: "k", Model: "m", Provider: tc.name})
			if err != nil || c.prov.name != tc.want {
				t.Fatalf("New = %v; provider %v, want %s", err, c, tc.want)
			}
		})
	}
	if _, err := New(Options{BaseURL: "https://x.example/v1", APIKey: "k", Model: "m", Provider: "skynet"}); err == nil || !strings.Contains(err.Error(), `provider "skynet" (Options.Provider) is not one of anthropic, azure`) {
		t.Errorf("an unknown provider: %v", err)
	}
}
