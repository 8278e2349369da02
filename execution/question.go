package execution

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/prompts"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// questionGitHub is what answering a question writes.
type questionGitHub interface {
	claimer
	RunActive(ctx context.Context, repo snapshot.Repo, runID int64) (bool, error)
	CreateComment(ctx context.Context, repo snapshot.Repo, number int, body string) (snapshot.Comment, error)
	EditComment(ctx context.Context, repo snapshot.Repo, id int64, body string) error
	Reply(ctx context.Context, repo snapshot.Repo, number int, inReplyTo int64, body string) (snapshot.ReviewComment, error)
	EditReviewComment(ctx context.Context, repo snapshot.Repo, id int64, body string) error
}

// questionRunner answers questions.
type questionRunner struct {
	env
	GitHub   questionGitHub
	Session  Session // nil: the answer says the question could not be answered
	Snap     snapshot.Snapshot
	bot      snapshot.Actor
	failures map[string]int // task-error blocks by task key
	model    string
	lease    time.Duration
	runID    string // this workflow run (GITHUB_RUN_ID)
	scope    review.Scope
}

func newQuestionRunner(r *run) *questionRunner {
	return &questionRunner{env: r.env, GitHub: r.GitHub, Session: r.Session, Snap: r.Snap, bot: r.State.Bot, failures: r.State.Failures, model: r.Model, lease: r.Options.Lease, runID: r.Options.RunID, scope: r.scope()}
}

// Run runs a question task: a visible placeholder in the bot's own
// comment and 👀 on the question (the run's claim), then the answer in the
// placeholder's place. Every bot comment
// carries a question-answer block keyed by the question, so a killed run's
// placeholder is reused, and an answered question is never answered again.
func (x *questionRunner) Run(ctx context.Context, t detector.Task, q *detector.QuestionTask) Outcome {
	m, o := &q.Mention, Outcome{Task: t}
	block := rmcoc.QuestionAnswer{ReplyToCommentID: rmcoc.ID(m.Ref.ID), Asker: m.Author.Login, AnsweredAt: x.now()}
	if m.Ref.Source == state.SourceReview {
		block.Source = rmcoc.SourceReview
	}
	if m.Thread != nil {
		block.ThreadID = m.Thread.ID
	}
	working := block
	working.Status, working.RunID = rmcoc.AnswerInProgress, x.runID
	holder, url, why, err := x.start(ctx, m, x.compose(x.say(phraseQuestionStart, sanitize.Name(m.Author.Login)), working))
	switch {
	case err != nil:
		o.Err = fmt.Errorf("post the answer placeholder: %w", err)
		return o
	case why != "":
		o.Note, o.Claimed = why, true
		return o
	}
	o.URL = url

	reply, err := x.ask(ctx, t.Key, m)
	if err != nil {
		failed := block
		failed.Status = rmcoc.AnswerFailed
		taskErr := rmcoc.TaskError{TaskKey: t.Key, Message: failureMessage(err), FailedAt: x.now(), Attempts: x.failures[t.Key] + 1}
		body := x.compose(fmt.Sprintf("⚠️ @%s, I could not answer this question: %s\n\nThe question stays open: the next run of the action (any new comment, reply or push) tries again.", sanitize.Name(m.Author.Login), failureMessage(err)), failed, taskErr)
		if _, _, werr := x.upsertAnswer(ctx, m, holder, body); werr != nil {
			x.Log.Warningf("could not post the error message: %v", werr)
		}
		o.Err = err
		return o
	}
	text := strings.TrimSpace(x.fromModel(reply.Text))
	if text == "" {
		text = "_The model returned an empty answer._"
	}
	quoted := sanitize.Relay(quote(m.Text, 300))
	body := x.compose(fmt.Sprintf("%s\n\n%s\n\n<sub>Answered by review-my-code-bot (%s) for @%s.</sub>", quoted, text, sanitize.RelayLine(sanitize.Name(x.model)), sanitize.Name(m.Author.Login)), block)
	if _, _, err := x.upsertAnswer(ctx, m, holder, body); err != nil {
		o.Err = fmt.Errorf("post the answer: %w", err)
		return o
	}
	o.Note = fmt.Sprintf("answered @%s (%d prompt tokens, %d cached)", m.Author.Login, reply.Usage.PromptTokens, reply.Usage.CachedTokens)
	return o
}

// start claims the question and puts up its placeholder, which names this
// run. A placeholder another run left is that run's claim: while its 👀
// claim holds (see claim), the question is left to it; an older one, or a
// failed attempt's, is taken over. Otherwise the placeholder goes up first
// and the 👀 claim follows: when two runs raced to a fresh question, the
// one whose claim GitHub created answers, and the other withdraws its
// placeholder. A question in a review body takes no reaction, so no claim.
func (x *questionRunner) start(ctx context.Context, m *state.Mention, body string) (holder int64, url, skip string, err error) {
	claimable := m.Ref.Source != state.SourceReview
	subject := snapshot.Subject{ID: m.Ref.ID, InThread: m.Thread != nil}
	foreign := m.Placeholder != 0 && !m.Failed && m.HolderRun != x.runID
	if claimable && foreign {
		if held, why := x.claim(ctx, x.GitHub, x.lease, subject); held && x.alive(ctx, m.HolderRun) {
			return 0, "", why, nil
		}
	}
	holder, url, err = x.upsertAnswer(ctx, m, 0, body)
	if err != nil || !claimable || foreign {
		return holder, url, "", err
	}
	held, why := x.claim(ctx, x.GitHub, x.lease, subject)
	if !held || m.Placeholder != 0 {
		return holder, url, "", nil // won, or our own earlier attempt's claim
	}
	withdrawn := x.compose(fmt.Sprintf("↩️ Another run of the action is answering @%s's question; this comment is left over from a run that stood back.", sanitize.Name(m.Author.Login)))
	if _, _, err := x.upsertAnswer(ctx, m, holder, withdrawn); err != nil {
		x.Log.Warningf("could not withdraw the placeholder %d: %v", holder, err)
	}
	return holder, url, why, nil
}

// alive reports whether the run that left a placeholder may still be at
// work. A run cancelled by cancel-in-progress is finished before the next
// one starts, and its question must not wait for a lease: the Actions API
// says so. When it cannot (the token lacks actions: read), the question is
// taken over rather than left unanswered.
func (x *questionRunner) alive(ctx context.Context, run string) bool {
	id, err := strconv.ParseInt(run, 10, 64)
	if err != nil || id <= 0 {
		return true // no run to ask about: the claim and its lease decide
	}
	active, err := x.GitHub.RunActive(ctx, x.repo(), id)
	if err != nil {
		x.Log.Warningf("could not tell whether workflow run %d, which claimed a question, is still running (give the workflow actions: read); answering it here: %v", id, err)
		return false
	}
	return active
}

// upsertAnswer edits the bot's answer comment for m (the given one, else a
// placeholder a killed run left), or posts a new one where the question was
// asked: in its review thread, or in the conversation.
func (x *questionRunner) upsertAnswer(ctx context.Context, m *state.Mention, holder int64, body string) (int64, string, error) {
	if holder == 0 {
		holder = m.Placeholder
	}
	if m.Thread != nil {
		if holder != 0 {
			return holder, "", x.GitHub.EditReviewComment(ctx, x.repo(), holder, body)
		}
		rc, err := x.GitHub.Reply(ctx, x.repo(), x.number(), m.Thread.ReplyTo, body)
		return rc.ID, rc.URL, err
	}
	if holder != 0 {
		return holder, "", x.GitHub.EditComment(ctx, x.repo(), holder, body)
	}
	c, err := x.GitHub.CreateComment(ctx, x.repo(), x.number(), body)
	return c.ID, c.URL, err
}

func (x *questionRunner) ask(ctx context.Context, key string, m *state.Mention) (llm.Reply, error) {
	if x.Session == nil {
		return llm.Reply{}, errors.New("no model session (llm_api_key missing?)")
	}
	in := prompts.QuestionData{Asker: m.Author.Login, Question: m.Text, Conversation: conversation(x.Snap, x.bot, m)}
	if m.Thread != nil {
		in.Thread = &prompts.Thread{Path: m.Thread.Path, Line: m.Thread.Line, DiffHunk: m.Thread.DiffHunk}
		if x.scope.Private(m.Thread.Path) {
			// A person may ask about a private file; its code is never sent.
			in.Thread.DiffHunk, in.Thread.Private = "", true
		}
	}
	prompt, err := prompts.Question(in)
	if err != nil {
		return llm.Reply{}, err
	}
	return x.Session.Ask(ctx, llm.Label{Task: key}, prompt)
}

// quote renders the start of the question as a markdown quote.
func quote(text string, max int) string {
	text = strings.TrimSpace(text)
	if r := []rune(text); len(r) > max {
		text = string(r[:max]) + "…"
	}
	return "> " + strings.ReplaceAll(text, "\n", "\n> ")
}

// failureMessage says what failed in words a developer can act on, without
// secrets or stack traces.
func failureMessage(err error) string {
	var le *llm.Error
	switch {
	case errors.Is(err, llm.ErrAuth):
		return "the model endpoint rejected the API key. A maintainer should check the `llm_api_key` secret and `llm_base_url`."
	case errors.Is(err, llm.ErrRateLimited):
		return "the model endpoint is rate limiting this key."
	case errors.As(err, &le) && errors.Is(err, llm.ErrUnavailable):
		return fmt.Sprintf("the model endpoint did not answer after %d attempts.", le.Attempts)
	case errors.Is(err, llm.ErrUnavailable):
		return "the model endpoint is unavailable."
	case errors.Is(err, context.DeadlineExceeded):
		return "the run's time limit (`review_timeout_minutes`) ran out."
	case errors.Is(err, llm.ErrRejected):
		return "the model endpoint rejected the request. A maintainer should check the `model` and `llm_base_url` inputs; a very large pull request can also exceed the model's context."
	case errors.Is(err, llm.ErrBadResponse), errors.Is(err, llm.ErrToolRounds):
		return "the model's answer could not be used."
	case errors.Is(err, snapshot.ErrRefused):
		// A GitHub answer: its message says what was refused, and holds no
		// secret; it is relayed text all the same (it may quote ours).
		return "GitHub refused a request: " + sanitize.RelayLine(err.Error())
	}
	return "an unexpected error occurred (details are in the workflow log)."
}
