package execution

import (
	"regexp"
	"strings"
)

// ReplyKind is what a developer's reply to a finding means.
type ReplyKind string

const (
	ReplyAcknowledgment ReplyKind = "acknowledgment" // "good catch, will fix"
	ReplyQuestion       ReplyKind = "question"       // "why is this a problem?"
	ReplyOutOfScope     ReplyKind = "out-of-scope"   // "not in this PR, follow-up"
	ReplyDispute        ReplyKind = "dispute"        // "this is wrong because…"
)

func (k ReplyKind) valid() bool {
	switch k {
	case ReplyAcknowledgment, ReplyQuestion, ReplyOutOfScope, ReplyDispute:
		return true
	}
	return false
}

var (
	ackRe      = regexp.MustCompile(`(?i)\b(good catch|nice catch|you'?re right|fair point|will fix|i'?ll fix|fixing( it| this)?|fixed in|agreed|makes sense|thanks?,? (will|i'?ll)|on it|done\b|addressed)`)
	scopeRe    = regexp.MustCompile(`(?i)\b(out of scope|separate (pr|pull request|issue|ticket)|follow[- ]?up|later pr|not (in|for) this (pr|pull request|change)|tracked in|pre-?existing|won'?t fix (here|now)|another pr)\b`)
	disputeRe  = regexp.MustCompile(`(?i)\b(false positive|not (a|an) (bug|issue|problem)|this is (fine|intended|intentional|correct|safe)|by design|on purpose|already (handled|checked|guarded|covered)|you'?re wrong|incorrect|disagree|can'?t happen|cannot happen|never (happens|nil|null))\b`)
	questionRe = regexp.MustCompile(`(?i)(\?\s*$|^\s*(why|how|what|where|when|which|could you|can you|would you|is it|is this|does|do you)\b)`)
)

// classifyReplyRules is the keyword fallback when the model cannot classify.
// Disagreement wins over politeness ("thanks, but this is a false positive"
// disputes), a question mark alone does not make a dispute a question.
func classifyReplyRules(text string) ReplyKind {
	t := strings.TrimSpace(text)
	switch {
	case disputeRe.MatchString(t):
		return ReplyDispute
	case scopeRe.MatchString(t):
		return ReplyOutOfScope
	case ackRe.MatchString(t):
		return ReplyAcknowledgment
	case questionRe.MatchString(t):
		return ReplyQuestion
	}
	return ReplyDispute // an unexplained reply to a finding is pushback
}
