// Package ledger keeps account entries in memory and pages through them.
package ledger

import (
	"errors"
	"sort"
	"time"
)

// Entry is one posting on an account.
type Entry struct {
	ID      int64
	Account string
	Cents   int64
	At      time.Time
}

// ErrNotFound means no entry has the id.
var ErrNotFound = errors.New("ledger: entry not found")

// Ledger holds entries sorted by time.
type Ledger struct {
	entries []Entry
}

// Add appends an entry and keeps the ledger sorted.
func (l *Ledger) Add(e Entry) {
	l.entries = append(l.entries, e)
	sort.SliceStable(l.entries, func(i, j int) bool { return l.entries[i].At.Before(l.entries[j].At) })
}

// Get returns the entry with id.
func (l *Ledger) Get(id int64) (Entry, error) {
	for _, e := range l.entries {
		if e.ID == id {
			return e, nil
		}
	}
	return Entry{}, ErrNotFound
}

// Balance sums an account's entries.
func (l *Ledger) Balance(account string) int64 {
	var sum int64
	for _, e := range l.entries {
		if e.Account == account {
			sum += e.Cents
		}
	}
	return sum
}

// Len is the number of entries.
func (l *Ledger) Len() int { return len(l.entries) }
