package execution

import "testing"

func TestClassifyReplyRules(t *testing.T) {
	t.Parallel()
	tests := map[string]ReplyKind{
		"Good catch, will fix.":                                  ReplyAcknowledgment,
		"you're right, fixing it now":                            ReplyAcknowledgment,
		"Agreed.":                                                ReplyAcknowledgment,
		"Why is this a problem?":                                 ReplyQuestion,
		"how would you restructure it":                           ReplyQuestion,
		"This is out of scope for this PR, tracked in #12.":      ReplyOutOfScope,
		"Pre-existing code, will do a follow-up PR":              ReplyOutOfScope,
		"False positive: the map is guarded by mu.":              ReplyDispute,
		"Thanks, but this is intentional.":                       ReplyDispute,
		"It can't happen, New() always sets it":                  ReplyDispute,
		"Not a bug?":                                             ReplyDispute,
		"The caller already checks for nil before calling this.": ReplyDispute,
		"nope": ReplyDispute,
	}
	for text, want := range tests {
		t.Run(text, func(t *testing.T) {
			t.Parallel()
			if got := classifyReplyRules(text); got != want {
				t.Errorf("classifyReplyRules(%q) = %s, want %s", text, got, want)
			}
		})
	}
}
