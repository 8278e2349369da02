// Package retryafter reads how long a server asks a client to wait before
// retrying: the one parser both the GitHub and the model clients use.
package retryafter

import (
	"net/http"
	"strconv"
	"time"
)

// Parse reads retry-after-ms (OpenAI's, milliseconds, fractions allowed),
// else Retry-After: seconds (fractions allowed) or an HTTP date, counted from
// now (a date in the past is no wait). ok is false when neither header holds
// a usable value.
func Parse(h http.Header, now time.Time) (d time.Duration, ok bool) {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms < 1e12 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 && s < 1e9 {
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
