package execution

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/prompts"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// Verdict is the model's judgment of a reply on a finding.
type Verdict string

const (
	VerdictConcede  Verdict = "concede"
	VerdictMaintain Verdict = "maintain"
	VerdictEscalate Verdict = "escalate"
	VerdictNone     Verdict = "none"
)

// verdict is the model's structured answer to a reply on a finding.
type verdict struct {
	Kind    ReplyKind `json:"kind"`
	Verdict Verdict   `json:"verdict"`
	Reply   string    `json:"reply"`  // markdown for the thread
	Reason  string    `json:"reason"` // one line, recorded in the block
}

// The answer's schema: the kinds and verdicts are enums.
func (ReplyKind) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Enum: []any{string(ReplyAcknowledgment), string(ReplyQuestion), string(ReplyOutOfScope), string(ReplyDispute)}}
}

func (Verdict) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Enum: []any{string(VerdictConcede), string(VerdictMaintain), string(VerdictEscalate), string(VerdictNone)}}
}

// disputeGitHub is what judging a reply on a finding writes.
type disputeGitHub interface {
	React(ctx context.Context, repo snapshot.Repo, s snapshot.Subject, content string) error
	Reply(ctx context.Context, repo snapshot.Repo, number int, inReplyTo int64, body string) (snapshot.ReviewComment, error)
	CreateComment(ctx context.Context, repo snapshot.Repo, number int, body string) (snapshot.Comment, error) // error comments
	ResolveThread(ctx context.Context, threadID string) error
	RequestReviewers(ctx context.Context, repo snapshot.Repo, number int, logins []string) error
}

// disputeRunner judges the replies on findings.
type disputeRunner struct {
	env
	GitHub  disputeGitHub
	Session Session // nil: the task fails and stays pending
	bot     snapshot.Actor
	// humans are asked to decide a finding the author and the bot disagree
	// on; nil when escalation is off.
	humans []string
	// author is the PR's; perms the run's shared permission lookup (nil:
	// only the author's dispute may concede a finding).
	author snapshot.Actor
	perms  PermissionReader
	heads  *headBlobs // the content a decision that closes the finding judged
}

func newDisputeRunner(r *run) *disputeRunner {
	d := &disputeRunner{env: r.env, GitHub: r.GitHub, Session: r.Session, bot: r.State.Bot, author: r.Snap.PR.Author, perms: r.Perms, heads: r.fixes.heads}
	if r.Options.EnableHumanEscalation {
		d.humans = r.Options.HumanReviewers
	}
	return d
}

// Run answers the developer replies on one finding: the model reads the
// code and the thread, classifies the reply and judges it; the policy (what
// each outcome does to the finding and the gate) is decided here, not by the
// model.
func (x *disputeRunner) Run(ctx context.Context, t detector.Task, d *detector.DisputeTask) Outcome {
	f, o := &d.Finding, Outcome{Task: t}
	last := f.PendingReplies[len(f.PendingReplies)-1]
	if err := x.GitHub.React(ctx, x.repo(), snapshot.Subject{ID: last.ID, InThread: true}, "eyes"); err != nil {
		x.Log.Warningf("could not react to the reply: %v", err)
	}
	if x.Session == nil {
		o.Err = fmt.Errorf("no model session to judge the reply")
		return o
	}
	entitled, err := x.entitled(ctx, f)
	if err == nil {
		var v verdict
		if v, err = x.judge(ctx, t.Key, f); err == nil {
			return x.answer(ctx, o, f, v, entitled)
		}
	}
	o.Err = err
	taskError(ctx, x.GitHub, x.env, t, err)
	return o
}

// answer posts the bot's reply to the replies on f, with the block that
// records the decision, and does what the decision asks. A decision that
// would close the finding on the word of someone who may not is turned
// into an answer that leaves its status as it was.
func (x *disputeRunner) answer(ctx context.Context, o Outcome, f *state.Finding, v verdict, entitled string) Outcome {
	last := f.PendingReplies[len(f.PendingReplies)-1]
	outcome, blob := x.decide(f, v), x.heads.judged(ctx, *f)
	if outcome.status == rmcoc.FindingResolved {
		outcome = x.mayClose(f, last.Author, entitled, blob, outcome)
	}
	block := rmcoc.DisputeResolution{ReplyToCommentID: rmcoc.ID(last.ID), FindingID: f.Block.ID, ThreadID: f.Thread.ID,
		Status: outcome.status, Resolution: outcome.resolution, Reason: oneLine(v.Reason), ResolvedAt: x.now(), Blob: blob}
	text := strings.TrimSpace(x.fromModel(v.Reply))
	if outcome.note != "" {
		text += "\n\n" + outcome.note
	}
	// The reply and its block first: from then on the state says what was
	// decided, whatever happens to the calls that follow.
	body := x.compose(text, x.ledger.link(block))
	posted, err := x.GitHub.Reply(ctx, x.repo(), x.number(), f.RootCommentID, body)
	if err != nil {
		o.Err = fmt.Errorf("reply on the finding: %w", err)
		return o
	}
	x.ledger.wrote(rmcoc.HolderReviewComment, posted.ID, body)
	if outcome.resolve {
		if err := x.GitHub.ResolveThread(ctx, f.Thread.ID); err != nil {
			x.Log.Warningf("the reply is posted and the finding is %s, but resolving its thread failed: the token needs pull-requests: write (a fine-grained token: Pull requests, read and write): %v", outcome.status, err)
		}
	}
	if outcome.escalate {
		if err := x.GitHub.RequestReviewers(ctx, x.repo(), x.number(), x.humans); err != nil {
			x.Log.Warningf("could not request %v as reviewers: %v", x.humans, err)
		}
	}
	o.Note = fmt.Sprintf("%s from @%s: %s (%s)", v.Kind, last.Author.Login, outcome.resolution, outcome.status)
	return o
}

// entitled returns who, among the authors of the replies judged, may argue
// the finding off: the PR's author or a user with write access (read
// through the run's shared lookup, once per login per run). "" when none
// may: the model may agree with them, but the finding keeps its status
// until one who may agrees. A lookup that fails fails the task, which stays
// pending: a guess either way would be wrong.
func (x *disputeRunner) entitled(ctx context.Context, f *state.Finding) (string, error) {
	for _, r := range f.PendingReplies {
		if r.Author.Login != "" && r.Author.Is(x.author) {
			return r.Author.Login, nil
		}
	}
	if x.perms == nil {
		return "", nil
	}
	for _, r := range f.PendingReplies {
		if r.Author.Login == "" || r.Author.IsBot {
			continue
		}
		role, err := x.perms.Permission(ctx, x.repo(), r.Author.Login)
		if err != nil {
			return "", fmt.Errorf("read the permission of @%s, who disputes finding %s: %w", r.Author.Login, f.Block.ID, err)
		}
		if role.Writes() {
			return r.Author.Login, nil
		}
	}
	return "", nil
}

// mayClose turns a decision that would close f into one that leaves it as
// it was when the reply may not close it: its author may not argue it off,
// someone else edited the finding's comment (what the model judged is no
// longer what the bot wrote: only a maintainer settles it), or the bot
// already kept it open on this very code (a dispute is judged once per
// content: asking again, or deleting the verdict, does not reopen it).
func (x *disputeRunner) mayClose(f *state.Finding, by snapshot.Actor, entitled, blob string, d decision) decision {
	switch {
	case entitled == "":
		return x.unentitled(f, by)
	case f.Tampered:
		return settled(f, "_Someone other than me edited this finding's comment, so I can no longer vouch for what it says: it is settled by a maintainer's `@rmc-bot resolve` given after the edit._")
	case f.JudgedOn(blob):
		return settled(f, "_I already kept this finding open on this very code. A change to the code, or a maintainer resolving this thread, settles it._")
	}
	return d
}

// settled answers a reply without changing f's status.
func settled(f *state.Finding, note string) decision {
	status := f.Status
	if status == "" || status == rmcoc.FindingResolved {
		status = rmcoc.FindingOpen
	}
	return decision{status: status, resolution: rmcoc.ResolutionAnswered, note: note}
}

// unentitled is the decision when the model would close the finding on the
// word of someone who may not: it is answered, its status unchanged (the
// block records that, so the state keeps it open and, if blocking, holding
// the gate; and no learning is drawn from it), and the reply says who can
// settle it.
func (x *disputeRunner) unentitled(f *state.Finding, by snapshot.Actor) decision {
	holds := "stays open"
	if f.Block.Blocking {
		holds = "keeps blocking the merge"
	}
	return settled(f, fmt.Sprintf("_@%s, your point may well be right, but a finding is settled only on a dispute by the pull request's author or by someone with write access. It %s until one of them agrees here, or a maintainer resolves this thread._", sanitize.Name(by.Login), holds))
}

// judge asks the model; a kind it gets wrong falls back to the keyword rules.
func (x *disputeRunner) judge(ctx context.Context, key string, f *state.Finding) (verdict, error) {
	var turns []Turn
	for _, c := range f.Thread.Comments {
		src := fmt.Sprintf("reply by @%s", c.Author.Login)
		if c.Author.Is(x.bot) {
			src = "you"
		}
		turns = append(turns, Turn{Source: src, Body: rmcoc.Strip(c.Body)})
	}
	var replies []string
	for _, r := range f.PendingReplies {
		replies = append(replies, r.Body)
	}
	prompt, err := prompts.Dispute(prompts.DisputeData{Path: f.Thread.Path, Line: f.Thread.Line, Score: f.Block.Score,
		Blocking: f.Block.Blocking, Status: string(f.Status), Thread: turns, Author: f.PendingReplies[0].Author.Login,
		Replies: strings.Join(replies, "\n\n---\n\n")})
	if err != nil {
		return verdict{}, err
	}
	v, _, err := llm.AskJSON[verdict](ctx, x.Session, llm.Label{Task: key}, prompt)
	if err != nil {
		return v, err
	}
	if !v.Kind.valid() {
		v.Kind = classifyReplyRules(replies[len(replies)-1])
	}
	return v, nil
}

type decision struct {
	status            rmcoc.FindingStatus
	resolution        rmcoc.Resolution
	resolve, escalate bool
	note              string
}

// decide turns the model's judgment into the finding's new state.
func (x *disputeRunner) decide(f *state.Finding, v verdict) decision {
	current := f.Status
	if current == "" || current == rmcoc.FindingResolved {
		current = rmcoc.FindingOpen
	}
	escalation := len(x.humans) > 0
	maintain := func() decision {
		// A second round of disagreement, or the model's own doubt, goes to
		// the humans when escalation is on.
		if escalation && (v.Verdict == VerdictEscalate || current == rmcoc.FindingDisputed) {
			var who []string
			for _, h := range x.humans {
				who = append(who, "@"+h)
			}
			return decision{status: rmcoc.FindingEscalated, resolution: rmcoc.ResolutionEscalated, escalate: true,
				note: fmt.Sprintf("%s: the author and I disagree on this finding. My position is above; theirs is in the reply before it. Please decide: resolve this thread if you side with the author. Until then it holds the merge gate.", strings.Join(who, " "))}
		}
		return decision{status: rmcoc.FindingDisputed, resolution: rmcoc.ResolutionMaintained,
			note: "_I am keeping this finding open on this code: a change that addresses it, or a maintainer resolving this thread, settles it._"}
	}
	switch v.Kind {
	case ReplyAcknowledgment:
		// A promise is not a fix: the thread stays open (and blocking) until
		// a push is verified to fix it.
		return decision{status: rmcoc.FindingAcknowledged, resolution: rmcoc.ResolutionAcknowledged,
			note: "_I will check the change when it is pushed and resolve this thread if it fixes the problem._"}
	case ReplyQuestion:
		return decision{status: current, resolution: rmcoc.ResolutionAnswered}
	case ReplyOutOfScope:
		switch {
		case f.Block.Score >= 9:
			d := maintain()
			d.note = "_This finding scores " + fmt.Sprint(f.Block.Score) + "/10: too severe to defer to another pull request._ " + d.note
			return d
		case !f.Block.Blocking, v.Verdict == VerdictConcede:
			return decision{status: rmcoc.FindingResolved, resolution: rmcoc.ResolutionDeferred, resolve: true}
		default:
			return decision{status: current, resolution: rmcoc.ResolutionAnswered,
				note: "_To defer a blocking finding, say why it is safe to merge without the fix (for example, the code path is unreachable until the follow-up lands)._"}
		}
	case ReplyDispute:
		// Pushback: the model's verdict decides, below.
	}
	if v.Verdict == VerdictConcede {
		return decision{status: rmcoc.FindingResolved, resolution: rmcoc.ResolutionConcession, resolve: true}
	}
	return maintain()
}
