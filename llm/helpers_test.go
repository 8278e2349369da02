package llm

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/internal/inproc"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

const testModel = "test/model"

// newFake starts a fake endpoint that is closed with the test.
func newFake(t testing.TB, cfg fakellm.Config) *fakellm.Server {
	t.Helper()
	f := fakellm.New(cfg)
	t.Cleanup(f.Close)
	checkBodiesAtEnd(t, f) // runs first: cleanups run last-in first-out
	return f
}

// newTestClient returns a client for f with fast retries; mod adjusts the
// options.
func newTestClient(t testing.TB, f *fakellm.Server, mod func(*Options)) *Client {
	t.Helper()
	opts := Options{
		BaseURL:        f.BaseURL(),
		APIKey:         f.APIKey(),
		Model:          testModel,
		RequestTimeout: 5 * time.Second,
		RetryBaseDelay: time.Millisecond,
		MaxRetryDelay:  5 * time.Second,
	}
	if mod != nil {
		mod(&opts)
	}
	c, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

// newInProcessClient is newTestClient calling f's handler in process, for
// tests in a synctest bubble (a real socket would keep its fake clock still).
func newInProcessClient(t testing.TB, f *fakellm.Server, mod func(*Options)) *Client {
	t.Helper()
	return newTestClient(t, f, func(o *Options) {
		o.HTTPClient = &http.Client{Transport: inproc.Transport{Handler: f}}
		if mod != nil {
			mod(o)
		}
	})
}

// staticTool returns a tool that answers out (or err) and counts its runs.
func staticTool(name, out string, err error, runs *int) Tool {
	return Tool{
		Name:        name,
		Description: "test tool " + name,
		Parameters:  map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}},
		Run: func(ctx context.Context, args json.RawMessage) (string, error) {
			if runs != nil {
				*runs++
			}
			return out, err
		},
	}
}

// checkRequestBody fails t unless body is a documented chat completions
// request.
func checkRequestBody(t testing.TB, body []byte) {
	t.Helper()
	if err := validateRequestBody(body); err != nil {
		t.Errorf("request body is not a documented chat completions request: %v\n%.2000s", err, body)
	}
}

func validateRequestBody(body []byte) error { return fakellm.ValidateRequest(body) }

// checkBodiesAtEnd checks, when t ends, every request body f received.
func checkBodiesAtEnd(t testing.TB, f *fakellm.Server) {
	t.Cleanup(func() {
		for _, r := range f.Requests() {
			if len(r.Body) > 0 {
				checkRequestBody(t, r.Body)
			}
		}
	})
}

// streamTransport serves each request with h in a goroutine and returns
// the response as soon as its header is written, so that a streamed
// answer reaches the client event by event, paced as the handler writes
// it (inproc.Transport returns an answer whole). Like inproc, it needs no
// socket, so it runs in a synctest bubble.
type streamTransport struct{ h http.Handler }

func (t streamTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	pr, pw := io.Pipe()
	w := &pipeWriter{header: http.Header{}, body: pw, ready: make(chan struct{})}
	req := r.Clone(r.Context())
	req.RequestURI = r.URL.RequestURI()
	go func() {
		defer pw.Close()
		t.h.ServeHTTP(w, req)
		w.WriteHeader(http.StatusOK) // a handler that wrote nothing
	}()
	select {
	case <-w.ready:
	case <-r.Context().Done():
		pr.Close()
		return nil, r.Context().Err()
	}
	return &http.Response{StatusCode: w.status, Header: w.sent, Body: pr, Request: r}, nil
}

type pipeWriter struct {
	header, sent http.Header
	body         *io.PipeWriter
	status       int
	ready        chan struct{}
}

func (w *pipeWriter) Header() http.Header { return w.header }

func (w *pipeWriter) WriteHeader(status int) {
	if w.status != 0 {
		return
	}
	w.status, w.sent = status, w.header.Clone()
	close(w.ready)
}

func (w *pipeWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(b)
}

func (w *pipeWriter) Flush() {}
