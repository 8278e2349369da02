package gate

// Owing is what a head's change set is owed: the changes Evaluate counts
// against the gate, split by whether a review can read them. The plan and
// the review take it from here, so a review reads exactly what the gate
// owes: no blob the ledger already holds (reviewed under another head, or
// before a revert), and none it does not.
type Owing struct {
	// Known is false when the change set was not read whole (not read, a
	// truncated tree, a failed read): nothing is known owed or covered.
	Known bool
	// Review are the owed changes a review can read, in path order.
	Review []Change
	// Unreadable are the owed changes no review can read: a submodule's
	// pointer, a blob GitHub sends no diff for.
	Unreadable []Change
}

// Covered reports whether a review has nothing left to read: the change
// set is known and every change is covered, or owed and unreadable (the
// change must be split, which no review can do).
func (o Owing) Covered() bool { return o.Known && len(o.Review) == 0 }

// Owed is what the gate owes a change set, given the ledger and what the
// base excludes: Evaluate's owed changes over the same facts, so the plan
// and the gate cannot disagree about a blob.
func Owed(cs ChangeSet, l Ledger, s Scope) Owing {
	if !cs.Known() {
		return Owing{}
	}
	f := Facts{Changes: cs, Ledger: l, Scope: s}
	o := Owing{Known: true}
	for _, c := range Evaluate(f).Owed {
		switch owedBy(f, c) {
		case cannotRead:
			o.Unreadable = append(o.Unreadable, c)
		case needsReview, isCovered:
			// Evaluate owes no covered change; were it to, a review reads it.
			o.Review = append(o.Review, c)
		}
	}
	return o
}
