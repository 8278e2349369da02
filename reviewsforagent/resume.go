package reviewsforagent

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/review-my-code-bot/rmc/inbox"
)

// A person's unsent comments outlive the start command: stopping it (Ctrl+C),
// a crash or a closed tab leaves the review open in the store with its
// draft. The next start in the same repository takes the draft over into
// its own review and withdraws the old one; only the page's "Discard
// review" throws a draft away.

// unsentDraft finds the newest open review that start made in root and
// that has a draft: its id and the draft, or "" when there is none.
func unsentDraft(ctx context.Context, store *inbox.Store, root string) (inbox.Record, []byte, error) {
	snap, err := store.Load(ctx)
	if err != nil {
		return inbox.Record{}, nil, err
	}
	var best inbox.Record
	var draft []byte
	for _, r := range snap.Records() {
		if r.Status != inbox.StatusOpen || r.Request == nil || r.Request.Origin != inbox.OriginStart || r.Request.Root != root {
			continue
		}
		if !best.CreatedAt.IsZero() && !r.CreatedAt.After(best.CreatedAt) {
			continue
		}
		d, err := store.Draft(ctx, r.ID)
		if err != nil {
			return inbox.Record{}, nil, err
		}
		if !draftEmpty(d) {
			best, draft = r, d
		}
	}
	return best, draft, nil
}

// adoptDraft moves the unsent draft of an earlier start in root, if any,
// to the review id, and withdraws the earlier review. It reports what it
// did on out; a failure loses nothing (the old review keeps its draft).
func adoptDraft(ctx context.Context, store *inbox.Store, root, id string, out io.Writer) {
	old, draft, err := unsentDraft(ctx, store, root)
	if err != nil {
		fmt.Fprintf(out, "Could not look for an unsent draft: %v\n", err)
		return
	}
	if old.ID == "" || old.ID == id {
		return
	}
	if err := store.SaveDraft(ctx, id, draft); err != nil {
		fmt.Fprintf(out, "Could not bring back the unsent draft of review %s: %v\n", old.ID, err)
		return
	}
	if _, err := store.Cancel(ctx, old.ID); err != nil {
		fmt.Fprintf(out, "The unsent draft of review %s is on the page; withdrawing that review failed: %v\n", old.ID, err)
		return
	}
	fmt.Fprintf(out, "Your unsent comments from %s (review %s) are back on the page.\n", old.CreatedAt.Local().Format(time.DateTime), old.ID)
}

// keepOrCancel ends the start command's review when the person stops it
// unsubmitted: withdrawn when there is nothing in it, kept open with its
// draft otherwise, for the next start here to bring back.
func keepOrCancel(store *inbox.Store, id string, out io.Writer) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rec, err := store.Get(ctx, id)
	if err != nil || rec.Status != inbox.StatusOpen {
		return
	}
	if d, err := store.Draft(ctx, id); err != nil || !draftEmpty(d) {
		fmt.Fprintf(out, "Your unsent comments are kept (review %s): run `reviews-for-agent start` in this repository again to go on with them.\n", id)
		return
	}
	if _, err := store.Cancel(ctx, id); err != nil {
		fmt.Fprintf(out, "Could not cancel review %s in the inbox: %v\n", id, err)
	}
}

// draftEmpty reports whether a saved draft holds nothing the person wrote.
func draftEmpty(b []byte) bool {
	var d draft
	if len(b) == 0 || json.Unmarshal(b, &d) != nil {
		return len(b) == 0
	}
	return (d.GlobalComment == nil || strings.TrimSpace(*d.GlobalComment) == "") && len(d.Comments) == 0 &&
		(d.Form == nil || strings.TrimSpace(d.Form.Body) == "")
}
