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
// draft. The next start in the same repository goes on with that review,
// its id and draft kept, over the diff as it is now; only the page's
// "Discard review" throws a draft away.

// unsentDraft finds the newest open review that start made in root, of
// the same source (see sameSource), and that has a draft: its id and the draft, or "" when there is none.
func unsentDraft(ctx context.Context, store *inbox.Store, root string, of *inbox.Reviewed) (inbox.Record, []byte, error) {
	snap, err := store.Load(ctx)
	if err != nil {
		return inbox.Record{}, nil, err
	}
	var best inbox.Record
	var draft []byte
	for _, r := range snap.Records() {
		if r.Status != inbox.StatusOpen || r.Request == nil || r.Request.Origin != inbox.OriginStart || r.Request.Root != root ||
			!sameSource(r.Request.Reviewed, of) {
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

// resume renews the newest open review an earlier start in the repository
// left with a draft, for req and the changes as they are now, and returns
// its id; ok is false when there is none, or it could not be renewed (then
// a new review is made and the old one keeps its draft).
func resume(ctx context.Context, store *inbox.Store, changes Changes, req inbox.Request, out io.Writer) (id string, ok bool) {
	old, _, err := unsentDraft(ctx, store, changes.Root, req.Reviewed)
	if err != nil {
		fmt.Fprintf(out, "Could not look for an unsent draft: %v\n", err)
		return "", false
	}
	if old.ID == "" {
		return "", false
	}
	if _, err := store.Renew(ctx, old.ID, req, changes.Diff); err != nil {
		fmt.Fprintf(out, "Could not go on with review %s, which holds unsent comments: %v\n", old.ID, err)
		return "", false
	}
	fmt.Fprintf(out, "Your unsent comments from %s (review %s) are back on the page.\n", old.CreatedAt.Local().Format(time.DateTime), old.ID)
	return old.ID, true
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

// sameSource reports whether two reviews are of the same changes, as the
// person named them: the same source and the same refs (a commit, a
// range, a base branch). A review recorded before sources were kept is of
// the uncommitted changes.
func sameSource(a, b *inbox.Reviewed) bool {
	key := func(r *inbox.Reviewed) string {
		if r == nil {
			return string(inbox.DiffUncommitted)
		}
		k := string(r.Source)
		for _, ref := range []*inbox.Ref{r.From, r.To} {
			if ref != nil && r.Source != inbox.DiffUncommitted && r.Source != inbox.DiffStaged {
				k += "|" + ref.Name
			}
		}
		return k
	}
	return key(a) == key(b)
}
