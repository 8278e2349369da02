// Package github is the action's only door to GitHub: REST through go-github,
// GraphQL through githubv4, both over one HTTP client that authenticates,
// counts requests and retries what GitHub says may be retried. Everything it
// returns is a domain type (package snapshot, event); no go-github type leaks.
package github

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	gogithub "github.com/google/go-github/v62/github"
	"github.com/shurcooL/githubv4"
	"golang.org/x/oauth2"
	"golang.org/x/time/rate"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// Options configure a Client. The URLs default to github.com's.
type Options struct {
	Token      string
	APIURL     string // GITHUB_API_URL, e.g. https://api.github.com
	GraphQLURL string // GITHUB_GRAPHQL_URL, e.g. https://api.github.com/graphql
	UserAgent  string
	// Transport is the base round tripper (tests inject faults here); nil
	// means http.DefaultTransport.
	Transport http.RoundTripper
	Retry     RetryPolicy
	Timeout   time.Duration // per request; default 2 minutes
	// WriteInterval is the least time between writes after a burst of
	// WriteBurst (defaults 1s and 5); negative disables pacing.
	WriteInterval time.Duration
	WriteBurst    int
	// Warn receives one line per retry or rate-limit wait, for the log.
	Warn func(msg string)
}

// RunnerOptions are the Options a runner's variables set: GITHUB_API_URL
// and GITHUB_GRAPHQL_URL (GitHub Enterprise Server), and RMC_WRITE_INTERVAL,
// which overrides the pacing of writes ("0s" turns it off, e.g. on a server
// without secondary rate limits).
func RunnerOptions(token string, getenv func(string) string, warn func(string)) (Options, error) {
	opts := Options{Token: token, APIURL: getenv("GITHUB_API_URL"), GraphQLURL: getenv("GITHUB_GRAPHQL_URL"), Warn: warn}
	if v := getenv("RMC_WRITE_INTERVAL"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return opts, fmt.Errorf("RMC_WRITE_INTERVAL %q is not a duration (e.g. 1s, 0s)", v)
		}
		opts.WriteInterval = d
		if d == 0 {
			opts.WriteInterval = -1
		}
	}
	return opts, nil
}

// Client talks to one GitHub instance with one token.
type Client struct {
	rest   *gogithub.Client
	gql    *githubv4.Client
	counts *counter
	retry  RetryPolicy
}

type counter struct{ reads, writes, retries, cost atomic.Int64 }

// New builds a Client.
func New(opts Options) (*Client, error) {
	if opts.Token == "" {
		return nil, errors.New("github: no token (set the github_token input or GITHUB_TOKEN)")
	}
	api := strings.TrimSuffix(firstNonEmpty(opts.APIURL, "https://api.github.com"), "/") + "/"
	gqlURL := firstNonEmpty(opts.GraphQLURL, graphQLURL(api))
	base, err := url.Parse(api)
	if err != nil || (base.Scheme != "https" && base.Scheme != "http") {
		return nil, fmt.Errorf("github: API URL %q is not an http(s) URL", opts.APIURL)
	}
	counts := &counter{}
	transport := opts.Transport
	if transport == nil {
		transport = http.DefaultTransport
	}
	policy := opts.Retry.withDefaults()
	rt := &retryTransport{next: transport, policy: policy, counts: counts, warn: opts.Warn, timeout: firstDuration(opts.Timeout, 2*time.Minute)}
	if opts.WriteInterval >= 0 {
		burst := opts.WriteBurst
		if burst <= 0 {
			burst = 5
		}
		rt.writes = rate.NewLimiter(rate.Every(firstDuration(opts.WriteInterval, time.Second)), burst)
	}
	hc := &http.Client{Transport: &oauth2.Transport{
		Source: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: opts.Token}),
		Base:   rt,
	}}

	rest := gogithub.NewClient(hc)
	rest.BaseURL = base
	rest.UploadURL = base
	rest.UserAgent = firstNonEmpty(opts.UserAgent, "review-my-code-bot")
	gqlClient := &http.Client{Transport: gqlRefusals{next: hc.Transport}}
	return &Client{rest: rest, gql: githubv4.NewEnterpriseClient(gqlURL, gqlClient), counts: counts, retry: policy}, nil
}

// graphQLURL derives the GraphQL endpoint from the REST base (which ends in
// "/") when GITHUB_GRAPHQL_URL is unset: GitHub.com and GHE.com serve it
// beside REST at /graphql, GitHub Enterprise Server serves REST under /api/v3
// and GraphQL at /api/graphql.
func graphQLURL(api string) string {
	if prefix, ok := strings.CutSuffix(api, "/api/v3/"); ok {
		return prefix + "/api/graphql"
	}
	return api + "graphql"
}

// Counts returns the requests sent so far.
func (c *Client) Counts() snapshot.Counts {
	return snapshot.Counts{Reads: c.counts.reads.Load(), Writes: c.counts.writes.Load(), Retries: c.counts.retries.Load(), GraphQLCost: c.counts.cost.Load()}
}

func firstDuration(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// APIError is a GitHub error answer, reduced to what callers decide on.
type APIError struct {
	Op      string // what we were doing, e.g. "create review on o/r#1"
	Status  int
	Message string   // GitHub's "message"
	Errors  []string // GitHub's "errors" messages
	// Scope is the workflow permission the call needs, named when GitHub
	// refuses it for lack of one.
	Scope string
}

// The workflow permissions calls need.
const (
	scopeRead     = "contents: read, pull-requests: read"
	scopeIssues   = "issues: write"
	scopePulls    = "pull-requests: write"
	scopeStatuses = "statuses: write"
)

func (e *APIError) Error() string {
	msg := e.Message
	if len(e.Errors) > 0 {
		msg += ": " + strings.Join(e.Errors, "; ")
	}
	if p := e.Permission(); p != "" {
		msg += fmt.Sprintf(" (the token lacks a permission: give the job `permissions: %s`; on a pull request from a fork, GITHUB_TOKEN is read-only under pull_request — see the action's docs/setup.md, on public repositories)", p)
	}
	return fmt.Sprintf("%s: GitHub answered %d %s", e.Op, e.Status, msg)
}

// Permission names the workflow permission a refused call needs, when GitHub
// refused it for lack of one.
func (e *APIError) Permission() string {
	if e.Status != 403 || !e.has("not accessible by integration") {
		return ""
	}
	return e.Scope
}

// Is maps GitHub's answers onto the domain's errors (snapshot.Err*), so that
// no other package reads GitHub's English.
func (e *APIError) Is(target error) bool {
	switch target {
	case snapshot.ErrRefused:
		return true
	case snapshot.ErrOwnPullRequest:
		return e.has("own pull request")
	case snapshot.ErrAnchorRejected:
		return e.has("part of the diff") || e.has("could not be resolved")
	case snapshot.ErrPermission:
		return e.Permission() != ""
	case snapshot.ErrBadCredentials:
		return e.Status == 401
	case snapshot.ErrNotFound:
		return e.Status == 404
	}
	return false
}

// has reports whether GitHub's error list contains text (case-insensitive).
func (e *APIError) has(text string) bool {
	for _, s := range append([]string{e.Message}, e.Errors...) {
		if strings.Contains(strings.ToLower(s), strings.ToLower(text)) {
			return true
		}
	}
	return false
}

// wrap turns a go-github error into an *APIError with context: what the
// call did, and the permission it needs.
func wrap(scope, op string, err error) error {
	if err == nil {
		return nil
	}
	var ger *gogithub.ErrorResponse
	if errors.As(err, &ger) && ger.Response != nil {
		ae := &APIError{Op: op, Status: ger.Response.StatusCode, Message: ger.Message, Scope: scope}
		for _, e := range ger.Errors {
			ae.Errors = append(ae.Errors, firstNonEmpty(e.Message, e.Code))
		}
		return ae
	}
	var rle *gogithub.RateLimitError
	if errors.As(err, &rle) {
		return &APIError{Op: op, Status: rle.Response.StatusCode, Message: rle.Message, Scope: scope}
	}
	var are *gogithub.AbuseRateLimitError
	if errors.As(err, &are) {
		return &APIError{Op: op, Status: are.Response.StatusCode, Message: are.Message, Scope: scope}
	}
	return fmt.Errorf("%s: %w", op, err)
}

// IsStatus reports whether err is a GitHub answer with the given status.
func IsStatus(err error, status int) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.Status == status
}
