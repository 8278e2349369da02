package gate

// DecisionKind is what closed a finding.
type DecisionKind int

const (
	// Fix: the bot verified a push fixed it.
	Fix DecisionKind = iota + 1
	// Conceded: the bot conceded it, or deferred it, in a dispute.
	Conceded
	// Accepted: a maintainer resolved its thread.
	Accepted
	// Waived: a maintainer's resolve command waived it.
	Waived
)

// Decision is a blocking finding a decision closed, bound to the content
// it judged. Content is the head blob of the finding's file, by key:
// Raised is the blob the finding was raised on (the bad content), Judged
// the one the decision was made on. The decision holds while the head
// shows other content than Raised; it lapses when Raised comes back after
// a decision on other content (a revert after a fix: a regression). A
// changed file is owed a review by the ledger (its new blob), and a review
// that raises the finding again reopens it (Reraised).
type Decision struct {
	Finding string // the finding's id
	Path    string
	Kind    DecisionKind
	Raised  string // "" when not recorded (a block written before it was)
	Judged  string // "" when not recorded
	// Unknown says why the binding cannot be checked (a fix verified on a
	// commit the PR's commit list is too long to show): never green.
	Unknown string
}

// judgedRaised reports whether the decision judged the very content the
// finding was raised on. A decision whose content was not recorded (a
// block written before it was) is taken to have judged the raised content,
// except a fix, which by its nature judged other content; a recorded one
// judged the raised content only when both keys are known and equal.
func (d Decision) judgedRaised() bool {
	if d.Judged == "" {
		return d.Kind != Fix
	}
	return d.Raised != "" && Key(d.Judged) == Key(d.Raised) && Key(d.Raised) != ""
}

// Lapsed reports whether the head's blob of the finding's file (head; ""
// when the path is no change) is the content the finding was raised on,
// after a decision made on other content.
func (d Decision) Lapsed(head string) bool {
	raised := Key(d.Raised)
	return raised != "" && Key(head) == raised && !d.judgedRaised()
}

// Reraised reports whether a review that reports the finding again (the
// same fingerprint: its file, title and lines) makes it a regression: the
// decision judged other content, so the problem came back. A decision on
// the raised content holds: the review only said again what was judged.
func (d Decision) Reraised() bool {
	return !d.judgedRaised()
}

// decisions judges the decisions against the head's change set: how many
// lapsed, and how many cannot be checked with the first reason why.
func decisions(ds []Decision, changes []Change) (lapsed, unknown int, why string) {
	heads := make(map[string]string, len(changes))
	for _, c := range changes {
		heads[c.Path] = c.Blob
	}
	for _, d := range ds {
		switch {
		case d.Unknown != "":
			if unknown == 0 {
				why = d.Unknown
			}
			unknown++
		case d.Lapsed(heads[d.Path]):
			lapsed++
		}
	}
	return lapsed, unknown, why
}
