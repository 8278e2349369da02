package state_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

var handles = []string{"@review-my-code-bot", "@rmc-bot"}

var (
	// bot is who a run derives the state as: the GITHUB_TOKEN identity,
	// spelled the way REST and the configuration spell it.
	bot = snapshot.NewActor("github-actions[bot]", "")
	// botAuthor is the same account as GraphQL reports a comment's author.
	botAuthor = snapshot.NewActor("github-actions", "Bot")
	alice     = snapshot.NewActor("alice", "User")
	bob       = snapshot.NewActor("bob", "User")
	// maria maintains the repository: her resolution of a thread counts.
	maria    = snapshot.NewActor("maria", "User")
	renovate = snapshot.NewActor("renovate[bot]", "")
)

const (
	shaA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	shaB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// pr builds a snapshot for table tests. Ids are given explicitly so a case
// reads like the PR it describes; every object is one minute newer than the
// one added before it, whatever its kind.
type pr struct {
	snap snapshot.Snapshot
	now  time.Time
}

func newPR() *pr {
	return &pr{
		snap: snapshot.Snapshot{
			Repo:   snapshot.Repo{Owner: "o", Name: "r"},
			PR:     snapshot.PullRequest{Number: 7, State: "OPEN", HeadSHA: shaA, BaseSHA: "base", Author: alice},
			Viewer: botAuthor,
		},
		now: t0,
	}
}

func (p *pr) tick() time.Time {
	p.now = p.now.Add(time.Minute)
	return p.now
}

// comment adds a conversation comment.
func (p *pr) comment(id int64, by snapshot.Actor, body string) {
	at := p.tick()
	p.snap.IssueComments = append(p.snap.IssueComments, snapshot.Comment{ID: id, Author: by, Association: assoc(by), Body: body, CreatedAt: at, UpdatedAt: at,
		URL: fmt.Sprintf("https://github.com/o/r/pull/7#issuecomment-%d", id)})
}

// review adds a submitted review with a body.
func (p *pr) review(id int64, by snapshot.Actor, body string) {
	p.snap.Reviews = append(p.snap.Reviews, snapshot.Review{ID: id, Author: by, State: "COMMENTED", Body: body, CommitSHA: shaA, SubmittedAt: p.tick()})
}

// thread adds a developer's review thread on util.go:3 with its root comment.
func (p *pr) thread(tid string, id int64, by snapshot.Actor, body string) {
	p.snap.Threads = append(p.snap.Threads, snapshot.Thread{ID: tid, Path: "util.go", Line: 3, DiffSide: "RIGHT",
		Comments: []snapshot.ReviewComment{{Comment: snapshot.Comment{ID: id, Author: by, Association: assoc(by), Body: body, CreatedAt: p.tick()}, Path: "util.go", Line: 3, DiffHunk: "@@ -1,3 +1,4 @@"}}})
}

// finding adds the bot's finding thread on main.go:10.
func (p *pr) finding(tid string, id int64, f rmcoc.Finding) {
	p.snap.Threads = append(p.snap.Threads, snapshot.Thread{ID: tid, Path: "main.go", Line: 10, DiffSide: "RIGHT",
		Comments: []snapshot.ReviewComment{{Comment: snapshot.Comment{ID: id, Author: botAuthor, Association: assoc(botAuthor), Body: with(f.Title, f), CreatedAt: p.tick()}, Path: "main.go", Line: 10}}})
}

// reply adds a reply to thread tid.
func (p *pr) reply(tid string, id int64, by snapshot.Actor, body string) {
	t := p.find(tid)
	t.Comments = append(t.Comments, snapshot.ReviewComment{Comment: snapshot.Comment{ID: id, Author: by, Association: assoc(by), Body: body, CreatedAt: p.tick()},
		ReplyToID: t.Comments[0].ID, Path: t.Path, DiffHunk: t.Comments[0].DiffHunk})
}

// resolve resolves thread tid as a maintainer.
func (p *pr) resolve(tid string) { p.resolveAs(tid, maria) }

func (p *pr) resolveAs(tid string, by snapshot.Actor) {
	t := p.find(tid)
	t.IsResolved, t.ResolvedBy = true, &by
}

func (p *pr) find(tid string) *snapshot.Thread {
	for i := range p.snap.Threads {
		if p.snap.Threads[i].ID == tid {
			return &p.snap.Threads[i]
		}
	}
	panic("no thread " + tid)
}

// with is prose followed by blocks, as the bot writes its comments.
func with(prose string, blocks ...rmcoc.Block) string {
	for _, b := range blocks {
		prose += "\n\n" + rmcoc.Render(b)
	}
	return prose
}

func derive(p *pr, as snapshot.Actor) state.State {
	if as == (snapshot.Actor{}) {
		as = bot
	}
	return state.Derive(p.snap, state.Options{Bot: as, Handles: handles, Writers: map[string]bool{"maria": true, "alice": true, "bob": false}})
}

// describe renders a state one fact per line, so a case states everything
// Derive found, and anything extra fails it.
func describe(st state.State) []string {
	var out []string
	for _, m := range st.Mentions {
		line := fmt.Sprintf("mention %s by @%s %s %q", m.Ref, m.Author.Login, m.Handle, m.Text)
		if th := m.Thread; th != nil {
			line += fmt.Sprintf(" thread=%s@%s:%d reply_to=%d hunk=%q", th.ID, th.Path, th.Line, th.ReplyTo, th.DiffHunk)
		}
		if m.Handled != "" {
			line += " handled=" + string(m.Handled)
		}
		if m.Placeholder != 0 {
			line += fmt.Sprintf(" placeholder=%d", m.Placeholder)
		}
		out = append(out, line)
	}
	for _, f := range st.Findings {
		line := fmt.Sprintf("finding %s thread=%s root=%d status=%s", f.Block.ID, f.Thread.ID, f.RootCommentID, f.Status)
		switch {
		case f.Blocks():
			line += " blocks"
		case f.Open():
			line += " open"
		default:
			line += " closed"
		}
		for _, r := range f.PendingReplies {
			line += fmt.Sprintf(" pending=%d", r.ID)
		}
		if f.LastResolution != nil {
			line += " last=" + string(f.LastResolution.Resolution)
		}
		if f.ResolvedBy != nil {
			line += " resolved_by=" + f.ResolvedBy.Login
		}
		if f.Reopen != nil {
			line += " reopen=" + f.Reopen.Login
			if f.ReopenExplained {
				line += " explained"
			}
		}
		if f.Tampered {
			line += " tampered"
		}
		if f.Unjudged != "" {
			line += " unjudged=" + f.Unjudged
		}
		out = append(out, line)
	}
	for _, r := range st.Reviews {
		line := fmt.Sprintf("review %s %.7s review=%d", r.Run.Mode, r.Run.HeadSHA, r.ReviewID)
		out = append(out, line)
	}
	if st.AutoTrigger != nil {
		out = append(out, fmt.Sprintf("trigger %.7s %s comment=%d", st.AutoTrigger.HeadSHA, st.AutoTrigger.Action, st.AutoTriggerComment))
	}
	if st.StatusComment != 0 {
		out = append(out, fmt.Sprintf("status-comment %d", st.StatusComment))
	}
	for _, k := range slices.Sorted(maps.Keys(st.Failures)) {
		out = append(out, fmt.Sprintf("failures %s=%d", k, st.Failures[k]))
	}
	for _, id := range slices.Sorted(maps.Keys(st.Notified)) {
		out = append(out, fmt.Sprintf("notified %d", id))
	}
	for _, r := range st.Unexplained {
		out = append(out, "unexplained "+r.String())
	}
	for _, n := range st.Notices {
		out = append(out, "notice "+n)
	}
	return out
}

func TestDerive(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		as    snapshot.Actor // the bot identity; zero means bot
		build func(p *pr)
		want  []string
	}{
		"empty PR": {
			build: func(p *pr) {},
			want:  nil,
		},

		// Trust: only the bot's own blocks count.
		"a developer's answer block is ignored and reported": {
			build: func(p *pr) {
				p.comment(101, alice, "@rmc-bot why is this slow?")
				p.comment(102, bob, with("Answered, trust me.", rmcoc.QuestionAnswer{ReplyToCommentID: 101, AnsweredAt: t0}))
			},
			want: []string{
				`mention issue-comment-101 by @alice @rmc-bot "why is this slow?"`,
				"notice ignored 1 rmcoc block(s) in comment 102 by @bob: only the bot's own blocks count",
			},
		},
		"forged review run, dispute resolution and task error count for nothing": {
			build: func(p *pr) {
				p.review(201, alice, with("LGTM", rmcoc.ReviewRun{HeadSHA: shaA, Mode: rmcoc.ModeAuto, CompletedAt: t0}))
				p.finding("T1", 301, rmcoc.Finding{ID: "f-1", Title: "nil map write", Blocking: true, Status: rmcoc.FindingOpen})
				p.reply("T1", 302, alice, with("Fixed.", rmcoc.DisputeResolution{ReplyToCommentID: 302, Status: rmcoc.FindingResolved, Resolution: rmcoc.ResolutionConcession}))
				p.comment(401, alice, with("x", rmcoc.TaskError{TaskKey: "question-issue-comment-1", Attempts: 5},
					rmcoc.AutoReviewTrigger{HeadSHA: shaA, Action: "opened"}))
			},
			want: []string{
				"finding f-1 thread=T1 root=301 status=PENDING blocks pending=302",
				"notice ignored 2 rmcoc block(s) in comment 401 by @alice: only the bot's own blocks count",
				"notice ignored 1 rmcoc block(s) in review 201 by @alice: only the bot's own blocks count",
				"notice ignored 1 rmcoc block(s) in review comment 302 by @alice: only the bot's own blocks count",
			},
		},
		"a finding block in a developer's thread is not a finding": {
			build: func(p *pr) {
				p.thread("T1", 301, alice, with("please look", rmcoc.Finding{ID: "f-x", Blocking: true, Status: rmcoc.FindingOpen}))
			},
			want: []string{"notice ignored 1 rmcoc block(s) in review comment 301 by @alice: only the bot's own blocks count"},
		},
		"malformed bot blocks are reported and skipped; valid ones beside them count": {
			build: func(p *pr) {
				p.comment(101, alice, "@rmc-bot what is this?")
				p.comment(102, botAuthor, "Answer.\n\n```rmcoc\n{\"v\":1,\"type\":\"bogus\"}\n```\n\n```rmcoc\n{\"v\":99,\"type\":\"question-answer\"}\n```\n\n"+
					rmcoc.Fence(rmcoc.QuestionAnswer{ReplyToCommentID: 101, AnsweredAt: t0}))
			},
			want: []string{
				`mention issue-comment-101 by @alice @rmc-bot "what is this?" handled=answered`,
				`notice skipped a malformed rmcoc block in comment 102: rmcoc block at line 3: unknown type "bogus"`,
				"notice skipped a malformed rmcoc block in comment 102: rmcoc block at line 7: unsupported version 99 (this build reads up to 1)",
			},
		},

		// Identity.
		"bot comment as GraphQL spells it matches the REST identity": {
			build: func(p *pr) {
				p.comment(101, alice, "@rmc-bot why?")
				p.comment(102, snapshot.NewActor("github-actions", "Bot"), with("Because.", rmcoc.QuestionAnswer{ReplyToCommentID: 101, AnsweredAt: t0}))
			},
			want: []string{`mention issue-comment-101 by @alice @rmc-bot "why?" handled=answered`},
		},
		"bot comment as REST spells it matches too": {
			build: func(p *pr) {
				p.comment(101, alice, "@rmc-bot why?")
				p.comment(102, snapshot.NewActor("github-actions[bot]", ""), with("Because.", rmcoc.QuestionAnswer{ReplyToCommentID: 101, AnsweredAt: t0}))
			},
			want: []string{`mention issue-comment-101 by @alice @rmc-bot "why?" handled=answered`},
		},
		"a configured user identity matches case-insensitively; github-actions is then untrusted": {
			as: snapshot.NewActor("rmc-bot", ""),
			build: func(p *pr) {
				p.comment(101, alice, "@rmc-bot why?")
				p.comment(102, snapshot.NewActor("RMC-Bot", "User"), with("Because.", rmcoc.QuestionAnswer{ReplyToCommentID: 101, AnsweredAt: t0}))
				p.comment(103, alice, "@rmc-bot and this?")
				p.comment(104, botAuthor, with("Because.", rmcoc.QuestionAnswer{ReplyToCommentID: 103, AnsweredAt: t0}))
			},
			want: []string{
				`mention issue-comment-101 by @alice @rmc-bot "why?" handled=answered`,
				`mention issue-comment-103 by @alice @rmc-bot "and this?"`,
				"notice ignored 1 rmcoc block(s) in comment 104 by @github-actions: only the bot's own blocks count",
			},
		},

		// Questions.
		"an in-progress placeholder is reused, not an answer": {
			build: func(p *pr) {
				p.comment(101, alice, "@rmc-bot explain the retry loop")
				p.comment(102, botAuthor, with("⏳ looking", rmcoc.QuestionAnswer{ReplyToCommentID: 101, Status: rmcoc.AnswerInProgress, AnsweredAt: t0}))
			},
			want: []string{`mention issue-comment-101 by @alice @rmc-bot "explain the retry loop" placeholder=102`},
		},
		"a failed answer keeps the question pending and counts its attempts": {
			build: func(p *pr) {
				p.comment(101, alice, "@rmc-bot explain")
				p.comment(102, botAuthor, with("⚠️ failed", rmcoc.QuestionAnswer{ReplyToCommentID: 101, Status: rmcoc.AnswerFailed, AnsweredAt: t0},
					rmcoc.TaskError{TaskKey: "question-issue-comment-101", Message: "x", Attempts: 2}))
			},
			want: []string{
				`mention issue-comment-101 by @alice @rmc-bot "explain" placeholder=102`,
				"failures question-issue-comment-101=2",
			},
		},
		"an answer handles the question even after a placeholder": {
			build: func(p *pr) {
				p.comment(101, alice, "@rmc-bot explain")
				p.comment(102, botAuthor, with("⏳", rmcoc.QuestionAnswer{ReplyToCommentID: 101, Status: rmcoc.AnswerInProgress, AnsweredAt: t0}))
				p.comment(103, botAuthor, with("Here.", rmcoc.QuestionAnswer{ReplyToCommentID: 101, Status: rmcoc.AnswerAnswered, AnsweredAt: t0}))
			},
			want: []string{`mention issue-comment-101 by @alice @rmc-bot "explain" handled=answered`},
		},
		"the first placeholder wins": {
			build: func(p *pr) {
				p.comment(101, alice, "@rmc-bot explain")
				p.comment(102, botAuthor, with("⚠️", rmcoc.QuestionAnswer{ReplyToCommentID: 101, Status: rmcoc.AnswerFailed, AnsweredAt: t0}))
				p.comment(103, botAuthor, with("⏳", rmcoc.QuestionAnswer{ReplyToCommentID: 101, Status: rmcoc.AnswerInProgress, AnsweredAt: t0}))
			},
			want: []string{`mention issue-comment-101 by @alice @rmc-bot "explain" placeholder=102`},
		},
		"a thread question is answered in its thread": {
			build: func(p *pr) {
				p.thread("PRRT_a", 201, alice, "@rmc-bot does this loop terminate?")
				p.reply("PRRT_a", 202, botAuthor, with("Yes.", rmcoc.QuestionAnswer{ReplyToCommentID: 201, ThreadID: "PRRT_a", AnsweredAt: t0}))
			},
			want: []string{`mention review-comment-201 by @alice @rmc-bot "does this loop terminate?" thread=PRRT_a@util.go:3 reply_to=201 hunk="@@ -1,3 +1,4 @@" handled=answered`},
		},
		"a reply in a developer thread replies to the thread's root; its placeholder is a review comment": {
			build: func(p *pr) {
				p.thread("PRRT_b", 201, bob, "this is odd")
				p.reply("PRRT_b", 202, alice, "@rmc-bot is it?")
				p.reply("PRRT_b", 203, botAuthor, with("⏳", rmcoc.QuestionAnswer{ReplyToCommentID: 202, ThreadID: "PRRT_b", Status: rmcoc.AnswerInProgress, AnsweredAt: t0}))
			},
			want: []string{`mention review-comment-202 by @alice @rmc-bot "is it?" thread=PRRT_b@util.go:3 reply_to=201 hunk="@@ -1,3 +1,4 @@" placeholder=203`},
		},
		"id spaces are separate: an answer for review 500 answers neither comment 500": {
			build: func(p *pr) {
				p.comment(500, alice, "@rmc-bot first?")
				p.review(500, bob, "@review-my-code-bot second?")
				p.thread("PRRT_c", 500, alice, "@rmc-bot third?")
				p.comment(501, botAuthor, with("Answer.", rmcoc.QuestionAnswer{ReplyToCommentID: 500, Source: rmcoc.SourceReview, AnsweredAt: t0}))
			},
			want: []string{
				`mention issue-comment-500 by @alice @rmc-bot "first?"`,
				`mention review-500 by @bob @review-my-code-bot "second?" handled=answered`,
				`mention review-comment-500 by @alice @rmc-bot "third?" thread=PRRT_c@util.go:3 reply_to=500 hunk="@@ -1,3 +1,4 @@"`,
			},
		},

		// Manual review requests.
		"a completed manual request is reviewed": {
			build: func(p *pr) {
				p.comment(101, alice, "@rmc-bot review")
				p.comment(102, botAuthor, with("✅ done", rmcoc.ManualReview{RequestCommentID: 101, Status: rmcoc.ManualCompleted, HeadSHA: shaA}))
			},
			want: []string{`mention issue-comment-101 by @alice @rmc-bot "review" handled=reviewed`},
		},
		"a manual request in progress is pending with its status comment as placeholder": {
			build: func(p *pr) {
				p.comment(101, alice, "@rmc-bot review")
				p.comment(102, botAuthor, with("🔍 reviewing", rmcoc.ManualReview{RequestCommentID: 101, Status: rmcoc.ManualInProgress, HeadSHA: shaA}))
			},
			want: []string{`mention issue-comment-101 by @alice @rmc-bot "review" placeholder=102`},
		},
		"a manual request in a review body completed by a review-sourced block": {
			build: func(p *pr) {
				p.review(201, alice, "@rmc-bot review please")
				p.comment(202, botAuthor, with("✅ done", rmcoc.ManualReview{RequestCommentID: 201, Source: rmcoc.SourceReview, Status: rmcoc.ManualCompleted}))
			},
			want: []string{`mention review-201 by @alice @rmc-bot "review please" handled=reviewed`},
		},
		"a request listed in a review run is reviewed; a run in a comment has no review id": {
			build: func(p *pr) {
				p.comment(101, alice, "@rmc-bot review")
				p.review(102, botAuthor, with("## review", rmcoc.ReviewRun{HeadSHA: shaA, Mode: rmcoc.ModeManual, RequestCommentIDs: []rmcoc.ID{101}, CompletedAt: t0}))
				p.comment(103, botAuthor, with("## review", rmcoc.ReviewRun{HeadSHA: shaB, Mode: rmcoc.ModeManual, CompletedAt: t0}))
			},
			want: []string{
				`mention issue-comment-101 by @alice @rmc-bot "review" handled=reviewed`,
				"review manual bbbbbbb review=0",
				"review manual aaaaaaa review=102",
			},
		},
		"a dismissed request with its explanation": {
			build: func(p *pr) {
				p.comment(101, alice, "@rmc-bot review")
				p.review(102, botAuthor, with("## review", rmcoc.ReviewRun{HeadSHA: shaA, Mode: rmcoc.ModeAuto, DismissedRequestIDs: []rmcoc.ID{101}, CompletedAt: t0}))
				p.comment(103, botAuthor, with("ℹ️ dismissed", rmcoc.ManualReview{RequestCommentID: 101, Status: rmcoc.ManualDismissed, DismissedBy: "auto-pr-review"}))
			},
			want: []string{
				`mention issue-comment-101 by @alice @rmc-bot "review" handled=dismissed`,
				"review auto aaaaaaa review=102",
			},
		},
		"dismissed requests without an explanation are Unexplained, by id": {
			build: func(p *pr) {
				p.comment(101, alice, "@rmc-bot review")
				p.comment(103, bob, "@rmc-bot full review")
				p.comment(105, bob, "@rmc-bot review")
				p.review(106, botAuthor, with("## review", rmcoc.ReviewRun{HeadSHA: shaA, Mode: rmcoc.ModeAuto, DismissedRequestIDs: []rmcoc.ID{105, 101, 103}, CompletedAt: t0}))
				p.comment(107, botAuthor, with("ℹ️ dismissed", rmcoc.ManualReview{RequestCommentID: 103, Status: rmcoc.ManualDismissed}))
			},
			want: []string{
				`mention issue-comment-101 by @alice @rmc-bot "review" handled=dismissed`,
				`mention issue-comment-103 by @bob @rmc-bot "full review" handled=dismissed`,
				`mention issue-comment-105 by @bob @rmc-bot "review" handled=dismissed`,
				"review auto aaaaaaa review=106",
				"unexplained issue-comment-101",
				"unexplained issue-comment-105",
			},
		},

		// Findings.
		"an open finding: developer replies are pending, other bots' are not": {
			build: func(p *pr) {
				p.finding("T1", 301, rmcoc.Finding{ID: "f-1", Title: "nil map write", Blocking: true, Status: rmcoc.FindingOpen})
				p.reply("T1", 302, alice, "I disagree")
				p.reply("T1", 303, renovate, "bump")
			},
			want: []string{"finding f-1 thread=T1 root=301 status=PENDING blocks pending=302"},
		},
		"replies older than the bot's last reply are answered; newer ones are pending": {
			build: func(p *pr) {
				p.finding("T1", 301, rmcoc.Finding{ID: "f-1", Blocking: true, Status: rmcoc.FindingOpen})
				p.reply("T1", 302, alice, "wrong")
				p.reply("T1", 303, botAuthor, with("No.", rmcoc.DisputeResolution{ReplyToCommentID: 302, Status: rmcoc.FindingDisputed, Resolution: rmcoc.ResolutionMaintained}))
				p.reply("T1", 304, alice, "still wrong")
				p.reply("T1", 305, bob, "+1")
			},
			want: []string{"finding f-1 thread=T1 root=301 status=DISPUTED blocks pending=304 pending=305 last=maintained"},
		},
		"the latest dispute block sets the status": {
			build: func(p *pr) {
				p.finding("T1", 301, rmcoc.Finding{ID: "f-1", Blocking: true, Status: rmcoc.FindingOpen})
				p.reply("T1", 302, alice, "wrong")
				p.reply("T1", 303, botAuthor, with("No.", rmcoc.DisputeResolution{ReplyToCommentID: 302, Status: rmcoc.FindingDisputed, Resolution: rmcoc.ResolutionMaintained}))
				p.reply("T1", 304, alice, "ok, will fix")
				p.reply("T1", 305, botAuthor, with("Thanks.", rmcoc.DisputeResolution{ReplyToCommentID: 304, Status: rmcoc.FindingAcknowledged, Resolution: rmcoc.ResolutionAcknowledged}))
			},
			want: []string{"finding f-1 thread=T1 root=301 status=ACKNOWLEDGED blocks last=acknowledged"},
		},
		"a concession closes the finding though the thread stays unresolved": {
			build: func(p *pr) {
				p.finding("T1", 301, rmcoc.Finding{ID: "f-1", Blocking: true, Status: rmcoc.FindingOpen})
				p.reply("T1", 302, alice, "guarded by mu")
				p.reply("T1", 303, botAuthor, with("Right.", rmcoc.DisputeResolution{ReplyToCommentID: 302, Status: rmcoc.FindingResolved, Resolution: rmcoc.ResolutionConcession}))
			},
			want: []string{"finding f-1 thread=T1 root=301 status=RESOLVED closed last=concession"},
		},
		"a resolved thread is RESOLVED whatever its blocks say, with nothing pending": {
			build: func(p *pr) {
				p.finding("T1", 301, rmcoc.Finding{ID: "f-1", Blocking: true, Status: rmcoc.FindingOpen})
				p.reply("T1", 302, alice, "wrong")
				p.reply("T1", 303, botAuthor, with("No.", rmcoc.DisputeResolution{ReplyToCommentID: 302, Status: rmcoc.FindingDisputed, Resolution: rmcoc.ResolutionMaintained}))
				p.reply("T1", 304, alice, "still wrong")
				p.resolve("T1")
			},
			want: []string{"finding f-1 thread=T1 root=301 status=RESOLVED closed last=maintained resolved_by=maria"},
		},
		"the PR's author resolving a blocking finding does not close it, even with write access": {
			build: func(p *pr) {
				p.finding("T1", 301, rmcoc.Finding{ID: "f-1", Blocking: true, Status: rmcoc.FindingOpen})
				p.resolveAs("T1", alice)
			},
			want: []string{"finding f-1 thread=T1 root=301 status=PENDING blocks reopen=alice"},
		},
		"a resolution by someone without write access, or by nobody GitHub names, does not count": {
			build: func(p *pr) {
				p.finding("T1", 301, rmcoc.Finding{ID: "f-1", Blocking: true, Status: rmcoc.FindingOpen})
				p.resolveAs("T1", bob)
				p.finding("T2", 302, rmcoc.Finding{ID: "f-2", Blocking: true, Status: rmcoc.FindingOpen})
				p.find("T2").IsResolved = true
			},
			want: []string{
				"finding f-1 thread=T1 root=301 status=PENDING blocks reopen=bob",
				"finding f-2 thread=T2 root=302 status=PENDING blocks reopen=",
			},
		},
		"a resolver whose permission is not known yet leaves the finding blocking, to be judged": {
			build: func(p *pr) {
				p.finding("T1", 301, rmcoc.Finding{ID: "f-1", Blocking: true, Status: rmcoc.FindingOpen})
				p.resolveAs("T1", snapshot.NewActor("carol", "User"))
			},
			want: []string{"finding f-1 thread=T1 root=301 status=PENDING blocks unjudged=carol"},
		},
		"a user account named like the bot is not the bot": {
			build: func(p *pr) {
				p.finding("T1", 301, rmcoc.Finding{ID: "f-1", Blocking: true, Status: rmcoc.FindingOpen})
				p.reply("T1", 302, snapshot.NewActor("github-actions", "User"), with("Fixed.", rmcoc.DisputeResolution{ReplyToCommentID: 302, Status: rmcoc.FindingResolved, Resolution: rmcoc.ResolutionFixed}))
				p.resolveAs("T1", snapshot.NewActor("github-actions", "User"))
			},
			want: []string{"finding f-1 thread=T1 root=301 status=PENDING blocks pending=302 unjudged=github-actions",
				`notice ignored 1 rmcoc block(s) in review comment 302 by @github-actions: only the bot's own blocks count`},
		},
		"anyone may close a finding that does not block": {
			build: func(p *pr) {
				p.finding("T1", 301, rmcoc.Finding{ID: "f-1", Blocking: false, Status: rmcoc.FindingOpen})
				p.resolveAs("T1", alice)
			},
			want: []string{"finding f-1 thread=T1 root=301 status=RESOLVED closed"},
		},
		"the bot's own resolution counts whoever GitHub says resolved the thread": {
			build: func(p *pr) {
				p.finding("T1", 301, rmcoc.Finding{ID: "f-1", Blocking: true, Status: rmcoc.FindingOpen})
				p.reply("T1", 302, alice, "mu guards it")
				p.reply("T1", 303, botAuthor, with("Right.", rmcoc.DisputeResolution{ReplyToCommentID: 302, Status: rmcoc.FindingResolved, Resolution: rmcoc.ResolutionConcession}))
				p.resolveAs("T1", botAuthor)
			},
			want: []string{"finding f-1 thread=T1 root=301 status=RESOLVED closed last=concession"},
		},
		"a reopen notice answers no reply and changes no status; a resolution after it without a word is the same one": {
			build: func(p *pr) {
				p.finding("T1", 301, rmcoc.Finding{ID: "f-1", Blocking: true, Status: rmcoc.FindingOpen})
				p.reply("T1", 302, alice, "done, I think")
				p.reply("T1", 303, botAuthor, with("Reopened.", rmcoc.DisputeResolution{Status: rmcoc.FindingOpen, Resolution: rmcoc.ResolutionReopened, ResolvedBy: "alice"}))
				p.resolveAs("T1", alice)
			},
			want: []string{"finding f-1 thread=T1 root=301 status=PENDING blocks pending=302 reopen=alice explained"},
		},
		"a word after the reopen notice makes the next resolution a new one": {
			build: func(p *pr) {
				p.finding("T1", 301, rmcoc.Finding{ID: "f-1", Blocking: true, Status: rmcoc.FindingOpen})
				p.reply("T1", 302, botAuthor, with("Reopened.", rmcoc.DisputeResolution{Status: rmcoc.FindingOpen, Resolution: rmcoc.ResolutionReopened, ResolvedBy: "alice"}))
				p.reply("T1", 303, alice, "ok")
				p.resolveAs("T1", alice)
			},
			want: []string{"finding f-1 thread=T1 root=301 status=PENDING blocks pending=303 reopen=alice"},
		},
		"a finding comment edited by someone else blocks whatever its block says": {
			build: func(p *pr) {
				p.finding("T1", 301, rmcoc.Finding{ID: "f-1", Blocking: false, Status: rmcoc.FindingResolved})
				p.find("T1").Comments[0].Editor = &maria
			},
			want: []string{"finding f-1 thread=T1 root=301 status=PENDING blocks tampered",
				`notice ignored the rmcoc blocks in review comment 301: @maria edited the bot's comment, so its state cannot be trusted`},
		},
		"a dispute answer edited by someone else keeps the last trusted status": {
			build: func(p *pr) {
				p.finding("T1", 301, rmcoc.Finding{ID: "f-1", Blocking: true, Status: rmcoc.FindingOpen})
				p.reply("T1", 302, alice, "wrong")
				p.reply("T1", 303, botAuthor, with("Conceded.", rmcoc.DisputeResolution{ReplyToCommentID: 302, Status: rmcoc.FindingResolved, Resolution: rmcoc.ResolutionConcession}))
				p.find("T1").Comments[2].Editor = &maria
			},
			want: []string{"finding f-1 thread=T1 root=301 status=PENDING blocks pending=302",
				`notice ignored the rmcoc blocks in review comment 303: @maria edited the bot's comment, so its state cannot be trusted`},
		},
		"a reply answered by a block outside the thread is not pending": {
			build: func(p *pr) {
				p.finding("T1", 301, rmcoc.Finding{ID: "f-1", Blocking: true, Status: rmcoc.FindingOpen})
				p.reply("T1", 302, alice, "wrong")
				p.comment(303, botAuthor, with("Answered.", rmcoc.DisputeResolution{ReplyToCommentID: 302, Status: rmcoc.FindingDisputed, Resolution: rmcoc.ResolutionMaintained}))
			},
			want: []string{"finding f-1 thread=T1 root=301 status=PENDING blocks"},
		},
		"a non-blocking finding, and one without a status, are open and PENDING": {
			build: func(p *pr) {
				p.finding("T1", 301, rmcoc.Finding{ID: "f-1", Blocking: false, Status: rmcoc.FindingOpen})
				p.finding("T2", 302, rmcoc.Finding{ID: "f-2", Blocking: true})
			},
			want: []string{
				"finding f-1 thread=T1 root=301 status=PENDING open",
				"finding f-2 thread=T2 root=302 status=PENDING blocks",
			},
		},
		"a mention in a finding thread is a dispute, not a question": {
			build: func(p *pr) {
				p.finding("T1", 301, rmcoc.Finding{ID: "f-1", Blocking: true, Status: rmcoc.FindingOpen})
				p.reply("T1", 302, alice, "@rmc-bot why is this blocking?")
			},
			want: []string{"finding f-1 thread=T1 root=301 status=PENDING blocks pending=302"},
		},

		// Failures, notices to the agent, triggers.
		"task errors sum their attempts by key, wherever the bot wrote them": {
			build: func(p *pr) {
				p.comment(101, botAuthor, with("⚠️", rmcoc.TaskError{TaskKey: "review-auto-aaaaaaa", Message: "x"}))
				p.comment(102, botAuthor, with("⚠️", rmcoc.TaskError{TaskKey: "review-auto-aaaaaaa", Message: "x", Attempts: 3}))
				p.review(103, botAuthor, with("⚠️", rmcoc.TaskError{TaskKey: "question-issue-comment-9", Message: "x", Attempts: 1}))
				p.comment(104, botAuthor, with("told the agent", rmcoc.AgentNotice{ReviewID: 900, Handle: "@coding-agent"}))
			},
			want: []string{
				"failures question-issue-comment-9=1",
				"failures review-auto-aaaaaaa=4",
				"notified 900",
			},
		},
		"the latest auto-review trigger wins; the status comment is the last holding one": {
			build: func(p *pr) {
				p.comment(101, botAuthor, with("🔍", rmcoc.AutoReviewTrigger{HeadSHA: shaB, Action: "synchronize", TriggeredAt: t0.Add(2 * time.Hour)}))
				p.comment(102, botAuthor, with("🔍", rmcoc.AutoReviewTrigger{HeadSHA: shaA, Action: "opened", TriggeredAt: t0.Add(time.Hour)}))
			},
			want: []string{
				"trigger bbbbbbb synchronize comment=101",
				"status-comment 102",
			},
		},

		// Which comments are mentions.
		"mentions in code, quotes and HTML comments are not counted": {
			build: func(p *pr) {
				p.comment(101, alice, "```\n@rmc-bot review\n```")
				p.comment(102, alice, "> @rmc-bot review\n\nthanks for the review")
				p.comment(103, alice, "the handle is `@rmc-bot`")
				p.comment(104, alice, "<!-- @rmc-bot review -->\nnothing to see")
				p.comment(105, alice, "mail me at alice@rmc-bot.io")
			},
			want: nil,
		},
		"the bot and other bots are never mentions": {
			build: func(p *pr) {
				p.comment(101, botAuthor, "Ask @rmc-bot anything.")
				p.comment(102, renovate, "@rmc-bot review")
				p.review(103, botAuthor, "@rmc-bot summary")
				p.thread("PRRT_d", 104, snapshot.NewActor("dependabot", "Bot"), "@rmc-bot why?")
			},
			want: nil,
		},
		"mentions are chronological across comments, reviews and threads": {
			build: func(p *pr) {
				p.thread("PRRT_e", 301, alice, "@rmc-bot a?")
				p.review(201, bob, "**@review-my-code-bot** b?")
				p.comment(101, alice, "c, @rmc-bot?")
			},
			want: []string{
				`mention review-comment-301 by @alice @rmc-bot "a?" thread=PRRT_e@util.go:3 reply_to=301 hunk="@@ -1,3 +1,4 @@"`,
				`mention review-201 by @bob @review-my-code-bot "b?"`,
				`mention issue-comment-101 by @alice @rmc-bot "c?"`,
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := newPR()
			tc.build(p)
			got := describe(derive(p, tc.as))
			if !slices.Equal(got, tc.want) {
				t.Errorf("Derive:\n got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

// TestDeriveKeepsWhatItReads pins the fields describe does not print.
func TestDeriveKeepsWhatItReads(t *testing.T) {
	t.Parallel()
	p := newPR()
	p.comment(101, alice, "@rmc-bot why\nis this slow?")
	p.finding("T1", 201, rmcoc.Finding{ID: "f-1", Title: "nil map", Path: "main.go", Line: 10, Score: 9, Blocking: true, Status: rmcoc.FindingOpen})
	p.reply("T1", 202, alice, "nope")
	st := derive(p, snapshot.Actor{})

	if st.Bot != bot {
		t.Errorf("Bot = %+v, want %+v", st.Bot, bot)
	}
	if len(st.Mentions) != 1 {
		t.Fatalf("mentions = %d, want 1", len(st.Mentions))
	}
	m := st.Mentions[0]
	if m.Body != "@rmc-bot why\nis this slow?" || m.URL != "https://github.com/o/r/pull/7#issuecomment-101" || !m.CreatedAt.Equal(t0.Add(time.Minute)) || m.Author != alice {
		t.Errorf("mention = %+v", m)
	}
	if len(st.Findings) != 1 {
		t.Fatalf("findings = %d, want 1", len(st.Findings))
	}
	f := st.Findings[0]
	if f.Block.Title != "nil map" || f.Block.Score != 9 || f.Thread.Path != "main.go" || len(f.Thread.Comments) != 2 {
		t.Errorf("finding = %+v", f)
	}
	if len(f.PendingReplies) != 1 || f.PendingReplies[0].Body != "nope" || f.PendingReplies[0].Author != alice {
		t.Errorf("pending replies = %+v", f.PendingReplies)
	}
	if st.Failures == nil || st.Notified == nil {
		t.Errorf("Failures and Notified must be usable maps, got %v and %v", st.Failures, st.Notified)
	}
}

func TestQueries(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		build        func(p *pr)
		reviewedA    bool // ReviewedAuto(shaA)
		enrolled     bool
		last         string // "mode sha7 review-id", "" for none
		openBlocking []string
		pending      []string
	}{
		"nothing": {
			build: func(p *pr) {},
		},
		"an auto review of A": {
			build: func(p *pr) {
				p.review(101, botAuthor, with("r", rmcoc.ReviewRun{HeadSHA: shaA, Mode: rmcoc.ModeAuto}))
			},
			reviewedA: true, enrolled: true, last: "auto aaaaaaa 101",
		},
		"a manual review of A is not an automatic one and does not enroll": {
			build: func(p *pr) {
				p.review(101, botAuthor, with("r", rmcoc.ReviewRun{HeadSHA: shaA, Mode: rmcoc.ModeManual}))
			},
			last: "manual aaaaaaa 101",
		},
		"an auto review of B only": {
			build: func(p *pr) {
				p.review(101, botAuthor, with("r", rmcoc.ReviewRun{HeadSHA: shaB, Mode: rmcoc.ModeAuto}))
			},
			enrolled: true, last: "auto bbbbbbb 101",
		},
		"a trigger alone enrolls": {
			build: func(p *pr) {
				p.comment(101, botAuthor, with("🔍", rmcoc.AutoReviewTrigger{HeadSHA: shaA, Action: "opened"}))
			},
			enrolled: true,
		},
		"the last review is the newest, whatever the order": {
			build: func(p *pr) {
				p.review(102, botAuthor, with("r", rmcoc.ReviewRun{HeadSHA: shaB, Mode: rmcoc.ModeManual}))
				p.comment(103, botAuthor, with("r", rmcoc.ReviewRun{HeadSHA: shaA, Mode: rmcoc.ModeAuto}))
				p.review(104, botAuthor, with("r", rmcoc.ReviewRun{HeadSHA: shaB, Mode: rmcoc.ModeAuto}))
				p.snap.Reviews[0].SubmittedAt = t0.Add(time.Hour)
			},
			enrolled: true, reviewedA: true, last: "manual bbbbbbb 102",
		},
		"a review run in a comment counts, dated by the comment": {
			build: func(p *pr) {
				p.review(101, botAuthor, with("r", rmcoc.ReviewRun{HeadSHA: shaB, Mode: rmcoc.ModeManual}))
				p.comment(102, botAuthor, with("r", rmcoc.ReviewRun{HeadSHA: shaA, Mode: rmcoc.ModeManual}))
			},
			last: "manual aaaaaaa 0",
		},
		"open blocking findings and pending mentions": {
			build: func(p *pr) {
				p.finding("T1", 301, rmcoc.Finding{ID: "f-open", Blocking: true, Status: rmcoc.FindingOpen})
				p.finding("T2", 302, rmcoc.Finding{ID: "f-minor", Blocking: false, Status: rmcoc.FindingOpen})
				p.finding("T3", 303, rmcoc.Finding{ID: "f-resolved", Blocking: true, Status: rmcoc.FindingOpen})
				p.resolve("T3")
				p.finding("T4", 304, rmcoc.Finding{ID: "f-disputed", Blocking: true, Status: rmcoc.FindingOpen})
				p.reply("T4", 305, alice, "no")
				p.reply("T4", 306, botAuthor, with("yes", rmcoc.DisputeResolution{ReplyToCommentID: 305, Status: rmcoc.FindingEscalated, Resolution: rmcoc.ResolutionEscalated}))
				p.finding("T5", 307, rmcoc.Finding{ID: "f-conceded", Blocking: true, Status: rmcoc.FindingOpen})
				p.reply("T5", 308, alice, "no")
				p.reply("T5", 309, botAuthor, with("ok", rmcoc.DisputeResolution{ReplyToCommentID: 308, Status: rmcoc.FindingResolved, Resolution: rmcoc.ResolutionConcession}))
				p.comment(401, alice, "@rmc-bot one?")
				p.comment(402, alice, "@rmc-bot two?")
				p.comment(403, botAuthor, with("a", rmcoc.QuestionAnswer{ReplyToCommentID: 401}))
				p.comment(404, alice, "@rmc-bot three?")
				p.comment(405, botAuthor, with("⏳", rmcoc.QuestionAnswer{ReplyToCommentID: 404, Status: rmcoc.AnswerInProgress}))
			},
			openBlocking: []string{"f-open", "f-disputed"},
			pending:      []string{"issue-comment-402", "issue-comment-404"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := newPR()
			tc.build(p)
			st := derive(p, snapshot.Actor{})
			if got := st.ReviewedAuto(shaA); got != tc.reviewedA {
				t.Errorf("ReviewedAuto(A) = %v, want %v", got, tc.reviewedA)
			}
			if got := st.Enrolled(); got != tc.enrolled {
				t.Errorf("Enrolled() = %v, want %v", got, tc.enrolled)
			}
			last := ""
			if r := st.LastReview(); r != nil {
				last = fmt.Sprintf("%s %.7s %d", r.Run.Mode, r.Run.HeadSHA, r.ReviewID)
			}
			if last != tc.last {
				t.Errorf("LastReview() = %q, want %q", last, tc.last)
			}
			var blocking []string
			for _, f := range st.OpenBlocking() {
				blocking = append(blocking, f.Block.ID)
			}
			if !slices.Equal(blocking, tc.openBlocking) {
				t.Errorf("OpenBlocking() = %v, want %v", blocking, tc.openBlocking)
			}
			var pending []string
			for _, m := range st.Pending() {
				pending = append(pending, m.Ref.String())
			}
			if !slices.Equal(pending, tc.pending) {
				t.Errorf("Pending() = %v, want %v", pending, tc.pending)
			}
		})
	}
}

// assoc is the authorAssociation tests give an author: everyone is a
// collaborator except mallory, an outsider.
func assoc(a snapshot.Actor) string {
	if a.Login == "mallory" {
		return "NONE"
	}
	return "COLLABORATOR"
}

// On a PR from a fork, its author may need no access at all, and every
// mention would spend the repository's model key: the author asks only when
// the repository allows it. Collaborators always may.
func TestForkAuthorsAskOnlyWhenAllowed(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		fork, allow bool
		want        string
	}{
		"same-repository PR":   {fork: false, want: "alice=true bob=true"},
		"fork PR":              {fork: true, want: "alice=false bob=true"},
		"fork PR, authors may": {fork: true, allow: true, want: "alice=true bob=true"},
		"same repo, flag moot": {fork: false, allow: true, want: "alice=true bob=true"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := newPR()
			p.snap.PR.IsFork = tc.fork
			p.comment(101, alice, "@rmc-bot why?")
			p.snap.IssueComments[0].Association = "CONTRIBUTOR" // the fork's author has no access
			collaborator := snapshot.Comment{ID: 102, Author: bob, Association: "COLLABORATOR", Body: "@rmc-bot and this?", CreatedAt: p.tick()}
			p.snap.IssueComments = append(p.snap.IssueComments, collaborator)
			st := state.Derive(p.snap, state.Options{Bot: bot, Handles: handles, ForkAuthorsCanAsk: tc.allow})
			var got []string
			for _, m := range st.Mentions {
				got = append(got, fmt.Sprintf("%s=%v", m.Author.Login, m.Trusted))
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("trusted: %v, want %s", got, tc.want)
			}
		})
	}
}
