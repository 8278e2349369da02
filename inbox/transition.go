package inbox

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The state machine. Each transition takes the current record and returns
// the patch to append (the fields it changes), whether anything changes at
// all (an idempotent repeat writes nothing), or a refusal. They are pure:
// the store calls them under its lock.

// merge lays the fields p sets over r: the fold's last-write-wins, field
// by field.
func (r *Record) merge(p Record) {
	if p.V != 0 {
		r.V = p.V
	}
	if r.ID == "" {
		r.ID = p.ID
	}
	if p.Kind != "" {
		r.Kind = p.Kind
	}
	if p.Status != "" {
		r.Status = p.Status
	}
	if !p.CreatedAt.IsZero() {
		r.CreatedAt = p.CreatedAt
	}
	if !p.UpdatedAt.IsZero() {
		r.UpdatedAt = p.UpdatedAt
	}
	if p.SubmittedAt != nil {
		r.SubmittedAt = p.SubmittedAt
	}
	if p.ViewedAt != nil {
		r.ViewedAt = p.ViewedAt
	}
	if p.ResolvedAt != nil {
		r.ResolvedAt = p.ResolvedAt
	}
	if p.Request != nil {
		r.Request = p.Request
	}
	if p.Submission != nil {
		r.Submission = p.Submission
	}
	if p.Claim != nil {
		r.Claim = p.Claim
	}
	if p.ResultSummary != nil {
		r.ResultSummary = p.ResultSummary
	}
	if p.Resolution != nil {
		r.Resolution = p.Resolution
	}
	if p.GitHub != nil {
		r.GitHub = p.GitHub
	}
}

// patch starts a line for r's next state.
func patch(r Record, s Status, now time.Time) Record {
	return Record{V: FormatVersion, ID: r.ID, Kind: r.Kind, Status: s, UpdatedAt: now}
}

func submitTransition(r Record, sub Submission, now time.Time) (Record, error) {
	switch r.Status {
	case StatusOpen:
	case StatusSubmitted, StatusClaimed:
		where := ""
		if r.Submission != nil && r.Submission.MDPath != "" {
			where = " (" + r.Submission.MDPath + ")"
		}
		return Record{}, fail("submit", r.ID, ErrInvalidState, "a review was already submitted"+where+"; ask for a new review for a new round")
	case StatusResolved:
		return Record{}, fail("submit", r.ID, ErrInvalidState, "the review is resolved: it cannot take comments any more")
	case StatusCancelled:
		return Record{}, fail("submit", r.ID, ErrInvalidState, "the review was cancelled: it cannot take comments")
	default: // not a status (reading a record refuses one)
		return Record{}, fail("submit", r.ID, ErrInvalidState, "the review was "+string(r.Status)+": it cannot take comments")
	}
	p := patch(r, StatusSubmitted, now)
	p.SubmittedAt = &now
	p.Submission = &sub
	p.ResultSummary = summarize(sub.Submission)
	return p, nil
}

func cancelTransition(r Record, now time.Time) (Record, bool, error) {
	switch r.Status {
	case StatusOpen:
		return patch(r, StatusCancelled, now), true, nil
	case StatusCancelled:
		return Record{}, false, nil
	case StatusSubmitted, StatusClaimed, StatusResolved:
		// Past the point where it can be withdrawn: refused below.
	}
	return Record{}, false, fail("cancel", r.ID, ErrInvalidState, "the review is "+string(r.Status)+"; only an open review can be cancelled")
}

func claimTransition(r Record, by string, force bool, now time.Time) (Record, bool, error) {
	by = strings.TrimSpace(by)
	if by == "" {
		return Record{}, false, fail("claim", r.ID, ErrInvalidInput, "say who claims it (--by NAME)")
	}
	switch r.Status {
	case StatusSubmitted:
	case StatusClaimed:
		// A repeat by the holder renews the lease (see Options.ClaimLease).
		if !force && (r.Claim == nil || r.Claim.ClaimedBy != by) {
			holder := "another agent"
			if r.Claim != nil {
				holder = fmt.Sprintf("%s since %s", r.Claim.ClaimedBy, r.Claim.ClaimedAt.Format(time.RFC3339))
			}
			return Record{}, false, fail("claim", r.ID, ErrConflict, "already claimed by "+holder+"; use --force to take it over")
		}
	case StatusCancelled:
		return Record{}, false, fail("claim", r.ID, ErrInvalidState, "the review was cancelled: there is nothing to work on")
	case StatusOpen:
		return Record{}, false, fail("claim", r.ID, ErrInvalidState, "the review is still open: wait until the person submits it")
	case StatusResolved:
		return Record{}, false, fail("claim", r.ID, ErrInvalidState, "the review is already resolved")
	default:
		return Record{}, false, fail("claim", r.ID, ErrInvalidState, "the review is "+string(r.Status))
	}
	p := patch(r, StatusClaimed, now)
	p.Claim = &Claim{ClaimedBy: by, ClaimedAt: now}
	return p, true, nil
}

// ResolveOptions say who resolves a review and how. Only the agent holding
// a claim resolves a claimed review, unless Force overrides it; an
// unclaimed submitted review anyone may resolve.
type ResolveOptions struct {
	By    string // who resolves it; recorded
	Note  string // what was done about the comments
	Force bool   // resolve a review another agent holds
}

func resolveTransition(r Record, o ResolveOptions, now time.Time) (Record, bool, error) {
	by := strings.TrimSpace(o.By)
	switch r.Status {
	case StatusSubmitted:
	case StatusClaimed:
		if r.Claim != nil && r.Claim.ClaimedBy != by && !o.Force {
			how := "resolve it as that agent (--by " + r.Claim.ClaimedBy + ")"
			if by != "" {
				how = "only that agent resolves it"
			}
			return Record{}, false, fail("resolve", r.ID, ErrConflict, fmt.Sprintf("claimed by %s since %s: %s, or use --force",
				r.Claim.ClaimedBy, r.Claim.ClaimedAt.Format(time.RFC3339), how))
		}
	case StatusResolved:
		// Again with the same note (or none) changes nothing; a different
		// note would be lost without a word, so it is refused.
		if note := strings.TrimSpace(o.Note); note != "" && (r.Resolution == nil || r.Resolution.Note != note) {
			return Record{}, false, fail("resolve", r.ID, ErrConflict, "already resolved"+resolvedNote(r)+": the note is not changed")
		}
		return Record{}, false, nil
	case StatusOpen:
		return Record{}, false, fail("resolve", r.ID, ErrInvalidState, "the review is still open: nobody has submitted comments to resolve")
	case StatusCancelled:
		return Record{}, false, fail("resolve", r.ID, ErrInvalidState, "the review was cancelled")
	default: // not a status (reading a record refuses one)
		return Record{}, false, fail("resolve", r.ID, ErrInvalidState, "the review was "+string(r.Status))
	}
	p := patch(r, StatusResolved, now)
	p.ResolvedAt = &now
	p.Resolution = &Resolution{Note: strings.TrimSpace(o.Note), ResolvedBy: by, Forced: o.Force && r.Status == StatusClaimed && r.Claim != nil && r.Claim.ClaimedBy != by}
	return p, true, nil
}

// CanSubmit reports why r cannot take a submission now, or nil when it can:
// the check Store.Submit makes, for callers that prepare a submission
// (writing files, say) before recording it.
func (r Record) CanSubmit() error {
	_, err := submitTransition(r, Submission{}, time.Time{})
	return err
}

// resolvedNote says by whom and with what note r was resolved.
func resolvedNote(r Record) string {
	if r.Resolution == nil {
		return ""
	}
	s := ""
	if r.Resolution.ResolvedBy != "" {
		s += " by " + r.Resolution.ResolvedBy
	}
	if r.Resolution.Note != "" {
		s += " with the note " + strconv.Quote(r.Resolution.Note)
	}
	return s
}
