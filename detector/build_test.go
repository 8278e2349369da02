package detector_test

import (
	"fmt"
	"time"

	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// pr builds snapshots for table tests: a small fluent builder with a clock
// that advances a minute per object, so ordering is explicit.
type pr struct {
	snap snapshot.Snapshot
	now  time.Time
	id   int64
}

var (
	bot     = snapshot.NewActor("github-actions", "Bot")
	alice   = snapshot.NewActor("alice", "User")
	bob     = snapshot.NewActor("bob", "User")
	other   = snapshot.NewActor("renovate", "Bot")
	mallory = snapshot.NewActor("mallory", "User")
)

const (
	headA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	headB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

func newPR() *pr {
	return &pr{
		snap: snapshot.Snapshot{
			Repo:   snapshot.Repo{Owner: "o", Name: "r"},
			PR:     snapshot.PullRequest{Number: 7, State: "OPEN", HeadSHA: headA, BaseSHA: "base", Author: alice},
			Viewer: snapshot.NewActor("github-actions[bot]", "Bot"),
		},
		now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		id:  100,
	}
}

func (p *pr) tick() (int64, time.Time) {
	p.id++
	p.now = p.now.Add(time.Minute)
	return p.id, p.now
}

func (p *pr) head(sha string) *pr { p.snap.PR.HeadSHA = sha; return p }
func (p *pr) draft() *pr          { p.snap.PR.Draft = true; return p }
func (p *pr) closed() *pr         { p.snap.PR.State = "CLOSED"; return p }

// changes is the head's change set as a run reads it: one file, whose
// blob id is the head's (each head changes it; reviewed records it).
func (p *pr) changes() *gate.ChangeSet {
	return &gate.ChangeSet{Changes: []gate.Change{{Path: "main.go", Blob: p.snap.PR.HeadSHA, Kind: gate.KindBlob}}}
}

// comment adds a conversation comment and returns its id.
func (p *pr) comment(by snapshot.Actor, body string) int64 {
	id, at := p.tick()
	p.snap.IssueComments = append(p.snap.IssueComments, snapshot.Comment{ID: id, Author: by, Association: assoc(by), Body: body, CreatedAt: at, UpdatedAt: at})
	return id
}

// answer adds the bot's answer to a question.
func (p *pr) answer(question int64) int64 {
	return p.comment(bot, "Here you go.\n\n"+rmcoc.Render(rmcoc.QuestionAnswer{ReplyToCommentID: rmcoc.ID(question), AnsweredAt: p.now}))
}

// trigger records an automatic review request the way a run does.
func (p *pr) trigger(sha, action string) int64 {
	return p.comment(bot, "🔍 Reviewing…\n\n"+rmcoc.Render(rmcoc.AutoReviewTrigger{HeadSHA: sha, Action: action, TriggeredAt: p.now}))
}

// reviewed adds a completed review of sha.
func (p *pr) reviewed(sha string, mode rmcoc.Mode, requests ...int64) int64 {
	id, at := p.tick()
	run := rmcoc.ReviewRun{HeadSHA: sha, Mode: mode, CompletedAt: at}
	if mode == rmcoc.ModeAuto {
		// What the review read, by blob: the head's one file (changes).
		run.Blobs = sha[:rmcoc.BlobKeyLen]
	}
	for _, r := range requests {
		run.RequestCommentIDs = append(run.RequestCommentIDs, rmcoc.ID(r))
	}
	p.snap.Reviews = append(p.snap.Reviews, snapshot.Review{ID: id, Author: bot, State: "COMMENTED", Body: "Review.\n\n" + rmcoc.Render(run), SubmittedAt: at, CommitSHA: sha})
	return id
}

// finding adds a bot finding thread and returns its index.
func (p *pr) finding(title string, blocking bool) int {
	id, at := p.tick()
	f := rmcoc.Finding{ID: fmt.Sprintf("f%d", id), Title: title, Score: 8, Blocking: blocking, Status: rmcoc.FindingOpen, CreatedAt: at}
	p.snap.Threads = append(p.snap.Threads, snapshot.Thread{ID: fmt.Sprintf("PRRT_%d", id), Path: "main.go", Line: 10, DiffSide: "RIGHT",
		Comments: []snapshot.ReviewComment{{Comment: snapshot.Comment{ID: id, Author: bot, Association: assoc(bot), Body: title + "\n\n" + rmcoc.Render(f), CreatedAt: at}, Path: "main.go", Line: 10}}})
	return len(p.snap.Threads) - 1
}

// reply adds a reply to thread i and returns its id.
func (p *pr) reply(i int, by snapshot.Actor, body string) int64 {
	id, at := p.tick()
	t := &p.snap.Threads[i]
	t.Comments = append(t.Comments, snapshot.ReviewComment{Comment: snapshot.Comment{ID: id, Author: by, Association: assoc(by), Body: body, CreatedAt: at}, ReplyToID: t.Comments[0].ID, Path: t.Path})
	return id
}

// resolution adds the bot's dispute-resolution reply to a developer reply.
func (p *pr) resolution(i int, replyTo int64, status rmcoc.FindingStatus, resolution rmcoc.Resolution) {
	p.reply(i, bot, "Thanks.\n\n"+rmcoc.Render(rmcoc.DisputeResolution{ReplyToCommentID: rmcoc.ID(replyTo), Status: status, Resolution: resolution, ResolvedAt: p.now}))
}

func (p *pr) resolve(i int) { p.snap.Threads[i].IsResolved = true }

// thread adds a developer's review thread (not a finding) with one comment.
func (p *pr) thread(by snapshot.Actor, body string) int64 {
	id, at := p.tick()
	p.snap.Threads = append(p.snap.Threads, snapshot.Thread{ID: fmt.Sprintf("PRRT_%d", id), Path: "util.go", Line: 3, DiffSide: "RIGHT",
		Comments: []snapshot.ReviewComment{{Comment: snapshot.Comment{ID: id, Author: by, Association: assoc(by), Body: body, CreatedAt: at}, Path: "util.go", Line: 3, DiffHunk: "@@ -1,3 +1,4 @@"}}})
	return id
}

// assoc is the authorAssociation tests give an author: everyone is a
// collaborator except mallory, an outsider.
func assoc(a snapshot.Actor) string {
	if a.Login == "mallory" {
		return "NONE"
	}
	return "COLLABORATOR"
}
