package tools

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// fakeResolver answers from a table; every name in the tests resolves to a
// loopback address, so that no test can reach another machine even if the
// guard were broken.
type fakeResolver map[string][]netip.Addr

func (r fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if ips, ok := r[host]; ok {
		return ips, nil
	}
	return nil, fmt.Errorf("lookup %s: no such host", host)
}

func addrs(ss ...string) []netip.Addr {
	var out []netip.Addr
	for _, s := range ss {
		out = append(out, netip.MustParseAddr(s))
	}
	return out
}

// webServers starts the allowed test server and a second, refused one that
// counts the requests reaching it (there must be none).
func webServers(t *testing.T) (allowed, refused *httptest.Server, hits *atomic.Int32) {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html><head><title>Doc &amp; Title</title><style>.x{color:red}</style>
<script>alert("x")</script></head><body><h1>Hello</h1><p>Some <b>bold</b>
text &lt;ok&gt;</p><pre>  indented
    code</pre><!-- a comment --><ul><li>one</li><li>two</li></ul></body></html>`)
	})
	mux.HandleFunc("/text", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "plain text\n")
	})
	mux.HandleFunc("/json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"ok": true}`)
	})
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, "no such page\n")
	})
	mux.HandleFunc("/png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00"))
	})
	mux.HandleFunc("/untyped-binary", func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil // no sniffing by the server
		w.Write([]byte("\x00\x01\x02\x03 binary"))
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		line := strings.Repeat("b", 99) + "\n"
		for range 2 << 20 / len(line) {
			if _, err := fmt.Fprint(w, line); err != nil {
				return // the client stopped reading at its cap
			}
		}
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select { // far past the client's time cap, however loaded the machine
		case <-r.Context().Done():
		case <-time.After(time.Minute):
		}
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/loop", http.StatusFound)
	})
	mux.HandleFunc("/chain/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("n"))
		if n > 0 {
			http.Redirect(w, r, fmt.Sprintf("/chain/%d", n-1), http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "arrived\n")
	})
	mux.HandleFunc("/to", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("u"), http.StatusFound)
	})
	allowed = httptest.NewServer(mux)
	t.Cleanup(allowed.Close)
	hits = new(atomic.Int32)
	refused = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		fmt.Fprint(w, "SHOULD NOT BE SEEN")
	}))
	t.Cleanup(refused.Close)
	return allowed, refused, hits
}

func port(s *httptest.Server) string {
	return strconv.Itoa(int(netip.MustParseAddrPort(s.Listener.Addr().String()).Port()))
}

func TestWeb(t *testing.T) {
	t.Parallel()
	allowed, refused, hits := webServers(t)
	ap, rp := port(allowed), port(refused)
	resolver := fakeResolver{
		"public.test":  addrs("127.0.0.1"),
		"evil.test":    addrs("127.0.0.1"),
		"2130706433":   addrs("127.0.0.1"), // decimal 127.0.0.1, as some resolvers read it
		"mixed.test":   addrs("127.0.0.2", "127.0.0.1"),
		"v6.test":      addrs("::1"),
		"mapped.test":  addrs("::ffff:127.0.0.1"),
		"nothing.test": nil,
	}
	tool := func(o WebOptions) func(t *testing.T, args string) (string, error) {
		o.Resolver = resolver
		o.allow = []netip.AddrPort{netip.MustParseAddrPort(allowed.Listener.Addr().String())}
		w := Web(o)
		return func(t *testing.T, args string) (string, error) { return call(t, w, args) }
	}
	std := tool(WebOptions{})
	base := "http://public.test:" + ap
	to := func(u string) string { return base + "/to?u=" + url.QueryEscape(u) }
	tests := map[string]struct {
		run     func(t *testing.T, args string) (string, error)
		url     string
		want    []string
		not     []string
		wantErr string
	}{
		// What is served.
		"html page": {url: base + "/", want: []string{
			"URL: " + base + "/\nStatus: 200 OK\nContent-Type: text/html\n\n", "Doc & Title", "Hello\nSome bold text <ok>",
			"  indented\n    code", "- one\n- two"}, not: []string{"alert", "color:red", "a comment", "<b>", "<p>", "DOCTYPE"}},
		"plain text":        {url: base + "/text", want: []string{"Content-Type: text/plain\n\nplain text\n"}},
		"json":              {url: base + "/json", want: []string{`{"ok": true}`}},
		"literal allowed":   {url: allowed.URL + "/text", want: []string{"plain text"}},
		"error status":      {url: base + "/missing", want: []string{"Status: 404 Not Found", "no such page"}},
		"redirects, at cap": {url: base + "/chain/5", want: []string{"URL: " + base + "/chain/0\n", "arrived"}},

		// Caps.
		"size cap": {url: base + "/big", want: []string{"[page cut: only the first 1.0 MiB were read]", "[text truncated: "}},
		"small size cap": {run: tool(WebOptions{MaxBytes: 1000}), url: base + "/big",
			want: []string{"[page cut: only the first 1000 bytes were read]"}, not: []string{"[text truncated"}},
		"time cap":                {run: tool(WebOptions{Timeout: 300 * time.Millisecond}), url: base + "/slow", wantErr: "timed out after 300ms"},
		"redirect cap":            {url: base + "/loop", wantErr: "stopped after 5 redirects"},
		"one redirect too many":   {url: base + "/chain/6", wantErr: "stopped after 5 redirects"},
		"fewer redirects allowed": {run: tool(WebOptions{MaxRedirects: 2}), url: base + "/chain/3", wantErr: "stopped after 2 redirects"},

		// Not text.
		"image":          {url: base + "/png", wantErr: "the page is image/png, not text"},
		"untyped binary": {url: base + "/untyped-binary", wantErr: "not text"},

		// URLs refused as written.
		"ftp":                  {url: "ftp://public.test/x", wantErr: `only http and https URLs can be fetched, not "ftp:"`},
		"file":                 {url: "file:///etc/passwd", wantErr: `not "file:"`},
		"javascript":           {url: "javascript:alert(1)", wantErr: `not "javascript:"`},
		"relative":             {url: "/etc/passwd", wantErr: `not ":"`},
		"credentials":          {url: "http://user:pw@public.test:" + ap + "/", wantErr: "user name or password"},
		"no host":              {url: "http:///x", wantErr: "has no host"},
		"loopback":             {url: "http://127.0.0.1:" + rp + "/", wantErr: "127.0.0.1 is a loopback address"},
		"other loopback":       {url: "http://127.1.2.3:" + rp + "/", wantErr: "a loopback address"},
		"IPv6 loopback":        {url: "http://[::1]:" + rp + "/", wantErr: "::1 is a loopback address"},
		"IPv4-mapped loopback": {url: "http://[::ffff:127.0.0.1]:" + rp + "/", wantErr: "a loopback address"},
		"private":              {url: "http://10.0.0.1/", wantErr: "10.0.0.1 is a private-network address"},
		"private 192.168":      {url: "http://192.168.1.1/", wantErr: "a private-network address"},
		"metadata":             {url: "http://169.254.169.254/latest/meta-data/", wantErr: "169.254.169.254 is a link-local address"},
		"unspecified":          {url: "http://0.0.0.0:" + rp + "/", wantErr: "an unspecified address"},
		"CGNAT":                {url: "http://100.64.0.1/", wantErr: "carrier-grade NAT"},
		"IPv6 link-local":      {url: "http://[fe80::1%25eth0]/", wantErr: "a link-local address"},
		"IPv6 private":         {url: "http://[fd00::1]/", wantErr: "a private-network address"},
		"multicast":            {url: "http://224.0.0.1/", wantErr: "a multicast address"},
		"NAT64 metadata":       {url: "http://[64:ff9b::a9fe:a9fe]/", wantErr: "embedding 169.254.169.254"},
		"localhost":            {url: "http://localhost:" + rp + "/", wantErr: "localhost is this machine"},
		"sub.localhost":        {url: "http://a.localhost:" + rp + "/", wantErr: "is this machine"},

		// Names refused when dialled.
		"name resolving to loopback":         {url: "http://evil.test:" + rp + "/", wantErr: "evil.test resolves to 127.0.0.1, a loopback address"},
		"decimal address":                    {url: "http://2130706433:" + rp + "/", wantErr: "resolves to 127.0.0.1"},
		"any internal address refuses":       {url: "http://mixed.test:" + ap + "/", wantErr: "mixed.test resolves to 127.0.0.2"},
		"name resolving to IPv6 loopback":    {url: "http://v6.test:" + rp + "/", wantErr: "resolves to ::1"},
		"name resolving to a mapped address": {url: "http://mapped.test:" + rp + "/", wantErr: "a loopback address"},
		"name without addresses":             {url: "http://nothing.test/", wantErr: "nothing.test has no addresses"},
		"unknown name":                       {url: "http://unknown.test/", wantErr: "cannot resolve unknown.test"},

		// Redirects from the allowed server.
		"redirect to metadata":     {url: to("http://169.254.169.254/latest/meta-data/"), wantErr: "redirected to http://169.254.169.254/latest/meta-data/: 169.254.169.254 is a link-local address"},
		"redirect to private":      {url: to("http://10.0.0.1/admin"), wantErr: "10.0.0.1 is a private-network address"},
		"redirect to loopback":     {url: to("http://127.0.0.1:" + rp + "/"), wantErr: "127.0.0.1 is a loopback address"},
		"redirect to a bad name":   {url: to("http://evil.test:" + rp + "/"), wantErr: "evil.test resolves to 127.0.0.1"},
		"redirect to a file":       {url: to("file:///etc/passwd"), wantErr: `not "file:"`},
		"redirect with a password": {url: to("http://u:p@public.test:" + ap + "/text"), wantErr: "user name or password"},
	}
	t.Run("cases", func(t *testing.T) {
		for name, tt := range tests {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				run := tt.run
				if run == nil {
					run = std
				}
				args := fmt.Sprintf(`{"url": %q}`, tt.url)
				got, err := run(t, args)
				if tt.wantErr != "" {
					if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
						t.Fatalf("fetch_url(%s) = %q, %v; want an error containing %q", tt.url, head(got), err, tt.wantErr)
					}
					return
				}
				if err != nil {
					t.Fatalf("fetch_url(%s): %v", tt.url, err)
				}
				for _, w := range tt.want {
					if !strings.Contains(got, w) {
						t.Errorf("answer lacks %q:\n%s", w, head(got))
					}
				}
				for _, n := range tt.not {
					if strings.Contains(got, n) {
						t.Errorf("answer has %q:\n%s", n, head(got))
					}
				}
				if len(got) > maxOutput {
					t.Errorf("answer is %d bytes, over the %d cap", len(got), maxOutput)
				}
			})
		}
	})
	if n := hits.Load(); n != 0 {
		t.Errorf("the refused server was reached %d times", n)
	}
}

func TestWebArguments(t *testing.T) {
	t.Parallel()
	tool := Web(WebOptions{Resolver: fakeResolver{}})
	tests := map[string]struct{ args, wantErr string }{
		"unknown field": {`{"link": "https://example.com"}`, `unknown argument "link"; the arguments are: url`},
		"not a URL":     {`{"url": "http://[::1"}`, "not a valid URL"},
		"missing":       {`{}`, "missing required argument url"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if _, err := call(t, tool, tt.args); err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("fetch_url(%s) error = %v, want %q", tt.args, err, tt.wantErr)
			}
		})
	}
}
