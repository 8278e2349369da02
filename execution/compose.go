package execution

import (
	"fmt"
	"slices"
	"strings"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/precision"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// composeReview builds the one review a run posts: a summary body (counts,
// scope, what was skipped, findings that could not go inline) and the inline
// comments, each carrying its finding block.
func (x *reviewRunner) composeReview(rt *detector.ReviewTask, res review.Result, sc scope) snapshot.NewReview {
	var b strings.Builder
	if res.Partial != nil {
		// It names files (in code spans): it goes through compose like the rest.
		fmt.Fprintf(&b, "⚠️ **%s**\n\n", res.Partial.Note())
	}
	x.summary(&b, rt, res, sc)
	comments, inBody := x.inline(res.Findings, rt.HeadSHA)
	x.bodyFindings(&b, inBody, sc.built)
	b.WriteString(x.checksTable(res.Checks))
	x.notes(&b, res)
	// Only an automatic review requests changes: a manual one informs, and
	// under branch protection a changes-requested review would block merging.
	event := snapshot.ReviewEventComment
	if res.Blocking() > 0 && rt.Mode == rmcoc.ModeAuto {
		event = snapshot.ReviewEventRequestChanges
	}
	return snapshot.NewReview{CommitSHA: rt.HeadSHA, Event: event, Body: x.compose(b.String(), x.env.ledger.link(x.runBlock(rt, res, sc))), Comments: comments}
}

// runBlock is the review's state: what it covered against which base,
// what it left, the findings it posted in threads, and the requests it
// answered or made redundant.
func (x *reviewRunner) runBlock(rt *detector.ReviewTask, res review.Result, sc scope) rmcoc.ReviewRun {
	run := rmcoc.ReviewRun{HeadSHA: rt.HeadSHA, BaseSHA: x.base, BaseRef: x.baseRef, FromSHA: sc.from, Mode: rt.Mode,
		Findings: len(res.Findings), Blocking: res.Blocking(), CompletedAt: x.now(), UnreviewedCount: len(res.Unreviewed)}
	run.Unreviewed = res.Unreviewed[:min(len(res.Unreviewed), rmcoc.MaxListed)]
	for _, sk := range res.Skipped {
		if sk.Unreadable && len(run.Unreadable) < rmcoc.MaxListed {
			run.Unreadable = append(run.Unreadable, sk.Path)
		}
	}
	x.ledgerOf(&run, res, sc)
	for _, f := range res.Findings {
		if f.Inline {
			b := x.findingBlock(f, rt.HeadSHA)
			run.Posted = append(run.Posted, rmcoc.PostedFinding{ID: b.ID, Fingerprint: b.Fingerprint, Blocking: b.Blocking})
		}
	}
	for _, m := range rt.Requests {
		addRef(m.Ref, &run.RequestReviewIDs, &run.RequestRunIDs, &run.RequestCommentIDs)
	}
	for _, m := range rt.Dismissed {
		addRef(m.Ref, &run.DismissedReviewIDs, &run.DismissedRunIDs, &run.DismissedRequestIDs)
	}
	return run
}

// ledgerOf records in the run block what the review read, by head blob:
// the files every enabled pass saw whole, and the blobs GitHub sent no
// patch for, binary or not. Only an automatic review's record counts.
func (x *reviewRunner) ledgerOf(run *rmcoc.ReviewRun, res review.Result, sc scope) {
	var read []string
	noDiff := slices.Clone(sc.noDiff)
	for _, p := range res.Reviewed {
		b := sc.blobs[p]
		switch {
		case b == "" || slices.Contains(res.Unreviewed, p):
		case sc.built[p] && blocksUnanchored(res, p):
			// A blocking finding on a file GitHub sent no diff for cannot
			// sit in a thread, so it could not hold the gate: the file
			// stays named unreadable (split it) rather than covered.
			noDiff = append(noDiff, b)
		default:
			read = append(read, b)
		}
	}
	// A file the review's scope left out by its diff (a lock file,
	// minified or generated content) is excluded by its content, as a
	// binary is; a file with no patch was judged by probe instead. One the
	// base's configuration leaves out by its path is not: the gate excludes
	// that path itself, and its blob, never read, must not cover the same
	// content under a path the base does not exclude.
	excluded := append([]string(nil), sc.binary...)
	for _, sk := range res.Skipped {
		if !sk.Unreadable && x.sendable.WhyPath(sk.Path) == "" && slices.ContainsFunc(sc.anchor, func(f diff.File) bool { return f.Path() == sk.Path }) && sc.blobs[sk.Path] != "" {
			excluded = append(excluded, sc.blobs[sk.Path])
		}
	}
	room := rmcoc.MaxBlobs
	var n, left int
	run.Blobs, n, left = rmcoc.PackBlobs(read, room)
	room -= n
	// What one block cannot hold goes to continuation blocks the run
	// posts after the review (postSpills); until they are found the review
	// counts as partial, and a run killed before them leaves those files
	// owed, which the next run reviews.
	x.spill = append([]string(nil), read[len(read)-left:]...)
	run.Spilled = left
	run.UnreviewedCount += sc.later
	run.BinaryBlobs, n, _ = rmcoc.PackBlobs(excluded, room)
	room -= n
	run.NoDiffBlobs, _, _ = rmcoc.PackBlobs(noDiff, room)
}

// blocksUnanchored reports whether the review found a blocking problem in
// path that no thread holds.
func blocksUnanchored(res review.Result, path string) bool {
	return slices.ContainsFunc(res.Findings, func(f review.Finding) bool { return f.Path == path && unanchoredBlock(f) })
}

// unanchoredBlock reports whether f blocks but no thread holds it.
func unanchoredBlock(f review.Finding) bool { return f.Demoted || f.Blocking && !f.Inline }

// addRef files a request's id under its kind: a review body, a workflow
// run, or a comment.
func addRef(ref state.Ref, reviews, runs, comments *[]rmcoc.ID) {
	switch ref.Source {
	case state.SourceReview:
		*reviews = append(*reviews, rmcoc.ID(ref.ID))
	case state.SourceDispatch:
		*runs = append(*runs, rmcoc.ID(ref.ID))
	case state.SourceIssueComment, state.SourceReviewComment:
		*comments = append(*comments, rmcoc.ID(ref.ID))
	}
}

// summary is the body's heading: what was found, in which review of which
// head, over how many files and passes.
func (x *reviewRunner) summary(b *strings.Builder, rt *detector.ReviewTask, res review.Result, sc scope) {
	blocking, other := res.Blocking(), len(res.Findings)-res.Blocking()
	switch {
	case len(res.Findings) == 0:
		fmt.Fprintf(b, "## ✅ review-my-code-bot: no problems found\n\nI reviewed `%.7s` and found nothing worth reporting at score %d or above.", rt.HeadSHA, x.Options.Review.ProblemThreshold)
	case blocking > 0:
		fmt.Fprintf(b, "## 🔴 review-my-code-bot: %d blocking, %d other finding(s)", blocking, other)
	default:
		fmt.Fprintf(b, "## 🟡 review-my-code-bot: %d finding(s), none blocking", other)
	}
	mode := "automatic review"
	if rt.Mode == rmcoc.ModeManual {
		mode = "manual review (informational)"
	}
	passes := len(x.Options.Review.EnabledPasses())
	fmt.Fprintf(b, "\n\n%s of `%.7s` · %s · %d file(s) reviewed by each of %d passes", mode, rt.HeadSHA, sc.note, len(res.Reviewed), passes)
	if n := len(res.Unreviewed); n > 0 {
		fmt.Fprintf(b, ", %d not reviewed yet", n)
	}
	if len(res.Findings) > 0 {
		fmt.Fprintf(b, "\n\n| Severity | Count |\n|---|---|\n| 🔴 blocking (score ≥ %d) | %d |\n| 🟡 should fix (score ≥ %d) | %d |", x.Options.Review.BlockingThreshold, blocking, x.Options.Review.ProblemThreshold, other)
	}
	if rt.Mode == rmcoc.ModeAuto && blocking > 0 {
		b.WriteString("\n\nBlocking findings hold the merge gate (`rmc/merge-gate`) until they are fixed, or conceded after a reply in their thread.")
	}
}

// inline is the review's inline comments, and the findings that go in the
// body instead.
func (x *reviewRunner) inline(findings []review.Finding, head string) (comments []snapshot.NewReviewComment, inBody []review.Finding) {
	for _, f := range findings {
		if !f.Inline {
			inBody = append(inBody, f)
			continue
		}
		c := snapshot.NewReviewComment{Path: f.Path, Line: f.Line, Side: strings.ToUpper(string(f.Side)), Body: x.findingBody(f, head)}
		if f.StartLine > 0 {
			c.StartLine, c.StartSide = f.StartLine, c.Side
		}
		comments = append(comments, c)
	}
	return comments, inBody
}

// bodyFindings lists the findings that could not go inline. One that
// blocks, on a file GitHub sent no diff for (built), keeps the file unread
// (ledgerOf), and the body says the gate waits on it.
func (x *reviewRunner) bodyFindings(b *strings.Builder, inBody []review.Finding, built map[string]bool) {
	if len(inBody) == 0 {
		return
	}
	fmt.Fprintf(b, "\n\n### Findings not placed inline (%d)\n\nThese are on lines outside the diff or past the limit of inline comments. They inform but do not hold the merge gate, since they have no thread to answer in.", len(inBody))
	if slices.ContainsFunc(inBody, func(f review.Finding) bool { return built[f.Path] && unanchoredBlock(f) }) {
		b.WriteString(" A blocking one on a file GitHub sent no diff for (too large, or past its list of files) keeps that file unreviewed, and the gate pending, until the file changes.")
	}
	b.WriteString("\n")
	for _, f := range inBody {
		where := sanitize.Code(f.Path)
		if f.Line > 0 {
			where = sanitize.Code(fmt.Sprintf("%s:%d", f.Path, f.Line))
		}
		sev := severity(f)
		if f.Demoted {
			sev = "🟠"
		}
		fmt.Fprintf(b, "\n- %s **%s** %s (score %d, %s): %s", sev, x.fromModelLine(f.Title), where, f.Score, sanitize.Name(f.Category), x.fromModelLine(f.Explanation))
	}
}

// notes close the body: the files not reviewed and why, and the findings a
// learning set aside (before the state section, which must trail).
func (x *reviewRunner) notes(b *strings.Builder, res review.Result) {
	if len(res.Skipped) > 0 {
		fmt.Fprintf(b, "\n\n<details><summary>Not reviewed (%d)</summary>\n\n", len(res.Skipped))
		for _, s := range res.Skipped {
			fmt.Fprintf(b, "- %s: %s\n", sanitize.Code(s.Path), sanitize.RelayLine(s.Why))
		}
		b.WriteString("\n</details>")
	}
	if note := suppressedNote(res.Suppressed); note != "" {
		fmt.Fprintf(b, "\n\n📚 %s.%s", note, x.suppressedList(res.Suppressed))
	}
	if _, note := Calibration(x.Options.Learnings, x.Options.Run); note != "" {
		fmt.Fprintf(b, "\n\n🎯 %s", note)
	}
}

// findingText is what a finding's inline comment says: the model's text
// vetted and relayed. A suggestion is offered only where GitHub can apply
// it: on the line the model named, on the new side.
func (x *reviewRunner) findingText(f review.Finding) FindingText {
	t := FindingText{Title: x.fromModelLine(f.Title), Category: sanitize.Name(f.Category), Score: f.Score, Blocking: f.Blocking,
		Explanation: strings.TrimSpace(x.fromModel(f.Explanation)), Moved: f.Moved}
	if s := strings.TrimRight(f.Suggestion, "\n"); s != "" && f.Moved == 0 && f.Side == diff.Right {
		t.Suggestion = sanitize.Text(s)
	}
	return t
}

// findingTextAt is findingText with what the finding's block says of a
// fix loop: the comment says it sits on lines a fix wrote.
func (x *reviewRunner) findingTextAt(f review.Finding, head string) FindingText {
	t := x.findingText(f)
	if l, ok := x.loopOf(f, head); ok {
		t.OnFix, t.OnSuggestion = l.FindingID, l.Own
	}
	return t
}

// findingBody is one inline comment.
func (x *reviewRunner) findingBody(f review.Finding, head string) string {
	return x.compose(x.findingTextAt(f, head).Render(), x.findingBlock(f, head))
}

func (x *reviewRunner) findingBlock(f review.Finding, head string) rmcoc.Finding {
	b := rmcoc.Finding{ID: "f-" + f.Fingerprint[:12], Fingerprint: f.Fingerprint, Path: f.Path, Line: f.Line, StartLine: f.StartLine,
		Side: strings.ToUpper(string(f.Side)), Title: f.Title, Category: f.Category, Score: f.Score, Blocking: f.Blocking,
		Status: rmcoc.FindingOpen, HeadSHA: head, Pass: f.Pass, CreatedAt: x.now(), Blob: gate.Key(x.blobs[f.Path])}
	if l, ok := x.loopOf(f, head); ok {
		b.OnFix, b.OnSuggestion = l.FindingID, l.Own
	}
	return b
}

// loopOf is the verified fix whose lines f sits on at head, if any: f is
// then a finding on a fix (a fix loop).
func (x *reviewRunner) loopOf(f review.Finding, head string) (precision.Loop, bool) {
	if x.fixes == nil || f.Side != diff.Right {
		return precision.Loop{}, false
	}
	return precision.On(x.fixes.wrote, f.Path, head, f.StartLine, f.Line)
}

// agentFindingOf is a blocking finding this run posted, for the agent
// notice: its text is the FindingText, or, when the poster changed the
// prose on its way out (a redaction, a defanged fence, a cut), what the
// posted comment says, as a later run would read it.
func (x *reviewRunner) agentFindingOf(f review.Finding, head string) AgentFinding {
	t := x.findingTextAt(f, head)
	text, prose := t.Notice(), t.Render()
	if body := x.compose(prose, x.findingBlock(f, head)); rmcoc.Strip(body) != prose {
		text = findingNotice(body)
	}
	return AgentFinding{Path: f.Path, StartLine: f.StartLine, Line: f.Line, Side: f.Side, Title: f.Title, Text: text, Score: f.Score}
}

func severity(f review.Finding) string {
	if f.Blocking {
		return "🔴"
	}
	return "🟡"
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
