package execution

import (
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
)

func privateScope(ignore []string, private ...string) review.Scope {
	s := review.DefaultSettings()
	s.IgnorePaths, s.PrivatePaths = ignore, private
	return review.NewScope(s, review.Generated{})
}

// The lines a body may never quote are the private files' own, long
// enough to be theirs, once each; a file renamed out of a private folder
// is still private.
func TestPrivateLines(t *testing.T) {
	t.Parallel()
	files := []snapshot.ChangedFile{
		{Path: "src/a.go", Patch: "@@ -0,0 +1 @@\n+func NotPrivateAtAll() {}"},
		{Path: "fixtures/rows.csv", Patch: "@@ -1,3 +1,3 @@\n id,name,card\n-7,acme-corp,4111-1111-1111-1111\n+7,acme-corp,4222-2222-2222-2222\n+}\n+7,acme-corp,4222-2222-2222-2222"},
		{Path: "src/moved.csv", PreviousPath: "fixtures/old.csv", Patch: "@@ -1 +1 @@\n-jane.doe@example.com,secret-plan\n+jane.doe@example.com,secret-plan2"},
	}
	got := strings.Join(PrivateLines(privateScope(nil, "fixtures/**"), files), "|")
	want := "7,acme-corp,4111-1111-1111-1111|7,acme-corp,4222-2222-2222-2222|jane.doe@example.com,secret-plan|jane.doe@example.com,secret-plan2"
	if got != want {
		t.Errorf("PrivateLines = %q\nwant %q", got, want)
	}
}

// Every body the bot posts has the private lines redacted, in its prose
// and in its blocks.
func TestComposeRedactsPrivateLines(t *testing.T) {
	t.Parallel()
	rig := newTestExecutor(&recorder{}, &testLog{})
	rig.Withheld = []string{"7,acme-corp,4111-1111-1111-1111"}
	body := rig.poster().compose("The fixture holds `7,acme-corp,4111-1111-1111-1111`.", rmcoc.QuestionAnswer{ReplyToCommentID: 1, AnsweredAt: fixedNow.UTC()})
	if strings.Contains(body, "4111") || !strings.Contains(body, "The fixture holds `[REDACTED]`.") {
		t.Errorf("body:\n%s", body)
	}
}

// The walkthrough's prompt goes through the scope, and holds no diff: a
// private file is not named, an excluded one is named with why, the rest
// with the line the review wrote.
func TestWalkthroughDataScope(t *testing.T) {
	t.Parallel()
	files := []snapshot.ChangedFile{
		{Path: "limiter/bucket.go", Status: "added", Additions: 1, Patch: "@@ -0,0 +1 @@\n+package limiter // DIFF"},
		{Path: "vendor/x/x.go", Status: "added", Additions: 1, Patch: "@@ -0,0 +1 @@\n+package x // IGNORED"},
		{Path: "package-lock.json", Status: "modified", Additions: 1, Deletions: 1, Patch: "@@ -1 +1 @@\n-{\"a\": 1} // LOCK\n+{\"a\": 2} // LOCK"},
		{Path: "fixtures/rows.csv", Status: "added", Additions: 1, Patch: "@@ -0,0 +1 @@\n+acme-corp,4111 // PRIVATE"},
		{Path: "huge/private.sql", Status: "modified", Additions: 90000},
	}
	x := &walkthroughRunner{scope: privateScope([]string{"vendor/**"}, "fixtures/**", "huge/**"),
		read: map[string]string{"limiter/bucket.go": "a bucket IN-SCOPE", "fixtures/rows.csv": "a line a model should not have written"}}
	d := walkthroughData(x.entries(files), false)
	listed := strings.Join(d.Files, "\n")
	for _, not := range []string{"DIFF", "IGNORED", "LOCK", "PRIVATE", "fixtures/rows.csv", "huge/private.sql", "should not"} {
		if strings.Contains(listed, not) {
			t.Errorf("the prompt's data has %q:\n%s", not, listed)
		}
	}
	for _, want := range []string{"limiter/bucket.go (added, +1 -0): a bucket IN-SCOPE", "vendor/x/x.go (added, +1 -0; not reviewed: matches ignore_paths", "package-lock.json (modified, +1 -1; not reviewed: lock file)"} {
		if !strings.Contains(listed, want) {
			t.Errorf("the prompt's data lacks %q:\n%s", want, listed)
		}
	}
}
