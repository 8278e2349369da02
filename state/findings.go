package state

import (
	"fmt"
	"slices"
	"time"

	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// Finding is a bot finding with its thread and effective status.
type Finding struct {
	Block         rmcoc.Finding
	Thread        snapshot.Thread
	RootCommentID int64
	// Status is the effective status: RESOLVED when the thread is resolved,
	// else the latest dispute-resolution block's, else the finding's own.
	Status rmcoc.FindingStatus
	// PendingReplies are developer replies the bot has not answered yet:
	// newer than the bot's last reply in the thread, with no dispute block
	// referencing them.
	PendingReplies []snapshot.ReviewComment
	// LastResolution is the latest dispute-resolution block, if any.
	LastResolution *rmcoc.DisputeResolution
	// Judged are the contents (head blob ids) a verdict kept the finding
	// open on since it was last raised: a dispute is judged once per
	// content, however many answers came after that verdict.
	Judged []string
	// ResolveDue is set when the bot decided the finding is resolved but
	// its thread is still open, with no reply since: a run was killed
	// between its reply and resolving the thread.
	ResolveDue bool
	// ResolvedBy is the maintainer whose resolution of the thread counts:
	// a user with write access or more who is not the PR's author.
	ResolvedBy *snapshot.Actor
	// Reopen is set when the thread of a blocking finding was resolved by
	// someone whose resolution does not count (the PR's author, a user
	// without write access, an unknown account): the finding keeps
	// blocking, and the thread is to be reopened. The Actor is the
	// resolver (Login "" when GitHub did not say).
	Reopen *snapshot.Actor
	// ReopenExplained is set with Reopen when the bot already replied to
	// this resolution (a run was killed before reopening the thread, or
	// the thread was resolved again without a word since): reopen only.
	ReopenExplained bool
	// Unjudged is the login whose resolution of a blocking finding's thread
	// cannot be judged yet: Options.Writers does not say whether it has
	// write access. The finding blocks meanwhile; see State.Resolvers.
	Unjudged string
	// Tampered is set when someone other than the bot edited the finding's
	// comment: its block cannot be trusted, so the finding blocks until a
	// maintainer waives it with a resolve command given after the edit (no
	// fix or dispute is judged on a text someone else wrote, and a
	// decision from before the edit is Superseded).
	Tampered bool
	// FixLost is set on a finding resolved as fixed whose fix was verified
	// on a commit the head no longer contains (a force-push): it is open
	// again, and the run says so in its thread.
	FixLost bool
	// WaivedBy is the maintainer whose resolve command waived the finding:
	// it no longer holds the gate.
	WaivedBy string
	// FixUnknown is set on a finding resolved as fixed whose fix was
	// verified on a commit the PR's commit list cannot show (GitHub lists
	// at most snapshot.MaxCommits): whether the head still contains it is
	// unknown, and unknown is never green.
	FixUnknown bool
	// Accepted is the bot's record binding a maintainer's resolution of
	// the thread to the content it judged (rmcoc.ResolutionAccepted), nil
	// when none was written since the finding last regressed.
	Accepted *rmcoc.DisputeResolution
	// OpenSince is when the finding last became open: its comment, or the
	// bot's latest reply reopening it as a regression. A command applies
	// to the findings open when it was given (openAt).
	OpenSince time.Time
	// EditedAt is when someone other than the bot last edited the
	// finding's comment (Tampered), as GitHub says; zero when GitHub did
	// not say, and then no decision can be shown to follow the edit.
	EditedAt time.Time
	// Superseded is the decision that closed an edited finding but does
	// not count: it was given before the comment's last edit, or cannot be
	// shown to come after it, so it judged other text than the comment
	// shows now. The finding holds the gate, named (Decision), until a
	// maintainer's resolve command given after the edit waives it.
	Superseded *Superseded
}

// Superseded is a decision an edit of the finding's comment superseded.
type Superseded struct {
	Kind gate.DecisionKind
	By   string // the maintainer's login; "" for the bot's own decision
}

// JudgedOn reports whether a verdict kept the finding open on the content
// blob: a dispute on it is answered, not judged again.
func (f Finding) JudgedOn(blob string) bool {
	return blob != "" && slices.Contains(f.Judged, blob)
}

// decidedAfterEdit reports whether a decision given at t can settle the
// finding: any decision, unless someone else edited its comment; then
// only one given after the last edit. An edit GitHub did not date is
// followed by nothing.
func (f Finding) decidedAfterEdit(t time.Time) bool {
	return !f.Tampered || !f.EditedAt.IsZero() && t.After(f.EditedAt)
}

// supersede closes the edited finding by a decision that does not count:
// it holds the gate until a maintainer decides again, after the edit. Its
// thread is not reopened, whoever resolved it: the gate holds it already.
func (f *Finding) supersede(k gate.DecisionKind, by string) {
	if f.Superseded == nil {
		f.Superseded = &Superseded{Kind: k, By: by}
	}
	f.Status, f.Reopen, f.ReopenExplained, f.Unjudged = rmcoc.FindingResolved, nil, false, ""
}

// supersededWhy names the finding and says why the decision that closed
// it does not count, for the gate's description. The finding is named by
// its comment's id, which GitHub gives: its block is someone else's text.
func (f Finding) supersededWhy() string {
	name := fmt.Sprintf("finding in comment %d", f.RootCommentID)
	if f.EditedAt.IsZero() {
		return name + " edited at a time GitHub does not give"
	}
	switch by := f.Superseded.By; f.Superseded.Kind {
	case gate.Fix:
		return name + " edited after its fix was verified"
	case gate.Conceded:
		return name + " edited after its concession"
	case gate.Accepted:
		return name + " edited; resolution undated"
	case gate.Waived:
		return fmt.Sprintf("%s edited after @%s's resolve", name, by)
	}
	return name + " edited after a decision"
}

// Open reports whether the finding still needs attention. A resolved thread
// alone does not close a finding: Status says whether the resolution counts.
func (f Finding) Open() bool { return f.Status != rmcoc.FindingResolved || f.FixLost }

// Fixed reports a finding resolved as fixed by a fix that still holds.
func (f Finding) Fixed() bool {
	r := f.LastResolution
	return !f.Open() && r != nil && r.Resolution == rmcoc.ResolutionFixed
}

// fixesHeld marks the fixed findings whose fix was verified on a commit
// the head no longer contains. Contains is only known from the PR's commit
// list: a list GitHub cut short, or none, leaves it unknown (FixUnknown).
func (d *deriver) fixesHeld(pr snapshot.PullRequest) {
	in := map[string]bool{}
	for _, c := range pr.Commits {
		in[c] = true
	}
	cut := len(pr.Commits) == 0 || pr.CommitsTotal > len(pr.Commits)
	for i := range d.st.Findings {
		f := &d.st.Findings[i]
		r := f.LastResolution
		if f.Status != rmcoc.FindingResolved || r == nil || r.Resolution != rmcoc.ResolutionFixed || r.HeadSHA == "" || in[r.HeadSHA] {
			continue
		}
		if cut {
			// Not in the commits GitHub listed: maybe an older commit of
			// the head, maybe a commit a force-push dropped.
			f.FixUnknown = true
			continue
		}
		f.FixLost = true
	}
}

// Decision is the decision that closed a blocking finding, bound to the
// content it judged; ok is false for a finding that does not block or that
// no decision closed. A maintainer's resolution of the thread is bound by
// the bot's record of it (Accepted), written by the first run that sees it;
// until then, and for a fix whose commit the head's list cannot show, the
// binding is unknown. Waivers judged the content the finding was raised on
// (it was open when they were given), and so did decisions whose block
// records no content (written before blocks did): see gate.Decision.
func (f Finding) Decision() (d gate.Decision, ok bool) {
	if !f.Block.Blocking || f.Blocks() {
		return d, false
	}
	d = gate.Decision{Finding: f.Block.ID, Path: f.Thread.Path, Raised: f.Block.Blob}
	r := f.LastResolution
	switch {
	case f.WaivedBy != "":
		d.Kind = gate.Waived
	case f.Superseded != nil:
		d.Kind, d.Unknown = f.Superseded.Kind, f.supersededWhy()
	case f.ResolvedBy != nil:
		d.Kind = gate.Accepted
		if f.Accepted == nil {
			d.Unknown = "a maintainer's resolution not bound to its code yet"
		} else {
			d.Judged = f.Accepted.Blob
		}
	case r != nil && r.Resolution == rmcoc.ResolutionFixed:
		d.Kind, d.Judged = gate.Fix, r.Blob
		if f.FixUnknown {
			d.Unknown = fmt.Sprintf("fix verified on %.7s, past the PR's commits GitHub lists", r.HeadSHA)
		}
	case r != nil:
		d.Kind, d.Judged = gate.Conceded, r.Blob
	default:
		return d, false
	}
	return d, true
}

// Unbound reports whether the finding was closed by a maintainer's
// resolution of its thread that the bot has not bound to content yet.
func (f Finding) Unbound() bool {
	return f.Block.Blocking && !f.Open() && f.WaivedBy == "" && f.ResolvedBy != nil && f.Accepted == nil
}

// openAt reports whether the finding was open at t, as far as its thread
// shows: open now and since before t. A fix the head lost reopened it at a
// time nothing records, after the fix: a command given since the fix found
// it closed. A fix that cannot be checked, and a decision an edit
// superseded, count as open: a maintainer's resolve is how they stop
// holding the gate.
func (f Finding) openAt(t time.Time) bool {
	if !f.Open() && !f.FixUnknown && f.Superseded == nil || f.OpenSince.After(t) {
		return false
	}
	r := f.LastResolution
	return !f.FixLost || r == nil || !r.ResolvedAt.Before(t)
}

// Blocks reports whether the finding holds the merge gate closed: a blocking
// finding that is open (disputed, escalated and acknowledged ones still block).
func (f Finding) Blocks() bool { return f.Block.Blocking && f.Open() && f.WaivedBy == "" }

// findings reads the bot's finding threads and their dispute history.
func (d *deriver) findings(snap snapshot.Snapshot) {
	for _, t := range snap.Threads {
		f, ok := d.finding(t)
		if !ok {
			continue
		}
		lastBot, lastNotice := d.history(&f, t)
		if f.Tampered && f.Status == rmcoc.FindingResolved {
			// The bot judges no edited finding (execution's verify and
			// dispute skip it): a fix or concession it recorded judged
			// the text as it was before the edit.
			f.supersede(botDecision(f.LastResolution), "")
		}
		if last := t.Comments[len(t.Comments)-1]; !t.IsResolved && f.Status == rmcoc.FindingResolved && d.isBot(last.Author) && len(rmcoc.TrustedAll[rmcoc.DisputeResolution](last.Body)) > 0 {
			f.ResolveDue = true
		}
		if t.IsResolved {
			d.resolution(&f, t.ResolvedBy, lastNotice != nil)
		}
		if f.Status != rmcoc.FindingResolved {
			d.pendingReplies(&f, t, lastBot)
		}
		d.st.Findings = append(d.st.Findings, f)
	}
}

// finding reads the finding a thread's root holds, if the bot wrote it.
// An edited block is believed in nothing: the finding blocks until a
// maintainer closes it (the model is not asked about what its comment
// says now: neither a fix nor a dispute closes it).
func (d *deriver) finding(t snapshot.Thread) (Finding, bool) {
	root := t.Root()
	switch {
	case root == nil:
		return Finding{}, false
	case root.ReplyToID != 0:
		// The thread's first comment is a reply: its root was deleted.
		// If it was a finding, nothing trustworthy is left to judge.
		d.st.Notices = append(d.st.Notices, fmt.Sprintf("skipped review thread %s on %s: its first comment was deleted", t.ID, t.Path))
		return Finding{}, false
	case !d.isBot(root.Author):
		return Finding{}, false
	}
	fs := rmcoc.TrustedAll[rmcoc.Finding](root.Body)
	tampered := d.tampered(root.Editor)
	if len(fs) == 0 {
		// Two finding blocks in the bot's comment: it was edited, though
		// GitHub did not say so. Dropping the finding would open the
		// gate; holding it, as for any edit, keeps it shut.
		// Or someone edited it and the block no longer closes the
		// comment: held, as for any edit, rather than dropped.
		if len(rmcoc.ParseTrusted(root.Body).Tampered) == 0 && !tampered {
			return Finding{}, false
		}
		if fs = rmcoc.All[rmcoc.Finding](root.Body); len(fs) == 0 {
			return Finding{}, false
		}
		tampered = true
	}
	f := Finding{Block: fs[0], Thread: t, RootCommentID: root.ID, Status: fs[0].Status, OpenSince: root.CreatedAt}
	if f.Status == "" {
		f.Status = rmcoc.FindingOpen
	}
	if tampered {
		f.Tampered, f.Block.Blocking, f.Status = true, true, rmcoc.FindingOpen
		if d.tampered(root.Editor) {
			f.EditedAt = root.EditedAt // else GitHub did not say who edited it, nor when
		}
	}
	return f, true
}

// botDecision is the kind of decision the bot's resolution block records.
func botDecision(r *rmcoc.DisputeResolution) gate.DecisionKind {
	if r != nil && r.Resolution == rmcoc.ResolutionFixed {
		return gate.Fix
	}
	return gate.Conceded
}

// history applies the bot's replies in the thread to f: the latest
// dispute-resolution block sets its status. It returns when the bot last
// answered, and its reopen notice since, if any.
func (d *deriver) history(f *Finding, t snapshot.Thread) (lastBot time.Time, lastNotice *snapshot.ReviewComment) {
	lastBot = t.Comments[0].CreatedAt
	for i, c := range t.Comments[1:] {
		if !d.isBot(c.Author) {
			lastNotice = nil
			continue
		}
		if d.tampered(c.Editor) {
			continue // it answers nothing: the replies before it are pending again
		}
		res := rmcoc.TrustedAll[rmcoc.DisputeResolution](c.Body)
		if len(res) > 0 && res[len(res)-1].Resolution == rmcoc.ResolutionReopened {
			// A reopen notice answers no reply and changes no status.
			lastNotice = &t.Comments[1+i]
			continue
		}
		if len(res) > 0 && res[len(res)-1].Resolution == rmcoc.ResolutionAccepted {
			// A record of a maintainer's resolution answers no reply and
			// changes no status: the resolution itself does.
			r := res[len(res)-1]
			f.Accepted = &r
			continue
		}
		lastNotice, lastBot = nil, c.CreatedAt
		if len(res) > 0 {
			r := res[len(res)-1]
			f.LastResolution, f.Status = &r, r.Status
			if r.Resolution == rmcoc.ResolutionRegressed {
				f.OpenSince, f.Accepted, f.Judged = c.CreatedAt, nil, nil
			}
			if (r.Resolution == rmcoc.ResolutionMaintained || r.Resolution == rmcoc.ResolutionEscalated) && r.Blob != "" {
				f.Judged = append(f.Judged, r.Blob)
			}
		}
	}
	return lastBot, lastNotice
}

// pendingReplies are the developers' replies since the bot last answered.
// Anyone may comment on a public PR; only people with access may argue a
// finding off the merge gate.
func (d *deriver) pendingReplies(f *Finding, t snapshot.Thread, lastBot time.Time) {
	for _, c := range t.Comments[1:] {
		if c.Author.IsBot || d.answeredReplies[c.ID] || !c.CreatedAt.After(lastBot) {
			continue
		}
		if !d.trusted(c.Comment) {
			d.st.Notices = append(d.st.Notices, fmt.Sprintf("ignored a reply by @%s on finding %q: not a collaborator or the PR's author", c.Author.Login, f.Block.Title))
			continue
		}
		f.PendingReplies = append(f.PendingReplies, c)
	}
}

// resolution judges a resolved thread. The bot's own resolution (a verified
// fix, a concession) is already in f.Status. Anyone may close a finding that
// does not block; a blocking one is closed by a maintainer — write access or
// more, and not the PR's author, who can resolve threads on their own PR
// without any access. Any other resolution leaves the finding open, for the
// thread to be reopened.
func (d *deriver) resolution(f *Finding, by *snapshot.Actor, explained bool) {
	if !f.Block.Blocking {
		f.Status = rmcoc.FindingResolved
	}
	switch ok, known := d.entitled(by); {
	case f.Status == rmcoc.FindingResolved:
	case ok && f.Tampered:
		// GitHub does not say when a thread was resolved: never shown
		// to follow the edit, the resolution does not settle the finding.
		f.supersede(gate.Accepted, by.Login)
	case ok:
		f.Status, f.ResolvedBy = rmcoc.FindingResolved, by
	case !known:
		f.Unjudged = by.Login
	default:
		who := snapshot.Actor{}
		if by != nil {
			who = *by
		}
		f.Reopen, f.ReopenExplained = &who, explained
	}
}
