package execution

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/rmcoc"
)

// A verified fix records the lines its push wrote in the finding's file,
// from the diff the incremental review read, and where the finding's own
// suggestion was committed; a finding the same review raises on them is
// labelled and its block names the fixed finding. Without that diff
// nothing is recorded and nothing labelled.
func TestVerifiedFixRecordsItsLines(t *testing.T) {
	t.Parallel()
	const suggestion = "\tc.mu.Lock(); c.m[k] = v; c.mu.Unlock()"
	push := "@@ -41,3 +41,4 @@\n func put() {\n-\tc.m[k] = v\n+" + suggestion + "\n+\treturn\n }"
	parse := func(path, patch string) diff.File {
		d, err := diff.ParsePatch(path, patch)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for name, tc := range map[string]struct {
		since          []diff.File
		suggested      string
		lines, own     string
		label42, label string // the labels of findings on lines 42 and 43
	}{
		"its suggestion, committed": {since: []diff.File{parse("src/cache.go", push)}, suggested: suggestion,
			lines: "[{42 43}]", own: "{42 42}", label42: "f1 own", label: "f1"},
		"a fix of its own": {since: []diff.File{parse("src/cache.go", push)}, suggested: "\tc.put(k, v)",
			lines: "[{42 43}]", own: "{0 0}", label42: "f1", label: "f1"},
		"no suggestion": {since: []diff.File{parse("src/cache.go", push)},
			lines: "[{42 43}]", own: "{0 0}", label42: "f1", label: "f1"},
		"a push that did not touch its file": {since: []diff.File{parse("src/db.go", push)},
			lines: "[]", own: "{0 0}"},
		"a full review: no diff of the push": {lines: "[]", own: "{0 0}"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := blockingFinding(prevSHA, nil)
			f.Thread.IsOutdated = true
			f.Thread.Comments[0].Body = FindingText{Title: "Map written without the lock", Category: "bug", Score: 9, Blocking: true, Explanation: "Racy.", Suggestion: tc.suggested}.Render()
			gh := &recorder{}
			r, _ := trustRig(gh, &fakeSession{answers: []string{saysFixed}}, f)
			x := newReviewRunner(r)
			sc := scope{from: prevSHA, since: tc.since, review: []diff.File{parse("src/cache.go", push)}}
			x.fixes.verifyFixes(context.Background(), "review-auto-1234567", sc)
			var fixes []rmcoc.DisputeResolution
			for _, c := range gh.calls {
				if c.Op == "reply" {
					fixes = append(fixes, rmcoc.All[rmcoc.DisputeResolution](c.Body)...)
				}
			}
			if len(fixes) != 1 || fixes[0].Resolution != rmcoc.ResolutionFixed {
				t.Fatalf("fix blocks %+v", fixes)
			}
			if fmt.Sprint(fixes[0].FixLines) != tc.lines || fmt.Sprint(fixes[0].FixSuggestion) != tc.own {
				t.Errorf("the fix records lines %v and suggestion %v, want %s and %s", fixes[0].FixLines, fixes[0].FixSuggestion, tc.lines, tc.own)
			}
			head := r.Snap.PR.HeadSHA
			for line, want := range map[int]string{41: "", 42: tc.label42, 43: tc.label, 44: ""} {
				rf := review.Finding{Path: "src/cache.go", Line: line, Side: diff.Right, Title: "Lock held across return", Category: "bug", Score: 7, Fingerprint: "c0ffee0123456789", Inline: true}
				b := x.findingBlock(rf, head)
				got := strings.TrimSpace(b.OnFix + map[bool]string{true: " own"}[b.OnSuggestion])
				if got != want {
					t.Errorf("a finding on line %d names %q, want %q", line, got, want)
				}
				if body := x.findingBody(rf, head); strings.Contains(body, "🔁") != (want != "") {
					t.Errorf("a finding on line %d is labelled %t:\n%s", line, want != "", body)
				}
				// The old side's line numbers are another file's.
				rf.Side = diff.Left
				if b := x.findingBlock(rf, head); b.OnFix != "" {
					t.Errorf("a finding on the old side's line %d names %q", line, b.OnFix)
				}
			}
		})
	}
}
