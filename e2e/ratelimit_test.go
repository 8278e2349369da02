package e2e

import (
	"net/http"
	"testing"

	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// A rate limit that outlasts the model client's own retries slows the
// review down and does not fail it, nor spend its retries: the review
// pauses, asks again, and finishes clean.
func TestRateLimitSlowsTheRun(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.scriptReview(false)
	w.scriptWalkthrough()
	w.inputs["max_review_retries"] = "0"
	// The first request and the client's three retries of it.
	w.llm.InjectNext(4, fakellm.Fault{Status: http.StatusTooManyRequests, RetryAfter: "0"})
	r := w.run(w.prEvent("opened"))
	if r.code != 0 || r.outputs["review_status"] != "clean" || w.gate() != "success" {
		t.Fatalf("exit %d, outputs %v, gate %q\n%s", r.code, r.outputs, w.gate(), r.log)
	}
	limited, answered := 0, 0
	for _, q := range w.llm.Requests() {
		switch q.Status {
		case http.StatusTooManyRequests:
			limited++
		case http.StatusOK:
			answered++
		}
	}
	if limited != 4 || answered != 4 {
		t.Errorf("%d requests rate limited, %d answered; want 4 and 4 (three passes and the walkthrough)", limited, answered)
	}
}
