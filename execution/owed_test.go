package execution

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/settings"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// An automatic review reads what the gate owes and no more: the plan's
// list when it read the head's change set, else the same rule over the
// files it reads (a file whose blob a review read, under any head, is
// covered). A full review asked for, and a manual one, read every file.
func TestAutomaticReviewReadsWhatIsOwed(t *testing.T) {
	t.Parallel()
	blob := func(i int) string { return fmt.Sprintf("%x%039x", i+1, 0) } // keys differ in their first digits
	for name, tc := range map[string]struct {
		rt     detector.ReviewTask
		ignore []string // ignore_paths
		want   []string
	}{
		"the plan's list": {rt: detector.ReviewTask{Mode: rmcoc.ModeAuto, Gate: true, HeadSHA: headSHA, OwedKnown: true,
			Owed: []gate.Change{{Path: "pkg/f2.go", Blob: blob(2), Kind: gate.KindBlob}}}, want: []string{"pkg/f2.go"}},
		"the rule over the files read": {rt: detector.ReviewTask{Mode: rmcoc.ModeAuto, Gate: true, HeadSHA: headSHA},
			want: []string{"pkg/f2.go", "pkg/f3.go"}},
		"a full review asked for": {rt: detector.ReviewTask{Mode: rmcoc.ModeAuto, Gate: true, HeadSHA: headSHA, Full: true},
			want: []string{"pkg/f0.go", "pkg/f1.go", "pkg/f2.go", "pkg/f3.go"}},
		// Nothing owed: an empty scope, never nil (the engine reads nil as
		// the whole diff).
		"nothing owed": {rt: detector.ReviewTask{Mode: rmcoc.ModeAuto, Gate: true, HeadSHA: headSHA, OwedKnown: true}, want: nil},
		// An excluded file stays in the scope, for the review to say why
		// it is left out (the plan's list, by the gate's rule, owes it
		// nothing).
		"a file the base excludes": {rt: detector.ReviewTask{Mode: rmcoc.ModeAuto, Gate: true, HeadSHA: headSHA, OwedKnown: true,
			Owed: []gate.Change{{Path: "pkg/f2.go", Blob: blob(2), Kind: gate.KindBlob}}}, ignore: []string{"pkg/f3.go"}, want: []string{"pkg/f2.go", "pkg/f3.go"}},
		"a manual review": {rt: detector.ReviewTask{Mode: rmcoc.ModeManual, HeadSHA: headSHA},
			want: []string{"pkg/f0.go", "pkg/f1.go", "pkg/f2.go", "pkg/f3.go"}},
	} {
		r, gh, _ := reviewRig(t, Options{Run: settings.Run{Review: thresholds(6, 8)}}, &fakeSession{})
		r.sendable = review.NewScope(review.Settings{IgnorePaths: tc.ignore}, review.Generated{})
		gh.files = nil
		for i := range 4 {
			gh.files = append(gh.files, snapshot.ChangedFile{Path: fmt.Sprintf("pkg/f%d.go", i), Status: "added", Additions: 1, Patch: "@@ -0,0 +1 @@\n+package pkg", Blob: blob(i)})
		}
		// f0 was read under another head, f1 before a revert.
		r.ledger.Record(gate.Reviewed, blob(0), blob(1))
		sc, err := r.scope(context.Background(), &tc.rt)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range sc.review {
			got = append(got, f.Path())
		}
		slices.Sort(got)
		if sc.review == nil {
			t.Errorf("%s: a nil scope, which the engine reads as the whole diff", name)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: the review reads %v, want %v (%s)", name, got, tc.want, sc.note)
		}
	}
}
