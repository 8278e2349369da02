package gate

import "fmt"

// strictness orders the states: a failure holds more than a pending, which
// holds more than a success. An unknown state holds most.
func strictness(s State) int {
	switch s {
	case Success:
		return 0
	case Pending:
		return 1
	case Failure:
		return 2
	}
	return 3
}

// Relaxes reports whether writing next over cur would let more through: a
// run that would do so derives its verdict again from a fresh read first,
// and asks the other pull requests that share the commit.
func Relaxes(cur, next State) bool {
	return strictness(next) < strictness(cur)
}

// PRVerdict is the gate of another open pull request whose head is the
// same commit.
type PRVerdict struct {
	Number  int
	Verdict Verdict
}

// Shared is the status of a commit that is the head of several open pull
// requests: a status belongs to the commit, so it is the strictest of
// their gates, this PR's on a tie; another PR's verdict says which PR it is.
func Shared(own Verdict, others []PRVerdict) Verdict {
	out := own
	for _, o := range others {
		if strictness(o.Verdict.State) > strictness(out.State) {
			out = verdict(o.Verdict.State, fmt.Sprintf("#%d: %s", o.Number, o.Verdict.Description))
		}
	}
	return out
}
