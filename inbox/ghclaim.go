package inbox

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Claims of GitHub findings live in the local store, so two agents on one
// machine do not work on the same finding. They are not written to GitHub:
// agents on other machines do not see them.

// ClaimGitHub records that agent by works on the finding with id. The
// caller has checked that the finding is open on GitHub. As for local
// reviews, a repeat by the same agent changes nothing, and a claim held by
// another is a conflict unless force takes it over.
func (s *Store) ClaimGitHub(ctx context.Context, id string, ref GitHubRef, by string, force bool) (Record, error) {
	var out Record
	err := s.locked(ctx, func(snap *Snapshot) error {
		now := s.clock()
		cur, found := snap.Get(id)
		if found && cur.kind() != KindGitHubClaim {
			return fmt.Errorf("claim %s: the store holds a %s record under this id", id, cur.kind())
		}
		if found && cur.Status == StatusClaimed {
			p, write, err := claimTransition(cur, by, force, now)
			if err != nil || !write {
				out = cur
				return err
			}
			p.GitHub = &ref
			cur.merge(p)
			out = cur
			return s.append(snap, p)
		}
		// A new claim, or a finding someone reopened after this machine
		// saw it resolved: GitHub is the judge of whether it is open.
		p, _, err := claimTransition(Record{ID: id, Kind: KindGitHubClaim, Status: StatusSubmitted}, by, force, now)
		if err != nil {
			return err
		}
		p.CreatedAt, p.GitHub = now, &ref
		if found {
			p.CreatedAt = cur.CreatedAt
		}
		cur.merge(p)
		out = cur
		return s.append(snap, p)
	})
	return out, err
}

// ResolveGitHub records that the finding with id was resolved. Resolving it
// again changes nothing.
func (s *Store) ResolveGitHub(ctx context.Context, id, note, by string) (Record, error) {
	var out Record
	err := s.locked(ctx, func(snap *Snapshot) error {
		cur, found := snap.Get(id)
		if !found || cur.kind() != KindGitHubClaim {
			return fail("resolve", id, ErrNotFound, "no claim of this finding on this machine")
		}
		if cur.Status == StatusResolved {
			out = cur
			return nil
		}
		now := s.clock()
		p := patch(cur, StatusResolved, now)
		p.ResolvedAt = &now
		p.Resolution = &Resolution{Note: note, ResolvedBy: strings.TrimSpace(by)}
		cur.merge(p)
		out = cur
		return s.append(snap, p)
	})
	return out, err
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
