package llm

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// A prompt over the window is read as ErrContextLength from the status and
// the message together: 400 or 413 with a provider's documented wording,
// never retried; the same wording on another status, or a 413 without it,
// is not a context refusal.
func TestContextRefusalByStatusAndMessage(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		status  int
		msg     string
		tooLong bool
	}{
		"vLLM's 400":                 {status: http.StatusBadRequest, msg: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens", tooLong: true},
		"a gateway's 413":            {status: http.StatusRequestEntityTooLarge, msg: "This model's maximum context length is 8192 tokens", tooLong: true},
		"llama.cpp's wording":        {status: http.StatusBadRequest, msg: "the request exceeds the available context size, try increasing it", tooLong: true},
		"a 413 without the wording":  {status: http.StatusRequestEntityTooLarge, msg: "Request Entity Too Large"},
		"a 400 about something else": {status: http.StatusBadRequest, msg: "model not found"},
		"a 422 with the wording":     {status: http.StatusUnprocessableEntity, msg: "maximum context length"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, fakellm.Config{})
			f.AddRule(fakellm.Rule{Reply: fakellm.Reply{Text: "ok"}})
			f.InjectNext(1, fakellm.Fault{Status: tc.status, Message: tc.msg})
			_, err := newTestClient(t, f, nil).NewSession("sys", nil).Ask(context.Background(), Label{Task: "t"}, "a prompt")
			if got := errors.Is(err, ErrContextLength); got != tc.tooLong {
				t.Errorf("ErrContextLength %v, want %v (%v)", got, tc.tooLong, err)
			}
			if tc.tooLong && (!errors.Is(err, ErrRejected) || len(f.Requests()) != 1) {
				t.Errorf("a prompt over the window is a rejection sent once: %v after %d requests", err, len(f.Requests()))
			}
		})
	}
}
