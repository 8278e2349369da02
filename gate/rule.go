package gate

import (
	"fmt"
	"strings"
)

// KeyLen is how many hex digits of a blob id the ledger keeps: 128 bits.
// The author of a PR chooses both contents, the one reviewed and the one
// that would ride on its review, so what a key must resist is a collision:
// 2^64 SHA-1 computations at 128 bits, out of reach (at 64 bits it would be
// 2^32, an afternoon on a laptop). rmcoc.BlobKeyLen is the same length.
const KeyLen = 32

// Key is a blob id as the ledger keeps it; "" for an id too short to be
// one (it then matches nothing).
func Key(blob string) string {
	if len(blob) < KeyLen || strings.Trim(blob[:KeyLen], "0123456789abcdef") != "" {
		return ""
	}
	return blob[:KeyLen]
}

// Mark is what a review recorded about a blob.
type Mark int

const (
	// Reviewed: every enabled pass of an automatic review was shown the
	// blob's change whole.
	Reviewed Mark = iota + 1
	// Binary: the blob's content is binary (a NUL byte in its first 8,000
	// bytes, git's own rule), so there is nothing for the model to read.
	Binary
	// NoDiff: GitHub sent no diff for the blob and it is text: no review
	// could read it.
	NoDiff
)

// Ledger is what the PR's automatic reviews recorded, by blob: content,
// not paths or commits, so a rename or a revert to reviewed content
// carries its review and a new blob is owed one.
type Ledger struct {
	marks map[string]Mark
}

// Record marks blobs. Reviewed outranks Binary, which outranks NoDiff: a
// blob once read is covered whatever a later run could not do.
func (l *Ledger) Record(m Mark, blobs ...string) {
	if l.marks == nil {
		l.marks = map[string]Mark{}
	}
	for _, b := range blobs {
		k := Key(b)
		if k == "" || rank(l.marks[k]) >= rank(m) {
			continue
		}
		l.marks[k] = m
	}
}

func rank(m Mark) int {
	switch m {
	case Reviewed:
		return 3
	case Binary:
		return 2
	case NoDiff:
		return 1
	}
	return 0
}

// Of is what the ledger says about a blob, 0 when nothing.
func (l Ledger) Of(blob string) Mark {
	return l.marks[Key(blob)]
}

// Len is how many blobs the ledger knows.
func (l Ledger) Len() int { return len(l.marks) }

// Scope says which paths the base branch's configuration leaves out of
// every review (ignore_paths, generated files): they are owed nothing.
type Scope interface {
	Excluded(path string) bool
	// Key names the configuration the scope was built from (two scopes
	// with one key exclude the same paths), for Basis; "" when it cannot.
	Key() string
}

// Facts are what the gate of one head is judged on.
type Facts struct {
	Head    string
	Changes ChangeSet
	Ledger  Ledger
	Scope   Scope // nil: nothing excluded
	// Review is what the PR's state says of this head's review when some
	// change is owed one: NotReviewed, Running, Failed, Partial (a review
	// of it stopped short) or Paused (a pause, a draft), with Why.
	Review Coverage
	Why    string
	// Blocking counts the blocking findings that stand; Missing, those of
	// them whose thread is gone.
	Blocking, Missing int
	// Integrity is the state ledger's: a cut fails the gate until a
	// maintainer clears it.
	Integrity Integrity
	// Decisions are the blocking findings decisions closed, each bound to
	// the content it judged: one that lapsed on the head blocks, one that
	// cannot be checked leaves the gate pending.
	Decisions []Decision
}

// Judgment is the gate of a head and the changes it is still owed.
type Judgment struct {
	Verdict Verdict
	// Owed are the changed paths whose head blob no review covered, in
	// path order; NoDiff counts those GitHub sends no diff for.
	Owed   []Change
	NoDiff int
	// Lapsed counts the closed findings whose decision lapsed on the
	// head: they block as open ones do.
	Lapsed int
}

// Evaluate is the whole gate: see the package comment for the invariant.
func Evaluate(f Facts) Judgment {
	in := Input{Head: f.Head, Blocking: f.Blocking, Missing: f.Missing, Integrity: f.Integrity}
	if f.Changes.Unread {
		// Never green: what the state says of the review words it.
		in.Coverage, in.Why = NotReviewed, f.Why
		if f.Review != Covered {
			in.Coverage = f.Review
		}
		return Judgment{Verdict: Derive(in)}
	}
	if !f.Changes.Known() {
		in.Coverage, in.Why = Unknown, f.Changes.Unknown
		return Judgment{Verdict: Derive(in)}
	}
	var j Judgment
	covered := 0
	for _, c := range f.Changes.Changes {
		switch owedBy(f, c) {
		case isCovered:
			covered++
		case cannotRead:
			j.NoDiff++
			j.Owed = append(j.Owed, c)
		case needsReview:
			j.Owed = append(j.Owed, c)
		}
	}
	in.Unreviewed = len(j.Owed)
	in.Lapsed, in.Unchecked, in.UncheckedWhy = decisions(f.Decisions, f.Changes.Changes)
	in.Blocking += in.Lapsed
	j.Lapsed = in.Lapsed
	switch {
	case len(j.Owed) == 0:
		in.Coverage = Covered
	case f.Review == Paused || f.Review == Failed || f.Review == Running:
		in.Coverage, in.Why = f.Review, f.Why
	case j.NoDiff == len(j.Owed):
		in.Coverage = Unreadable
	case covered > 0 || f.Review == Partial:
		in.Coverage = Partial
	default:
		in.Coverage = NotReviewed
	}
	j.Verdict = Derive(in)
	return j
}

// owing is what a change is owed.
type owing int

const (
	isCovered   owing = iota // excluded by the base, reviewed, or binary
	needsReview              // a review can read it and none did
	cannotRead               // no review can read it
)

// owedBy says what a change is owed: nothing when the base excludes its
// path or the ledger holds its blob as reviewed or binary. A submodule's
// pointer is owed unless excluded: nothing here can read what it points at.
func owedBy(f Facts, c Change) owing {
	if f.Scope != nil && f.Scope.Excluded(c.Path) {
		return isCovered
	}
	if c.Kind == KindCommit {
		return cannotRead
	}
	switch f.Ledger.Of(c.Blob) {
	case Reviewed, Binary:
		return isCovered
	case NoDiff:
		return cannotRead
	}
	return needsReview
}

// Describe names up to n owed paths, for a log or a comment.
func (j Judgment) Describe(n int) string {
	var b strings.Builder
	for i, c := range j.Owed {
		if i == n {
			fmt.Fprintf(&b, " and %d more", len(j.Owed)-n)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.Path)
	}
	return b.String()
}
