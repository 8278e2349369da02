// Package app runs the action's pipeline: event → snapshot → state → plan →
// execute → publish. It reads the runner's environment through an injected
// getenv, so the same code runs on a runner, in tests and in the demo.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/review-my-code-bot/rmc/config"
	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/event"
	"github.com/review-my-code-bot/rmc/execution"
	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/mention"
	"github.com/review-my-code-bot/rmc/outcome"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
	"github.com/review-my-code-bot/rmc/summary"
)

// Env is the process environment the action runs in.
type Env struct {
	Getenv func(string) string
	// Stdout takes the run's log, workflow commands included (the runner
	// reads them there), and what a command prints on success.
	Stdout io.Writer
	// Stderr takes a command's usage errors; Stdout when nil.
	Stderr   io.Writer
	ReadFile func(string) ([]byte, error)
	// Environ lists the environment as KEY=value (os.Environ); nil lists
	// nothing. It is read for INPUT_* variables that name no input.
	Environ func() []string
}

// OSEnv is the real environment.
func OSEnv() Env {
	return Env{Getenv: os.Getenv, Stdout: os.Stdout, Stderr: os.Stderr, ReadFile: os.ReadFile, Environ: os.Environ}
}

// errLog prints a command's errors: to Stderr, made inert like the log.
func (e Env) errLog() *Log {
	if e.Stderr != nil {
		e.Stdout = e.Stderr
	}
	return consoleLog(e)
}

// Run is the action's entry point on a runner: gh reads its event and
// reaches GitHub. Every path writes the outputs and the job summary,
// failures included.
func Run(ctx context.Context, env Env, gh Connector) int {
	gha := newLog(env)
	cfg, secrets, f := inputs(env, gh, gha)
	if f != nil {
		return fail(gha, *f, secrets...)
	}
	ev, repo, f := readEvent(env, gh, gha)
	switch {
	case f != nil:
		return fail(gha, *f, secrets...)
	case ev.Name == "":
		return outcome.ExitOK // an event the action does not handle: said so
	}
	client, err := gh.Connect(Connection{Token: cfg.GitHubToken, Getenv: env.Getenv, Warn: func(msg string) { gha.Warningf("%s", msg) }})
	if err != nil {
		return fail(gha, usageFailure("Cannot use GitHub", err.Error()), secrets...)
	}
	return Pipeline{Config: cfg, GitHub: client, Log: gha, Workspace: env.Getenv("GITHUB_WORKSPACE"), RunID: env.Getenv("GITHUB_RUN_ID")}.Run(ctx, repo, ev)
}

func usageFailure(title, problem string) failure {
	return failure{code: outcome.ExitUsage, title: title, problems: []string{problem}}
}

// inputs reads the action's inputs and masks its secrets. A fork's
// pull_request run gets no secrets: it plans, and says what would do the
// rest.
func inputs(env Env, gh Connector, gha *Log) (config.Config, []string, *failure) {
	cfg, err := configFrom(env.Getenv)
	if errors.Is(err, config.ErrNoAPIKey) && forkPR(env, gh) {
		gha.Noticef("this pull request comes from a fork: GitHub gives pull_request runs from forks no secrets and a read-only token, so this run only plans. To review fork PRs, trigger on pull_request_target with the example workflow's checkout of refs/pull/N/head (safe: the action reads that code and never runs it).")
		cfg, err = configFrom(func(k string) string {
			if k == "INPUT_DRY_RUN" {
				return "true"
			}
			return env.Getenv(k)
		})
	}
	for _, secret := range cfg.Secrets() {
		if secret != "" {
			gha.AddMask(secret)
		}
	}
	secrets := append(cfg.Secrets(), env.Getenv("GITHUB_TOKEN"))
	if env.Environ != nil {
		for _, w := range config.UnknownInputs(env.Environ()) {
			gha.Warningf("%s", w)
		}
	}
	if err != nil {
		f := inputFailure(err)
		return cfg, secrets, &f
	}
	if cfg.GitHubToken == "" {
		cfg.GitHubToken = env.Getenv("GITHUB_TOKEN")
	}
	return cfg, secrets, nil
}

// readEvent reads the runner's event and the repository it is about. An
// event the action does not handle is reported as such, with the zero
// event.
func readEvent(env Env, gh Connector, gha *Log) (event.Event, snapshot.Repo, *failure) {
	stop := func(title, problem string) (event.Event, snapshot.Repo, *failure) {
		f := usageFailure(title, problem)
		return event.Event{}, snapshot.Repo{}, &f
	}
	name, path := env.Getenv("GITHUB_EVENT_NAME"), env.Getenv("GITHUB_EVENT_PATH")
	if name == "" || path == "" {
		return stop("No event", "GITHUB_EVENT_NAME and GITHUB_EVENT_PATH must be set (the runner sets them); to plan a PR from a shell use: rmc plan --repo owner/name --pr N")
	}
	payload, err := env.ReadFile(path)
	if err != nil {
		return stop("No event", fmt.Sprintf("read event file: %v", err))
	}
	ev, err := gh.ParseEvent(name, payload)
	if errors.Is(err, event.ErrUnsupported) {
		gha.Noticef("nothing to do: %v", err)
		gha.Summary(summary.NothingToDo(err.Error()))
		writeOutputs(gha, outcome.Outcome{ReviewStatus: outcome.ReviewSkipped})
		return event.Event{}, snapshot.Repo{}, nil
	}
	if err != nil {
		return stop("Unusable event", fmt.Sprintf("event: %v", err))
	}
	if ev.Name == event.WorkflowDispatch {
		// The run's id keys the review request (see detector.dispatchRequest).
		if ev.RunID, err = strconv.ParseInt(env.Getenv("GITHUB_RUN_ID"), 10, 64); err != nil || ev.RunID <= 0 {
			return stop("Unusable event", fmt.Sprintf("workflow_dispatch needs GITHUB_RUN_ID (the runner sets it; it keys the review request so a re-run does not review twice), got %q", env.Getenv("GITHUB_RUN_ID")))
		}
	}
	repo, ok := snapshot.ParseRepo(ev.Repo)
	if !ok {
		repo, ok = snapshot.ParseRepo(env.Getenv("GITHUB_REPOSITORY"))
	}
	if !ok {
		return stop("Unknown repository", fmt.Sprintf("cannot tell the repository: the event names %q and GITHUB_REPOSITORY is %q", ev.Repo, env.Getenv("GITHUB_REPOSITORY")))
	}
	return ev, repo, nil
}

// forkPR reports whether the event is a pull_request from a fork.
func forkPR(env Env, gh Connector) bool {
	if event.Name(env.Getenv("GITHUB_EVENT_NAME")) != event.PullRequest {
		return false
	}
	payload, err := env.ReadFile(env.Getenv("GITHUB_EVENT_PATH"))
	if err != nil {
		return false
	}
	ev, err := gh.ParseEvent(string(event.PullRequest), payload)
	return err == nil && ev.Fork
}

// configFrom reads the inputs from INPUT_* variables, as the runner sets them.
// Outside a runner (GITHUB_ACTIONS unset) nobody filled in action.yml's
// defaults: they are filled here, as `rmc plan` does, so that one bad value
// gives one error rather than one for every input left unset.
func configFrom(getenv func(string) string) (config.Config, error) {
	get := func(name string) string { return getenv(envName(name)) }
	if getenv("GITHUB_ACTIONS") != "true" {
		get = withDefaults(get)
	}
	return config.Load(get, true)
}

// Pipeline is one run over one PR.
type Pipeline struct {
	Config config.Config
	GitHub GitHub
	Log    *Log
	// Classifier decides mention intents; nil means the model when a key is
	// configured and the run is not dry, else the rules.
	Classifier mention.Classifier
	// Workspace is the checked-out repository (GITHUB_WORKSPACE).
	Workspace string
	// RunID is the workflow run (GITHUB_RUN_ID): the run's claims name it.
	RunID string
}

// Run reads the PR, plans, and (unless dry) executes.
func (p Pipeline) Run(ctx context.Context, repo snapshot.Repo, ev event.Event) int {
	_, code := p.run(ctx, repo, ev)
	return code
}

// run is Run, also returning the run's record (for tests and benchmarks).
// A run is five stages over one record: read the PR, derive its state,
// plan, execute, publish. A stage that cannot go on returns the failure the
// run ends with.
func (p Pipeline) run(ctx context.Context, repo snapshot.Repo, ev event.Event) (*runRecord, int) {
	r := &runRecord{cfg: p.Config, repo: repo, ev: ev}
	if f := p.read(ctx, r); f != nil {
		return r, fail(p.Log, *f, r.secrets()...)
	}
	if f := p.derive(ctx, r); f != nil {
		return r, fail(p.Log, *f, r.secrets()...)
	}
	p.plan(ctx, r)
	if r.cfg.DryRun {
		return r, p.dryRun(r)
	}
	ctx, cancel := context.WithTimeout(ctx, r.cfg.ReviewTimeout)
	defer cancel()
	res, f := p.execute(ctx, r)
	if f != nil {
		return r, fail(p.Log, *f, r.secrets()...)
	}
	return r, p.publish(ctx, r, res)
}

// runRecord is what a run knows, stage by stage.
type runRecord struct {
	cfg       config.Config // the inputs, then with the base's file applied
	repo      snapshot.Repo
	ev        event.Event
	snap      snapshot.Snapshot
	bot       snapshot.Actor
	learnings state.Learnings
	states    *state.Permissions
	st        state.State
	client    *llm.Client
	plan      detector.Plan
	reads     *runReader
	sess      *llm.Session
	learner   *execution.Learner
	report    summary.Report  // the run's facts, for the log and the job summary
	out       outcome.Outcome // what the outputs say, once published
	changes   changeKey       // the head's change set, once a review or the gate read it
}

func (r *runRecord) secrets() []string { return []string{r.cfg.APIKey, r.cfg.GitHubToken} }

// read is the run's one read of the PR, and its configuration file from
// the base.
func (p Pipeline) read(ctx context.Context, r *runRecord) *failure {
	p.Log.Group(fmt.Sprintf("Read %s#%d", r.repo, r.ev.PRNumber))
	snap, err := p.GitHub.SnapshotWithConfig(ctx, r.repo, r.ev.PRNumber, r.ev.BaseSHA, r.ev.HeadSHA)
	p.Log.EndGroup()
	if err != nil {
		return &failure{code: outcome.ExitFailed, title: fmt.Sprintf("Could not read %s#%d from GitHub", r.repo, r.ev.PRNumber), problems: []string{err.Error()},
			hint: readFailureHint(err)}
	}
	r.snap = snap
	if r.cfg, err = applyConfigFile(p.Log, r.cfg, snap); err != nil {
		f := configFailure(snap, r.cfg)
		return &f
	}
	return nil
}

// derive is the state of the PR and of its learnings, and the model
// client the run will use (none when dry or without a key).
func (p Pipeline) derive(ctx context.Context, r *runRecord) *failure {
	r.bot = snapshot.BotIdentity(r.cfg.BotLogin, r.snap.Viewer)
	r.learnings = state.DeriveLearnings(r.snap.Learnings, state.Options{Bot: r.bot, Handles: r.cfg.Handles})
	r.states = state.NewPermissions(p.GitHub, state.Options{Bot: r.bot, Handles: r.cfg.Handles, ForkAuthorsCanAsk: r.cfg.ForkAuthorsCanAsk}, p.Log.Warningf)
	r.st = r.states.Derive(ctx, r.snap)
	if r.cfg.DryRun || r.cfg.APIKey == "" {
		return nil
	}
	var err error
	if r.client, err = newLLM(r.cfg, p.Log); err != nil {
		return &failure{code: outcome.ExitUsage, title: "Cannot use the model", problems: []string{fmt.Sprintf("model: %v", err)}}
	}
	return nil
}

// plan classifies the pending mentions and plans the run; the plan and its
// reasons go to the log.
func (p Pipeline) plan(ctx context.Context, r *runRecord) {
	classifier := p.Classifier
	switch {
	case classifier != nil:
	case r.client != nil:
		classifier = classifierFor(r.client)
	default:
		classifier = mention.Rules{}
	}
	in := detector.Input{Event: r.ev, PR: r.snap.PR, State: r.st, Quiet: !r.cfg.NoticeUnauthorized, Walkthrough: r.cfg.Walkthrough,
		Intents: detector.Classify(ctx, classifier, r.st.Pending()), Scope: baseScope(r.cfg.Review, r.snap.Config.Attributes),
		Green: greenStands(r.snap, r.st, r.cfg.Review)}
	r.plan = detector.Build(in)
	counts := p.GitHub.Counts() // the snapshot's reads, which the plan's log line names
	r.reads = newRunReader(p.GitHub)
	if r.plan.Gate() {
		// The automatic review reads the PR's files: read first, they say
		// exactly what the head owes, and the plan is made again on them.
		in.Changes = owedChanges(ctx, r, p.GitHub)
		r.plan = detector.Build(in)
	}
	r.report = summary.Report{Repo: r.repo, Event: r.ev, PR: r.snap.PR, Bot: r.bot, State: r.st, Plan: r.plan, Counts: counts,
		Comments: len(r.snap.IssueComments), Threads: len(r.snap.Threads), Config: reportSettings(r.cfg), ConfigFile: r.snap.Config, Learnings: r.learnings}
	p.Log.Group("Plan")
	for _, line := range r.report.LogLines() {
		p.Log.Infof("%s", line)
	}
	p.Log.EndGroup()
	for _, n := range r.st.Notices {
		p.Log.Warningf("%s", n)
	}
}

// dryRun reports the plan and writes nothing.
func (p Pipeline) dryRun(r *runRecord) int {
	p.Log.Summary(r.report.Markdown(true))
	writeOutputs(p.Log, outcome.Outcome{ReviewStatus: outcome.ReviewSkipped, BlockingIssues: len(r.st.OpenBlocking())})
	p.Log.Noticef("dry run: %d task(s) planned, nothing written", len(r.plan.Tasks))
	return outcome.ExitOK
}

// execute carries out the learnings issue's commands and the plan, in one
// model session.
func (p Pipeline) execute(ctx context.Context, r *runRecord) (execution.Result, *failure) {
	cfg := p.executionConfig(r)
	var err error
	if r.learner, err = execution.NewLearner(cfg, learningsGitHub{GitHub: p.GitHub, perms: r.states, pr: r.snap.PR.Number}); err != nil {
		return execution.Result{}, &failure{code: outcome.ExitFailed, title: "Cannot run the plan", problems: []string{err.Error()}}
	}
	for _, n := range r.learner.Commands(ctx, &r.learnings) {
		p.Log.Infof("learnings: %s", n)
		r.report.LearningNotes = append(r.report.LearningNotes, n)
	}
	cfg.Options.Learnings, r.report.Learnings = r.learnings, r.learnings
	p.startSession(ctx, r, &cfg)
	x, err := execution.New(cfg)
	if err != nil {
		return execution.Result{}, &failure{code: outcome.ExitFailed, title: "Cannot run the plan", problems: []string{err.Error()}}
	}
	res := x.Run(ctx, r.plan)
	r.report.Result = &res
	if r.sess != nil {
		r.report.Usage, r.report.Total = r.sess.TaskUsage(), r.sess.Usage()
	}
	return res, nil
}

// executionConfig is what the executor is built from.
func (p Pipeline) executionConfig(r *runRecord) execution.Config {
	c := r.cfg
	return execution.Config{GitHub: r.reads, Snap: r.snap, State: r.st, Model: c.Model, Secrets: r.secrets(), Log: p.Log, Changes: r.changeSet(p.GitHub),
		Options: execution.Options{Run: c.Run, Learnings: r.learnings, Lease: c.ReviewTimeout, RunID: p.RunID, Settings: r.report.Settings(), Walkthrough: c.Walkthrough}, Permissions: r.states}
}

// withheld are the private files' lines no body may quote (see
// execution.PrivateLines); none when nothing is private.
func (p Pipeline) withheld(ctx context.Context, r *runRecord) []string {
	if len(r.cfg.Review.PrivatePaths) == 0 {
		return nil
	}
	files, err := r.reads.Files(ctx, r.snap.Repo, r.snap.PR.Number)
	if err != nil {
		p.Log.Warningf("could not read the PR's files to keep private files out of replies: %v", err)
		return nil
	}
	return execution.PrivateLines(review.NewScope(r.cfg.Review, review.Generated{Attributes: r.snap.Config.Attributes}), files)
}

// startSession opens the run's model session when anything needs it. A
// resolution that does not count is checked against the code first when
// the code changed, which needs the model even with no task.
func (p Pipeline) startSession(ctx context.Context, r *runRecord, cfg *execution.Config) {
	if r.client == nil || !r.plan.NeedsModel() && len(r.st.Reopens()) == 0 {
		return
	}
	sess, system, err := session(ctx, r.cfg, r.client, r.reads, p.Log, p.Workspace, r.snap, r.learnings)
	if err != nil {
		p.Log.Warningf("could not prepare the model session: %v", err)
	} else {
		r.sess = sess
		cfg.Session, cfg.Instructions = sess, system.Instructions
		cfg.Withheld = p.withheld(ctx, r)
		cfg.Options.PrefixChars = sess.PrefixChars()
		r.learner.UseInstructions(system.Instructions)
	}
	if r.cfg.InjectionDetection {
		cfg.Screen = screener(r.cfg, p.Log)
	}
}

// publish sets the merge gate, learns from what the run settled, writes
// the job summary and the outputs, and says how the job ends.
func (p Pipeline) publish(ctx context.Context, r *runRecord, res execution.Result) int {
	p.Config = r.cfg
	out, after := p.finish(ctx, r, res)
	r.out = out
	if after != nil {
		lr := r.learner.Learn(context.WithoutCancel(ctx), *after, r.learnings)
		r.report.Learned = &lr
		for _, n := range lr.Notes {
			p.Log.Infof("learnings: %s", n)
		}
	}
	r.report.Counts = p.GitHub.Counts()
	r.report.Gate, r.report.After = &summary.Gate{Verdict: out.Gate, Gated: out.Gated}, after
	r.report.Warnings = p.Log.Warnings()
	p.Log.Summary(r.report.Markdown(false))
	writeOutputs(p.Log, out)
	return p.exitCode(out, res)
}

// exitCode logs why the job ends as it does, and returns its code.
func (p Pipeline) exitCode(out outcome.Outcome, res execution.Result) int {
	code, lines := out.Exit(res, GateContext)
	for _, l := range lines {
		if l.Error {
			p.Log.Errorf("%s", l.Text)
		} else {
			p.Log.Warningf("%s", l.Text)
		}
	}
	return code
}

// finish publishes the merge gate from the PR's state after the run, which
// it returns (nil when the PR could not be read again). When the run's writes
// may have changed the findings, that state is re-read from GitHub; otherwise
// it is the state read at the start.
func (p Pipeline) finish(ctx context.Context, r *runRecord, res execution.Result) (outcome.Outcome, *state.State) {
	log, plan, snap, st := p.Log, r.plan, r.snap, r.st
	// A pull_request event's job mirrors the gate, whether this run reviewed
	// or the head was reviewed before: re-running a failed job must not turn
	// it green while blocking findings are open.
	// A paused PR's job fails like any pending gate: a workflow that
	// requires the job rather than the status must not see it green on a
	// head nobody reviewed (a draft cannot be merged; a paused PR can).
	out := outcome.Outcome{ReviewStatus: outcome.ReviewSkipped, TasksExecuted: res.Done(), Gated: plan.Gate() || (r.ev.IsAutoReview() && !snap.PR.Draft)}
	out.SetReview(res)
	out.SetStats(res)
	if res.Failed() > 0 {
		out.ReviewStatus = outcome.ReviewFailed // the summary's task table says why
	}
	ctx = context.WithoutCancel(ctx) // the gate is published even when the deadline ran out
	g := gateRun{p: p, states: r.states, reads: r.reads, start: snap, snap: snap, st: st, changes: r.changes}
	if gateMayChange(plan, res, st) {
		// The review threads, and the reviews posted since the start, are
		// read again: GitHub, not what the run meant to write, says which of
		// its findings, replies and resolutions landed (a write may fail, or
		// land and time out). The conversation is not: what the run posted
		// there is known, and nothing else in it changes the findings.
		if err := g.reread(ctx); err != nil {
			log.Warningf("could not re-read the pull request to publish the merge gate: %v", err)
			return out, nil
		}
	}
	if !g.fresh && !r.ev.IsAutoReview() && stands(snap, snap, st, r.cfg.Review) {
		// Nothing this run did can change the gate, and the status on the
		// head was judged on the facts it holds (or there is none yet and
		// nothing blocks): it stands, unread and unwritten.
		out.BlockingIssues, out.Gate = len(st.OpenBlocking())+len(st.Missing()), standingVerdict(snap)
		return out, &st
	}
	if !g.changes.of(g.snap) {
		g.changes = readChanges(ctx, p.GitHub, g.snap, g.st)
	}
	v, n, err := g.publish(ctx)
	out.BlockingIssues, out.Gate = n, v
	if err != nil {
		log.Warningf("could not set the %s status (the token needs statuses: write): %v", GateContext, err)
	}
	return out, &g.st
}

// gateRun publishes the gate at the end of a run.
type gateRun struct {
	p           Pipeline
	states      *state.Permissions
	reads       *runReader
	start, snap snapshot.Snapshot
	st          state.State
	changes     changeKey // the change set of snap's head, read again when it moved
	fresh       bool      // snap was read again after the run's writes
}

func (g *gateRun) reread(ctx context.Context) error {
	snap, err := g.p.GitHub.SnapshotSince(ctx, g.start)
	if err != nil {
		return err
	}
	snap.IssueComments = g.reads.conversation(g.start)
	g.snap, g.st, g.fresh = snap, g.states.Derive(ctx, snap), true
	if !g.changes.of(snap) {
		g.changes = readChanges(ctx, g.p.GitHub, snap, g.st)
	}
	return nil
}

// publish writes the verdict on the head. A run whose verdict is what the
// status said when it started writes nothing, and a failure is written as
// it is. Otherwise the run reads the status first: when another run wrote it since this run's read (teams forget
// concurrency:), the verdict is derived again from a fresh read, so an
// overlapping run never leaves a stale pending over a finished blocking
// review, nor a success over a failure. A verdict that would let more
// through than the status (gate.Relaxes), success included, or the first
// status on the commit, is the strictest gate of the open PRs whose head
// is the commit (gate.Shared).
func (g *gateRun) publish(ctx context.Context) (gate.Verdict, int, error) {
	v, n, basis := verdict(g.snap, g.st, g.changes.set, g.p.Config.Review)
	want := statusOf(v, g.snap.PR.URL, basis)
	was, found, known := startStatus(g.start, g.snap)
	if known && same(was, found, want) {
		return v, n, nil
	}
	if v.State == gate.Failure {
		// Nothing holds more: a stale failure only keeps the gate shut
		// until the next run, and needs no read.
		return v, n, g.p.GitHub.SetStatus(ctx, g.snap.Repo, g.snap.PR.HeadSHA, want)
	}
	cur, curFound, err := g.p.GitHub.Status(ctx, g.snap.Repo, g.snap.PR.HeadSHA, GateContext)
	if err != nil {
		return v, n, err
	}
	if same(cur, curFound, want) {
		return v, n, nil
	}
	moved := !known || curFound && !same(was, found, cur) // another run wrote since this one read
	if moved && (!g.fresh || gate.Relaxes(gate.State(cur.State), v.State)) {
		if err := g.reread(ctx); err != nil {
			return v, n, err
		}
		v, n, basis = verdict(g.snap, g.st, g.changes.set, g.p.Config.Review)
	}
	// Where no status stands yet (a run cancelled before it wrote leaves
	// none) cur's state is unknown, the strictest: a pending written there
	// relaxes it and is read against the other PRs too, one of which may
	// hold a failure nobody wrote.
	if v.State == gate.Success || gate.Relaxes(gate.State(cur.State), v.State) {
		if shared := gate.Shared(v, g.sharing(ctx)); shared != v {
			// Another PR's gate: this PR's facts are not its basis.
			v, basis = shared, ""
		}
	}
	if want = statusOf(v, g.snap.PR.URL, basis); same(cur, curFound, want) {
		return v, n, nil
	}
	return g.write(ctx, v, n, cur.ID, want)
}

// write sets a verdict read against a status whose id is after (0: none).
// GitHub has no compare-and-set on statuses: a run held between that read
// and its write (a slow runner, no concurrency:) may land a stale pending
// over another run's finished review, or a success over its failure. So a
// write that is not a failure reads the context's statuses once more, and
// when another run's status landed in between (overtaken), the verdict is
// derived again from a fresh read and written if it differs. Once: a run
// killed between its write and that read leaves its write as it is.
func (g *gateRun) write(ctx context.Context, v gate.Verdict, n int, after int64, want snapshot.Status) (gate.Verdict, int, error) {
	repo, sha := g.snap.Repo, g.snap.PR.HeadSHA
	if err := g.p.GitHub.SetStatus(ctx, repo, sha, want); err != nil || v.State == gate.Failure {
		return v, n, err
	}
	since, complete, err := g.p.GitHub.StatusesSince(ctx, repo, sha, GateContext, after)
	if err != nil {
		return v, n, fmt.Errorf("check the %s status of %.7s after writing it: %w", GateContext, sha, err)
	}
	if complete && !overtaken(since, want) {
		return v, n, nil
	}
	if err := g.reread(ctx); err != nil {
		return v, n, fmt.Errorf("read %s#%d again after another run's %s status: %w", repo, g.snap.PR.Number, GateContext, err)
	}
	v, n, basis := verdict(g.snap, g.st, g.changes.set, g.p.Config.Review)
	if v.State == gate.Success || gate.Relaxes(gate.State(want.State), v.State) {
		if shared := gate.Shared(v, g.sharing(ctx)); shared != v {
			v, basis = shared, ""
		}
	}
	again := statusOf(v, g.snap.PR.URL, basis)
	if same(want, true, again) {
		return v, n, nil
	}
	return v, n, g.p.GitHub.SetStatus(ctx, repo, sha, again)
}

// sharing are the gates of the other open PRs whose head is this one's:
// each read and judged as this run judges its own, with no exclusions when
// it targets another base (what that base excludes is not known here, and
// fewer exclusions only hold more). One that cannot be read counts as
// pending: unknown is never green.
func (g *gateRun) sharing(ctx context.Context) []gate.PRVerdict {
	nums, err := g.p.GitHub.OpenPullsWithHead(ctx, g.snap.Repo, g.snap.PR.HeadSHA)
	if err != nil {
		return []gate.PRVerdict{{Number: 0, Verdict: gate.Verdict{State: gate.Pending, Description: "the other pull requests of this commit could not be listed"}}}
	}
	var out []gate.PRVerdict
	for _, num := range nums {
		if num == g.snap.PR.Number {
			continue
		}
		snap, err := g.p.GitHub.SnapshotWithConfig(ctx, g.snap.Repo, num, "", g.snap.PR.HeadSHA)
		if err != nil || snap.PR.HeadSHA != g.snap.PR.HeadSHA {
			out = append(out, gate.PRVerdict{Number: num, Verdict: gate.Verdict{State: gate.Pending, Description: "could not be read"}})
			continue
		}
		var ignore review.Settings
		if snap.PR.BaseRef == g.snap.PR.BaseRef {
			ignore = g.p.Config.Review
		}
		st := g.states.Derive(ctx, snap)
		v, _, _ := verdict(snap, st, readChanges(ctx, g.p.GitHub, snap, st).set, ignore)
		out = append(out, gate.PRVerdict{Number: num, Verdict: v})
	}
	return out
}

// writeOutputs writes the action's outputs from the run's outcome.
func writeOutputs(gha *Log, o outcome.Outcome) {
	for _, out := range outcome.Outputs {
		gha.Output(out.Name, out.Value(o))
	}
}

func splitErrors(err error) []string {
	return strings.Split(err.Error(), "\n")
}

// gateMayChange reports whether the run's writes may have changed the
// findings, and so the gate: a review posts findings, a dispute concedes or
// escalates one, catching up resolves the threads a killed run left open, and
// a resolution that did not count reopens its thread or verifies the fix.
// Everything else the run writes (answers, access notices, explanations,
// review requests and their status comments) leaves the findings as they
// were: the gate is then computed from the state read at the start, and the
// PR is not read a second time. The re-read, when needed, is what keeps the
// gate exact after a partial failure or a kill: it counts what GitHub holds,
// not what the run meant to write.
func gateMayChange(plan detector.Plan, res execution.Result, st state.State) bool {
	for _, t := range plan.Tasks {
		if t.Kind().ChangesFindings() {
			return true
		}
	}
	if len(res.Resolutions) > 0 {
		return true
	}
	for _, f := range st.Findings {
		// A maintainer's resolution is bound to its code by the run's
		// reply. (A decision whose code came back fails the gate from the
		// change set, with or without the reply that reopens it.)
		if f.ResolveDue || f.Unbound() {
			return true
		}
	}
	return false
}
