package reviewsforagent

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/inbox"
)

// recordedID is the review id a start printed.
func recordedID(t *testing.T, out string) string {
	t.Helper()
	m := regexp.MustCompile(`Recorded as review ([a-z2-7]+) in the inbox`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("start printed no review id:\n%s", out)
	}
	return m[1]
}

// The id start prints stays good across a restart: stopped with unsent
// comments and started again, it goes on with the same review, over the
// diff as it is now, and the agent told that id finds it open, at the new
// page, with the draft; nothing is withdrawn. Stopped with nothing written,
// the review is withdrawn and the next start makes a new one.
// It runs git and two servers, yet also under -short: the mutation list
// (L5) relies on it there.
func TestRestartKeepsTheReviewID(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := newRepo(t, map[string]string{"a.txt": "one\ntwo\nthree\n"})
	writeFile(t, dir, "a.txt", "one\n2\nthree\n")
	store, err := inbox.Open(filepath.Join(t.TempDir(), "reviews.jsonl"), inbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, out, stop := runStart(t, dir, store)
	id := recordedID(t, out.String())
	if err := store.SaveDraft(ctx, id, []byte(`{"globalComment":"Spell numbers out.","comments":[]}`)); err != nil {
		t.Fatal(err)
	}
	stop()

	writeFile(t, dir, "b.txt", "new\n") // the work went on meanwhile
	page2, out2, stop2 := runStart(t, dir, store)
	if got := recordedID(t, out2.String()); got != id {
		t.Fatalf("the second start recorded review %s, want the first's %s:\n%s", got, id, out2)
	}
	snap, err := store.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n := snap.Len(); n != 1 {
		t.Errorf("the store holds %d reviews, want 1", n)
	}
	svc := &inbox.Service{Store: store}
	d, err := svc.Get(ctx, id)
	if err != nil || d.Status != inbox.StatusOpen {
		t.Fatalf("inbox get %s = %+v, %v; want it open", id, d.Item, err)
	}
	if base := strings.SplitN(page2, "/review", 2)[0]; !strings.HasPrefix(d.URL, base+"/review/"+id) {
		t.Errorf("inbox get %s points at %q, want the second start's server %s", id, d.URL, base)
	}
	rec, err := store.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	unified, err := store.Diff(ctx, rec)
	if err != nil || !strings.Contains(unified, "b/b.txt") {
		t.Errorf("the renewed review's diff lacks the new file (%v):\n%s", err, unified)
	}
	if d, err := store.Draft(ctx, id); err != nil || !strings.Contains(string(d), "Spell numbers out.") {
		t.Errorf("draft after the restart = %s, %v", d, err)
	}
	if err := store.SaveDraft(ctx, id, []byte(`{"globalComment":"","comments":[]}`)); err != nil {
		t.Fatal(err)
	}
	stop2()
	if rec, err := store.Get(ctx, id); err != nil || rec.Status != inbox.StatusCancelled {
		t.Errorf("review %s stopped empty = %+v, %v; want cancelled", id, rec.Status, err)
	}
	_, out3, _ := runStart(t, dir, store)
	if got := recordedID(t, out3.String()); got == id {
		t.Errorf("a start after an empty review was withdrawn reused its id %s", id)
	}
}
