package e2e

import (
	"strconv"
	"strings"
	"testing"
)

// max_run_tokens: the review stops before the request that would pass the
// ceiling and posts what it found as a partial review, which still gates.
func TestMaxRunTokensPostsAPartialReview(t *testing.T) {
	t.Parallel()
	setup := func() *world {
		w := newWorld(t)
		w.push("1111111111111111111111111111111111111111", patchV1)
		w.scriptReview(true, bug(5, "Unsynchronized map write", 9))
		return w
	}
	// The same review without a ceiling tells what pass 1 costs.
	calib := setup()
	if r := calib.run(calib.prEvent("opened")); r.code != 1 {
		t.Fatalf("calibration: exit %d\n%s", r.code, r.log)
	}
	var pass1 int
	for _, req := range calib.llm.Requests() {
		if strings.Contains(req.LastUser(), "# Task: review pass 1 of 3") {
			pass1 = req.Usage.PromptTokens + req.Usage.CompletionTokens
		}
	}
	// The three passes and the walkthrough.
	if pass1 == 0 || len(calib.llm.Requests()) != 4 {
		t.Fatalf("calibration: pass 1 cost %d, %d requests", pass1, len(calib.llm.Requests()))
	}

	w := setup()
	w.inputs["max_run_tokens"] = strconv.Itoa(pass1 + 50)
	r := w.run(w.prEvent("opened"))
	if r.code != 1 || r.outputs["blocking_issues"] != "1" || w.gate() != "failure" {
		t.Fatalf("a partial automatic review gates on what it found: exit %d, outputs %v, gate %q\n%s", r.code, r.outputs, w.gate(), r.log)
	}
	if n := len(w.llm.Requests()); n != 1 {
		t.Errorf("%d model requests, want 1 (pass 1 only: the walkthrough stops at the ceiling too)", n)
	}
	rv := w.reviews()
	if len(rv) != 1 || !strings.Contains(rv[0].Body, "Partial review") || !strings.Contains(rv[0].Body, "stopped before pass 2 (structure), part 1 of 1") ||
		!strings.Contains(rv[0].Body, "Not reviewed by every pass: `limiter/bucket.go`") || !strings.Contains(rv[0].Body, "The merge gate stays pending until the next run reviews them") ||
		!strings.Contains(rv[0].Body, "0 file(s) reviewed by each of 3 passes, 1 not reviewed yet") {
		t.Errorf("review body:\n%+v", rv)
	}
	if len(findingThreads(w)) != 1 {
		t.Errorf("the finding of pass 1 was not posted")
	}
	if !strings.Contains(r.summary, "⚠️ walkthrough not written: the run reached max_run_tokens") {
		t.Errorf("the summary does not say the walkthrough stopped at the ceiling:\n%s", r.summary)
	}
	if !strings.Contains(r.summary, "Partial review: the run reached max_run_tokens") || !strings.Contains(r.summary, "| `max_run_tokens` | "+strconv.Itoa(pass1+50)+" | input |") {
		t.Errorf("summary:\n%s", r.summary)
	}
}

// A review the ceiling cut short is never clean: with nothing blocking in
// what it read, review_status is partial, and the log does not call it a
// full review.
func TestPartialReviewIsNotClean(t *testing.T) {
	t.Parallel()
	for name, findings := range map[string][]finding{
		"nothing found":          nil,
		"nothing blocking found": {bug(5, "Map grows without bound", 6)},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			setup := func() *world {
				w := newWorld(t)
				w.push("1111111111111111111111111111111111111111", patchV1)
				w.inputs["blocking_score_threshold"] = "8"
				w.scriptReview(true, findings...)
				return w
			}
			calib := setup()
			calib.run(calib.prEvent("opened"))
			var pass1 int
			for _, req := range calib.llm.Requests() {
				if strings.Contains(req.LastUser(), "# Task: review pass 1 of 3") {
					pass1 = req.Usage.PromptTokens + req.Usage.CompletionTokens
				}
			}
			w := setup()
			w.inputs["max_run_tokens"] = strconv.Itoa(pass1 + 50) // pass 1, not pass 2
			r := w.run(w.prEvent("opened"))
			if r.outputs["review_status"] != "partial" || r.outputs["issues_found"] != strconv.Itoa(len(findings)) || r.code != 1 || w.gate() != "pending" {
				t.Fatalf("exit %d, outputs %v, gate %q\n%s", r.code, r.outputs, w.gate(), r.log)
			}
			if !strings.Contains(r.summary, "posted partial review") || strings.Contains(r.summary, "(full review)") {
				t.Errorf("summary:\n%s", r.summary)
			}
		})
	}
}
