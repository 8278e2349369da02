package execution

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/precision"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// scope is what a review looks at.
type scope struct {
	anchor []diff.File // the PR's diff: where comments may sit
	review []diff.File // what is reviewed: the PR, or what changed since the last review
	from   string      // the previously reviewed head for an incremental review
	since  []diff.File // an incremental review's diff since from: what the push wrote
	note   string      // how the scope was chosen, for the body
	skip   []review.Skip
	// blobs are the changed files' head blob ids, by path: what the
	// ledger records a review of. binary and noDiff are the blobs GitHub
	// sent no patch for, binary by content or text.
	blobs          map[string]string
	binary, noDiff []string
	// built are the files GitHub sent no patch for whose patch the review
	// built from their two contents (see unpatched); later counts those
	// left for the next run.
	built map[string]bool
	later int
}

// reviewGitHub is what a review reads and writes (the fixes it verifies
// and the agent notice write through their own).
type reviewGitHub interface {
	Files(ctx context.Context, repo snapshot.Repo, number int) ([]snapshot.ChangedFile, error)
	Compare(ctx context.Context, repo snapshot.Repo, base, head string) (snapshot.Comparison, error)
	Contents(ctx context.Context, repo snapshot.Repo, ref, path string) (content string, found bool, err error)
	MergeBase(ctx context.Context, repo snapshot.Repo, base, head string) (string, error)
	CreateReview(ctx context.Context, repo snapshot.Repo, number int, r snapshot.NewReview) (int64, error)
	CreateComment(ctx context.Context, repo snapshot.Repo, number int, body string) (snapshot.Comment, error)
	EditComment(ctx context.Context, repo snapshot.Repo, id int64, body string) error
	ReviewsSince(ctx context.Context, repo snapshot.Repo, number int, after int64) ([]snapshot.Review, error)
}

// reviewRunner runs reviews.
type reviewRunner struct {
	env
	GitHub  reviewGitHub
	Session Session // nil: the task fails and stays pending
	Options Options
	base    string // the PR's base commit
	// attributes is the base branch's .gitattributes.
	attributes string
	sendable   review.Scope             // what the model may be sent
	baseRef    string                   // the branch the PR targets
	pr         snapshot.PullRequest     // the PR as the run's snapshot read it
	held       string                   // why another run does this run's automatic review
	bot        snapshot.Actor           // whose reviews are the PR's automatic reviews
	seen       int64                    // the newest review the run's snapshot read
	commits    []string                 // the PR's commits the snapshot listed, nil unless the list is whole
	last       *state.CompletedReview   // the latest review, if any
	ledger     gate.Ledger              // what the PR's automatic reviews read, by blob
	known      map[string]bool          // fingerprints of the findings already reported, or decided on this content
	fixed      map[string]state.Finding // findings closed on other content, by fingerprint: reported again, they regressed
	blobs      map[string]string        // the head blob of each changed file, by path (the review's read)
	fixes      *fixes
	notify     *notifier
	read       map[string]string // the run's lines on the files read (run.read)
	changes    func(ctx context.Context) gate.ChangeSet
	spill      []string // the blobs read past what the review's block holds
}

func newReviewRunner(r *run) *reviewRunner {
	known, fixed := map[string]bool{}, map[string]state.Finding{}
	for _, f := range r.State.Findings {
		d, decided := f.Decision()
		switch {
		case f.Block.Fingerprint == "":
		case f.Fixed(), decided && d.Reraised():
			// Reported again, the problem came back: the fix was
			// reverted, or the decision was made on other code. Only a
			// decision on the very code reported is not asked again.
			fixed[f.Block.Fingerprint] = f
		default:
			known[f.Block.Fingerprint] = true
		}
	}
	for _, p := range r.State.Gone() {
		// A maintainer waived it where it stands: reported again on the
		// same code, it is the waived finding, not a new one.
		if r.State.WaivedGone(p.ID) && p.Fingerprint != "" {
			known[p.Fingerprint] = true
		}
	}
	return &reviewRunner{env: r.env, GitHub: r.GitHub, Session: r.Session, Options: r.Options, base: r.Snap.PR.BaseSHA, attributes: r.Snap.Config.Attributes, sendable: r.scope(), baseRef: r.Snap.PR.BaseRef, pr: r.Snap.PR, held: r.heldReview,
		bot: r.State.Bot, seen: newestReview(r.Snap.Reviews), commits: wholeCommits(r.Snap.PR),
		last: r.State.LastReview(), ledger: r.State.Ledger(), known: known, fixed: fixed, fixes: r.fixes, notify: r.notify, read: r.read,
		changes: r.Changes}
}

// Run runs a review task: one review posted in one request, with every
// finding carrying its block, then the follow-ups that depend on it.
func (x *reviewRunner) Run(ctx context.Context, t detector.Task, rt *detector.ReviewTask) Outcome {
	o := Outcome{Task: t}
	if x.held != "" && rt.Mode == rmcoc.ModeAuto {
		o.Note, o.Claimed = x.held, true
		return o
	}
	if x.Session == nil {
		o.Err = errors.New("no model session for reviews")
		return o
	}
	var startID int64
	if rt.Mode == rmcoc.ModeManual && x.Options.ManualStartComment {
		startID = x.manualStatus(ctx, rt, 0, rmcoc.ManualInProgress, x.say(phraseReviewStart, rt.HeadSHA))
	}
	sc, err := x.scope(ctx, rt)
	if err != nil {
		o.Err = err
		return o
	}
	res, id, err := x.review(ctx, t.Key, rt, sc)
	if sd := (*standDown)(nil); errors.As(err, &sd) {
		o.Note, o.Claimed = sd.Error(), true
		return o
	}
	if err != nil {
		o.Err = err
		taskError(ctx, x.GitHub, x.env, t, err)
		return o
	}
	o.ReviewID, o.Findings, o.Blocking = id, len(res.Findings), res.Blocking()
	o.Skipped, o.Unreviewed, o.Checks = res.Skipped, res.Unreviewed, res.Checks
	o.Note = fmt.Sprintf("posted review %d: %d finding(s), %d blocking (%s)", id, o.Findings, o.Blocking, sc.note)
	if res.Partial != nil {
		// The scope's note says what the review set out to read ("full
		// review"); beside the partial note it would say the opposite.
		o.Note = fmt.Sprintf("posted partial review %d: %d finding(s), %d blocking (planned: %s; %d file(s) left for the next run)", id, o.Findings, o.Blocking, sc.note, len(res.Unreviewed))
	}
	if note := suppressedNote(res.Suppressed); note != "" {
		o.Note += "; " + note
	}
	if res.Partial != nil {
		o.Note += "; " + res.Partial.Note()
		x.Log.Warningf("%s", res.Partial.Note())
	}

	x.tellAgent(ctx, id, rt.HeadSHA, res, sc)
	if rt.Mode == rmcoc.ModeManual && x.Options.ManualEndComment {
		x.manualStatus(ctx, rt, startID, rmcoc.ManualCompleted, x.say(phraseReviewEnd, rt.HeadSHA, o.Findings, o.Blocking))
	}
	for _, m := range rt.Dismissed {
		if err := explainDismissal(ctx, x.GitHub, x.env, m.Ref); err != nil {
			x.Log.Warningf("could not explain the dismissed request %s: %v", m.Ref, err)
		}
	}
	return o
}

// review runs the engine over the scope, evaluates the checks, reopens
// what came back, verifies fixes and posts the one review. Fixed findings
// are resolved before the review is posted: once the review exists the
// task is done, and a run killed in between would never come back to
// them. A check nobody evaluated could be failing: then nothing is posted,
// and the next run does it again.
func (x *reviewRunner) review(ctx context.Context, key string, rt *detector.ReviewTask, sc scope) (review.Result, int64, error) {
	res, err := review.Run(ctx, x.Session, review.Input{Anchor: sc.anchor, Review: sc.review}, x.reviewOptions(key, sc), x.known)
	if err != nil {
		return res, 0, err
	}
	if rt.Mode == rmcoc.ModeAuto {
		if sd := x.reviewedSince(ctx, rt.HeadSHA); sd != nil {
			return res, 0, sd
		}
	}
	for _, n := range res.Notes {
		x.read[n.Path] = n.Change
	}
	res.Skipped = append(x.excluded(sc.skip), res.Skipped...)
	if err := x.checks(ctx, key, rt, sc, &res); err != nil {
		return res, 0, err
	}
	res.Findings = x.regressions(ctx, res.Findings, rt.HeadSHA)
	x.fixes.verifyFixes(ctx, key, sc)
	// A fix verified on the reviewed head before this push wrote lines
	// the push may have moved: the diff since then numbers them here.
	x.fixes.wrote = precision.Forward(x.fixes.wrote, sc.from, rt.HeadSHA, sc.since)
	id, err := x.postReview(ctx, x.composeReview(rt, res, sc))
	if err == nil {
		x.postSpills(ctx, rt, id)
	}
	return res, id, err
}

// postSpills records the blobs the review read past what its block holds
// in continuation blocks, rmcoc.MaxBlobs each, in the bot's comments that
// name the review. One that cannot be posted leaves its files owed (the
// review's block counts them as spilled): the next run reviews them.
func (x *reviewRunner) postSpills(ctx context.Context, rt *detector.ReviewTask, id int64) {
	for part := 1; len(x.spill) > 0; part++ {
		packed, n, _ := rmcoc.PackBlobs(x.spill, rmcoc.MaxBlobs)
		x.spill = x.spill[min(n, len(x.spill)):]
		if n == 0 {
			return
		}
		block := rmcoc.ReviewRun{HeadSHA: rt.HeadSHA, BaseSHA: x.base, BaseRef: x.baseRef, Mode: rt.Mode, CompletedAt: x.now(), Continues: rmcoc.ID(id), Blobs: packed}
		text := fmt.Sprintf("The coverage record of review %d, part %d: %d more file(s) it read, past what one review body holds.", id, part+1, n)
		body := x.compose(text, x.env.ledger.link(block))
		c, err := x.GitHub.CreateComment(ctx, x.repo(), x.number(), body)
		if err != nil {
			x.Log.Warningf("could not record the coverage of %d file(s) review %d read (they stay owed): %v", n, id, err)
			return
		}
		x.env.ledger.wrote(rmcoc.HolderComment, c.ID, body)
	}
}

// standDown is a review another run posted of the same head while this
// run's was at the model: posting this one too would post every finding
// twice (runs without concurrency:, a push's run whose claim landed after
// a comment's run took the review up). Or of a head pushed since this
// run's snapshot (newer is set): this run's head is stale, and its
// findings, posted after the newer head's review, would stand on code the
// head may no longer hold with no run left to verify them.
type standDown struct {
	review int64
	head   string
	newer  string
}

func (s *standDown) Error() string {
	if s.newer != "" {
		return fmt.Sprintf("review %d of %.7s, pushed since this run read the pull request, was posted by another run while this one reviewed %.7s: left to it", s.review, s.newer, s.head)
	}
	return fmt.Sprintf("review %d of %.7s was posted by another run while this one reviewed it: left to it, so no finding is posted twice", s.review, s.head)
}

// reviewedSince is the automatic review the bot posted since the run's
// snapshot that makes this one redundant, nil if none: one of head, or of
// a head the snapshot's whole commit list does not hold (pushed since). One
// read, just before anything of this run's review is written; a read that
// fails posts the review (a finding twice is noise, a review lost is a head
// nobody reviewed). Only the bot's reviews count, and only their trusted
// blocks.
func (x *reviewRunner) reviewedSince(ctx context.Context, head string) *standDown {
	rs, err := x.GitHub.ReviewsSince(ctx, x.repo(), x.number(), x.seen)
	if err != nil {
		x.Log.Warningf("could not tell whether another run reviewed %.7s meanwhile; posting this review: %v", head, err)
		return nil
	}
	for _, r := range rs {
		if !r.Author.Is(x.bot) {
			continue
		}
		for _, b := range rmcoc.ParseTrusted(r.Body).Blocks {
			run, ok := b.(rmcoc.ReviewRun)
			switch {
			case !ok || run.Mode != rmcoc.ModeAuto:
			case run.HeadSHA == head:
				return &standDown{review: r.ID, head: head}
			case x.pushedSince(run.HeadSHA):
				return &standDown{review: r.ID, head: head, newer: run.HeadSHA}
			}
		}
	}
	return nil
}

// pushedSince reports whether sha is a head the run's snapshot did not
// know: not among the PR's commits it listed whole. A list GitHub cut
// short, or none, says nothing: the review is posted.
func (x *reviewRunner) pushedSince(sha string) bool {
	return x.commits != nil && sha != "" && !slices.Contains(x.commits, sha)
}

// wholeCommits are the PR's commits as the snapshot listed them, nil when
// GitHub cut the list short (or gave none).
func wholeCommits(pr snapshot.PullRequest) []string {
	if len(pr.Commits) == 0 || pr.CommitsTotal > len(pr.Commits) {
		return nil
	}
	return pr.Commits
}

func newestReview(rs []snapshot.Review) int64 {
	var n int64
	for _, r := range rs {
		n = max(n, r.ID)
	}
	return n
}

// reviewOptions are the engine's options for this review: the repository's
// settings, the size of what every request carries, the base's
// generated-file attributes, the learnings that apply to the PR's files,
// and the session's usage for the ceiling.
func (x *reviewRunner) reviewOptions(task string, sc scope) review.Options {
	var paths []string
	for _, f := range sc.anchor {
		paths = append(paths, f.Path())
	}
	learned, _ := Applicable(x.Options.Learnings, paths)
	set := x.Options.Review
	set.CategoryThresholds, _ = Calibration(x.Options.Learnings, x.Options.Run)
	return review.Options{Settings: set, PrefixChars: x.Options.PrefixChars, Generated: review.Generated{Attributes: x.attributes},
		Learnings: learned, Spent: spent(x.Session), Task: task, Notes: x.Options.Walkthrough}
}

// spent is the whole session's token usage so far, for the run's ceiling
// (max_run_tokens); nil when the session does not count it.
func spent(s Session) func() llm.Usage {
	if u, ok := s.(interface{ Usage() llm.Usage }); ok {
		return u.Usage
	}
	return nil
}

// tellAgent sends the PR's coding agent the blocking findings of a review
// that requested changes.
func (x *reviewRunner) tellAgent(ctx context.Context, id int64, head string, res review.Result, sc scope) {
	var blocking []AgentFinding
	for _, f := range res.Findings {
		if f.Blocking {
			blocking = append(blocking, x.agentFindingOf(f, head))
		}
	}
	if len(blocking) == 0 {
		return
	}
	if err := x.notify.send(ctx, id, head, blocking, sc.anchor); err != nil {
		x.Log.Warningf("%v", err)
	}
}

// scope chooses full or incremental. An automatic review after an earlier
// one looks only at what changed since the head it reviewed, with the whole
// PR as context; after a force-push or rebase, or when asked for a full
// review, it looks at everything.
func (x *reviewRunner) scope(ctx context.Context, rt *detector.ReviewTask) (scope, error) {
	var sc scope
	files, err := x.files(ctx)
	if err != nil {
		return sc, err
	}
	files = append(files, x.pastTheList(ctx, files)...)
	sc.anchor, sc.skip = ParseFiles(files)
	sc.blobs = map[string]string{}
	for _, f := range files {
		sc.blobs[f.Path] = f.Blob
	}
	x.blobs = sc.blobs
	sc.review, sc.note = sc.anchor, "full review"
	owed := x.owed(rt, sc)
	last := x.last
	switch {
	case rt.Full:
		sc.note = "full review, as requested"
	case last == nil:
	case last.Run.BaseRef != "" && last.Run.BaseRef != x.baseRef:
		sc.note = "full review: the base changed since the last review"
	case last.Run.HeadSHA == rt.HeadSHA && (!last.Run.Covered() || last.Run.Spilled > 0):
		// Resuming a partial review of this head (or one whose
		// continuation blocks were lost), on the chain it built on.
		sc.review, sc.from = carry(sc.anchor, nil, owed), last.Run.FromSHA
		sc.note = fmt.Sprintf("resuming the review of %.7s: %d file(s) no review read yet", rt.HeadSHA, len(sc.review))
	case last.Run.HeadSHA == rt.HeadSHA:
		sc.note = "full review (this head was reviewed before)"
	default:
		x.incremental(ctx, rt, &sc, owed)
	}
	if rt.Mode == rmcoc.ModeAuto && !rt.Full {
		// What the gate owes, no more: a file whose head blob a review
		// read (under another head, or before a revert) is covered.
		var read int
		sc.review, read = x.onlyOwed(sc.review, sc.anchor, owed)
		if read > 0 {
			sc.note += fmt.Sprintf("; %d file(s) whose content a review read already left out", read)
		}
	}
	x.unpatched(ctx, rt.HeadSHA, files, &sc)
	return sc, nil
}

// files is the PR's changed files, read once for the run's decisions and
// its review.
func (x *reviewRunner) files(ctx context.Context) ([]snapshot.ChangedFile, error) {
	if x.fixes != nil && x.fixes.heads != nil {
		return x.fixes.heads.list(ctx)
	}
	return x.GitHub.Files(ctx, x.repo(), x.number())
}

// incremental is the scope after a push: what changed since the reviewed
// head, and every file whose head blob no review read, whole.
func (x *reviewRunner) incremental(ctx context.Context, rt *detector.ReviewTask, sc *scope, owed []string) {
	last := x.last
	cmp, err := x.GitHub.Compare(ctx, x.repo(), last.Run.HeadSHA, rt.HeadSHA)
	switch {
	case err != nil:
		sc.note = fmt.Sprintf("full review (could not compare with %.7s)", last.Run.HeadSHA)
	case cmp.Status != "ahead":
		sc.note = fmt.Sprintf("full review: history was rewritten since %.7s (%s)", last.Run.HeadSHA, cmp.Status)
	default:
		changed, _ := ParseFiles(cmp.Files)
		sc.review, sc.from, sc.since = carry(sc.anchor, changed, owed), last.Run.HeadSHA, changed
		sc.note = fmt.Sprintf("incremental since %.7s: %d changed file(s)", last.Run.HeadSHA, len(sc.review))
	}
}

// owed are the paths the gate owes a review (gate.Owed): the plan's, when
// it read the head's change set; otherwise the same rule over the PR's
// files as this review read them.
func (x *reviewRunner) owed(rt *detector.ReviewTask, sc scope) []string {
	changes := rt.Owed
	if !rt.OwedKnown {
		var cs gate.ChangeSet
		for _, f := range sc.anchor {
			cs.Changes = append(cs.Changes, gate.Change{Path: f.Path(), Blob: sc.blobs[f.Path()], Kind: gate.KindBlob})
		}
		o := gate.Owed(cs, x.ledger, nil)
		changes = append(o.Review, o.Unreadable...)
	}
	out := make([]string, 0, len(changes))
	for _, c := range changes {
		out = append(out, c.Path)
	}
	return out
}

// onlyOwed is an automatic review's scope: the files of review the gate
// owes a review, as review shows them (an incremental diff), and every
// other owed file of the PR's diff, whole; read counts the files of
// review left out, whose content a review read already. A file the base
// excludes stays, for the review to say why it is left out.
func (x *reviewRunner) onlyOwed(review, anchor []diff.File, owed []string) (scope []diff.File, read int) {
	is := make(map[string]bool, len(owed))
	for _, p := range owed {
		is[p] = true
	}
	kept := slices.DeleteFunc(slices.Clone(review), func(f diff.File) bool { return !is[f.Path()] && x.sendable.Why(f) == "" })
	// Never nil: the engine reads a nil scope as the whole diff.
	return append([]diff.File{}, carry(anchor, kept, owed)...), len(review) - len(kept)
}

// GitHubFilesCap is where GitHub's list of a PR's files stops: "a
// maximum of 3000 files".
const GitHubFilesCap = 3000

// ListCut reports whether GitHub's list of a PR's files, which held listed
// files, left some out: it is full, or shorter than the count of changed
// files GitHub gives with the PR (a cap that is not 3,000, or a push
// between the two reads). Then the head's change set comes from its trees.
func ListCut(listed int, pr snapshot.PullRequest) bool {
	return listed >= GitHubFilesCap || listed < pr.ChangedFiles
}

// pastTheList are the changed files GitHub's list left out, when it was
// cut (ListCut): the head's change set from the trees names them with their blob
// ids, and each becomes a file with no patch, which unpatched reads from
// the repository like any other. A change set that cannot be read adds
// nothing: those files stay owed, and the gate pending.
func (x *reviewRunner) pastTheList(ctx context.Context, files []snapshot.ChangedFile) []snapshot.ChangedFile {
	if !ListCut(len(files), x.pr) || x.changes == nil {
		return nil
	}
	cs := x.changes(ctx)
	if !cs.Known() {
		return nil
	}
	listed := make(map[string]bool, len(files))
	for _, f := range files {
		listed[f.Path] = true
	}
	var out []snapshot.ChangedFile
	for _, c := range cs.Changes {
		if c.Kind == gate.KindBlob && !listed[c.Path] {
			// "modified": the merge base's side is read, and a file it
			// does not hold is shown whole as added.
			out = append(out, snapshot.ChangedFile{Path: c.Path, Status: "modified", Blob: c.Blob})
		}
	}
	return out
}

// maxProbes bounds the files GitHub sent no patch for that one run reads,
// and maxBuiltLines the lines of those it diffs (the matcher's time grows
// with the square of a file's lines): the rest are left for the next run,
// which resumes them.
const (
	maxProbes     = 100
	maxBuiltLines = 100000
)

// unpatched reads the files GitHub sent no patch for (a change too large,
// or text it takes for binary) from the repository, at the head and at
// the merge base. Binary content (gate.IsBinary: a NUL byte in the first
// 8,000 bytes, git's own rule) has nothing to review. Text is given the
// patch GitHub would have sent, built from the two contents
// (diff.Unified), and is reviewed like any other file of the scope, split
// into chunks as any big diff is; it is not anchored, since GitHub takes
// no review comment on a file it sends no diff for. A file that cannot be
// read (past the contents API's 1 MB, past diff.MaxUnifiedLines, a failed
// read) stays named unreadable. A file the base excludes is never read: nothing is owed.
func (x *reviewRunner) unpatched(ctx context.Context, head string, files []snapshot.ChangedFile, sc *scope) {
	sc.built = map[string]bool{}
	var r sideReader
	probes, lines := 0, 0
	for _, f := range files {
		if f.Patch != "" || f.Status == "removed" || f.Blob == "" || x.ledger.Of(f.Blob) != 0 || x.sendable.WhyPath(f.Path) != "" {
			continue
		}
		if probes == maxProbes || lines >= maxBuiltLines {
			sc.later++
			continue
		}
		probes++
		d, n, kind := x.buildPatch(ctx, &r, head, f)
		lines += n
		switch kind {
		case isBinary:
			sc.binary = append(sc.binary, f.Blob)
		case isUnreadable:
			sc.noDiff = append(sc.noDiff, f.Blob)
		case isBuilt:
			sc.built[f.Path] = true
			sc.review = append(sc.review, d)
		}
	}
	sc.skip = slices.DeleteFunc(sc.skip, func(s review.Skip) bool { return sc.built[s.Path] })
}

// contentKind is what a file GitHub sent no patch for turned out to be.
type contentKind int

const (
	isUnreadable contentKind = iota
	isBinary
	isBuilt
)

// sideReader holds the merge base, read once when a file needs it.
type sideReader struct {
	mergeBase string
	err       error
	read      bool
}

// buildPatch reads one file GitHub sent no patch for on both sides and
// builds its diff; n is how many lines it compared.
func (x *reviewRunner) buildPatch(ctx context.Context, r *sideReader, head string, f snapshot.ChangedFile) (d diff.File, n int, kind contentKind) {
	content, found, err := x.GitHub.Contents(ctx, x.repo(), head, f.Path)
	switch {
	case err != nil || !found:
		return d, 0, isUnreadable
	case gate.IsBinary(content):
		return d, 0, isBinary
	}
	var old string
	if f.Status != "added" {
		if !r.read {
			r.mergeBase, r.err = x.GitHub.MergeBase(ctx, x.repo(), x.base, head)
			r.read = true
		}
		if r.err != nil {
			return d, 0, isUnreadable
		}
		from := f.Path
		if f.PreviousPath != "" {
			from = f.PreviousPath
		}
		if old, _, err = x.GitHub.Contents(ctx, x.repo(), r.mergeBase, from); err != nil {
			return d, 0, isUnreadable
		}
		if gate.IsBinary(old) {
			old = "" // text replacing a binary file: all of it is new
		}
	}
	n = strings.Count(old, "\n") + strings.Count(content, "\n")
	patch, ok := diff.Unified(old, content)
	if !ok || patch == "" {
		return d, n, isUnreadable
	}
	if d, err = diff.ParsePatch(f.Path, patch); err != nil {
		return d, n, isUnreadable
	}
	if f.PreviousPath != "" {
		d.OldPath, d.Status = f.PreviousPath, diff.Renamed
	}
	if old == "" {
		d.Status = diff.Added
	}
	return d, n, isBuilt
}

// excluded gives a file GitHub sent no diff for the base configuration's
// reason when it excludes the path (ignore_paths, private_paths,
// .gitattributes): then nobody needed to read it.
func (x *reviewRunner) excluded(skips []review.Skip) []review.Skip {
	out := make([]review.Skip, 0, len(skips))
	for _, s := range skips {
		if why := x.sendable.WhyPath(s.Path); s.Unreadable && why != "" {
			s = review.Skip{Path: s.Path, Why: why}
		}
		out = append(out, s)
	}
	return out
}

// carry is an incremental review's scope: what changed since the last
// review, and every file that review did not cover, whole (as the PR's diff
// shows it).
func carry(anchor, changed []diff.File, unreviewed []string) []diff.File {
	out := append([]diff.File(nil), changed...)
	for _, p := range unreviewed {
		if slices.ContainsFunc(out, func(f diff.File) bool { return f.Path() == p }) {
			continue
		}
		if i := slices.IndexFunc(anchor, func(f diff.File) bool { return f.Path() == p }); i >= 0 {
			out = append(out, anchor[i])
		}
	}
	return out
}

// parseFiles turns GitHub's per-file patches into parsed diffs. GitHub sends
// no patch for binary files and for very large ones: those are skipped.
func ParseFiles(files []snapshot.ChangedFile) ([]diff.File, []review.Skip) {
	var out []diff.File
	var skip []review.Skip
	for _, f := range files {
		if f.Patch == "" {
			switch {
			case f.Status == "removed":
			case f.Additions+f.Deletions > 0:
				// Lines changed, yet no patch: GitHub sends none for a
				// change this large. Nobody read it.
				skip = append(skip, review.Skip{Path: f.Path, Why: "GitHub sends no diff for a change this large, so no pass could read it: split the change, or exclude the path in the base branch's ignore_paths or .gitattributes", Unreadable: true})
			default:
				skip = append(skip, review.Skip{Path: f.Path, Why: "binary file (GitHub sent no patch)"})
			}
			continue
		}
		d, err := diff.ParsePatch(f.Path, f.Patch)
		if err != nil {
			skip = append(skip, review.Skip{Path: f.Path, Why: "unreadable patch: " + err.Error()})
			continue
		}
		if f.PreviousPath != "" {
			d.OldPath, d.Status = f.PreviousPath, diff.Renamed
		}
		if f.Status == "added" {
			d.Status = diff.Added
		}
		out = append(out, d)
	}
	return out, skip
}

// postReview posts the review, falling back to COMMENT when GitHub refuses
// REQUEST_CHANGES on the token owner's own PR, and to a body-only review if
// an anchor is rejected after all.
func (x *reviewRunner) postReview(ctx context.Context, rv snapshot.NewReview) (int64, error) {
	id, err := x.GitHub.CreateReview(ctx, x.repo(), x.number(), rv)
	if err != nil && rv.Event == snapshot.ReviewEventRequestChanges && errors.Is(err, snapshot.ErrOwnPullRequest) {
		x.Log.Warningf("GitHub does not let the token's user request changes on their own pull request; posting the same review as COMMENT")
		rv.Event = snapshot.ReviewEventComment
		id, err = x.GitHub.CreateReview(ctx, x.repo(), x.number(), rv)
	}
	if err != nil && errors.Is(err, snapshot.ErrAnchorRejected) {
		x.Log.Warningf("GitHub rejected an inline anchor (%v); posting every finding in the review body", err)
		rv = x.bodyOnly(rv)
		id, err = x.GitHub.CreateReview(ctx, x.repo(), x.number(), rv)
	}
	if err == nil {
		x.env.ledger.wrote(rmcoc.HolderReview, id, rv.Body)
	}
	return id, err
}

// bodyOnly moves the inline comments into the review body. The body is
// composed again, so its state blocks stay the trailing section; the
// comments' finding blocks are dropped: a finding in a review body has no
// thread, so it informs and is never tracked.
func (x *reviewRunner) bodyOnly(rv snapshot.NewReview) snapshot.NewReview {
	var b strings.Builder
	b.WriteString(rmcoc.Strip(rv.Body))
	for _, c := range rv.Comments {
		fmt.Fprintf(&b, "\n\n---\n**%s:%d**\n\n%s", sanitize.Code(c.Path), c.Line, rmcoc.Strip(c.Body))
	}
	blocks := rmcoc.ParseTrusted(rv.Body).Blocks
	for i, bl := range blocks {
		if run, ok := bl.(rmcoc.ReviewRun); ok {
			run.Posted = nil // no thread was opened for them
			blocks[i] = run
		}
	}
	rv.Body = x.compose(b.String(), blocks...)
	rv.Comments = nil
	return rv
}

// manualStatus creates or edits the bot's status comment for a manual
// request; the blocks make a killed run's comment reusable. It returns the
// comment's id (0 when it could not be written).
func (x *reviewRunner) manualStatus(ctx context.Context, rt *detector.ReviewTask, id int64, status rmcoc.ManualStatus, text string) int64 {
	var blocks []rmcoc.Block
	var who []string
	for _, m := range rt.Requests {
		blocks = append(blocks, manualBlock(m.Ref, status, rt.HeadSHA))
		who = append(who, "@"+sanitize.Name(m.Author.Login))
		if id == 0 {
			id = m.Placeholder
		}
	}
	body := x.compose(strings.Join(dedupe(who), " ")+" "+text, blocks...)
	if id != 0 {
		if err := x.GitHub.EditComment(ctx, x.repo(), id, body); err != nil {
			x.Log.Warningf("could not update the review status comment: %v", err)
		}
		return id
	}
	c, err := x.GitHub.CreateComment(ctx, x.repo(), x.number(), body)
	if err != nil {
		x.Log.Warningf("could not post the review status comment: %v", err)
		return 0
	}
	return c.ID
}

func dedupe(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range s {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// regressions takes out the findings that are a fixed finding again (the
// fix was reverted) and reopens the fixed one instead of posting a second.
func (x *reviewRunner) regressions(ctx context.Context, found []review.Finding, head string) []review.Finding {
	var out []review.Finding
	for _, f := range found {
		old, ok := x.fixed[f.Fingerprint]
		if !ok {
			out = append(out, f)
			continue
		}
		why := fmt.Sprintf("This problem is back in `%.7s`: the code its fix changed is as it was (a revert?).", head)
		if d, decided := old.Decision(); decided && d.Kind != gate.Fix {
			why = fmt.Sprintf("This problem is back in `%.7s`: a review reports it again, %s.", head, decidedAs(d.Kind))
		}
		if err := x.fixes.regress(ctx, old, why); err != nil {
			x.Log.Warningf("could not reopen finding %q, which came back: %v", old.Block.Title, err)
			out = append(out, f) // reported anew rather than lost
		}
	}
	return out
}
