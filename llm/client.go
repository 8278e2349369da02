// Package llm talks to any OpenAI-compatible Chat Completions endpoint
// (OpenRouter by default; OpenAI, Azure OpenAI, Gemini, DeepSeek, LiteLLM,
// vLLM, llama.cpp, Ollama through Options.BaseURL) and runs the
// tool-calling loop.
//
// Providers differ in what they need back and how they fail, and the
// client follows each one's documentation: an assistant message goes back
// in the turn as the provider sent it, unknown fields included (thought
// signatures, reasoning); errors are read from every documented body shape
// and sorted by meaning (a moderation 403 is not a bad key, an error inside
// a 200 is retried when its code is transient, finish_reason "error" is a
// failed attempt); a server that refuses tools is asked again without them;
// Anthropic-family models get cache_control breakpoints on the stable
// prefix; and no request is sent over Options.ContextTokens.
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
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults for zero Options fields.
const (
	DefaultBaseURL        = "https://openrouter.ai/api/v1"
	DefaultRequestTimeout = 3 * time.Minute
	defaultMaxRetries     = 3
	defaultRetryBaseDelay = time.Second
	defaultMaxRetryDelay  = time.Minute
	// defaultRateLimitBudget is the run's wait for rate limits when
	// Options.RateLimitBudget is zero.
	defaultRateLimitBudget = 15 * time.Minute
	defaultMaxToolRounds   = 25
	defaultMaxToolOutput   = 20000
	// DefaultContextTokens is the window assumed when Options.ContextTokens
	// is zero: what current hosted models offer at least.
	DefaultContextTokens = 128000
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

	// RequestTimeout bounds one attempt (the model_timeout input); the
	// caller's context bounds the whole call, retries included.
	RequestTimeout time.Duration
	// MaxRetries is how many times a failed attempt (429, 5xx, network
	// error, timeout) is retried. Zero means defaultMaxRetries; negative
	// means no retries.
	MaxRetries int
	// RetryBaseDelay is the first backoff; it doubles on each retry.
	RetryBaseDelay time.Duration
	// MaxRetryDelay caps the exponential backoff between retries.
	MaxRetryDelay time.Duration
	// RateLimitBudget is how long the client may wait on rate limits in
	// all, over every call of the run (zero: defaultRateLimitBudget;
	// negative: no such budget). A pause the endpoint asks for
	// (Retry-After, retry-after-ms, OpenAI's and Groq's x-ratelimit-reset-*,
	// Anthropic's anthropic-ratelimit-*-reset, Gemini's RetryInfo) is
	// waited out while the budget, MaxRetryWait and the caller's deadline
	// allow; past any, the call fails at once with ErrRateLimited.
	// Usage.RateLimitWait says how long each call waited.
	RateLimitBudget time.Duration
	// MaxRetryWait is the longest one pause the endpoint asks for that is
	// waited out; zero means no limit but RateLimitBudget and the deadline.
	MaxRetryWait time.Duration

	// Provider names the provider family whose differences the client
	// follows (see ProviderNames); "" detects it from BaseURL.
	Provider string
	// Stream sends requests with stream: true and reads the answer as
	// server-sent events; nil streams where the provider documents it.
	// A model that only answers a streamed request always streams. While
	// streaming, RequestTimeout bounds the silence between two events,
	// not the whole answer.
	Stream *bool

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

	// ReasoningEffort is sent as reasoning_effort (OpenAI, Gemini, DeepSeek,
	// OpenRouter and vLLM read it: "minimal", "low", "medium", "high", or
	// what the provider documents); "" sends none.
	ReasoningEffort string
	// MaxOutputTokens caps each answer, sent as max_completion_tokens; 0
	// sends none, so the provider's default applies.
	MaxOutputTokens int
	// Temperature is sent as temperature when set (a judge runs at 0); nil
	// sends none, so the model's default applies.
	Temperature *float64
	// ContextTokens is the model's context window in tokens; zero means
	// DefaultContextTokens. No request estimated over it (at 3 characters a
	// token, leaving room for the answer) is sent: see Client.ContextTokens.
	ContextTokens int
	// ExtraBody members are added to every request body: a provider's own
	// knobs, e.g. OpenRouter's "provider" routing, vLLM's
	// "chat_template_kwargs", Ollama's "options". Each value is JSON. A
	// member the client sets itself (model, messages, tools, ...) is refused.
	ExtraBody map[string]json.RawMessage
	// ExtraHeaders are sent with every request, e.g. a gateway's own
	// authentication. The headers the client sets itself are refused.
	ExtraHeaders map[string]string

	// Warn, when set, receives each notice once as it happens: the endpoint
	// refused tools and the session went on without them; the endpoint
	// counted fewer prompt tokens than were sent (it truncates prompts).
	// Client.Warnings lists them too.
	Warn func(string)
}

// Client is a configured endpoint. It is safe for concurrent use.
type Client struct {
	http      *http.Client
	prov      *provider
	endpoint  string      // {BaseURL}/chat/completions, in the provider's form
	header    http.Header // sent with every request: auth, attribution, ExtraHeaders
	opts      Options
	extraBody map[string]json.RawMessage // compacted ExtraBody
	// breakpoints: the model caches only at cache_control breakpoints.
	breakpoints bool
	// promptJSON latches once an endpoint rejects response_format, so
	// later sessions do not pay for the rejected request again.
	promptJSON atomic.Bool
	// noTools latches once the endpoint refuses tool definitions.
	noTools atomic.Bool
	// stream: requests are streamed; it latches on once the endpoint
	// answers that it only serves streamed requests.
	stream atomic.Bool
	// window is the context window in tokens; it only goes down, when the
	// endpoint is found to cut prompts to a smaller one.
	window atomic.Int64
	// waited is the time spent waiting on rate limits, for the budget.
	waited atomic.Int64
	// cutChecked latches once a request was large enough to tell whether
	// the endpoint cuts prompts (see Session.account).
	cutChecked atomic.Bool

	warnMu   sync.Mutex
	warned   map[warning]bool
	warnings []string
}

// warning is a kind of notice the client gives once.
type warning int

const (
	warnNoTools warning = iota
	warnTruncated
)

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

	prov, err := providerNamed(opts.Provider, base)
	if err != nil {
		return nil, fmt.Errorf("llm: invalid options: %w", err) // withDefaults checked it already
	}
	c := &Client{
		http:        &hc,
		prov:        prov,
		endpoint:    prov.chatURL(base),
		header:      requestHeader(opts, prov),
		opts:        opts,
		extraBody:   compactBody(opts.ExtraBody),
		breakpoints: cachesAtBreakpoints(opts.Model),
	}
	c.window.Store(int64(opts.ContextTokens))
	c.stream.Store(prov.streams(opts.Model, opts.Stream))
	c.promptJSON.Store(opts.PromptJSON)
	return c, nil
}

// requestHeader is the header of every request.
func requestHeader(opts Options, prov *provider) http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json")
	// Local servers run without a key; an empty bearer token would only
	// make some of them answer 401.
	if opts.APIKey != "" {
		prov.setKey(h, opts.APIKey)
	}
	if opts.Referer != "" {
		h.Set("HTTP-Referer", opts.Referer)
	}
	if opts.Title != "" {
		h.Set("X-Title", opts.Title)
	}
	for k, v := range opts.ExtraHeaders {
		h.Set(k, v)
	}
	return h
}

// ContextTokens is the model's context window the client keeps every
// request under: Options.ContextTokens (or DefaultContextTokens), lowered
// for the rest of the run when the endpoint is found to cut prompts.
func (c *Client) ContextTokens() int { return int(c.window.Load()) }

// estimateTokens is the client's conservative token estimate of a text of
// so many bytes: one token per 3 bytes, rounded up. Real tokenizers average
// about 4 bytes a token on code and English, so text sized by this
// estimate fits.
func estimateTokens(bytes int) int { return (bytes + 2) / 3 }

// Warnings are the notices the client gave so far (see Options.Warn), in
// order, each once.
func (c *Client) Warnings() []string {
	c.warnMu.Lock()
	defer c.warnMu.Unlock()
	return append([]string(nil), c.warnings...)
}

// warn records msg, the first time a notice of its kind is given, and
// passes it to Options.Warn.
func (c *Client) warn(kind warning, msg string) {
	c.warnMu.Lock()
	if c.warned[kind] {
		c.warnMu.Unlock()
		return
	}
	if c.warned == nil {
		c.warned = map[warning]bool{}
	}
	c.warned[kind] = true
	c.warnings = append(c.warnings, msg)
	c.warnMu.Unlock()
	if c.opts.Warn != nil {
		c.opts.Warn(msg)
	}
}

// cachesAtBreakpoints reports an Anthropic-family model, which caches a
// prompt prefix only where a cache_control breakpoint marks it: "claude-…"
// directly, "anthropic/claude-…" on OpenRouter, and LiteLLM's routes such as
// "anthropic/…", "bedrock/anthropic.claude-…" or "vertex_ai/claude-…".
// Other providers cache by themselves and get no breakpoints.
func cachesAtBreakpoints(model string) bool {
	m := strings.ToLower(strings.TrimSpace(model))
	if strings.HasPrefix(m, "anthropic/") || strings.HasPrefix(m, "anthropic.") {
		return true
	}
	for _, seg := range strings.Split(m, "/") {
		seg = strings.TrimPrefix(seg, "anthropic.")
		if strings.HasPrefix(seg, "claude") {
			return true
		}
	}
	return false
}

// Model is the model the client asks.
func (c *Client) Model() string { return c.opts.Model }

// withDefaults checks o and fills in a default for each limit left at zero.
// Every problem is reported at once, on one line.
func withDefaults(o Options) (Options, error) {
	if o.BaseURL == "" {
		o.BaseURL = DefaultBaseURL
	}
	var errs []error
	if err := checkBaseURL(o.BaseURL, o.Provider); err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, CheckExtras(o)...)
	errs = append(errs, checkFields(o)...)
	errs = append(errs, checkNotNegative(o)...)
	if len(errs) > 0 {
		// One line, because it ends up in an Actions log.
		msgs := make([]string, len(errs))
		for i, e := range errs {
			msgs[i] = e.Error()
		}
		return o, fmt.Errorf("llm: invalid options: %s", strings.Join(msgs, "; "))
	}
	o = fillDefaults(o)
	if o.MaxOutputTokens >= o.ContextTokens {
		return o, fmt.Errorf("llm: invalid options: MaxOutputTokens %d leaves no room for a prompt in the %d-token window (ContextTokens)", o.MaxOutputTokens, o.ContextTokens)
	}
	return o, nil
}

// checkBaseURL refuses a base URL that is not an absolute http(s) URL, that
// carries credentials, or that its provider does not serve (an Azure URL
// of neither documented form), and an unknown provider name.
func checkBaseURL(raw, providerName string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return fmt.Errorf("BaseURL %q is not a URL: %w", raw, err)
	case u.Scheme != "http" && u.Scheme != "https", u.Host == "":
		return fmt.Errorf("BaseURL %q must be an absolute http(s) URL such as %s", raw, DefaultBaseURL)
	case u.User != nil:
		// Credentials in the URL would end up in transport errors.
		return fmt.Errorf("BaseURL must not carry credentials; pass the key as APIKey")
	}
	p, err := providerNamed(providerName, u)
	if err != nil {
		return err
	}
	return p.check(u)
}

// checkFields checks the text options: the reasoning effort, the key, the
// model, and the headers that go out with every request.
func checkFields(o Options) []error {
	var errs []error
	if o.ReasoningEffort != "" && !effortPattern.MatchString(o.ReasoningEffort) {
		errs = append(errs, fmt.Errorf("ReasoningEffort %q is not a word such as low, medium or high", o.ReasoningEffort))
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
		errs = append(errs, errors.New("neither Referer nor Title may contain a line break"))
	}
	return errs
}

// checkNotNegative refuses a negative duration or limit (zero means the
// default).
func checkNotNegative(o Options) []error {
	var errs []error
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"RequestTimeout", o.RequestTimeout}, {"RetryBaseDelay", o.RetryBaseDelay}, {"MaxRetryDelay", o.MaxRetryDelay}, {"MaxRetryWait", o.MaxRetryWait}} {
		if d.v < 0 {
			errs = append(errs, fmt.Errorf("%s %v is negative", d.name, d.v))
		}
	}
	for _, n := range []struct {
		name string
		v    int
	}{{"MaxToolRounds", o.MaxToolRounds}, {"MaxToolOutput", o.MaxToolOutput}, {"MaxOutputTokens", o.MaxOutputTokens}, {"ContextTokens", o.ContextTokens}} {
		if n.v < 0 {
			errs = append(errs, fmt.Errorf("%s %d is negative", n.name, n.v))
		}
	}
	return errs
}

// fillDefaults sets each limit left at zero to its default; a negative
// MaxRetries means no retries.
func fillDefaults(o Options) Options {
	o.RequestTimeout = orDefault(o.RequestTimeout, DefaultRequestTimeout)
	o.RetryBaseDelay = orDefault(o.RetryBaseDelay, defaultRetryBaseDelay)
	o.MaxRetryDelay = orDefault(o.MaxRetryDelay, defaultMaxRetryDelay)
	o.RateLimitBudget = orDefault(o.RateLimitBudget, defaultRateLimitBudget)
	o.MaxToolRounds = orDefault(o.MaxToolRounds, defaultMaxToolRounds)
	o.MaxToolOutput = orDefault(o.MaxToolOutput, defaultMaxToolOutput)
	o.ContextTokens = orDefault(o.ContextTokens, DefaultContextTokens)
	switch {
	case o.MaxRetries == 0:
		o.MaxRetries = defaultMaxRetries
	case o.MaxRetries < 0:
		o.MaxRetries = 0
	}
	return o
}

func orDefault[T int | time.Duration](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}
