package inbox

import (
	"context"
	"errors"
	"fmt"
	"github.com/review-my-code-bot/rmc/internal/atomicfile"
	"io/fs"
	"os"
	"path/filepath"
)

// MaxDraftBytes caps a saved draft, as the page caps a submission.
const MaxDraftBytes = 1 << 20

// Drafts are the comments a person has written on an open review but not
// submitted yet. The page saves them as they are written, so a reload, a
// closed tab or a crashed browser loses nothing: the store, not the page,
// holds them. A draft is opaque to the store (the page's own JSON), kept
// beside the review's diff as <id>.draft.json and replaced whole on each
// save; it goes when the review is no longer open.

func (s *Store) draftPath(id string) string { return filepath.Join(s.diffDir, id+".draft.json") }

// SaveDraft replaces the draft of the open review id.
func (s *Store) SaveDraft(ctx context.Context, id string, data []byte) error {
	if len(data) > MaxDraftBytes {
		return fail("save draft", id, ErrInvalidInput, fmt.Sprintf("the draft is larger than %d bytes", MaxDraftBytes))
	}
	return s.locked(ctx, func(snap *Snapshot) error {
		r, ok := snap.Get(id)
		if !ok || r.kind() != KindReview || !validLocalID(id) {
			return fail("save draft", id, ErrNotFound, "no such review in "+s.path)
		}
		if r.Status != StatusOpen {
			return fail("save draft", id, ErrInvalidState, "the review is "+string(r.Status)+": it takes no more comments")
		}
		if err := os.MkdirAll(s.diffDir, 0o700); err != nil {
			return fmt.Errorf("create the diff directory %s: %w", s.diffDir, err)
		}
		if err := atomicfile.Write(s.draftPath(id), data); err != nil {
			return fmt.Errorf("save the draft of review %s: %w", id, err)
		}
		return nil
	})
}

// Draft returns the saved draft of review id, or nil when there is none.
func (s *Store) Draft(ctx context.Context, id string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !validLocalID(id) {
		return nil, fail("read draft", id, ErrNotFound, "no such review")
	}
	b, err := os.ReadFile(s.draftPath(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the draft of review %s: %w", id, err)
	}
	return b, nil
}

// dropDraft removes a draft that is no longer needed; failure only leaves
// a file that compaction removes.
func (s *Store) dropDraft(id string) {
	if validLocalID(id) {
		os.Remove(s.draftPath(id))
	}
}
