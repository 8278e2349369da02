package fakegithub

import (
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// bucket is one primary rate-limit budget ("core" for REST, "graphql").
type bucket struct {
	limit     int
	remaining int
	used      int
	reset     time.Time
}

// defaultLimits mirrors an installation's budget: 5000 an hour per resource.
func defaultLimits(now time.Time) map[string]*bucket {
	reset := now.Add(time.Hour)
	return map[string]*bucket{
		"core":    {limit: 5000, remaining: 5000, reset: reset},
		"graphql": {limit: 5000, remaining: 5000, reset: reset},
	}
}

func (b bucket) setHeaders(h http.Header, resource string) {
	h.Set("X-RateLimit-Limit", strconv.Itoa(b.limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(b.remaining))
	h.Set("X-RateLimit-Used", strconv.Itoa(b.used))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(b.reset.Unix(), 10))
	h.Set("X-RateLimit-Resource", resource)
}

// SetRateLimit sets a primary budget. resource is "core" (REST) or
// "graphql". Each later request spends one unit; at zero the server answers
// as GitHub does when the budget is gone.
func (s *Server) SetRateLimit(resource string, limit, remaining int, reset time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.limits[resource]
	if !ok {
		panic(fmt.Sprintf("fakegithub: unknown rate-limit resource %q (want core or graphql)", resource))
	}
	*b = bucket{limit: limit, remaining: remaining, used: max(limit-remaining, 0), reset: reset}
}

// RateLimitRemaining reports what is left of a budget.
func (s *Server) RateLimitRemaining(resource string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b, ok := s.limits[resource]; ok {
		return b.remaining
	}
	return 0
}

type rateJSON struct {
	Limit     int   `json:"limit"`
	Used      int   `json:"used"`
	Remaining int   `json:"remaining"`
	Reset     int64 `json:"reset"`
}

func (b bucket) json() rateJSON {
	return rateJSON{Limit: b.limit, Used: b.used, Remaining: b.remaining, Reset: b.reset.Unix()}
}

// getRateLimit serves GET /rate_limit, which GitHub does not charge for.
func (s *Server) getRateLimit(c *call) reply {
	core, gql := s.limits["core"].json(), s.limits["graphql"].json()
	return jsonReply(http.StatusOK, map[string]any{
		"resources": map[string]rateJSON{"core": core, "graphql": gql},
		"rate":      core,
	})
}
