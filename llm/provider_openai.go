package llm

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// OpenAI's API (https://platform.openai.com/docs/api-reference/chat), the
// wire format every other family speaks with its own differences.
//
// Its wording of a prompt over the window is the generic one: the code
// context_length_exceeded and "This model's maximum context length is N
// tokens" (vLLM and Groq use the same message). Its rate-limit headers
// (https://platform.openai.com/docs/guides/rate-limits#rate-limits-in-headers)
// x-ratelimit-reset-requests and -tokens give the time until each limit
// resets in Go's duration format ("1s", "6m0s", "20ms"); Groq sends the same
// headers (https://console.groq.com/docs/rate-limits).

var openAIContextPhrases = []string{"context_length_exceeded", "maximum context length"}

func init() {
	register(&provider{
		name:           "openai",
		hosts:          []string{"api.openai.com"},
		stream:         true,
		adjust:         openAIAdjust,
		contextPhrases: openAIContextPhrases,
	})
}

// openAIAdjust drops temperature for a reasoning model, which refuses any
// value but the default.
func openAIAdjust(model string, body map[string]json.RawMessage) {
	if RefusesTemperature(model) {
		delete(body, "temperature")
	}
}

// RefusesTemperature reports an OpenAI reasoning model (o1, o3, o4-mini,
// the GPT-5 family but its -chat models), with or without a router's
// "openai/" prefix: it answers 400 to any temperature but its default
// (https://platform.openai.com/docs/guides/reasoning). bench's judge reads
// the same rule.
func RefusesTemperature(model string) bool {
	m := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(model)), "openai/")
	reasoning := strings.HasPrefix(m, "o1") || strings.HasPrefix(m, "o3") || strings.HasPrefix(m, "o4") ||
		strings.HasPrefix(m, "gpt-5")
	return reasoning && !strings.Contains(m, "-chat")
}

// openAIResetAfter reads x-ratelimit-reset-requests and -tokens: the reset
// of each limit that is used up (its x-ratelimit-remaining-* is 0), or of
// both when neither says so; the later one.
func openAIResetAfter(h http.Header, _ time.Time) (time.Duration, bool) {
	return laterReset(h, []string{"x-ratelimit-%s-requests", "x-ratelimit-%s-tokens"}, func(v string) (time.Duration, bool) {
		d, err := time.ParseDuration(strings.TrimSpace(v))
		return d, err == nil && d >= 0
	})
}

// laterReset is the later reset among the limits that are used up, or
// among all of them when none is known to be. Each limit's headers are a
// pattern whose %s is "reset" or "remaining".
func laterReset(h http.Header, limits []string, parse func(string) (time.Duration, bool)) (time.Duration, bool) {
	var spent, all time.Duration
	var anySpent, anyAll bool
	for _, k := range limits {
		v := h.Get(fmt.Sprintf(k, "reset"))
		if v == "" {
			continue
		}
		d, ok := parse(v)
		if !ok {
			continue
		}
		all, anyAll = max(all, d), true
		if strings.TrimSpace(h.Get(fmt.Sprintf(k, "remaining"))) == "0" {
			spent, anySpent = max(spent, d), true
		}
	}
	if anySpent {
		return spent, true
	}
	return all, anyAll
}
