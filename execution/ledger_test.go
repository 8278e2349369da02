package execution

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/settings"
	"github.com/review-my-code-bot/rmc/snapshot"
)

func blobID(c byte) string { return strings.Repeat(string(c), 40) }

// A review records what it read by blob: the files every pass saw, and
// for the files GitHub sent no patch for, what their content is: binary
// (a NUL byte) needs no review; text is read from the repository on both
// sides and reviewed from the patch built here, whether GitHub counted
// changed lines (too large) or not (text under a binary file's name); a
// file that cannot be read stays named, no diff.
func TestReviewRecordsTheLedger(t *testing.T) {
	t.Parallel()
	const none = `{"findings":[]}`
	sess := &fakeSession{answers: []string{none, none, none}}
	r, gh, _ := reviewRig(t, Options{Run: settings.Run{Review: thresholds(6, 8)}}, sess)
	gh.files[0].Blob = blobID('a')
	gh.files = append(gh.files,
		snapshot.ChangedFile{Path: "logo.png", Status: "modified", Blob: blobID('b')},
		snapshot.ChangedFile{Path: "notes.png", Status: "modified", Blob: blobID('c')},
		snapshot.ChangedFile{Path: "dump.sql", Status: "modified", Additions: 90000, Blob: blobID('d')},
		snapshot.ChangedFile{Path: "big.go", Status: "modified", Additions: 1, Deletions: 1, Blob: blobID('e')},
		snapshot.ChangedFile{Path: "gone.go", Status: "removed", Deletions: 3, Blob: ""})
	gh.contents = map[string]string{"logo.png": "PNG\x00\x01", "notes.png": "plain text now\n", "big.go": "package big\n\nconst limit = 20 // BIGMARK\n"}
	gh.baseContents = map[string]string{"notes.png": "PNG\x00\x02", "big.go": "package big\n\nconst limit = 10\n"}
	if o := runTask(r, "review-x", &detector.ReviewTask{Mode: rmcoc.ModeAuto, Gate: true, HeadSHA: headSHA}); o.Err != nil {
		t.Fatalf("outcome = %+v", o)
	}
	l := ledgerPosted(t, gh)
	for blob, want := range map[string]gate.Mark{blobID('a'): gate.Reviewed, blobID('b'): gate.Binary, blobID('c'): gate.Reviewed,
		blobID('d'): gate.NoDiff, blobID('e'): gate.Reviewed} {
		if got := l.Of(blob); got != want {
			t.Errorf("blob %.7s: %v, want %v", blob, got, want)
		}
	}
	if l.Len() != 5 {
		t.Errorf("the ledger holds %d blobs, want 5", l.Len())
	}
	// The scope holds the built patches: big.go's changed line against
	// its merge-base line, notes.png whole as new text.
	sc, err := r.scope(context.Background(), &detector.ReviewTask{Mode: rmcoc.ModeAuto, Gate: true, HeadSHA: headSHA})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range sc.review {
		for _, h := range f.Hunks {
			for _, ln := range h.Lines {
				got[f.Path()] += fmt.Sprintf("%v %q\n", ln.Kind, ln.Text)
			}
		}
	}
	if !strings.Contains(got["big.go"], `"const limit = 10"`) || !strings.Contains(got["big.go"], `"const limit = 20 // BIGMARK"`) ||
		!strings.Contains(got["notes.png"], `"plain text now"`) || got["dump.sql"] != "" {
		t.Errorf("the scope's built patches: %q", got)
	}
}

// A file the base's configuration leaves out by its path is never read,
// and its blob is not recorded: the gate excludes the path itself, and the
// same content under a path the base does not exclude (a rename out of
// gen/) is owed a review.
func TestReviewRecordsNoBlobExcludedByPath(t *testing.T) {
	t.Parallel()
	const none = `{"findings":[]}`
	set := thresholds(6, 8)
	set.IgnorePaths = []string{"gen/**"}
	r, gh, _ := reviewRig(t, Options{Run: settings.Run{Review: set}}, &fakeSession{answers: []string{none, none, none}})
	r.sendable = review.NewScope(set, review.Generated{})
	gh.files[0].Blob = blobID('a')
	gh.files = append(gh.files,
		snapshot.ChangedFile{Path: "gen/api.go", Status: "added", Additions: 1, Patch: "@@ -0,0 +1,1 @@\n+package gen", Blob: blobID('f')})
	if o := runTask(r, "review-x", &detector.ReviewTask{Mode: rmcoc.ModeAuto, Gate: true, HeadSHA: headSHA}); o.Err != nil {
		t.Fatalf("outcome = %+v", o)
	}
	l := ledgerPosted(t, gh)
	for blob, want := range map[string]gate.Mark{blobID('a'): gate.Reviewed, blobID('f'): 0} {
		if got := l.Of(blob); got != want {
			t.Errorf("blob %.7s: %v, want %v", blob, got, want)
		}
	}
}

// A blocking problem in a file GitHub sent no patch for cannot sit in a
// thread (GitHub takes no comment on a file it sends no diff for), so it
// could not hold the gate: the file is not recorded as covered, but as one
// no review could read, and the gate stays pending naming it.
func TestBlockingFindingOnABuiltPatchKeepsItOwed(t *testing.T) {
	t.Parallel()
	const none = `{"findings":[]}`
	bug := `{"findings":[{"path":"big.go","line":3,"side":"right","start_line":0,"title":"Limit doubled","explanation":"Callers overflow.","score":9,"category":"bug","suggestion":""}]}`
	r, gh, _ := reviewRig(t, Options{Run: settings.Run{Review: thresholds(6, 8)}}, &fakeSession{answers: []string{bug, none, none}})
	gh.files[0].Blob = blobID('a')
	gh.files = append(gh.files, snapshot.ChangedFile{Path: "big.go", Status: "modified", Additions: 1, Deletions: 1, Blob: blobID('e')})
	gh.contents = map[string]string{"big.go": "package big\n\nconst limit = 20\n"}
	gh.baseContents = map[string]string{"big.go": "package big\n\nconst limit = 10\n"}
	if o := runTask(r, "review-x", &detector.ReviewTask{Mode: rmcoc.ModeAuto, Gate: true, HeadSHA: headSHA}); o.Err != nil || o.Findings != 1 {
		t.Fatalf("outcome = %+v", o)
	}
	l := ledgerPosted(t, gh)
	if got := l.Of(blobID('e')); got != gate.NoDiff {
		t.Errorf("big.go: %v, want no diff (owed)", got)
	}
	if got := l.Of(blobID('a')); got != gate.Reviewed {
		t.Errorf("src/cache.go: %v, want reviewed", got)
	}
	for op, body := range gh.bodies {
		if strings.HasPrefix(op, "create-review") && !strings.Contains(body, "keeps that file unreviewed, and the gate pending") {
			t.Errorf("the review body does not say the finding keeps the file unreviewed:\n%s", body)
		}
	}
}

// ledgerPosted is the ledger of the review-run block the review posted.
func ledgerPosted(t *testing.T, gh *reviewFake) gate.Ledger {
	t.Helper()
	var run rmcoc.ReviewRun
	for op, body := range gh.bodies {
		if strings.HasPrefix(op, "create-review") {
			for _, b := range rmcoc.ParseTrusted(body).Blocks {
				if rr, ok := b.(rmcoc.ReviewRun); ok {
					run = rr
				}
			}
		}
	}
	var l gate.Ledger
	l.Record(gate.Reviewed, rmcoc.UnpackBlobs(run.Blobs)...)
	l.Record(gate.Binary, rmcoc.UnpackBlobs(run.BinaryBlobs)...)
	l.Record(gate.NoDiff, rmcoc.UnpackBlobs(run.NoDiffBlobs)...)
	return l
}

// The gate reads the keys the review-run block packs: one length.
func TestLedgerKeyLengthsAgree(t *testing.T) {
	t.Parallel()
	if gate.KeyLen != rmcoc.BlobKeyLen {
		t.Errorf("gate keys %d hex digits, rmcoc packs %d", gate.KeyLen, rmcoc.BlobKeyLen)
	}
}

// GitHub's list of a PR's files stops at 3,000: a review reads the head's
// change set for the rest (their paths and blob ids, from the trees) and
// reviews them from the repository like any file GitHub sent no patch
// for; a change set that cannot be read adds nothing, and they stay owed.
func TestFilesPastTheListAreReviewed(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		set    gate.ChangeSet
		listed int // the files GitHub's list holds; the PR counts one more
		want   bool
	}{
		"the trees read":                 {gate.ChangeSet{}, 3000, true},
		"the trees cannot be read":       {gate.ChangeSet{Unknown: "GitHub truncated the tree"}, 3000, false},
		"a list short of the PR's count": {gate.ChangeSet{}, 40, true},
		"a short list, trees not read":   {gate.ChangeSet{Unknown: "GitHub truncated the tree"}, 40, false},
	} {
		r, gh, _ := reviewRig(t, Options{Run: settings.Run{Review: thresholds(6, 8)}}, &fakeSession{})
		gh.files = nil
		r.pr.ChangedFiles = tc.listed + 1
		set := tc.set
		past := fmt.Sprintf("pkg/f%04d.go", tc.listed)
		for i := range tc.listed + 1 {
			p, b := fmt.Sprintf("pkg/f%04d.go", i), fmt.Sprintf("%040x", i+1)
			if i < tc.listed {
				gh.files = append(gh.files, snapshot.ChangedFile{Path: p, Status: "added", Additions: 1, Patch: "@@ -0,0 +1 @@\n+package pkg", Blob: b})
			}
			if set.Unknown == "" {
				set.Changes = append(set.Changes, gate.Change{Path: p, Blob: b, Kind: gate.KindBlob})
			}
		}
		gh.contents = map[string]string{past: "package pkg // PAST\n"}
		r.changes = func(context.Context) gate.ChangeSet { return set }
		sc, err := r.scope(context.Background(), &detector.ReviewTask{Mode: rmcoc.ModeAuto, Gate: true, HeadSHA: headSHA})
		if err != nil {
			t.Fatal(err)
		}
		got := sc.built[past] && sc.blobs[past] == fmt.Sprintf("%040x", tc.listed+1)
		if got != tc.want || len(sc.review) != tc.listed+map[bool]int{true: 1}[tc.want] {
			t.Errorf("%s: the file past the list reviewed: %v (scope of %d files), want %v", name, got, len(sc.review), tc.want)
		}
	}
}
