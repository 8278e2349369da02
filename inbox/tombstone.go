package inbox

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// Tombstone is what is left of a review retention dropped: enough to tell
// an agent that holds its id that the review existed, how it ended and
// when it went, rather than "not found" as for an id nobody ever had.
type Tombstone struct {
	ID         string    `json:"id"`
	Status     Status    `json:"status"` // resolved or cancelled
	LastChange time.Time `json:"lastChange"`
	DroppedAt  time.Time `json:"droppedAt"`
}

// tombstonePath is the file of the store's tombstones, one JSON line each.
func (s *Store) tombstonePath() string { return s.path + ".expired" }

// bury appends tombstones of dropped reviews, synced. It runs under the
// store's lock.
func (s *Store) bury(ts []Tombstone) error {
	if len(ts) == 0 {
		return nil
	}
	var b bytes.Buffer
	for _, t := range ts {
		line, err := json.Marshal(t)
		if err != nil {
			return fmt.Errorf("encode the tombstone of %s: %w", t.ID, err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	f, err := os.OpenFile(s.tombstonePath(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open the tombstones %s: %w", s.tombstonePath(), err)
	}
	defer f.Close()
	if _, err := f.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write the tombstones %s: %w", s.tombstonePath(), err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync the tombstones %s: %w", s.tombstonePath(), err)
	}
	return nil
}

// Expired returns the tombstone of the review id when retention dropped
// it. A line it cannot read is passed over: the tombstones only improve a
// message.
func (s *Store) Expired(id string) (Tombstone, bool) {
	data, err := os.ReadFile(s.tombstonePath())
	if err != nil {
		return Tombstone{}, false
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	var found Tombstone
	ok := false
	for sc.Scan() {
		var t Tombstone
		if json.Unmarshal(sc.Bytes(), &t) == nil && t.ID == id {
			found, ok = t, true
		}
	}
	return found, ok
}

// missing is the refusal for an id the store does not hold: expired when
// a tombstone says retention dropped it, not found otherwise.
func (s *Store) missing(op, id string) error {
	if t, ok := s.Expired(id); ok {
		return fail(op, id, ErrExpired, fmt.Sprintf("the review was %s on %s and dropped by retention on %s, with its comments",
			t.Status, t.LastChange.Format(time.DateOnly), t.DroppedAt.Format(time.DateOnly)))
	}
	return fail(op, id, ErrNotFound, "no such review in "+s.path)
}
