package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/review-my-code-bot/rmc/llm"
)

// WebOptions configures fetch_url. The zero value is the production
// configuration.
type WebOptions struct {
	Timeout      time.Duration // whole fetch, redirects and body included; default 10s
	MaxBytes     int64         // response body bytes read; default 1 MiB
	MaxRedirects int           // default 5
	MaxText      int           // bytes of text returned to the model; default 100,000
	UserAgent    string        // default "rmc-review-bot (+https://github.com/review-my-code-bot/rmc)"
	// Resolver looks host names up; default net.DefaultResolver. Whatever
	// it answers is still checked when dialled, so a resolver cannot open a
	// way to private addresses.
	Resolver Resolver

	// allow lets this package's tests reach their loopback httptest servers
	// (exact address and port). It is unexported so that no other package,
	// and so no action input, can enable it.
	allow []netip.AddrPort
	// local, when set, stands for the machine's interface addresses in
	// this package's tests.
	local func() []netip.Addr
}

// Resolver is the part of *net.Resolver that fetch_url uses.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

func (o WebOptions) withDefaults() WebOptions {
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = 1 << 20
	}
	if o.MaxRedirects <= 0 {
		o.MaxRedirects = 5
	}
	if o.MaxText <= 0 {
		o.MaxText = maxOutput
	}
	if o.UserAgent == "" {
		o.UserAgent = "rmc-review-bot (+https://github.com/review-my-code-bot/rmc)"
	}
	if o.Resolver == nil {
		o.Resolver = net.DefaultResolver
	}
	if o.local == nil {
		o.local = interfaceAddrs
	}
	return o
}

// webArgs are fetch_url's arguments.
type webArgs struct {
	URL string `json:"url" jsonschema:"Absolute http or https URL, without user name or password."`
}

// Web returns the fetch_url tool, for public http(s) pages. The action adds
// it only when its enable_web input is on.
func Web(opts WebOptions) llm.Tool {
	f := newFetcher(opts.withDefaults())
	return llm.MustTool("fetch_url",
		"Fetch a public web page over http(s) and return it as text (HTML is reduced to its readable text). "+
			"Use it to check documentation, a changelog or an advisory the code depends on. Private, internal and "+
			fmt.Sprintf("cloud-metadata addresses are refused; pages over %s are cut; fetches time out after %s.",
				sizeText(f.opts.MaxBytes), f.opts.Timeout),
		`{"url": "https://pkg.go.dev/net/http"}`,
		func(ctx context.Context, a webArgs) (string, error) {
			return f.fetch(ctx, a.URL)
		})
}

type fetcher struct {
	opts   WebOptions
	guard  guard
	client *http.Client
	dialer *net.Dialer
}

func newFetcher(opts WebOptions) *fetcher {
	f := &fetcher{opts: opts, guard: guard{allow: opts.allow, local: opts.local()}}
	f.dialer = &net.Dialer{Timeout: opts.Timeout, Control: f.guard.control}
	f.client = &http.Client{
		Transport: &http.Transport{
			Proxy:                  nil, // a proxy would dial on our behalf, past the guard
			DialContext:            f.dial,
			ForceAttemptHTTP2:      true,
			TLSHandshakeTimeout:    opts.Timeout,
			ResponseHeaderTimeout:  opts.Timeout,
			MaxResponseHeaderBytes: 64 << 10,
			MaxIdleConns:           4,
			IdleConnTimeout:        30 * time.Second,
		},
		CheckRedirect: f.checkRedirect,
		Timeout:       opts.Timeout,
	}
	return f
}

// checkURL refuses what can be refused from the URL alone.
func (f *fetcher) checkURL(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("only http and https URLs can be fetched, not %q", u.Scheme+":")
	}
	if u.User != nil {
		return errors.New("URLs with a user name or password are not fetched")
	}
	host := u.Hostname()
	if host == "" {
		return errors.New("the URL has no host")
	}
	if h := strings.ToLower(strings.TrimSuffix(host, ".")); h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return fmt.Errorf("%s is this machine; only public internet addresses can be fetched", host)
	}
	if ip, err := netip.ParseAddr(host); err == nil && !f.allowed(ip, u) {
		if why := f.guard.reason(ip); why != "" {
			return &BlockedError{Addr: ip.WithZone(""), Why: why}
		}
	}
	return nil
}

// allowed reports a test server's address (see WebOptions.allow).
func (f *fetcher) allowed(ip netip.Addr, u *url.URL) bool {
	port, err := strconv.ParseUint(u.Port(), 10, 16)
	if err != nil {
		return false // no explicit port: no test server
	}
	return slices.Contains(f.opts.allow, netip.AddrPortFrom(ip, uint16(port)))
}

func (f *fetcher) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > f.opts.MaxRedirects {
		return fmt.Errorf("stopped after %d redirects", f.opts.MaxRedirects)
	}
	if err := f.checkURL(req.URL); err != nil {
		return fmt.Errorf("redirected to %s: %w", req.URL.Redacted(), err)
	}
	return nil
}

// dial resolves the host itself and dials its addresses in turn through the
// guarded dialer, whose Control hook checks each one right as it is
// connected to. A blocked address ends the dial rather than being skipped
// for the next one: a name mixing public and internal addresses is suspect.
func (f *fetcher) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = []netip.Addr{ip}
	} else if ips, err = f.opts.Resolver.LookupNetIP(ctx, "ip", host); err != nil {
		return nil, fmt.Errorf("cannot resolve %s: %w", host, err)
	}
	if len(ips) == 0 {
		return nil, fmt.Errorf("%s has no addresses", host)
	}
	var errs []error
	for _, ip := range ips {
		c, err := f.dialer.DialContext(ctx, network, net.JoinHostPort(ip.String(), port))
		if err == nil {
			return c, nil
		}
		var be *BlockedError
		if errors.As(err, &be) {
			be.Host = host
			return nil, be
		}
		errs = append(errs, err)
	}
	return nil, errors.Join(errs...)
}

func (f *fetcher) fetch(ctx context.Context, raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", fmt.Errorf("fetch %q: not a valid URL: %w", raw, err)
	}
	if err := f.checkURL(u); err != nil {
		return "", fmt.Errorf("fetch %s: %w", u.Redacted(), err)
	}
	ctx, cancel := context.WithTimeout(ctx, f.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", fmt.Errorf("fetch %s: %w", u, err)
	}
	req.Header.Set("User-Agent", f.opts.UserAgent)
	req.Header.Set("Accept", "text/html,text/plain,text/*;q=0.9,application/json;q=0.8,*/*;q=0.1")
	resp, err := f.client.Do(req)
	if err != nil {
		return "", fmt.Errorf("fetch %s: %w", u, f.explain(err, u))
	}
	defer resp.Body.Close()
	out, err := f.render(resp)
	if err != nil {
		return "", fmt.Errorf("fetch %s: %w", u, f.explain(err, u))
	}
	return out, nil
}

// explain turns transport errors into their cause: a *url.Error repeats the
// method and URL, which only matters when it is a redirect's; and a timeout
// deserves to say which limit was hit.
func (f *fetcher) explain(err error, asked *url.URL) error {
	if errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
		return fmt.Errorf("timed out after %s", f.opts.Timeout)
	}
	var ue *url.Error
	if !errors.As(err, &ue) {
		return err
	}
	if ue.URL != asked.String() && !strings.HasPrefix(ue.Err.Error(), "redirected to ") {
		if u, perr := url.Parse(ue.URL); perr == nil {
			return fmt.Errorf("redirected to %s: %w", u.Redacted(), ue.Err)
		}
	}
	return ue.Err
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// render reads the body within MaxBytes and turns it into text for the
// model, headed by the final URL, the status and the content type.
func (f *fetcher) render(resp *http.Response) (string, error) {
	ctype := resp.Header.Get("Content-Type")
	media, _, _ := mime.ParseMediaType(ctype)
	if media != "" && !textual(media) {
		return "", fmt.Errorf("the page is %s, not text; only text and HTML pages can be read", media)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, f.opts.MaxBytes+1))
	if err != nil {
		return "", fmt.Errorf("reading the body: %w", err)
	}
	cut := int64(len(body)) > f.opts.MaxBytes
	if cut {
		body = body[:f.opts.MaxBytes]
	}
	if media == "" {
		media, _, _ = mime.ParseMediaType(http.DetectContentType(body))
		if !textual(media) {
			return "", fmt.Errorf("the page looks like %s, not text; only text and HTML pages can be read", media)
		}
	}
	if strings.IndexByte(string(body[:min(len(body), 8<<10)]), 0) >= 0 {
		return "", errors.New("the page is binary, not text; only text and HTML pages can be read")
	}
	text := strings.ToValidUTF8(string(body), "\uFFFD")
	if media == "text/html" || media == "application/xhtml+xml" {
		text = htmlToText(text)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "URL: %s\nStatus: %s\nContent-Type: %s\n\n", resp.Request.URL.Redacted(), resp.Status, media)
	limit := f.opts.MaxText - b.Len() - 200 // room for the notes
	shown := cutText(text, max(limit, 0))
	b.WriteString(shown)
	if !strings.HasSuffix(shown, "\n") {
		b.WriteByte('\n')
	}
	if cut {
		fmt.Fprintf(&b, "[page cut: only the first %s were read]\n", sizeText(f.opts.MaxBytes))
	}
	if len(shown) < len(text) {
		fmt.Fprintf(&b, "[text truncated: %d of %d bytes shown]\n", len(shown), len(text))
	}
	return b.String(), nil
}

// textual reports media types whose body a model can read as text.
func textual(media string) bool {
	switch {
	case strings.HasPrefix(media, "text/"),
		strings.HasSuffix(media, "+json"), strings.HasSuffix(media, "+xml"):
		return true
	}
	switch media {
	case "application/json", "application/xml", "application/xhtml+xml", "application/javascript",
		"application/x-javascript", "application/ecmascript", "application/yaml", "application/x-yaml",
		"application/toml", "application/x-sh", "application/sql", "application/graphql":
		return true
	}
	return false
}
