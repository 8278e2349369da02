package state

import (
	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/rmcoc"
)

// HeadCoverage is what the PR's state says of one head's automatic review
// against one base: the words of a gate that is not green
// (gate.Facts.Review). Whether the head is covered, and what it still
// owes, is the ledger's (State.Ledger, gate.Owed), never this.
type HeadCoverage struct {
	// Coverage is Partial (a review of the head stopped short), Failed,
	// Running, or NotReviewed (nothing under way or stopped short).
	Coverage gate.Coverage
	Why      string // a failure's message
}

// Coverage says what became of the latest automatic review of head
// against baseRef: it stopped short (its block names files it did not
// cover, or it lost continuation blocks); the task's recorded failure;
// a trigger without a review (running, or cancelled).
func (s State) Coverage(head, baseRef string) HeadCoverage {
	if r := s.completedOf(head, baseRef, rmcoc.ModeAuto); r != nil {
		run := &r.Run
		if len(run.Unreviewed) > 0 || run.UnreviewedCount > 0 || run.Spilled > s.spilled(*r) {
			return HeadCoverage{Coverage: gate.Partial}
		}
		return HeadCoverage{Coverage: gate.NotReviewed}
	}
	key := "review-" + string(rmcoc.ModeAuto) + "-" + short(head)
	switch {
	case s.Failures[key] > 0:
		return HeadCoverage{Coverage: gate.Failed, Why: s.FailureText[key]}
	case s.AutoTrigger != nil && s.AutoTrigger.HeadSHA == head:
		return HeadCoverage{Coverage: gate.Running}
	}
	return HeadCoverage{Coverage: gate.NotReviewed}
}

// ReviewedAgainst reports whether an automatic review of head against
// baseRef completed: a head that owes nothing is done once one did.
func (s State) ReviewedAgainst(head, baseRef string) bool {
	return s.completedOf(head, baseRef, rmcoc.ModeAuto) != nil
}
