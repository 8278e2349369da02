package state

import (
	"slices"
	"strings"

	"github.com/review-my-code-bot/rmc/rmcoc"
)

// ReviewedAuto reports whether an automatic review of sha completed.
func (s State) ReviewedAuto(sha string) bool {
	for _, r := range s.Reviews {
		if r.Run.Mode == rmcoc.ModeAuto && r.Run.HeadSHA == sha {
			return true
		}
	}
	return false
}

// Enrolled reports whether the PR has ever had an automatic review requested:
// from then on, every new head commit is owed one.
func (s State) Enrolled() bool {
	if s.AutoTrigger != nil {
		return true
	}
	for _, r := range s.Reviews {
		if r.Run.Mode == rmcoc.ModeAuto {
			return true
		}
	}
	return false
}

// LastReview returns the latest completed review of any mode, or nil.
func (s State) LastReview() *CompletedReview {
	var last *CompletedReview
	for i := range s.Reviews {
		if last == nil || !s.Reviews[i].At.Before(last.At) {
			last = &s.Reviews[i]
		}
	}
	return last
}

// OpenBlocking returns the findings that hold the merge gate closed.
func (s State) OpenBlocking() []Finding {
	var out []Finding
	for _, f := range s.Findings {
		if f.Blocks() {
			out = append(out, f)
		}
	}
	return out
}

// Pending returns the mentions not yet handled.
func (s State) Pending() []Mention {
	var out []Mention
	for _, m := range s.Mentions {
		if m.Handled == "" {
			out = append(out, m)
		}
	}
	return out
}

// Resolvers returns the logins whose permission decides whether their
// resolution of a blocking finding counts (Finding.Unjudged), each once, in
// thread order. The caller looks them up and derives again with
// Options.Writers set.
func (s State) Resolvers() []string {
	var out []string
	for _, f := range s.Findings {
		if f.Unjudged != "" && !slices.ContainsFunc(out, func(l string) bool { return strings.EqualFold(l, f.Unjudged) }) {
			out = append(out, f.Unjudged)
		}
	}
	return out
}

// Reopens returns the blocking findings whose thread was resolved by someone
// whose resolution does not count: the run reopens them, unless a fix is
// verified first.
func (s State) Reopens() []Finding {
	var out []Finding
	for _, f := range s.Findings {
		if f.Reopen != nil {
			out = append(out, f)
		}
	}
	return out
}
