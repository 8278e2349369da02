// Package gate is the merge gate, the rmc/merge-gate commit status: the
// whole rule, as pure functions over values. Package app reads what the
// rule needs and publishes what it says; nothing else decides.
//
// The invariant. The gate of a head H is success if and only if
//
//   - the change set of H is known: every path whose object differs
//     between the merge base and H, derived from the two commits' git
//     trees (a tree GitHub truncated, or a read that failed, leaves it
//     unknown, which is never success);
//   - every changed path is covered: the base branch's configuration
//     excludes it, or its head blob is in the ledger as shown whole to
//     every enabled pass of an automatic review, or as binary by content.
//     Coverage is by blob, whatever the path or the history: a rename or
//     a revert to reviewed content carries the review, a new blob is owed
//     one, and a blob no review could read stays owed (named);
//   - no blocking finding stands, a finding whose thread was deleted
//     included;
//   - the state ledger is whole: every block that decides the gate (a
//     review run, a dispute's verdict, a regressed or reopened reply, a
//     waiver, a maintainer's command answer) names its predecessor by
//     comment and digest, and the bot's latest review names the newest,
//     so no one deleted or edited one; a cut, until a maintainer clears
//     it, holds every finding it touches;
//   - every decision that closed a blocking finding (a verified fix, a
//     concession, a maintainer's resolution or waiver) holds on the head:
//     each is bound to the content it judged, the head blob of the
//     finding's file, and lapses when the content the finding was raised
//     on comes back after a decision on other content (the finding then
//     stands again, a regression). A binding that cannot be checked (a fix
//     verified on a commit the PR's commit list is too long to show, a
//     maintainer's resolution not yet bound) is unknown, never success.
//
// A blocking finding or a cut ledger makes it failure whatever the
// coverage; anything else short of success is pending, saying what
// unblocks it.
package gate

import (
	"fmt"
	"strings"
)

// Context is the commit status that carries the gate. Make it a required
// check to block merging.
const Context = "rmc/merge-gate"

// State is a commit status state, as GitHub names it.
type State string

const (
	Success State = "success"
	Failure State = "failure"
	Pending State = "pending"
)

// Coverage is what the PR's automatic reviews say about the head.
type Coverage int

const (
	// NotReviewed: no automatic review of this head against this base
	// has started.
	NotReviewed Coverage = iota
	// Running: an automatic review of this head was asked for and has not
	// completed (it is running, or a cancelled run left it to the next).
	Running
	// Failed: the latest attempt at this head's review failed.
	Failed
	// Partial: a review of this head completed without seeing every file.
	Partial
	// Paused: automatic reviews are off for this PR (a draft).
	Paused
	// Unreadable: changed files no review can read (GitHub sends no diff
	// for a change that large); the change must be split, or the paths
	// excluded by the base branch.
	Unreadable
	// Covered: every changed file was reviewed, by every enabled pass.
	Covered
	// Unknown: the head's change set could not be derived whole (a
	// truncated tree, a failed read): nothing is known to be covered.
	Unknown
)

// Input is everything the gate depends on.
type Input struct {
	Head     string // the commit the status is for
	Coverage Coverage
	// Why says more about a coverage short of Covered: the failure, or
	// why reviews are paused.
	Why string
	// Unreviewed counts the files a partial review did not cover, or, for
	// Unreadable, the files no review can read.
	Unreviewed int
	// Blocking counts the blocking findings that still stand: open ones,
	// ones whose verified fix the head no longer contains, and ones whose
	// thread is gone (Missing of them).
	Blocking, Missing int
	// Integrity is the state ledger's.
	Integrity Integrity
	// Lapsed counts, among Blocking, the findings whose closing decision
	// lapsed: the content they were raised on is back at the head.
	Lapsed int
	// Unchecked counts the decisions that closed a blocking finding but
	// whose binding cannot be checked; UncheckedWhy says why (the first).
	Unchecked    int
	UncheckedWhy string
}

// Integrity is what the state ledger's check found: the cuts no
// maintainer cleared, the first of them for people, and the findings they
// touch that do not block on their own.
type Integrity struct {
	Cuts    int
	Cut     string
	Touched int
}

// Verdict is the status to set.
type Verdict struct {
	State       State
	Description string // at most MaxDescription characters
}

// MaxDescription is GitHub's limit on a status description.
const MaxDescription = 140

// Derive is the gate. Blocking findings make it a failure whatever the
// coverage; otherwise only a covered head is a success, and anything short
// of that is pending with what unblocks it.
func Derive(in Input) Verdict {
	sha := short(in.Head)
	switch {
	case in.Integrity.Cuts > 0:
		return verdict(Failure, fmt.Sprintf("state ledger cut (%s): %d finding(s) held until a maintainer comments clear-ledger",
			clip(in.Integrity.Cut, 70), in.Blocking+in.Integrity.Touched))
	case in.Missing > 0:
		return verdict(Failure, fmt.Sprintf("%d blocking finding(s), %d with a deleted thread: see the PR; a maintainer can waive", in.Blocking, in.Missing))
	case in.Lapsed > 0:
		return verdict(Failure, fmt.Sprintf("%d blocking finding(s), %d back on the code they were raised on after a decision closed them", in.Blocking, in.Lapsed))
	case in.Blocking > 0:
		return verdict(Failure, fmt.Sprintf("%d open blocking finding(s): fix, or reply in the thread to dispute", in.Blocking))
	case in.Unchecked > 0:
		return verdict(Pending, fmt.Sprintf("%d closed blocking finding(s) cannot be checked (%s): not green until they can", in.Unchecked, oneLine(in.UncheckedWhy)))
	}
	switch in.Coverage {
	case Covered:
		return verdict(Success, fmt.Sprintf("%s reviewed: no open blocking findings", sha))
	case Running:
		return verdict(Pending, fmt.Sprintf("automatic review of %s in progress", sha))
	case Failed:
		return verdict(Pending, fmt.Sprintf("review of %s failed (%s); the next run retries", sha, oneLine(in.Why)))
	case Partial:
		return verdict(Pending, fmt.Sprintf("%d changed file(s) of %s not reviewed yet; the next run reviews them", in.Unreviewed, sha))
	case Paused:
		return verdict(Pending, fmt.Sprintf("%s not reviewed: %s", sha, oneLine(in.Why)))
	case Unreadable:
		return verdict(Pending, fmt.Sprintf("%d changed file(s) of %s too large for GitHub to send a diff: split them, or exclude them on the base", in.Unreviewed, sha))
	case Unknown:
		return verdict(Pending, fmt.Sprintf("changed files of %s unknown (%s): not green until they can be read", sha, oneLine(in.Why)))
	case NotReviewed:
	}
	// Not reviewed (or a Coverage out of range, which is no review either).
	return verdict(Pending, fmt.Sprintf("%s not reviewed yet: the next push, or a re-run of the pull_request job, reviews it", sha))
}

func verdict(s State, desc string) Verdict {
	if r := []rune(desc); len(r) > MaxDescription {
		desc = string(r[:MaxDescription-1]) + "…"
	}
	return Verdict{State: s, Description: desc}
}

// oneLine keeps a reason (an API error's text, say) to one short line.
func oneLine(s string) string {
	s = clip(s, 60)
	if s == "" {
		return "no reason given"
	}
	return s
}

// clip keeps s to one line of at most n runes.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return s
}

func short(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}
