package gate

import (
	"strings"
	"testing"
)

const head = "0123456789abcdef0123456789abcdef01234567"

// The gate over coverage × findings × history: only a covered head with
// nothing blocking is green; anything blocking is red whatever the
// coverage; everything else is pending with what unblocks it.
func TestDerive(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		in    Input
		state State
		desc  string
	}{
		{"covered, nothing blocking", Input{Coverage: Covered}, Success, "0123456 reviewed: no open blocking findings"},
		{"covered, one blocking", Input{Coverage: Covered, Blocking: 1}, Failure, "1 open blocking finding(s): fix, or reply in the thread to dispute"},
		{"covered, a fix the head lost", Input{Coverage: Covered, Blocking: 1}, Failure, "1 open blocking finding(s)"},
		{"covered, a deleted thread", Input{Coverage: Covered, Blocking: 2, Missing: 1}, Failure, "2 blocking finding(s), 1 with a deleted thread"},
		{"never reviewed", Input{Coverage: NotReviewed}, Pending, "0123456 not reviewed yet"},
		{"never reviewed, blocking from an earlier head", Input{Coverage: NotReviewed, Blocking: 3}, Failure, "3 open blocking"},
		{"running", Input{Coverage: Running}, Pending, "automatic review of 0123456 in progress"},
		{"failed", Input{Coverage: Failed, Why: "llm: task \"review\": endpoint unavailable (HTTP 503, 4 attempts)"}, Pending, "review of 0123456 failed (llm: task \"review\": endpoint unavailable (HTTP 503, 4 attem…); the next run retries"},
		{"failed without a reason", Input{Coverage: Failed}, Pending, "(no reason given)"},
		{"failed, blocking", Input{Coverage: Failed, Blocking: 1}, Failure, "1 open blocking"},
		{"partial", Input{Coverage: Partial, Unreviewed: 12}, Pending, "12 changed file(s) of 0123456 not reviewed yet"},
		{"partial, blocking", Input{Coverage: Partial, Unreviewed: 12, Blocking: 1}, Failure, "1 open blocking"},
		{"unreadable", Input{Coverage: Unreadable, Unreviewed: 2}, Pending, "2 changed file(s) of 0123456 too large for GitHub to send a diff"},
		{"unreadable, blocking", Input{Coverage: Unreadable, Unreviewed: 2, Blocking: 1}, Failure, "1 open blocking"},
		{"paused", Input{Coverage: Paused, Why: "a draft is reviewed when marked ready for review"}, Pending, "0123456 not reviewed: a draft is reviewed"},
		{"covered, the state ledger cut", Input{Coverage: Covered, Integrity: Integrity{Cuts: 1, Cut: "the bot's reply 303 on finding f-1 was deleted", Touched: 1}}, Failure,
			"state ledger cut (the bot's reply 303 on finding f-1 was deleted): 1 finding(s) held until a maintainer comments clear-ledger"},
		{"a cut outranks a deleted thread", Input{Coverage: Covered, Blocking: 2, Missing: 1, Integrity: Integrity{Cuts: 2, Cut: "the bot's review 201 was edited by @mallory"}}, Failure,
			"state ledger cut (the bot's review 201 was edited by @mallory): 2 finding(s) held"},
		{"not reviewed, the state ledger cut", Input{Coverage: NotReviewed, Integrity: Integrity{Cuts: 1, Cut: "x"}}, Failure, "state ledger cut (x)"},
		{"covered, a decision that lapsed", Input{Coverage: Covered, Blocking: 1, Lapsed: 1}, Failure, "1 blocking finding(s), 1 back on the code they were raised on"},
		{"covered, a decision that cannot be checked", Input{Coverage: Covered, Unchecked: 1, UncheckedWhy: "fix verified on abcdef0, past the PR's commits GitHub lists"}, Pending, "1 closed blocking finding(s) cannot be checked (fix verified on abcdef0"},
		{"covered, unchecked without a reason", Input{Coverage: Covered, Unchecked: 2}, Pending, "2 closed blocking finding(s) cannot be checked (no reason given)"},
		{"partial, a decision that cannot be checked", Input{Coverage: Partial, Unreviewed: 1, Unchecked: 1}, Pending, "cannot be checked"},
	}
	for _, tc := range tests {
		tc.in.Head = head
		v := Derive(tc.in)
		if v.State != tc.state || !strings.Contains(v.Description, tc.desc) {
			t.Errorf("%s: %s %q, want %s containing %q", tc.name, v.State, v.Description, tc.state, tc.desc)
		}
		if n := len([]rune(v.Description)); n > MaxDescription {
			t.Errorf("%s: description of %d characters, GitHub keeps %d", tc.name, n, MaxDescription)
		}
	}
}

// A description longer than GitHub keeps is cut to exactly its limit,
// with an ellipsis; one at the limit is kept whole.
func TestVerdictFitsGitHub(t *testing.T) {
	t.Parallel()
	at := strings.Repeat("é", MaxDescription)
	if v := verdict(Pending, at); v.Description != at {
		t.Errorf("a description of exactly %d characters was changed: %q", MaxDescription, v.Description)
	}
	v := verdict(Pending, at+"x")
	if r := []rune(v.Description); len(r) != MaxDescription || r[len(r)-1] != '…' || string(r[:MaxDescription-1]) != at[:len(at)-len("é")] {
		t.Errorf("cut to %d characters: %q", len(r), v.Description)
	}
}

// Only Covered is ever green: every other coverage, with or without
// findings, holds the gate, and so does a decision that cannot be checked.
func TestOnlyCoverageIsGreen(t *testing.T) {
	t.Parallel()
	for c := NotReviewed; c <= Unknown; c++ {
		for _, blocking := range []int{0, 1} {
			for _, unchecked := range []int{0, 1} {
				v := Derive(Input{Head: head, Coverage: c, Blocking: blocking, Unchecked: unchecked})
				if green := v.State == Success; green != (c == Covered && blocking == 0 && unchecked == 0) {
					t.Errorf("coverage %d, %d blocking, %d unchecked: %s", c, blocking, unchecked, v.State)
				}
			}
		}
	}
}

// A reason someone else wrote (an API's error text) stays one short line.
func TestDescriptionIsBounded(t *testing.T) {
	t.Parallel()
	v := Derive(Input{Head: head, Coverage: Failed, Why: strings.Repeat("line\n", 500)})
	if strings.Contains(v.Description, "\n") || len([]rune(v.Description)) > MaxDescription {
		t.Errorf("description %q", v.Description)
	}
}
