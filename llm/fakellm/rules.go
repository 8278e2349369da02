package fakellm

import (
	"regexp"
	"strings"
	"time"
)

// Rule answers the requests it matches. Every condition that is set must
// hold; a rule with no condition matches every request. Rules are tried in
// the order they were added; the first match that has uses left answers.
type Rule struct {
	Name string // shown in the "no rule matched" error, for debugging

	LastUser       string         // substring of the last user message
	LastUserRegexp *regexp.Regexp // matched against the last user message
	Any            string         // substring of any message or tool-call arguments
	// ToolResult is a substring of a tool result sent after the last user
	// message, that is, a result of the current task's tool calls.
	ToolResult string
	LastRole   string             // role of the last message, e.g. "user" or "tool"
	Match      func(Request) bool // arbitrary predicate

	Times int // answer at most this many requests; 0 means no limit

	Reply   Reply
	Respond func(Request) Reply // computes the reply; overrides Reply
}

// Reply is what the model "says".
type Reply struct {
	Text      string
	JSON      any // marshalled as the message content; overrides Text
	ToolCalls []ToolCall
	Refusal   string
	// Error answers with this error instead of a completion.
	Error *APIError
}

// APIError is an error answer in OpenAI's shape.
type APIError struct {
	Status  int    // HTTP status; 400 when zero
	Message string // error.message
	Type    string // error.type; derived from the status when empty
	Code    string // error.code; null when empty
}

// Fault is a failure injected ahead of the rules.
type Fault struct {
	// Delay holds the answer back for this long, or until the client gives
	// up. With no Status and no Body the request is then answered normally.
	Delay time.Duration
	// Status answers with an OpenAI-shaped error of this HTTP status.
	Status       int
	Message      string // error.message; a default per status when empty
	RetryAfter   string // Retry-After header value, e.g. "1"
	RetryAfterMS string // retry-after-ms header value, e.g. "150"
	// Header holds more response headers, e.g. a provider's
	// x-ratelimit-reset-tokens.
	Header map[string]string
	// Body answers 200 with this raw body instead of a completion, to test
	// how a client copes with nonsense.
	Body string
	// StreamGap, for a streamed answer, pauses this long before each event
	// after the first; StreamStall stops sending after the first event and
	// holds the connection until the client gives up.
	StreamGap   time.Duration
	StreamStall bool
}

type ruleState struct {
	rule Rule
	hits int
}

type faultState struct {
	fault Fault
	left  int
}

func (r *Rule) matches(req Request) bool {
	last := req.LastUser()
	if r.LastUser != "" && !strings.Contains(last, r.LastUser) {
		return false
	}
	if r.LastUserRegexp != nil && !r.LastUserRegexp.MatchString(last) {
		return false
	}
	if r.Any != "" && !req.Contains(r.Any) {
		return false
	}
	if r.ToolResult != "" {
		found := false
		for _, m := range req.ToolResults() {
			if strings.Contains(m.Content, r.ToolResult) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	if r.LastRole != "" && req.LastRole() != r.LastRole {
		return false
	}
	if r.Match != nil && !r.Match(req) {
		return false
	}
	return true
}

func errorType(status int) string {
	switch {
	case status == 401:
		return "invalid_request_error"
	case status == 429:
		return "requests"
	case status >= 500:
		return "server_error"
	default:
		return "invalid_request_error"
	}
}

func defaultMessage(status int) string {
	switch status {
	case 429:
		return "Rate limit reached for requests. Please try again later."
	case 500:
		return "The server had an error while processing your request. Sorry about that!"
	case 502:
		return "Bad gateway."
	case 503:
		return "The engine is currently overloaded, please try again later."
	default:
		return "fakellm injected failure"
	}
}
