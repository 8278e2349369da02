package inbox

import (
	"context"
	"time"
)

// Claims hold for a lease: an agent that went away does not hold the
// inbox up.

// ClaimLease is how long a claim holds.
func (s *Store) ClaimLease() time.Duration { return s.lease }

// Retention is how long resolved and cancelled reviews are kept.
func (s *Store) Retention() time.Duration { return s.retention }

// expireClaims turns reviews (and GitHub findings) whose claim outlived
// its lease back into submitted ones, for every reader and transition
// alike: the claim is gone, and the next agent may claim the review
// without --force.
func (s *Store) expireClaims(snap *Snapshot) {
	now := s.clock()
	for _, e := range snap.byID {
		r := &e.rec
		if r.Status == StatusClaimed && r.Claim != nil && now.Sub(r.Claim.ClaimedAt) > s.lease {
			r.Status, r.Claim = StatusSubmitted, nil
		}
	}
}

// MarkViewed records that the page of an open review was opened, once.
func (s *Store) MarkViewed(ctx context.Context, id string) (Record, error) {
	return s.update(ctx, "view", id, func(r Record) (Record, bool, error) {
		if r.Status != StatusOpen || r.ViewedAt != nil {
			return Record{}, false, nil
		}
		now := s.clock()
		p := Record{V: FormatVersion, ID: r.ID, Kind: r.Kind, ViewedAt: &now}
		return p, true, nil
	})
}
