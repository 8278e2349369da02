package retryafter_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/internal/retryafter"
)

func TestRetryAfterHeader(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := map[string]struct {
		header map[string]string
		want   time.Duration
		ok     bool
	}{
		"none":           {},
		"seconds":        {header: map[string]string{"Retry-After": "7"}, want: 7 * time.Second, ok: true},
		"fractional":     {header: map[string]string{"Retry-After": "1.5"}, want: 1500 * time.Millisecond, ok: true},
		"milliseconds":   {header: map[string]string{"retry-after-ms": "250"}, want: 250 * time.Millisecond, ok: true},
		"ms wins":        {header: map[string]string{"retry-after-ms": "250", "Retry-After": "9"}, want: 250 * time.Millisecond, ok: true},
		"HTTP date":      {header: map[string]string{"Retry-After": now.Add(90 * time.Second).Format(http.TimeFormat)}, want: 90 * time.Second, ok: true},
		"date in past":   {header: map[string]string{"Retry-After": now.Add(-time.Hour).Format(http.TimeFormat)}, want: 0, ok: true},
		"garbage":        {header: map[string]string{"Retry-After": "soon"}},
		"negative":       {header: map[string]string{"Retry-After": "-3"}},
		"bad ms, good s": {header: map[string]string{"retry-after-ms": "x", "Retry-After": "2"}, want: 2 * time.Second, ok: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := http.Header{}
			for k, v := range tc.header {
				h.Set(k, v)
			}
			got, ok := retryafter.Parse(h, now)
			if got != tc.want || ok != tc.ok {
				t.Errorf("Parse = %v, %v; want %v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}
