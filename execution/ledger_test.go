package execution

import (
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/settings"
	"github.com/review-my-code-bot/rmc/snapshot"
)

func blobID(c byte) string { return strings.Repeat(string(c), 40) }

// A review records what it read by blob: the files every pass saw, and
// for the files GitHub sent no patch for, what their content is: binary
// (a NUL byte), or text no pass could read, whether GitHub counted changed
// lines (too large) or not (text under a binary file's name).
func TestReviewRecordsTheLedger(t *testing.T) {
	t.Parallel()
	const none = `{"findings":[]}`
	r, gh, _ := reviewRig(t, Options{Run: settings.Run{Review: thresholds(6, 8)}}, &fakeSession{answers: []string{none, none, none}})
	gh.files[0].Blob = blobID('a')
	gh.files = append(gh.files,
		snapshot.ChangedFile{Path: "logo.png", Status: "modified", Blob: blobID('b')},
		snapshot.ChangedFile{Path: "notes.png", Status: "modified", Blob: blobID('c')},
		snapshot.ChangedFile{Path: "dump.sql", Status: "modified", Additions: 90000, Blob: blobID('d')},
		snapshot.ChangedFile{Path: "gone.go", Status: "removed", Deletions: 3, Blob: ""})
	gh.contents = map[string]string{"logo.png": "PNG\x00\x01", "notes.png": "plain text now"}
	if o := runTask(r, "review-x", &detector.ReviewTask{Mode: rmcoc.ModeAuto, Gate: true, HeadSHA: headSHA}); o.Err != nil {
		t.Fatalf("outcome = %+v", o)
	}
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
	for blob, want := range map[string]gate.Mark{blobID('a'): gate.Reviewed, blobID('b'): gate.Binary, blobID('c'): gate.NoDiff, blobID('d'): gate.NoDiff} {
		if got := l.Of(blob); got != want {
			t.Errorf("blob %.7s: %v, want %v (run %+v)", blob, got, want, run)
		}
	}
	if l.Len() != 4 {
		t.Errorf("the ledger holds %d blobs, want 4", l.Len())
	}
}

// The gate reads the keys the review-run block packs: one length.
func TestLedgerKeyLengthsAgree(t *testing.T) {
	t.Parallel()
	if gate.KeyLen != rmcoc.BlobKeyLen {
		t.Errorf("gate keys %d hex digits, rmcoc packs %d", gate.KeyLen, rmcoc.BlobKeyLen)
	}
}
