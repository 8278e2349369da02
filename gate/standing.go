package gate

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Basis is a digest of everything a head's gate is judged on but its
// change set, which is named instead by the two commits it is read from
// (the merge base is a function of them): the pull request, the base and
// head commits, the scope's configuration, the ledger, what the state says
// of the review and the blocking findings. Evaluate is a pure function of
// those facts, so two judgments with one basis are one verdict. "" when
// the scope cannot name its configuration: then no basis matches.
func Basis(f Facts, pr int, baseSHA string) string {
	if f.Scope == nil {
		return ""
	}
	key := f.Scope.Key()
	if key == "" {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "pr %d\nbase %s\nhead %s\nscope %q\nreview %d %q\nblocking %d %d\n",
		pr, baseSHA, f.Head, key, f.Review, f.Why, f.Blocking, f.Missing)
	keys := make([]string, 0, len(f.Ledger.marks))
	for k := range f.Ledger.marks {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(h, "%s %d\n", k, f.Ledger.marks[k])
	}
	// The decisions that closed blocking findings, and the ledger's
	// cuts: a resolution recorded or a cut since is other facts.
	fmt.Fprintf(h, "cuts %d\n", f.Integrity.Cuts)
	ds := slices.Clone(f.Decisions)
	slices.SortFunc(ds, func(a, b Decision) int { return strings.Compare(a.Finding, b.Finding) })
	for _, d := range ds {
		fmt.Fprintf(h, "decision %q %q %d %q %q %q\n", d.Finding, d.Path, d.Kind, d.Raised, d.Judged, d.Unknown)
	}
	return hex.EncodeToString(h.Sum(nil))[:basisLen]
}

// basisLen is how many hex digits of the digest a status carries: 128
// bits, so nobody can make other facts answer to a green gate's basis.
const basisLen = 32

// stampMark introduces the basis in a status's target URL, as a fragment
// (a browser ignores a fragment the page does not hold).
const stampMark = "#rmc-gate-"

// Stamp is a status's target URL carrying the basis it was judged on.
func Stamp(url, basis string) string {
	if basis == "" {
		return url
	}
	return url + stampMark + basis
}

// Stamped is the basis a status's target URL carries, "" when none.
func Stamped(url string) string {
	_, b, ok := strings.Cut(url, stampMark)
	if !ok || len(b) != basisLen || strings.Trim(b, "0123456789abcdef") != "" {
		return ""
	}
	return b
}

// Published is the gate's status on a head as a run read it at its start.
type Published struct {
	Found bool // a status of Context is on the head
	State State
	URL   string // its target URL, which carries its basis
}

// Stands reports whether a run whose work changed neither the ledger nor
// the findings (a question, a command that closes nothing) may leave the
// head's gate as it found it, without reading the change set or the status
// again: the facts it holds (f, without the change set; basis, their
// digest) are the facts the status was judged on, so deriving it again
// could only say the same; or no status is on the head yet, nothing
// blocks and no automatic review ever recorded anything (an empty ledger),
// so the head's own automatic run publishes it (a required status that is
// absent holds the merge as pending does, and writing one here would need
// the change set and a read of the status first). A blocking finding is
// never left to stand: a failure is written without reads. Anything else
// is derived again.
func Stands(p Published, f Facts, basis string) bool {
	switch {
	case f.Blocking > 0:
		return false
	case !p.Found:
		return f.Ledger.Len() == 0
	}
	return basis != "" && Stamped(p.URL) == basis
}
