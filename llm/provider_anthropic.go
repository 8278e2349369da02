package llm

import (
	"net/http"
	"strings"
	"time"
)

// Anthropic's OpenAI SDK compatibility layer
// (https://docs.anthropic.com/en/api/openai-sdk), at
// https://api.anthropic.com/v1. A prompt over the window is "prompt is too
// long: N tokens > M maximum"; overload is a 529, retried as a 5xx. Its
// rate-limit headers (https://docs.anthropic.com/en/api/rate-limits#response-headers)
// anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-reset
// give when each limit is replenished, in RFC 3339.

func init() {
	register(&provider{
		name:           "anthropic",
		hosts:          []string{"api.anthropic.com"},
		stream:         true,
		contextPhrases: []string{"prompt is too long"},
		resetAfter:     anthropicResetAfter,
	})
}

// anthropicResetAfter reads anthropic-ratelimit-*-reset: the later reset
// of the limits used up (their -remaining is 0), or of all of them.
func anthropicResetAfter(h http.Header, now time.Time) (time.Duration, bool) {
	limits := []string{"anthropic-ratelimit-requests-%s", "anthropic-ratelimit-tokens-%s", "anthropic-ratelimit-input-tokens-%s", "anthropic-ratelimit-output-tokens-%s"}
	return laterReset(h, limits, func(v string) (time.Duration, bool) {
		t, err := time.Parse(time.RFC3339, strings.TrimSpace(v))
		if err != nil {
			return 0, false
		}
		return max(t.Sub(now), 0), true
	})
}
