package fakegithub

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// RequestIDPlaceholder in a Fault body is replaced by the response's
// X-GitHub-Request-Id, the way GitHub quotes it in secondary-limit messages.
const RequestIDPlaceholder = "{request_id}"

// Fault makes matching requests fail or stall. Method, Path, PathRegexp and
// Operation narrow which requests match; empty ones match everything.
//
// Status 0 with a Delay is a slow but successful answer. ApplyThenFail runs
// the request normally and then answers Status (502 when unset) instead of
// the real response: a write whose response was lost. A Delay is always
// served in full even when the client gave up, and the request is then
// applied — as on GitHub, a timed-out write may still have happened.
type Fault struct {
	Method        string
	Path          string // URL path prefix
	PathRegexp    *regexp.Regexp
	Operation     string // GraphQL operation name, or its first field
	Times         int    // how many requests to affect; <= 0 means all of them
	Status        int
	Body          string
	Header        http.Header
	Delay         time.Duration
	ApplyThenFail bool
}

type faultState struct {
	f    Fault
	left int // -1: unlimited
}

// For narrows f to one method and path prefix.
func (f Fault) For(method, pathPrefix string) Fault {
	f.Method, f.Path = method, pathPrefix
	return f
}

// Once makes f affect only the next matching request.
func (f Fault) Once() Fault {
	f.Times = 1
	return f
}

// Inject adds a fault. Faults are tried in the order injected; the first
// one that matches and has uses left answers the request.
func (s *Server) Inject(f Fault) {
	if f.ApplyThenFail && f.Status == 0 {
		bg := BadGateway()
		f.Status, f.Body = bg.Status, bg.Body
	}
	left := f.Times
	if left <= 0 {
		left = -1
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &faultState{f: f, left: left})
}

// ClearFaults removes every injected fault.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

// OnWrite installs a hook called before each write (non-GET REST request or
// GraphQL mutation) is applied, with n counting writes from 1. Returning
// false stops the world: the write is not applied and the connection is
// dropped, as if the process making it had been killed. Requests that a
// fault or the rate limit answered never reach the hook. nil removes it.
func (s *Server) OnWrite(hook func(n int) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onWrite = hook
}

// StopAfterWrites lets k writes through and drops every later one.
func (s *Server) StopAfterWrites(k int) { s.OnWrite(func(n int) bool { return n <= k }) }

// takeFault picks the fault answering c, spending one of its uses.
func (s *Server) takeFault(c *call) *Fault {
	for _, fs := range s.faults {
		if fs.left == 0 || !fs.f.matches(c) {
			continue
		}
		if fs.left > 0 {
			fs.left--
		}
		f := fs.f
		return &f
	}
	return nil
}

func (f Fault) matches(c *call) bool {
	if f.Method != "" && !strings.EqualFold(f.Method, c.r.Method) {
		return false
	}
	if f.Path != "" && !strings.HasPrefix(c.r.URL.Path, f.Path) {
		return false
	}
	if f.PathRegexp != nil && !f.PathRegexp.MatchString(c.r.URL.Path) {
		return false
	}
	if f.Operation != "" && (c.gql == nil || c.gql.operation != f.Operation) {
		return false
	}
	return true
}

func (f Fault) reply(reqID string) reply {
	h := http.Header{}
	for k, vs := range f.Header {
		h[k] = append([]string(nil), vs...)
	}
	body := strings.ReplaceAll(f.Body, RequestIDPlaceholder, reqID)
	ct := "text/plain; charset=utf-8"
	switch trimmed := strings.TrimSpace(body); {
	case strings.HasPrefix(trimmed, "{"), strings.HasPrefix(trimmed, "["):
		ct = "application/json; charset=utf-8"
	case strings.HasPrefix(trimmed, "<"):
		ct = "text/html; charset=utf-8"
	}
	return reply{status: f.Status, raw: []byte(body), contentType: ct, header: h}
}

// ServerError is GitHub's 500.
func ServerError() Fault {
	return Fault{Status: http.StatusInternalServerError, Body: `{"message":"Server Error","documentation_url":"https://docs.github.com/rest","status":"500"}`}
}

// BadGateway is the 502 GitHub's edge answers with an HTML page.
func BadGateway() Fault {
	return Fault{Status: http.StatusBadGateway, Body: unicornPage}
}

const unicornPage = `<!DOCTYPE html>
<html>
  <head>
    <meta http-equiv="Content-Type" content="text/html; charset=utf-8">
    <title>Unicorn! &middot; GitHub</title>
  </head>
  <body>
    <p><strong>No server is currently available to service your request.</strong></p>
    <p>Sorry about that. Please try refreshing and contact us if the problem persists.</p>
  </body>
</html>
`

// Timeout stalls matching requests for d and then serves them normally.
// With d longer than the client's timeout the client gives up while the
// request still lands.
func Timeout(d time.Duration) Fault { return Fault{Delay: d} }

// SecondaryRateLimit is GitHub's 403 for secondary (abuse) limits, with a
// Retry-After header in whole seconds.
func SecondaryRateLimit(retryAfter time.Duration) Fault {
	return Fault{
		Status: http.StatusForbidden,
		Header: http.Header{"Retry-After": {strconv.Itoa(int(retryAfter / time.Second))}},
		Body:   secondaryBody("403"),
	}
}

// TooManyRequests is the 429 GitHub also uses for secondary limits.
func TooManyRequests(retryAfter time.Duration) Fault {
	return Fault{
		Status: http.StatusTooManyRequests,
		Header: http.Header{"Retry-After": {strconv.Itoa(int(retryAfter / time.Second))}},
		Body:   secondaryBody("429"),
	}
}

func secondaryBody(status string) string {
	return `{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID ` +
		RequestIDPlaceholder + `.","documentation_url":"` + docSecondaryRateLimit + `","status":"` + status + `"}`
}

// LostResponse applies the request, then answers 502: the write happened
// but the client never hears so.
func LostResponse() Fault {
	f := BadGateway()
	f.ApplyThenFail = true
	return f
}

// LineNotInDiff is the 422 GitHub answers a review anchored outside the diff.
func LineNotInDiff() Fault { return unprocessableFault(msgLineNotInDiff) }

// PathNotResolved is the 422 for a review comment on a file not in the PR.
func PathNotResolved() Fault { return unprocessableFault(msgPathNotResolved) }

// OwnPullRequest is the 422 for requesting changes on one's own PR.
func OwnPullRequest() Fault { return unprocessableFault(msgOwnRequestChanges) }

func unprocessableFault(msg string) Fault {
	return Fault{
		Status: http.StatusUnprocessableEntity,
		Body:   `{"message":"Unprocessable Entity","errors":["` + msg + `"],"documentation_url":"` + docCreateReview + `","status":"422"}`,
	}
}

// BodyTooLong is the 422 for a body over 65,536 characters. resource is
// IssueComment, PullRequestReviewComment or PullRequestReview.
func BodyTooLong(resource string) Fault {
	doc := docCreateIssueComment
	if resource != "IssueComment" {
		doc = docCreateReview
	}
	return Fault{
		Status: http.StatusUnprocessableEntity,
		Body: `{"message":"Validation Failed","errors":[{"resource":"` + resource +
			`","code":"custom","field":"body","message":"body is too long (maximum is 65536 characters)"}],"documentation_url":"` +
			doc + `","status":"422"}`,
	}
}
