// Package llm talks to any OpenAI-compatible Chat Completions endpoint
// (OpenRouter by default; OpenAI, vLLM, Ollama through Options.BaseURL) and
// runs the tool-calling loop.
//
// A run uses one Session: every request starts with the same prefix (the
// system prompt and the tool definitions), which the provider can serve
// from its prompt cache, followed by that task's own messages only; a
// Sub adds a block several tasks share (a review chunk) to the prefix.
//
// A structured answer is asked for with AskJSON[T]: the JSON Schema comes
// from the Go type T (see Schema for how a type states minimum, maximum or
// an enum), is checked once for strict structured output and cached, and
// the answer is validated against it (jsonschema-go) before it is decoded.
// Every call carries a Label: the plan task it works for and its step,
// which is how usage is attributed to tasks.
//
// Nothing here knows about GitHub.
package llm

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
)

// Defaults for zero Options fields.
const (
	DefaultBaseURL        = "https://openrouter.ai/api/v1"
	DefaultRequestTimeout = 3 * time.Minute
	DefaultMaxRetries     = 3
	DefaultRetryBaseDelay = time.Second
	DefaultMaxRetryDelay  = time.Minute
	DefaultMaxToolRounds  = 25
	DefaultMaxToolOutput  = 20000
)

// Options configure a Client. Zero values take the defaults above.
type Options struct {
	BaseURL string // endpoint root, e.g. "https://api.openai.com/v1"
	// APIKey is sent as a bearer token. Required for the default endpoint;
	// local servers (Ollama, vLLM) may not need one.
	APIKey string
	Model  string // required, e.g. "openai/gpt-4.1-mini" on OpenRouter

	// HTTPClient sends the requests; nil means a plain http.Client. The
	// client uses a copy whose redirects may not leave BaseURL's origin, so
	// the API key goes nowhere else.
	HTTPClient *http.Client

	// RequestTimeout bounds one attempt; the caller's context bounds the
	// whole call, retries included.
	RequestTimeout time.Duration
	// MaxRetries is how many times a failed attempt (429, 5xx, network
	// error, timeout) is retried. Zero means DefaultMaxRetries; negative
	// means no retries.
	MaxRetries int
	// RetryBaseDelay is the first backoff; it doubles on each retry.
	RetryBaseDelay time.Duration
	// MaxRetryDelay caps the backoff. A Retry-After asking for longer than
	// this fails the call at once with ErrRateLimited rather than holding
	// the run.
	MaxRetryDelay time.Duration

	MaxToolRounds int // tool-call rounds per Ask before answering is forced
	MaxToolOutput int // characters of one tool result kept; the rest is cut

	// PromptJSON makes AskJSON put the schema in the prompt instead of
	// sending response_format. Use it for endpoints without structured
	// outputs, or to keep one cached prefix across Ask and AskJSON tasks
	// (OpenAI caches the schema as part of the prefix, so a request with a
	// different schema misses the cache). The client also switches to it by
	// itself when an endpoint rejects response_format.
	PromptJSON bool

	// Referer and Title are sent as OpenRouter's HTTP-Referer and X-Title
	// headers, which attribute usage to the app.
	Referer string
	Title   string
}

// Client is a configured endpoint. It is safe for concurrent use.
type Client struct {
	http     *http.Client
	endpoint string      // {BaseURL}/chat/completions
	header   http.Header // sent with every request: auth, attribution
	opts     Options
	// promptJSON latches once an endpoint rejects response_format, so
	// later sessions do not pay for the rejected request again.
	promptJSON atomic.Bool
}

// New validates opts and returns a client.
func New(opts Options) (*Client, error) {
	opts, err := withDefaults(opts)
	if err != nil {
		return nil, err
	}
	base, err := url.Parse(opts.BaseURL)
	if err != nil {
		// withDefaults parsed it already; this only guards against drift.
		return nil, fmt.Errorf("llm: parse BaseURL %q: %w", opts.BaseURL, err)
	}
	// A copy, so the redirect guard does not change the caller's client.
	hc := http.Client{}
	if opts.HTTPClient != nil {
		hc = *opts.HTTPClient
	}
	hc.CheckRedirect = sameOriginRedirects(base, hc.CheckRedirect)

	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json")
	if opts.APIKey != "" {
		// Local servers run without a key; an empty bearer token would
		// only make some of them answer 401.
		h.Set("Authorization", "Bearer "+opts.APIKey)
	}
	if opts.Referer != "" {
		h.Set("HTTP-Referer", opts.Referer)
	}
	if opts.Title != "" {
		h.Set("X-Title", opts.Title)
	}
	c := &Client{
		http:     &hc,
		endpoint: base.JoinPath("chat", "completions").String(),
		header:   h,
		opts:     opts,
	}
	c.promptJSON.Store(opts.PromptJSON)
	return c, nil
}

// Model is the model the client asks.
func (c *Client) Model() string { return c.opts.Model }

func withDefaults(o Options) (Options, error) {
	var errs []error
	if o.BaseURL == "" {
		o.BaseURL = DefaultBaseURL
	}
	u, err := url.Parse(o.BaseURL)
	switch {
	case err != nil:
		errs = append(errs, fmt.Errorf("BaseURL %q is not a URL: %w", o.BaseURL, err))
	case u.Scheme != "http" && u.Scheme != "https", u.Host == "":
		errs = append(errs, fmt.Errorf("BaseURL %q must be an absolute http(s) URL such as %s", o.BaseURL, DefaultBaseURL))
	case u.User != nil || u.RawQuery != "":
		// Credentials in the URL would end up in transport errors.
		errs = append(errs, fmt.Errorf("BaseURL must not carry credentials or a query; pass the key as APIKey"))
	}
	if o.APIKey == "" && strings.TrimRight(o.BaseURL, "/") == DefaultBaseURL {
		errs = append(errs, errors.New("APIKey is required for "+DefaultBaseURL))
	}
	if strings.ContainsAny(o.APIKey, "\r\n") {
		errs = append(errs, errors.New("APIKey contains a line break"))
	}
	if strings.TrimSpace(o.Model) == "" {
		errs = append(errs, errors.New("Model is required"))
	}
	if strings.ContainsAny(o.Referer+o.Title, "\r\n") {
		errs = append(errs, errors.New("Referer and Title must not contain line breaks"))
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"RequestTimeout", o.RequestTimeout}, {"RetryBaseDelay", o.RetryBaseDelay}, {"MaxRetryDelay", o.MaxRetryDelay}} {
		if d.v < 0 {
			errs = append(errs, fmt.Errorf("%s %v is negative", d.name, d.v))
		}
	}
	for _, n := range []struct {
		name string
		v    int
	}{{"MaxToolRounds", o.MaxToolRounds}, {"MaxToolOutput", o.MaxToolOutput}} {
		if n.v < 0 {
			errs = append(errs, fmt.Errorf("%s %d is negative", n.name, n.v))
		}
	}
	if len(errs) > 0 {
		// One line, because it ends up in an Actions log.
		msgs := make([]string, len(errs))
		for i, e := range errs {
			msgs[i] = e.Error()
		}
		return o, fmt.Errorf("llm: invalid options: %s", strings.Join(msgs, "; "))
	}
	o.RequestTimeout = orDefault(o.RequestTimeout, DefaultRequestTimeout)
	o.RetryBaseDelay = orDefault(o.RetryBaseDelay, DefaultRetryBaseDelay)
	o.MaxRetryDelay = orDefault(o.MaxRetryDelay, DefaultMaxRetryDelay)
	o.MaxToolRounds = orDefault(o.MaxToolRounds, DefaultMaxToolRounds)
	o.MaxToolOutput = orDefault(o.MaxToolOutput, DefaultMaxToolOutput)
	switch {
	case o.MaxRetries == 0:
		o.MaxRetries = DefaultMaxRetries
	case o.MaxRetries < 0:
		o.MaxRetries = 0
	}
	return o, nil
}

func orDefault[T int | time.Duration](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}
