// Package inproc answers HTTP requests by calling an http.Handler in the
// caller's goroutine, with no sockets. Tests use it to run a client against
// a fake server inside a testing/synctest bubble: there time is fake and
// moves only when every goroutine in the bubble is blocked on something the
// bubble owns, so a wait of a minute takes no time at all and its length can
// be asserted exactly. A real socket would keep the fake clock from moving.
package inproc

import (
	"errors"
	"net/http"
	"net/http/httptest"
)

// ErrDropped is what a client sees when the handler drops the connection
// (panics with http.ErrAbortHandler), as a dying server would.
var ErrDropped = errors.New("inproc: the server dropped the connection")

// Transport serves each request with Handler.
type Transport struct {
	Handler http.Handler
}

var _ http.RoundTripper = Transport{}

// RoundTrip calls the handler with a server-side copy of r and returns what
// it wrote. When r's context ends while the handler runs, the client gets
// the context's error, as it would from a real transport.
func (t Transport) RoundTrip(r *http.Request) (resp *http.Response, err error) {
	if r.Body != nil {
		defer r.Body.Close()
	}
	req := r.Clone(r.Context())
	if req.Body == nil {
		req.Body = http.NoBody
	}
	req.RequestURI = r.URL.RequestURI()
	if req.Host == "" {
		req.Host = r.URL.Host
	}
	rec := httptest.NewRecorder()
	defer func() {
		if v := recover(); v != nil {
			if v != http.ErrAbortHandler {
				panic(v)
			}
			resp, err = nil, ErrDropped
		}
	}()
	t.Handler.ServeHTTP(rec, req)
	if err := r.Context().Err(); err != nil {
		return nil, err
	}
	res := rec.Result()
	res.Request = r
	return res, nil
}
