package reviewsforagent

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestListen(t *testing.T) {
	t.Parallel()
	taken, err := Listen(0, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { taken.Close() })
	p := taken.Addr().(*net.TCPAddr).Port

	t.Run("strict port taken", func(t *testing.T) {
		t.Parallel()
		ln, err := Listen(p, true)
		if err == nil {
			ln.Close()
			t.Fatal("Listen on a taken port succeeded")
		}
		if !strings.Contains(err.Error(), "port "+strconv.Itoa(p)) {
			t.Errorf("err = %v, want it to name the port", err)
		}
	})
	t.Run("next free port", func(t *testing.T) {
		t.Parallel()
		ln, err := Listen(p, false)
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		got := ln.Addr().(*net.TCPAddr)
		if got.Port <= p || got.Port >= p+portAttempts || !got.IP.IsLoopback() {
			t.Errorf("listening on %v, want 127.0.0.1 above port %d", got, p)
		}
	})
}

// With nothing to review, start says so and ends at once, successfully:
// no server, no browser.
func TestRunNoChanges(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{"a.txt": "a\n"})
	out := &syncBuffer{}
	opened := false
	err := Run(context.Background(), RunOptions{Dir: dir, Port: 0, StrictPort: true, Out: out,
		Open: func(string) error { opened = true; return nil }, Ready: func(string) { opened = true }})
	if err != nil || opened || !strings.Contains(out.String(), "No uncommitted changes in ") || strings.Contains(out.String(), "Listening") {
		t.Errorf("Run = %v, opened %v:\n%s", err, opened, out)
	}
}

func TestRun(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		change   bool
		wantLine string
	}{
		"changes": {change: true, wantLine: "Reviewing 1 changed file in "},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := newRepo(t, map[string]string{"a.txt": "a\n"})
			if tc.change {
				writeFile(t, dir, "a.txt", "b\n")
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			out := &syncBuffer{}
			ready := make(chan string, 1)
			opened := make(chan string, 1)
			done := make(chan error, 1)
			go func() {
				done <- Run(ctx, RunOptions{
					Dir: dir, Port: 0, StrictPort: true, Out: out,
					Open:  func(u string) error { opened <- u; return nil },
					Ready: func(u string) { ready <- u },
				})
			}()
			var page string
			select {
			case page = <-ready:
			case err := <-done:
				t.Fatalf("Run ended early: %v\n%s", err, out)
			case <-time.After(10 * time.Second):
				t.Fatal("server not ready after 10s")
			}
			bare, token := splitPage(t, page)
			// The browser is opened with a one-time code, never the token:
			// its command line is for every local user to read.
			got := <-opened
			codeURL, err := url.Parse(got)
			if err != nil || strings.Contains(got, token) || !strings.HasPrefix(got, bare+"#code=") || !strings.HasPrefix(page, "http://127.0.0.1:") {
				t.Errorf("opened %q, ready %q", got, page)
			}
			code, _ := url.ParseQuery(codeURL.Fragment)
			base := strings.TrimSuffix(bare, "/review")
			st, body := call(t, "POST", base+"/api/session", "", `{"code":"`+code.Get("code")+`"}`)
			if st != http.StatusOK || !strings.Contains(body, token) {
				t.Errorf("trading the code: %d %s", st, body)
			}
			if st, body := call(t, "GET", base+"/api/diff", token, ""); st != http.StatusOK {
				t.Errorf("with the token: %d %s", st, body)
			}
			if code, body := call(t, "GET", base+"/api/diff", "", ""); code != http.StatusForbidden || strings.Contains(body, "diff --git") {
				t.Errorf("without the token: %d %s", code, body)
			}
			cancel()
			if err := <-done; err != nil {
				t.Fatalf("Run: %v", err)
			}
			for _, want := range []string{tc.wantLine, "Listening on " + base + "\n", "Opened the review in your browser; it is also at " + page + "\n", "Stopped.\n"} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
		})
	}
}

func TestRunNotARepo(t *testing.T) {
	t.Parallel()
	err := Run(context.Background(), RunOptions{Dir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "not a git repository") {
		t.Fatalf("Run = %v, want not a git repository", err)
	}
}
