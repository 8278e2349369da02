// Package execution runs a plan: the tasks in priority order through one LLM
// session, each write keyed by an rmcoc block so a rerun can tell it happened.
// A task that fails leaves a visible error and stays pending; the others run.
//
// An Executor is built once from a Config (New checks what every path needs).
// Run does the run-level work first (the automatic-review trigger, refusals,
// explanations, catch-up after a killed run, resolutions that do not count,
// a pending agent notice), then hands each task to the Runner its kind
// registers in runners. A runner holds only the GitHub calls it makes
// (declared next to it) and the inputs it reads; every body any of them
// posts goes through the run's one poster.
package execution

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/precision"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/settings"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// GitHub is every GitHub call a run makes: the union of what the runners
// and the run-level work declare next to the code that makes the calls.
type GitHub interface {
	walkthroughGitHub
	outcomeGitHub
	questionGitHub
	disputeGitHub
	reviewGitHub
	fixGitHub
	runGitHub
	reviewEditor
}

// Session is the run's one conversation with the model.
type Session interface {
	Ask(ctx context.Context, label llm.Label, prompt string) (llm.Reply, error)
	llm.JSONAsker
	Sub(block string) llm.JSONAsker // asks that share a review chunk
}

// Logger is the Action log.
type Logger interface {
	Group(title string)
	EndGroup()
	Infof(format string, args ...any)
	Warningf(format string, args ...any)
}

// Runner runs the tasks of one kind.
type Runner interface {
	Run(ctx context.Context, t detector.Task) Outcome
}

// runners is the one table from a task kind to its runner: a new kind is
// its runner and one line here. A runner is registered for the work it
// takes, whose type decides the kind; a constructor takes from the run only
// what its runner holds.
var runners = byKind(
	register[*detector.QuestionTask](newQuestionRunner),
	register[*detector.DisputeTask](newDisputeRunner),
	register[*detector.ReviewTask](newReviewRunner),
	register[*detector.WalkthroughTask](newWalkthroughRunner),
	register[*detector.RecordTask](newOutcomeRunner),
)

// taskRunner runs the tasks whose work is a W.
type taskRunner[W detector.Work] interface {
	Run(ctx context.Context, t detector.Task, w W) Outcome
}

// registration is a runner's constructor and the kind of task it runs.
type registration struct {
	kind  detector.Kind
	build func(r *run) Runner
}

// register registers the runner of the tasks whose work is a W.
func register[W detector.Work, R taskRunner[W]](build func(r *run) R) registration {
	return registration{kind: detector.KindOf[W](), build: func(r *run) Runner { return typed[W]{build(r)} }}
}

// byKind is the table of registrations by kind; two runners of one kind
// are a mistake in the table itself.
func byKind(rs ...registration) map[detector.Kind]func(r *run) Runner {
	m := make(map[detector.Kind]func(r *run) Runner, len(rs))
	for _, reg := range rs {
		if m[reg.kind] != nil {
			panic(fmt.Sprintf("execution: two runners of %s tasks", reg.kind))
		}
		m[reg.kind] = reg.build
	}
	return m
}

// typed hands a task's work to the runner of its type: the one place a
// task's work is taken out of it.
type typed[W detector.Work] struct {
	runner taskRunner[W]
}

func (x typed[W]) Run(ctx context.Context, t detector.Task) Outcome {
	w, ok := t.Work.(W)
	if !ok {
		return Outcome{Task: t, Err: fmt.Errorf("a %s task carries %T, not the work its runner takes; left pending", t.Kind(), t.Work)}
	}
	return x.runner.Run(ctx, t, w)
}

// Config is what an Executor is built from.
type Config struct {
	GitHub GitHub // required
	// Session is nil when the run has no model (no key, or the session
	// could not start): a task that needs one fails visibly and stays
	// pending.
	Session Session
	Options Options
	Snap    snapshot.Snapshot
	State   state.State
	Model   string
	Secrets []string // redacted from everything posted
	// Withheld are lines of the private files' content (PrivateLines):
	// redacted from everything posted, so no reply quotes them.
	Withheld []string
	Now      func() time.Time
	Log      Logger // required
	// Instructions is the fixed part of the system prompt: text that
	// recites it is withheld (a model talked into leaking its instructions).
	Instructions string
	// Changes reads the head's change set from the git trees (package
	// gate), when a review needs the files past GitHub's list of 3,000;
	// nil when it cannot be read.
	Changes func(ctx context.Context) gate.ChangeSet
	// Screen, when set (injection_detection_enabled), checks a task's
	// untrusted text and returns a note when it looks like an injection
	// attempt. The task goes on: the text stays fenced as data.
	Screen func(ctx context.Context, text string) string
	// Permissions is the run's shared permission lookup (one request per
	// login per run): a concession counts only on a dispute by the PR's
	// author or a user with write access. nil: only the author's does.
	Permissions PermissionReader
}

// PermissionReader reads a user's role on a repository ("admin", "write"...).
type PermissionReader interface {
	Permission(ctx context.Context, repo snapshot.Repo, login string) (snapshot.Role, error)
}

// Executor runs one plan on one PR.
type Executor struct {
	cfg Config
}

// New checks that cfg holds what every path needs.
func New(cfg Config) (*Executor, error) {
	switch {
	case cfg.GitHub == nil:
		return nil, errors.New("execution: no GitHub client")
	case cfg.Log == nil:
		return nil, errors.New("execution: no log")
	}
	if cfg.State.Notified == nil {
		cfg.State.Notified = map[int64]bool{}
	}
	if cfg.State.Failures == nil {
		cfg.State.Failures = map[string]int{}
	}
	return &Executor{cfg: cfg}, nil
}

// Options are the inputs execution honours.
type Options struct {
	// Run are the run's typed settings, as the configuration gives them,
	// received whole.
	settings.Run
	// Learnings are the repository's; those matching the PR's files drop
	// the new findings they match.
	Learnings state.Learnings
	// PrefixChars is the size of the system prompt and tool definitions
	// every request carries.
	PrefixChars int
	// Lease is how long a claim on a task holds before another run may take
	// the task over (the run's timeout: no run outlives it).
	Lease time.Duration
	// RunID is the workflow run (GITHUB_RUN_ID): a placeholder names it,
	// so a re-run of the same run takes its own claims over at once.
	RunID string
	// Walkthrough is on: the review's first pass over each chunk also
	// writes the walkthrough's line per file.
	Walkthrough bool
	// Settings is the table of effective settings and where each came
	// from, the answer to a configuration command.
	Settings string
}

// Outcome is what became of one task.
type Outcome struct {
	Task detector.Task
	Err  error // nil when done
	// Reviews: what the review posted.
	Findings, Blocking int
	ReviewID           int64
	URL                string // where the result was posted
	Note               string // one line for the summary
	// Skipped and Unreviewed are what a review did not read: files left out
	// by configuration or content, with why, and files some pass missed.
	Skipped    []review.Skip
	Unreviewed []string
	// Checks are the repository's checks as an automatic review evaluated
	// them.
	Checks []review.CheckResult
	// Regressed are the titles of fixed findings the review found again.
	Regressed []string
	// Claimed is set when another run holds the task's claim: this run
	// left it alone (Note says so).
	Claimed bool
	// Warned is set when the task did not do its work but that is no
	// failure (a walkthrough that could not be written): Note says why.
	Warned bool
	// Stats is, for a recorded outcome, the precision table after it: the
	// job summary of a closed pull request's run shows it; StatsJSON is
	// the same numbers for the precision_stats output.
	Stats, StatsJSON string
}

// Covered reports whether a review read every file it had to: some pass
// missed none (the ceiling stopped none), and GitHub sent a diff for each.
func (o Outcome) Covered() bool {
	if len(o.Unreviewed) > 0 {
		return false
	}
	for _, sk := range o.Skipped {
		if sk.Unreadable {
			return false
		}
	}
	return true
}

// Result is what the run did.
type Result struct {
	Outcomes []Outcome
	Writes   int
	// Resolutions are the resolutions that did not count, and what the run
	// did about each.
	Resolutions []Resolution
}

// Review is what became of the plan's review; false when the plan had
// none (a plan holds at most one).
func (r Result) Review() (Outcome, bool) {
	for _, o := range r.Outcomes {
		if _, ok := o.Task.Work.(*detector.ReviewTask); ok {
			return o, true
		}
	}
	return Outcome{}, false
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
func (r Result) Done() int {
	n := 0
	for _, o := range r.Outcomes {
		if o.Err == nil && !o.Claimed {
			n++
		}
	}
	return n
}

// ErrNotBuilt marks a task kind this build cannot run yet; it stays pending.
var ErrNotBuilt = errors.New("not available in this build")

// run is one Run of an Executor: the config, what every runner shares (env),
// and the two pieces of run-level work a review also does (verifying fixes
// and notifying the agent), shared so each happens once per finding and
// review.
type run struct {
	env
	GitHub  GitHub
	Session Session
	Options Options
	Snap    snapshot.Snapshot
	State   state.State
	Model   string
	Screen  func(ctx context.Context, text string) string
	Changes func(ctx context.Context) gate.ChangeSet
	Perms   PermissionReader
	fixes   *fixes
	notify  *notifier
	built   map[detector.Kind]Runner
	// heldReview says why this run leaves the automatic review to another
	// run at work on it ("" when it does not).
	heldReview string
	// read are the lines this run's review wrote on the files it read,
	// by path, for the walkthrough.
	read map[string]string
}

// scope is the run's one rule for what the model may be sent (see
// review.Scope): the repository's settings over the base's attributes.
func (r *run) scope() review.Scope {
	return review.NewScope(r.Options.Review, review.Generated{Attributes: r.Snap.Config.Attributes})
}

func (x *Executor) start() *run {
	c := x.cfg
	r := &run{env: newEnv(c), GitHub: c.GitHub, Session: c.Session, Options: c.Options, Snap: c.Snap, State: c.State,
		Model: c.Model, Screen: c.Screen, Changes: c.Changes, Perms: c.Permissions, built: map[detector.Kind]Runner{}, read: map[string]string{}}
	r.fixes = &fixes{env: r.env, GitHub: c.GitHub, Session: c.Session, Snap: c.Snap, findings: c.State.Findings, verified: map[string]bool{},
		wrote: precision.FixesOf(c.State.Findings), heads: &headBlobs{GitHub: c.GitHub, env: r.env}}
	r.notify = &notifier{env: r.env, GitHub: c.GitHub, handle: c.Options.NotifyAgent, notified: c.State.Notified}
	return r
}

// runner is the runner of a kind, built on first use.
func (r *run) runner(k detector.Kind) Runner {
	if rn, ok := r.built[k]; ok {
		return rn
	}
	build, ok := runners[k]
	if !ok {
		return nil
	}
	r.built[k] = build(r)
	return r.built[k]
}

// Run executes the plan. It records an automatic-review trigger first (so a
// cancelled run leaves a trace), then runs every task in order. A failed task
// does not stop the others; ctx cancellation does, between writes.
func (x *Executor) Run(ctx context.Context, plan detector.Plan) Result {
	var res Result
	r := x.start()
	r.before(ctx, plan)
	res.Resolutions = r.handleResolutions(ctx)
	r.pendingNotice(ctx)
	for _, t := range plan.Tasks {
		if ctx.Err() != nil {
			res.Outcomes = append(res.Outcomes, Outcome{Task: t, Err: fmt.Errorf("run cancelled before this task: %w", ctx.Err())})
			continue
		}
		r.Log.Group(fmt.Sprintf("Task %s: %s", t.Key, t.Reason))
		note := r.screen(ctx, t)
		var o Outcome
		if rn := r.runner(t.Kind()); rn != nil {
			o = rn.Run(ctx, t)
		} else {
			o = Outcome{Task: t, Err: fmt.Errorf("%s tasks: %w; left pending", t.Kind(), ErrNotBuilt)}
		}
		if note != "" {
			o.Note = strings.TrimSpace(o.Note + " · ⚠️ " + note)
		}
		if o.Err != nil {
			r.Log.Warningf("task %s failed: %v", t.Key, o.Err)
		} else {
			r.Log.Infof("done: %s", o.Note)
		}
		r.Log.EndGroup()
		res.Outcomes = append(res.Outcomes, o)
	}
	r.anchorLedger(ctx)
	return res
}

// screen checks the untrusted text a task hands the model.
func (r *run) screen(ctx context.Context, t detector.Task) string {
	if r.Screen == nil || t.Work == nil {
		return ""
	}
	// What the task hands the model, as its kind declares it.
	sc := t.Work.Screening(r.Snap.PR)
	if sc.Text == "" {
		return ""
	}
	note := r.Screen(ctx, sc.Text)
	if note != "" {
		r.Log.Warningf("task %s: %s; the text stays fenced as data and the task goes on", t.Key, note)
	}
	return note
}
