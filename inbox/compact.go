package inbox

import (
	"bytes"
	"context"
	"fmt"
	"github.com/review-my-code-bot/rmc/internal/atomicfile"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// CompactResult reports what a compaction did.
type CompactResult struct {
	Kept    int `json:"kept"`    // records
	Dropped int `json:"dropped"` // records past retention
	// SetAside are malformed lines moved to the store's .malformed file.
	SetAside    int   `json:"setAside"`
	BytesBefore int64 `json:"bytesBefore"`
	BytesAfter  int64 `json:"bytesAfter"`
	// Diffs are the stored diffs kept; DiffsRemoved those of dropped
	// reviews, drafts no longer needed and leftovers of a crash.
	Diffs        int `json:"diffs"`
	DiffsRemoved int `json:"diffsRemoved"`
}

// Compact rewrites the store with one line per record, dropping resolved
// and cancelled reviews whose last change is older than the retention
// window, and removes their diffs. What it drops is noted in the
// tombstone file (see Expired), so that a later look-up says "expired"
// rather than "not found". Malformed lines are moved to
// path+".malformed" rather than lost. The new file replaces the old one
// atomically (a temporary file, synced, then renamed), under the lock.
func (s *Store) Compact(ctx context.Context) (CompactResult, error) {
	var res CompactResult
	unlock, err := lockFile(ctx, s.lockPath)
	if err != nil {
		return res, err
	}
	defer unlock()
	snap, err := s.Load(ctx)
	if err != nil {
		return res, err
	}
	return s.compactLocked(snap)
}

// expired reports whether retention drops r: a resolved or cancelled
// review past the retention window. An open review stays however old,
// opened or not: an agent that asked for it may still be waiting, and a
// person may still open it.
func (s *Store) expired(r Record, now time.Time) bool {
	if !r.Status.terminal() {
		return false
	}
	return now.Sub(lastChange(r)) > s.retention
}

// lastChange is when r last changed: its update, or its resolution when
// that is later.
func lastChange(r Record) time.Time {
	at := r.UpdatedAt
	if r.ResolvedAt != nil && r.ResolvedAt.After(at) {
		at = *r.ResolvedAt
	}
	return at
}

// worthCompacting reports whether a quarter or more of the store's lines
// would go, so that a large store of live records is not rewritten on
// every write.
func (s *Store) worthCompacting(snap *Snapshot) bool {
	now := s.clock()
	keep := 0
	for _, id := range snap.order {
		if !s.expired(snap.byID[id].rec, now) {
			keep++
		}
	}
	gone := snap.lines - keep + len(snap.Malformed)
	return gone*4 >= snap.lines+len(snap.Malformed) && gone > 0
}

func (s *Store) compactLocked(snap *Snapshot) (CompactResult, error) {
	res := CompactResult{BytesBefore: snap.size}
	now := s.clock()
	var out bytes.Buffer
	var gone []Tombstone
	live, open := map[string]bool{}, map[string]bool{}
	for _, id := range snap.order {
		e := snap.byID[id]
		if e.rec.Status == StatusOpen {
			open[id] = true
		}
		if s.expired(e.rec, now) {
			res.Dropped++
			gone = append(gone, Tombstone{ID: id, Status: e.rec.Status, LastChange: lastChange(e.rec), DroppedAt: now})
			continue
		}
		line, err := encodeWire(e.rec, e.sub)
		if err != nil {
			return res, err
		}
		out.Write(line)
		live[id] = true
		res.Kept++
	}
	if len(snap.Malformed) > 0 {
		if err := s.setAside(snap.Malformed, now); err != nil {
			return res, err
		}
		res.SetAside = len(snap.Malformed)
	}
	// The tombstones go first: a crash between the two leaves a
	// tombstone of a record still there, which Get never reads.
	if err := s.bury(gone); err != nil {
		return res, err
	}
	if err := atomicfile.Write(s.path, out.Bytes()); err != nil {
		return res, fmt.Errorf("rewrite the review store %s: %w", s.path, err)
	}
	res.BytesAfter = int64(out.Len())
	res.Diffs, res.DiffsRemoved = s.removeDiffs(live, open)
	return res, nil
}

// setAside appends malformed lines, with where they came from, to the
// .malformed file beside the store.
func (s *Store) setAside(lines []LineError, now time.Time) error {
	f, err := os.OpenFile(s.path+".malformed", os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("set aside malformed lines of %s: %w", s.path, err)
	}
	defer f.Close()
	var b bytes.Buffer
	for _, l := range lines {
		fmt.Fprintf(&b, "# %s line %d: %s\n", now.Format(time.RFC3339), l.Line, l.Err)
		b.Write(l.Text)
		b.WriteByte('\n')
	}
	if _, err := f.Write(b.Bytes()); err != nil {
		return fmt.Errorf("set aside malformed lines of %s: %w", s.path, err)
	}
	return f.Sync()
}

// removeDiffs deletes the stored diffs of records that are gone, drafts of
// reviews no longer open, and orphans a crash left between writing a diff
// and its record, or in the middle of writing a diff. It runs under the
// lock, so no Create is between those two steps.
func (s *Store) removeDiffs(live, open map[string]bool) (kept, removed int) {
	entries, err := os.ReadDir(s.diffDir)
	if err != nil {
		return 0, 0
	}
	remove := func(name string) {
		if os.Remove(filepath.Join(s.diffDir, name)) == nil {
			removed++
		}
	}
	for _, e := range entries {
		name := e.Name()
		if id, ok := strings.CutSuffix(name, ".draft.json"); ok {
			if !open[id] {
				remove(name)
			}
			continue
		}
		id, ok := strings.CutSuffix(name, ".diff")
		// A leftover temporary file is a diff whose write never finished.
		stale := strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".tmp")
		switch {
		case (ok && !live[id]) || stale:
			remove(name)
		case ok:
			kept++
		}
	}
	return kept, removed
}
