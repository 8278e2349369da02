package state

import (
	"slices"
	"strings"

	"github.com/review-my-code-bot/rmc/gate"

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

// Decisions are the decisions that closed blocking findings, each bound
// to the content it judged, for the gate.
func (s State) Decisions() []gate.Decision {
	var out []gate.Decision
	for _, f := range s.Findings {
		if d, ok := f.Decision(); ok {
			out = append(out, d)
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

// Waivers returns the logins of waive commands whose permission decides
// whether they count, each once. The caller looks them up and derives
// again with Options.Writers set, as for Resolvers.
func (s State) Waivers() []string {
	var out []string
	for _, l := range s.waivers {
		if !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, l) }) {
			out = append(out, l)
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

// completedOf is the latest completed review of head against baseRef of
// the given mode ("" for any). A run that recorded no base (older blocks)
// counts for any.
func (s State) completedOf(head, baseRef string, mode rmcoc.Mode) *CompletedReview {
	var out *CompletedReview
	for i := range s.Reviews {
		r := &s.Reviews[i]
		if r.Run.HeadSHA != head || (mode != "" && r.Run.Mode != mode) || (r.Run.BaseRef != "" && baseRef != "" && r.Run.BaseRef != baseRef) {
			continue
		}
		if out == nil || !r.At.Before(out.At) {
			out = r
		}
	}
	return out
}

// Missing are the blocking findings a review posted whose thread is gone
// (someone deleted the bot's comment): they keep blocking until a
// maintainer waives them.
func (s State) Missing() []rmcoc.PostedFinding {
	var out []rmcoc.PostedFinding
	for _, p := range s.Gone() {
		if !s.WaivedGone(p.ID) {
			out = append(out, p)
		}
	}
	return out
}

// WaivedGone reports whether a maintainer waived a finding whose thread is
// gone: a waive command after the deletion, or a resolve command given
// while it was open, whose answer named it.
func (s State) WaivedGone(id string) bool {
	_, resolved := s.WaivedBy[id]
	return s.Waived[id] || resolved
}

// Gone are the blocking findings a review posted whose thread is gone,
// waived or not.
func (s State) Gone() []rmcoc.PostedFinding {
	have := map[string]bool{}
	for _, f := range s.Findings {
		have[f.Block.ID] = true
	}
	var out []rmcoc.PostedFinding
	seen := map[string]bool{}
	for _, r := range s.Reviews {
		for _, p := range r.Run.Posted {
			if p.Blocking && !have[p.ID] && !seen[p.ID] {
				seen[p.ID] = true
				out = append(out, p)
			}
		}
	}
	return out
}

func short(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}

// Ledger is the merge gate's ledger: what the PR's automatic reviews
// recorded, by blob, from the review-run blocks the bot wrote (see
// package gate), their continuation blocks included. Manual reviews inform
// and do not count.
func (s State) Ledger() gate.Ledger {
	var l gate.Ledger
	for _, r := range s.Reviews {
		if r.Run.Mode != rmcoc.ModeAuto {
			continue
		}
		for _, c := range s.continuations(r) {
			l.Record(gate.Reviewed, rmcoc.UnpackBlobs(c.Blobs)...)
		}
		l.Record(gate.Reviewed, rmcoc.UnpackBlobs(r.Run.Blobs)...)
		l.Record(gate.Binary, rmcoc.UnpackBlobs(r.Run.BinaryBlobs)...)
		l.Record(gate.NoDiff, rmcoc.UnpackBlobs(r.Run.NoDiffBlobs)...)
	}
	return l
}

// continuations are the continuation blocks of a review: those naming its
// review, for its head and mode. A block naming a review the bot did not
// post, or another head, carries nothing.
func (s State) continuations(r CompletedReview) []rmcoc.ReviewRun {
	var out []rmcoc.ReviewRun
	for _, c := range s.Spills {
		if r.ReviewID != 0 && int64(c.Continues) == r.ReviewID && c.HeadSHA == r.Run.HeadSHA && c.Mode == r.Run.Mode {
			out = append(out, c)
		}
	}
	return out
}

// spilled counts the blobs a review's continuation blocks record.
func (s State) spilled(r CompletedReview) int {
	n := 0
	for _, c := range s.continuations(r) {
		n += len(rmcoc.UnpackBlobs(c.Blobs))
	}
	return n
}
