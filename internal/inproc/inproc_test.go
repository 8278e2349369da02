package inproc

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

func TestTransport(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("POST /echo", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Path", r.URL.Path+"?"+r.URL.RawQuery+" "+r.RequestURI)
		w.WriteHeader(http.StatusCreated)
		w.Write(append([]byte("got "), body...))
	})
	mux.HandleFunc("/drop", func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) })
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(time.Hour):
			w.Write([]byte("too late"))
		}
	})
	client := &http.Client{Transport: Transport{Handler: mux}}

	res, err := client.Post("http://fake.test/echo?x=1", "text/plain", strings.NewReader("hello"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusCreated || string(body) != "got hello" || res.Header.Get("X-Path") != "/echo?x=1 /echo?x=1" {
		t.Errorf("echo: %d %q %q", res.StatusCode, body, res.Header.Get("X-Path"))
	}

	if _, err := client.Get("http://fake.test/drop"); !errors.Is(err, ErrDropped) {
		t.Errorf("dropped connection: err = %v, want ErrDropped", err)
	}

	// In a bubble the handler's hour and the client's second are fake:
	// the client gives up after exactly one second.
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://fake.test/slow", nil)
		start := time.Now()
		if _, err := client.Do(req); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("slow handler: err = %v, want the deadline", err)
		}
		if d := time.Since(start); d != time.Second {
			t.Errorf("gave up after %v of fake time, want 1s", d)
		}
	})
}
