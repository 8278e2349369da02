// Package execution runs a plan: the tasks in priority order through one LLM
// session, each write keyed by an rmcoc block so a rerun can tell it happened.
// A task that fails leaves a visible error and stays pending; the others run.
package execution

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/injection"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// GitHub is what execution writes to GitHub.
type GitHub interface {
	CreateComment(ctx context.Context, repo snapshot.Repo, number int, body string) (snapshot.Comment, error)
	EditComment(ctx context.Context, repo snapshot.Repo, id int64, body string) error
	Reply(ctx context.Context, repo snapshot.Repo, number int, inReplyTo int64, body string) (snapshot.ReviewComment, error)
	EditReviewComment(ctx context.Context, repo snapshot.Repo, id int64, body string) error
	React(ctx context.Context, repo snapshot.Repo, id int64, review bool, content string) error
}

// Session is the run's one conversation with the model.
type Session interface {
	Ask(ctx context.Context, label llm.Label, prompt string) (llm.Reply, error)
	llm.JSONAsker
}

// ReviewGitHub is what a review needs beyond GitHub's comment calls.
type ReviewGitHub interface {
	Files(ctx context.Context, repo snapshot.Repo, number int) ([]snapshot.ChangedFile, error)
	Compare(ctx context.Context, repo snapshot.Repo, base, head string) (snapshot.Comparison, error)
	CreateReview(ctx context.Context, repo snapshot.Repo, number int, r snapshot.NewReview) (int64, error)
	ResolveThread(ctx context.Context, threadID string) error
	UnresolveThread(ctx context.Context, threadID string) error
	RequestReviewers(ctx context.Context, repo snapshot.Repo, number int, logins []string) error
}

// Logger is the Action log.
type Logger interface {
	Group(title string)
	EndGroup()
	Infof(format string, args ...any)
	Warningf(format string, args ...any)
}

// Executor runs one plan on one PR.
type Executor struct {
	GitHub  GitHub
	Reviews ReviewGitHub // may be nil when no review runs
	Options Options
	Session Session // may be nil when no task needs the model
	Snap    snapshot.Snapshot
	State   state.State
	Model   string
	Secrets []string // redacted from everything posted
	Now     func() time.Time
	Log     Logger
	// Instructions is the fixed part of the system prompt: text that
	// recites it is withheld (a model talked into leaking its instructions).
	Instructions string
	// Screen, when set (injection_detection_enabled), checks a task's
	// untrusted text and returns a note when it looks like an injection
	// attempt. The task goes on: the text stays fenced as data.
	Screen func(ctx context.Context, text string) string
	// verified holds the findings whose fix this run already checked.
	verified map[string]bool
}

// Options are the inputs execution honours.
type Options struct {
	ProblemThreshold, BlockingThreshold int
	IgnorePaths                         []string
	ManualStartComment                  bool
	ManualEndComment                    bool
	NotifyAgent                         string // e.g. "@claude"; "" = nobody
	EnableHumanEscalation               bool
	ReviewRetries                       int // max_review_retries
	HumanReviewers                      []string
	Tuning                              Tuning // what .github/rmc.yml may also set
}

// Outcome is what became of one task.
type Outcome struct {
	Task detector.Task
	Err  error // nil when done
	// Reviews: what the review posted.
	Findings, Blocking int
	ReviewID           int64
	Usage              llm.Usage // tokens the task spent
	URL                string    // where the result was posted
	Note               string    // one line for the summary
}

// Result is what the run did.
type Result struct {
	Outcomes []Outcome
	Writes   int
	// Resolutions are the resolutions that did not count, and what the run
	// did about each.
	Resolutions []Resolution
}

// Failed counts failed tasks.
func (r Result) Failed() int {
	n := 0
	for _, o := range r.Outcomes {
		if o.Err != nil {
			n++
		}
	}
	return n
}

// Done counts completed tasks.
func (r Result) Done() int { return len(r.Outcomes) - r.Failed() }

// ErrNotBuilt marks a task kind this build cannot run yet; it stays pending.
var ErrNotBuilt = errors.New("not available in this build")

// Run executes the plan. It records an automatic-review trigger first (so a
// cancelled run leaves a trace), then runs every task in order. A failed task
// does not stop the others; ctx cancellation does, between writes.
func (x *Executor) Run(ctx context.Context, plan detector.Plan) Result {
	var res Result
	x.verified = map[string]bool{}
	if plan.RecordTrigger != nil {
		if err := x.recordTrigger(ctx, *plan.RecordTrigger); err != nil {
			x.Log.Warningf("could not record the automatic review request: %v", err)
		}
	}
	for _, m := range plan.Refuse {
		if err := x.refuse(ctx, m); err != nil {
			x.Log.Warningf("could not tell @%s: %v", m.Author.Login, err)
		}
	}
	for _, ref := range plan.Explain {
		if err := x.explainDismissal(ctx, ref); err != nil {
			x.Log.Warningf("could not explain dismissed request %s: %v", ref, err)
		}
	}
	x.catchUp(ctx)
	res.Resolutions = x.handleResolutions(ctx)
	if id, head, findings := x.pendingNotice(); id != 0 && x.Reviews != nil {
		files, err := x.Reviews.Files(ctx, x.repo(), x.number())
		anchors, _ := ParseFiles(files)
		if err == nil {
			err = x.notifyAgent(ctx, id, head, findings, anchors)
		}
		if err != nil {
			x.Log.Warningf("could not send the pending agent notification for review %d: %v", id, err)
		}
	}
	for _, t := range plan.Tasks {
		if ctx.Err() != nil {
			res.Outcomes = append(res.Outcomes, Outcome{Task: t, Err: fmt.Errorf("run cancelled before this task: %w", ctx.Err())})
			continue
		}
		x.Log.Group(fmt.Sprintf("Task %s: %s", t.Key, t.Reason))
		note := x.screen(ctx, t)
		var o Outcome
		switch t.Kind {
		case detector.Question:
			o = x.answer(ctx, t)
		case detector.Review:
			o = x.review(ctx, t)
		case detector.Dispute:
			o = x.dispute(ctx, t)
		default:
			o = Outcome{Task: t, Err: fmt.Errorf("%s tasks: %w; left pending", t.Kind, ErrNotBuilt)}
		}
		if note != "" {
			o.Note = strings.TrimSpace(o.Note + " · ⚠️ " + note)
		}
		if o.Err != nil {
			x.Log.Warningf("task %s failed: %v", t.Key, o.Err)
		} else {
			x.Log.Infof("done: %s", o.Note)
		}
		x.Log.EndGroup()
		res.Outcomes = append(res.Outcomes, o)
	}
	return res
}

// catchUp finishes what a killed run left half done: threads whose
// resolution is recorded but not applied, and manual-review status comments
// that still say "in progress" after their review was posted.
func (x *Executor) catchUp(ctx context.Context) {
	for _, f := range x.State.Findings {
		if f.ResolveDue && x.Reviews != nil {
			if err := x.Reviews.ResolveThread(ctx, f.Thread.ID); err != nil {
				x.Log.Warningf("could not resolve the thread of finding %q: %v", f.Block.Title, err)
			}
		}
	}
	for _, u := range x.State.Unfinished {
		var blocks []rmcoc.Block
		for _, r := range u.Requests {
			blocks = append(blocks, manualBlock(r, rmcoc.ManualCompleted, u.Run.HeadSHA))
		}
		body := x.compose(x.say(phraseReviewEnd, u.Run.HeadSHA, u.Run.Findings, u.Run.Blocking), blocks...)
		if err := x.GitHub.EditComment(ctx, x.repo(), u.CommentID, body); err != nil {
			x.Log.Warningf("could not finish the review status comment %d: %v", u.CommentID, err)
		}
	}
}

// screen checks the untrusted text a task hands the model.
func (x *Executor) screen(ctx context.Context, t detector.Task) string {
	if x.Screen == nil {
		return ""
	}
	var text string
	switch {
	case t.Mention != nil:
		text = t.Mention.Text
	case t.Finding != nil:
		for _, r := range t.Finding.PendingReplies {
			text += r.Body + "\n"
		}
	case t.Review != nil:
		text = x.Snap.PR.Title + "\n" + x.Snap.PR.Body
	}
	note := x.Screen(ctx, text)
	if note != "" {
		x.Log.Warningf("task %s: %s; the text stays fenced as data and the task goes on", t.Key, note)
	}
	return note
}

func (x *Executor) now() time.Time {
	if x.Now != nil {
		return x.Now().UTC()
	}
	return time.Now().UTC()
}

func (x *Executor) repo() snapshot.Repo { return x.Snap.Repo }
func (x *Executor) number() int         { return x.Snap.PR.Number }

// compose is the one path every body the bot posts takes. The prose
// (the bot's words with relayed text embedded, each piece already through
// sanitize.Relay or sanitize.Name) is cleaned and redacted, cut to leave
// room for the blocks, and defanged last, after every step that could
// change a line, so nothing in it reads as an rmcoc fence. The blocks
// follow as the trailing state section, the only part of a bot body that
// rmcoc.ParseTrusted (and so state) reads.
func (x *Executor) compose(text string, blocks ...rmcoc.Block) string {
	var tail string
	for _, b := range blocks {
		tail += "\n\n" + rmcoc.Render(b)
	}
	// Blocks hold model-written text too (titles, reasons): redact them as
	// well. A redaction keeps the JSON valid ("[REDACTED]" has no quote).
	tail = sanitize.Redact(tail, x.Secrets...)
	room := sanitize.MaxBody - len([]rune(tail))
	// Defang never lengthens a line, so the prose stays within room.
	prose := rmcoc.Defang(sanitize.Fit(sanitize.Redact(text, x.Secrets...), room))
	return prose + tail
}

// fromModel vets text a model wrote before the bot relays it: text that
// recites the bot's instructions (a model talked into leaking them) is
// withheld; the rest is made safe to relay (no HTML, no live mentions).
// Defanging and redaction follow in compose, for every body.
func (x *Executor) fromModel(text string) string {
	if x.echoes(text) {
		return withheld
	}
	return sanitize.Relay(text)
}

// fromModelLine is fromModel for model text shown inline, on one line (a
// title, a reason after "Fixed:").
func (x *Executor) fromModelLine(text string) string {
	if x.echoes(text) {
		return withheld
	}
	return sanitize.RelayLine(text)
}

const withheld = "_I withheld this answer: it repeated my instructions._"

func (x *Executor) echoes(text string) bool {
	if x.Instructions != "" && injection.Echoes(text, x.Instructions, 64) {
		x.Log.Warningf("withheld model text that repeated the bot's instructions")
		return true
	}
	return false
}

// recordTrigger writes the automatic-review trigger into the bot's status
// comment, creating it on the PR's first automatic review.
func (x *Executor) recordTrigger(ctx context.Context, trig rmcoc.AutoReviewTrigger) error {
	trig.TriggeredAt = x.now()
	body := x.compose(x.say(phraseAutoStart, trig.HeadSHA, trig.Action), trig)
	if id := x.State.StatusComment; id != 0 {
		return x.GitHub.EditComment(ctx, x.repo(), id, body)
	}
	_, err := x.GitHub.CreateComment(ctx, x.repo(), x.number(), body)
	return err
}

// refuse tells someone without access, once per PR, why the bot does not
// act on their mention.
func (x *Executor) refuse(ctx context.Context, m state.Mention) error {
	login := sanitize.Name(m.Author.Login)
	text := fmt.Sprintf("👋 Thanks for the mention, @%s. On this repository I take questions and review requests from collaborators and the pull request's author; a maintainer can ask on your behalf.", login)
	if x.Snap.PR.IsFork && m.Author.Is(x.Snap.PR.Author) {
		text = fmt.Sprintf("👋 Thanks for the mention, @%s. This pull request comes from a fork, and every request to me spends this repository's model budget, so here I take questions, review requests and disputes from people with write access. A maintainer can ask on your behalf (or the repository can allow it with `fork_authors_can_ask`). Pushing a fix still clears a finding: I verify it on the next review.", login)
	}
	body := x.compose(text,
		rmcoc.AccessNotice{User: m.Author.Login, ReplyToCommentID: rmcoc.ID(m.Ref.ID), SentAt: x.now()})
	_, err := x.GitHub.CreateComment(ctx, x.repo(), x.number(), body)
	return err
}

// explainDismissal tells a person their manual request was covered by an
// automatic review (seed 004), once: the block makes it idempotent.
func (x *Executor) explainDismissal(ctx context.Context, ref state.Ref) error {
	now := x.now()
	block := manualBlock(ref, rmcoc.ManualDismissed, "")
	block.DismissedBy, block.CompletedAt = "auto-pr-review", &now
	what := fmt.Sprintf("%s %d", strings.ReplaceAll(string(ref.Source), "-", " "), ref.ID)
	if ref.Source == state.SourceDispatch {
		what = fmt.Sprintf("workflow run %d", ref.ID)
	}
	body := x.compose(fmt.Sprintf("ℹ️ This review request (%s) was dismissed because an automatic review of this pull request ran and covered it. Its findings are in the review above.", what), block)
	_, err := x.GitHub.CreateComment(ctx, x.repo(), x.number(), body)
	return err
}
