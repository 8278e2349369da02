// Package detector turns the triggering event and the PR's state into an
// execution plan: every pending task on the PR, not just the one the event is
// about, deduplicated and in priority order (disputes, questions, review).
// Planning is pure; only classifying a mention's intent may call out, and it
// happens before, through mention.Classifier.
package detector

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/review-my-code-bot/rmc/event"
	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/mention"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// Kind is a task's kind; its value is its priority (1 runs first).
type Kind int

const (
	Dispute  Kind = 1
	Question Kind = 2
	Review   Kind = 3
	// Walkthrough writes the PR's walkthrough comment, after the review:
	// with an automatic review, or asked for by a summary command.
	Walkthrough Kind = 4
)

// kinds describes each kind: the one table a new kind adds a row to (with
// its work type, whose kind method names it, and its runner in execution).
var kinds = map[Kind]struct {
	name, icon string
	// findings is set for a kind whose work can change the findings, and
	// so the gate: the run reads the PR again before it sets the status.
	findings bool
	// noModel is set for a kind whose work asks the model nothing.
	noModel bool
}{
	Dispute:     {"dispute", "⚖️", true, false},
	Question:    {"question", "💬", false, false},
	Review:      {"review", "🔍", true, false},
	Walkthrough: {"walkthrough", "🧭", false, false},
	Record:      {"outcome", "📊", false, true},
}

func (k Kind) String() string {
	if d, ok := kinds[k]; ok {
		return d.name
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Label is the kind as the job summary shows it: an icon and its name.
func (k Kind) Label() string {
	if d, ok := kinds[k]; ok {
		return d.icon + " " + d.name
	}
	return k.String()
}

// ChangesFindings reports whether a task of the kind can change the PR's
// findings, and so the merge gate.
func (k Kind) ChangesFindings() bool { return kinds[k].findings }

// Kinds are the task kinds, in priority order.
func Kinds() []Kind {
	ks := slices.Collect(maps.Keys(kinds))
	slices.Sort(ks)
	return ks
}

// Task is one unit of work.
type Task struct {
	Key    string // stable across runs; task-error blocks refer to it
	Reason string // why the task exists, for the log and the summary
	Work   Work   // what the task does, and so its kind
}

// Kind is the task's kind, which its work decides; 0 for a task without
// work.
func (t Task) Kind() Kind {
	if t.Work == nil {
		return 0
	}
	return t.Work.kind()
}

// Work is what a task does: a *DisputeTask, *QuestionTask, *ReviewTask or
// *WalkthroughTask. The set is closed (its method is unexported), so a
// task carries one piece of work and its kind cannot disagree with it.
// Each declares its injection screening with it: no kind exists without
// saying what untrusted text it hands the model.
type Work interface {
	kind() Kind
	// Screening is what people wrote that the task hands the model, for
	// the injection screen (pr is the pull request the task is on).
	Screening(pr snapshot.PullRequest) Screening
}

// Screening is the untrusted text a task hands the model, which the
// injection screen checks, or why it hands none.
type Screening struct {
	Text string
	// None says why the work hands the model nothing a person wrote; ""
	// when Text is what it hands.
	None string
}

// Screening is the developer replies the dispute answers.
func (w *DisputeTask) Screening(snapshot.PullRequest) Screening {
	var text string
	for _, rp := range w.Finding.PendingReplies {
		text += rp.Body + "\n"
	}
	return Screening{Text: text}
}

// Screening is the question.
func (w *QuestionTask) Screening(snapshot.PullRequest) Screening {
	return Screening{Text: w.Mention.Text}
}

// Screening is the pull request's title and description, which the
// review's prompt quotes.
func (w *ReviewTask) Screening(pr snapshot.PullRequest) Screening {
	return Screening{Text: pr.Title + "\n" + pr.Body}
}

// Screening: the walkthrough hands the model only the diff, and no task
// screens the diff (code is not instructions; it is fenced as data).
func (w *WalkthroughTask) Screening(snapshot.PullRequest) Screening {
	return Screening{None: "only the diff goes in, fenced as data"}
}

// KindOf is the kind of the tasks whose work is a W.
func KindOf[W Work]() Kind {
	var w W // a nil pointer: kind reads nothing from it
	return w.kind()
}

func (*DisputeTask) kind() Kind     { return Dispute }
func (*QuestionTask) kind() Kind    { return Question }
func (*ReviewTask) kind() Kind      { return Review }
func (*WalkthroughTask) kind() Kind { return Walkthrough }

// DisputeTask answers the unanswered developer replies on a finding.
type DisputeTask struct {
	Finding state.Finding
}

// QuestionTask answers a question.
type QuestionTask struct {
	Mention state.Mention
}

// WalkthroughTask writes the walkthrough: of a head, answering the summary
// commands that asked for it again.
type WalkthroughTask struct {
	HeadSHA  string
	Commands []state.Mention // summary commands it answers
}

// ReviewTask describes the review to run.
type ReviewTask struct {
	Mode    rmcoc.Mode
	Gate    bool // blocking findings fail the job (automatic reviews only)
	HeadSHA string
	Action  string // the pull_request action that requested it, for auto reviews
	Resumed bool   // restarting an automatic review a cancelled run left unfinished
	Missed  bool   // a push whose run was cancelled before it recorded anything
	Full    bool   // a full review was asked for explicitly
	// Owed are the head's changes the gate still owes a review, by its own
	// rule (gate.Owed), when the plan read the change set (OwedKnown): what
	// an automatic review reads, no more and no less. Otherwise the review
	// takes them by the same rule from the files it reads.
	Owed      []gate.Change
	OwedKnown bool
	// Rest is set for the rest of what a head owes after its own review
	// stopped short (or lost part of its record).
	Rest bool
	// Requests are the manual requests this review answers.
	Requests []state.Mention
	// Dismissed are manual requests an automatic review makes redundant.
	Dismissed []state.Mention
}

// Skip explains something the plan deliberately leaves out.
type Skip struct {
	What string
	Why  string
}

// Plan is what the run will do.
type Plan struct {
	Tasks []Task
	// RecordTrigger, when set, is written before any task runs, so a run
	// cancelled midway leaves the trace the next run restarts from.
	RecordTrigger *rmcoc.AutoReviewTrigger
	// Explain lists manual requests dismissed by an earlier automatic review
	// whose explanation reply a killed run never posted.
	Explain []state.Ref
	// Refuse lists mentions by people who may not ask the bot for work,
	// one per person not told before: each gets a polite notice, once.
	Refuse []state.Mention
	// Commands lists the registered commands to answer (pause, resume,
	// resolve, waive...); what they do is the state's, the answer only
	// says so.
	Commands []state.Mention
	// Evidence lists blocking findings whose thread was deleted and that
	// the PR was not told about yet.
	Evidence []rmcoc.PostedFinding
	Skipped  []Skip
}

// Review is the plan's review, or nil: a plan holds at most one.
func (p Plan) Review() *ReviewTask {
	for _, t := range p.Tasks {
		if rt, ok := t.Work.(*ReviewTask); ok {
			return rt
		}
	}
	return nil
}

// Gate reports whether this run's result decides the merge gate.
func (p Plan) Gate() bool {
	rt := p.Review()
	return rt != nil && rt.Gate
}

// NeedsModel reports whether any task calls the model.
func (p Plan) NeedsModel() bool {
	return slices.ContainsFunc(p.Tasks, func(t Task) bool { return !kinds[t.Kind()].noModel })
}

// Empty reports whether there is nothing to write.
func (p Plan) Empty() bool {
	return len(p.Tasks) == 0 && p.RecordTrigger == nil && len(p.Explain) == 0 && len(p.Refuse) == 0 && len(p.Commands) == 0 && len(p.Evidence) == 0
}

// Input is everything Plan reads.
type Input struct {
	Event   event.Event
	PR      snapshot.PullRequest
	State   state.State
	Intents map[state.Ref]mention.Intent // of pending mentions
	// MaxFailures is how many recorded failures a task may have before the
	// plan stops retrying it (0 means 3).
	MaxFailures int
	// Quiet skips the notice to people without access (notice_unauthorized: false).
	Quiet bool
	// Walkthrough is on (walkthrough in .github/rmc.yml): automatic
	// reviews and summary commands write it.
	Walkthrough bool
	// Changes is the head's change set as the run read it, nil when it did
	// not: what the head owes is gate.Owed of it, the state's ledger and
	// Scope, the rule the gate judges by.
	Changes *gate.ChangeSet
	// Scope is what the base branch's configuration excludes (nil:
	// nothing), as the gate asks it.
	Scope gate.Scope
	// Green is set when the gate's status on the head is success, judged
	// on the facts this run holds (gate.Stands): the head owes nothing, and
	// its change set need not be read.
	Green bool
}

// owing is what the head owes a review, by the gate's rule; unknown when
// the run read no change set.
func owing(in Input) gate.Owing {
	switch {
	case in.Green:
		return gate.Owing{Known: true}
	case in.Changes == nil:
		return gate.Owing{}
	}
	return gate.Owed(*in.Changes, in.State.Ledger(), in.Scope)
}

// Classify decides the intent of every pending mention the bot may act on:
// a command needs none, and classifying an untrusted mention would spend a
// model call on a request the bot will not take. A classifier error falls
// back to the rule-based one, so a flaky model never loses a request.
func Classify(ctx context.Context, c mention.Classifier, pending []state.Mention) map[state.Ref]mention.Intent {
	out := make(map[state.Ref]mention.Intent, len(pending))
	for _, m := range pending {
		if m.Command != "" || !m.Trusted {
			continue // a command, or someone the bot refuses
		}
		intent, err := c.Classify(ctx, m.Text)
		if err != nil || !known(intent) {
			intent = mention.Classify(m.Text)
		}
		out[m.Ref] = intent
	}
	return out
}

// Build computes the plan: disputes, then what the mentions ask, then the
// review and the walkthrough, in priority order.
func Build(in Input) Plan {
	b := &builder{in: in, maxFail: in.MaxFailures, refused: map[string]bool{}}
	if b.maxFail <= 0 {
		b.maxFail = 3
	}
	b.disputes()
	b.mentions()
	if m, ok := dispatchRequest(in, &b.p); ok {
		b.manual = append(b.manual, m)
	}
	if rt := reviewTask(in, b.manual, &b.p); rt != nil {
		key := "review-" + string(rt.Mode) + "-" + shortSHA(rt.HeadSHA)
		if b.retry(key, string(rt.Mode)+" review of "+shortSHA(rt.HeadSHA)) {
			b.p.Tasks = append(b.p.Tasks, Task{Key: key, Reason: reviewReason(rt), Work: rt})
		}
	}
	walkthroughTask(in, b.summaries, &b.p, b.retry)
	recordTask(in, b.records, &b.p, b.retry)
	b.p.Explain = in.State.Unexplained
	for _, f := range in.State.Missing() {
		if !in.State.EvidenceNoticed[f.ID] {
			b.p.Evidence = append(b.p.Evidence, f)
		}
	}
	slices.SortStableFunc(b.p.Tasks, func(a, c Task) int { return int(a.Kind()) - int(c.Kind()) })
	return b.p
}

// builder is a plan being built.
type builder struct {
	in                Input
	p                 Plan
	maxFail           int
	manual, summaries []state.Mention
	records           []state.Mention // record commands the record task answers
	refused           map[string]bool // logins told in this plan
}

// retry reports whether a task may run again: one that failed too often
// waits for a new mention.
func (b *builder) retry(key, what string) bool {
	if n := b.in.State.Failures[key]; n >= b.maxFail {
		b.p.Skipped = append(b.p.Skipped, Skip{what, fmt.Sprintf("failed %d times already; not retried automatically (mention the bot again to retry)", n)})
		return false
	}
	return true
}

// disputes plans an answer to the unanswered replies on each finding.
func (b *builder) disputes() {
	for i := range b.in.State.Findings {
		f := &b.in.State.Findings[i]
		if len(f.PendingReplies) == 0 || f.WaivedBy != "" {
			continue // a waived finding has nothing left to argue
		}
		last := f.PendingReplies[len(f.PendingReplies)-1]
		key := fmt.Sprintf("dispute-%d", last.ID)
		what := fmt.Sprintf("reply by @%s on finding %q (%s:%d)", last.Author.Login, f.Block.Title, f.Thread.Path, f.Thread.Line)
		if b.retry(key, what) {
			b.p.Tasks = append(b.p.Tasks, Task{Key: key, Work: &DisputeTask{Finding: *f},
				Reason: fmt.Sprintf("%d unanswered developer repl%s on a finding", len(f.PendingReplies), plural(len(f.PendingReplies), "y", "ies"))})
		}
	}
}

// mentions sorts the pending mentions: refusals, waivers, commands, review
// requests and questions.
func (b *builder) mentions() {
	for _, m := range b.in.State.Pending() {
		switch {
		case !m.Trusted:
			b.refuse(m)
		case m.Command == state.CommandSummary && b.in.Walkthrough:
			b.summaries = append(b.summaries, m)
		case m.Command == state.CommandRecord && m.Allowed && !m.Edited && b.in.PR.State != "" && b.in.PR.State != snapshot.PROpen:
			b.records = append(b.records, m)
		case m.Command != "":
			b.p.Commands = append(b.p.Commands, m)
		case b.in.Intents[m.Ref] == mention.ReviewRequest, b.in.Intents[m.Ref] == mention.FullReviewRequest:
			b.manual = append(b.manual, m)
		default:
			b.question(m)
		}
	}
}

// refuse tells someone without access, once per person, and notes why
// their mention is skipped.
func (b *builder) refuse(m state.Mention) {
	login := strings.ToLower(m.Author.Login)
	if !b.in.Quiet && !b.in.State.Refused[login] && !b.refused[login] {
		b.refused[login] = true
		b.p.Refuse = append(b.p.Refuse, m)
	}
	b.p.Skipped = append(b.p.Skipped, Skip{fmt.Sprintf("mention by @%s", m.Author.Login), "only collaborators and the pull request's author can ask for reviews and answers"})
}

// question plans an answer to a question.
func (b *builder) question(m state.Mention) {
	key := "question-" + m.Ref.String()
	if !b.retry(key, fmt.Sprintf("question by @%s", m.Author.Login)) {
		return
	}
	where := "in the conversation"
	if m.Thread != nil {
		where = fmt.Sprintf("in a review thread on %s:%d", m.Thread.Path, m.Thread.Line)
	}
	b.p.Tasks = append(b.p.Tasks, Task{Key: key, Work: &QuestionTask{Mention: m},
		Reason: fmt.Sprintf("unanswered question by @%s %s", m.Author.Login, where)})
}

// walkthroughTask plans the walkthrough: with an automatic review, or for
// summary commands (once for all of them).
func walkthroughTask(in Input, summaries []state.Mention, p *Plan, retry func(key, what string) bool) {
	rt := p.Review()
	auto := rt != nil && rt.Mode == rmcoc.ModeAuto
	if !in.Walkthrough || (!auto && len(summaries) == 0) {
		return
	}
	head := in.PR.HeadSHA
	key := "walkthrough-" + shortSHA(head)
	reason := "the walkthrough of " + shortSHA(head) + ", with the automatic review"
	if len(summaries) > 0 {
		key = "walkthrough-" + summaries[0].Ref.String()
		reason = fmt.Sprintf("@%s asked for the walkthrough again", summaries[0].Author.Login)
	}
	if retry(key, "walkthrough") {
		p.Tasks = append(p.Tasks, Task{Key: key, Reason: reason, Work: &WalkthroughTask{HeadSHA: head, Commands: summaries}})
	}
}

// reviewTask decides whether a review runs, of which mode, with which gate.
func reviewTask(in Input, manual []state.Mention, p *Plan) *ReviewTask {
	if in.PR.State != "" && in.PR.State != snapshot.PROpen {
		if in.Event.IsAutoReview() || len(manual) > 0 {
			p.Skipped = append(p.Skipped, Skip{"review", "the pull request is " + strings.ToLower(string(in.PR.State))})
		}
		return nil
	}
	full := slices.ContainsFunc(manual, func(m state.Mention) bool { return in.Intents[m.Ref] == mention.FullReviewRequest })
	if auto := autoReview(in, p); auto != nil {
		auto.Full = full
		auto.Dismissed = manual
		return auto
	}
	if len(manual) == 0 {
		return nil
	}
	return &ReviewTask{Mode: rmcoc.ModeManual, HeadSHA: in.PR.HeadSHA, Requests: manual, Full: full}
}

// autoReview is the automatic review this run owes the head, or nil. A
// pause holds back every automatic review until one covers the head; an
// event that asks for one is answered (or told why not), and otherwise a
// review is owed when the head owes one (gate.Owed), when a run of it was
// cancelled, or when a resume command asks. A head that owes nothing is
// done once a review of its own against its base completed: until then it
// is given one, which reads no file the gate does not owe, and verifies
// fixes, reopens what came back and records the head.
func autoReview(in Input, p *Plan) *ReviewTask {
	o := owing(in)
	// Reviewed as far as any review can: files GitHub sends no diff for
	// wait for the change to be split, not for another review.
	done := in.Green || o.Covered() && in.State.ReviewedAgainst(in.PR.HeadSHA, in.PR.BaseRef)
	switch {
	case in.State.Pause != nil && !done:
		if in.Event.IsAutoReview() {
			p.Skipped = append(p.Skipped, Skip{"automatic review", in.State.Pause.Why() + "; the merge gate stays pending until a review covers the head (`@rmc-bot resume`, or ask for a manual review)"})
		}
		return nil
	case in.Event.IsAutoReview():
		return eventReview(in, o, done, p)
	case in.PR.Draft || done:
		return nil // nothing owed
	}
	return owedReview(in, o, p)
}

// eventReview answers an event that asks for an automatic review: a draft
// and a head done are skipped, with the reason.
func eventReview(in Input, o gate.Owing, done bool, p *Plan) *ReviewTask {
	head, action := in.PR.HeadSHA, in.Event.Action
	switch {
	case in.PR.Draft:
		p.Skipped = append(p.Skipped, Skip{"automatic review", "the pull request is a draft; it is reviewed when marked ready for review (or ask for a manual review)"})
		return nil
	case done:
		p.Skipped = append(p.Skipped, Skip{"automatic review", fmt.Sprintf("head %s was already reviewed against %s, and every changed file's content with it", shortSHA(head), in.PR.BaseRef)})
		return nil
	}
	p.RecordTrigger = &rmcoc.AutoReviewTrigger{HeadSHA: head, Action: action}
	return &ReviewTask{Mode: rmcoc.ModeAuto, Gate: true, HeadSHA: head, Action: action, Owed: o.Review, OwedKnown: o.Known}
}

// owedReview is the automatic review a run without such an event owes a
// ready head not known covered: one whose run was cancelled, one a resume
// command asks for, or, on a PR enrolled in automatic reviews, what the
// head owes (the rest of a review that stopped short, a push whose run was
// cancelled, content whose record was cut). With the change set unread it
// is the review the head may owe: the run reads it before it runs one.
func owedReview(in Input, o gate.Owing, p *Plan) *ReviewTask {
	head, st := in.PR.HeadSHA, in.State
	rt := &ReviewTask{Mode: rmcoc.ModeAuto, Gate: true, HeadSHA: head, Action: "synchronize", Resumed: true, Owed: o.Review, OwedKnown: o.Known}
	switch {
	case st.AutoTrigger != nil && st.AutoTrigger.HeadSHA == head:
		rt.Action = st.AutoTrigger.Action
	case resumed(in):
		// A resume command: the head is owed an automatic review, even on
		// a PR paused before its first one.
		p.RecordTrigger = &rmcoc.AutoReviewTrigger{HeadSHA: head, Action: "resume"}
		rt.Action = "resume"
	case !st.Enrolled():
		return nil
	case !st.ReviewedAgainst(head, in.PR.BaseRef):
		// A push whose run was cancelled before it could record its
		// trigger: the PR is enrolled, the head is new (or the base is).
		p.RecordTrigger = &rmcoc.AutoReviewTrigger{HeadSHA: head, Action: "synchronize"}
		rt.Missed = true
	default:
		rt.Rest = true
	}
	return rt
}

// resumed reports whether this run answers a resume command: the head is
// owed an automatic review even on a PR paused before its first one.
func resumed(in Input) bool {
	return slices.ContainsFunc(in.State.Pending(), func(m state.Mention) bool { return m.Command == state.CommandResume && m.Trusted && !m.Edited })
}

func reviewReason(rt *ReviewTask) string {
	switch {
	case rt.Mode == rmcoc.ModeManual && rt.Requests[0].Ref.Source == state.SourceDispatch:
		return fmt.Sprintf("manual review requested by @%s by running the workflow (run %d; informational: does not gate the merge)", rt.Requests[0].Author.Login, rt.Requests[0].Ref.ID)
	case rt.Mode == rmcoc.ModeManual:
		return fmt.Sprintf("manual review requested by @%s (informational: does not gate the merge)", rt.Requests[0].Author.Login)
	case rt.Action == "resume":
		return fmt.Sprintf("automatic reviews were resumed: reviewing %s (gates the merge)", shortSHA(rt.HeadSHA))
	case rt.Missed:
		return fmt.Sprintf("head %s was pushed after the last automatic review and never reviewed (its run was cancelled); reviewing it (gates the merge)", shortSHA(rt.HeadSHA))
	case rt.Rest && rt.OwedKnown:
		return fmt.Sprintf("%d changed file(s) of %s were never shown to every pass of an automatic review; reviewing them (gates the merge)", len(rt.Owed), shortSHA(rt.HeadSHA))
	case rt.Rest:
		return fmt.Sprintf("the automatic review of %s may not have covered every changed file; reviewing what it owes (gates the merge)", shortSHA(rt.HeadSHA))
	case rt.Resumed:
		return fmt.Sprintf("automatic review of %s was cancelled before it finished; restarted (gates the merge)", shortSHA(rt.HeadSHA))
	}
	return fmt.Sprintf("pull_request %s: automatic review of %s (gates the merge)", rt.Action, shortSHA(rt.HeadSHA))
}

func known(i mention.Intent) bool {
	return i == mention.Question || i == mention.ReviewRequest || i == mention.FullReviewRequest
}

func shortSHA(s string) string {
	if len(s) > 7 {
		return s[:7]
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
