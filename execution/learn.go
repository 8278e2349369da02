package execution

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/review-my-code-bot/rmc/glob"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// LearningsGitHub is what recording learnings needs beyond comments.
// Permission is the run's shared lookup (the one that judges resolutions
// in state), so a login's permission is read once per run: the Learner
// keeps no cache of its own.
type LearningsGitHub interface {
	CreateLearningsIssue(ctx context.Context, repo snapshot.Repo, body string) (number int, url string, err error)
	Permission(ctx context.Context, repo snapshot.Repo, login string) (snapshot.Role, error)
}

// LearnerGitHub is the Learner's GitHub: LearningsGitHub, and a fresh read
// of the learnings issue, which settles the claims of overlapping runs.
type LearnerGitHub interface {
	LearningsGitHub
	ReadLearnings(ctx context.Context, repo snapshot.Repo) (snapshot.LearningsIssue, error)
}

// learnerWriter is how the Learner writes: the run's writer, as for every
// other comment; an edit withdraws a reply another run made first.
type learnerWriter interface {
	commenter
	EditComment(ctx context.Context, repo snapshot.Repo, id int64, body string) error
}

// Learner records what runs teach in the repository's learnings issue and
// carries out the maintainers' commands there.
type Learner struct {
	env
	comments learnerWriter
	GitHub   LearnerGitHub // the issue and permission calls
	pr       snapshot.PullRequest
	bot      snapshot.Actor
}

// NewLearner builds the run's Learner; it writes its comments through the
// run's GitHub client and reads permissions through gh.
func NewLearner(cfg Config, gh LearnerGitHub) (*Learner, error) {
	if cfg.GitHub == nil || gh == nil || cfg.Log == nil {
		return nil, errors.New("execution: a learner needs both GitHub clients and a log")
	}
	return &Learner{env: newEnv(cfg), comments: cfg.GitHub, GitHub: gh, pr: cfg.Snap.PR, bot: cfg.State.Bot}, nil
}

// UseInstructions tells the Learner the bot's instructions once the run's
// model session exists: model text it posts afterwards (titles and reasons
// of learnings) that recites them is withheld. Commands run before the
// session, and post no model text.
func (x *Learner) UseInstructions(instructions string) { x.instructions = instructions }

// LearnResult is what Learn did, for the job summary.
type LearnResult struct {
	IssueURL string
	Recorded []rmcoc.Learning
	Notes    []string // commands carried out or refused, failures
}

var learningsIntro = "This issue holds what review-my-code-bot learned about this repository: findings it conceded in a dispute, or that a maintainer resolved by hand. Each is a hint every review on the paths it applies to reads; it stops a finding from being reported only once a maintainer confirms it, and a review lists every finding a learning stopped.\n\n" +
	"- `@rmc-bot confirm <id>` (maintainers) lets a learning suppress the finding it is about.\n" +
	"- `@rmc-bot remember <rule>` (maintainers) adds a rule every review reads.\n" +
	"- `@rmc-bot forget <id>` (maintainers) removes a learning.\n" +
	"- Closing this issue turns learning off; reopening it turns it back on.\n\n" +
	"Only the bot's own comments count: a learning pasted by anyone else is ignored. Commands by people without write access are not carried out, and each such person is told so once. Commands are carried out by the next run of the action on any pull request, at most " + strconv.Itoa(state.MaxLearningCommands) + " a run."

// Learn records what the run's state teaches (conceded disputes, findings a
// maintainer resolved) in the learnings issue, creating it on first use, and
// carries out the maintainers' remember/forget commands there. after is the
// PR's state after the run's writes. Nothing happens when learning is off.
func (x *Learner) Learn(ctx context.Context, after state.State, ls state.Learnings) LearnResult {
	res := LearnResult{IssueURL: ls.URL}
	if ls.Off {
		return res
	}
	var todo []rmcoc.Learning
	for _, f := range after.Findings {
		if ls.Learned[state.LearningKey(x.pr.Number, f.Block.ID)] {
			continue
		}
		if f.ResolvedBy == nil && f.LastResolution == nil && x.resolvedByWriter(ctx, f) {
			f.ResolvedBy = f.Thread.ResolvedBy // a non-blocking finding a maintainer resolved
		}
		if l, ok := learningFrom(f, x.pr.Number, x.now); ok {
			todo = append(todo, l)
		}
	}
	if len(todo) == 0 {
		return res
	}
	issue := ls.Issue
	if issue == 0 {
		n, url, err := x.GitHub.CreateLearningsIssue(ctx, x.repo(), x.compose(learningsIntro))
		if err != nil {
			res.Notes = append(res.Notes, fmt.Sprintf("could not create the learnings issue (the token needs issues: write): %v", err))
			return res
		}
		issue, res.IssueURL = n, url
	}
	for _, l := range todo {
		if _, err := x.comments.CreateComment(ctx, x.repo(), issue, x.compose(x.learnedText(l), l)); err != nil {
			res.Notes = append(res.Notes, fmt.Sprintf("could not record learning %s: %v", l.ID, err))
			continue
		}
		res.Recorded = append(res.Recorded, l)
	}
	return res
}

// Commands carries out the maintainers' commands in the learnings issue
// before the run's tasks, so they apply to this run's review, and updates
// ls to match. It returns a note per command. Each answer is the command's
// claim: after posting, the issue is read again and the earliest answer to
// a command wins; a run that answered later withdraws its own answer, so a
// command is carried out once when runs on several pull requests overlap.
func (x *Learner) Commands(ctx context.Context, ls *state.Learnings) []string {
	if ls.Off || ls.Issue == 0 {
		return nil
	}
	if ls.URLs == nil {
		ls.URLs = map[string]string{}
	}
	if ls.Confirmed == nil {
		ls.Confirmed = map[string]string{}
	}
	if ls.Told == nil {
		ls.Told = map[string]bool{}
	}
	var notes []string
	var claims []claim
	for _, c := range ls.Commands {
		note, cl := x.command(ctx, ls, c)
		notes = append(notes, note)
		if cl.comment != 0 {
			claims = append(claims, cl)
		}
	}
	if ls.Deferred > 0 {
		notes = append(notes, fmt.Sprintf("%d more command(s) wait for later runs: a run reads at most %d", ls.Deferred, state.MaxLearningCommands))
	}
	ls.Commands, ls.Deferred = nil, 0
	return append(notes, x.settle(ctx, ls, claims)...)
}

// claim is a command this run answered, and the comment that answers it.
type claim struct {
	command, comment int64
}

// settle reads the issue again and withdraws the answers another run made
// first; ls becomes what the issue now says.
func (x *Learner) settle(ctx context.Context, ls *state.Learnings, claims []claim) []string {
	if len(claims) == 0 {
		return nil
	}
	li, err := x.GitHub.ReadLearnings(ctx, x.repo())
	if err != nil {
		return []string{fmt.Sprintf("could not read the learnings issue again to check that no overlapping run answered the same commands (the earliest answer counts): %v", err)}
	}
	fresh := state.DeriveLearnings(li, state.Options{Bot: x.bot})
	var notes []string
	for _, c := range claims {
		first := fresh.Claims[c.command]
		if first == 0 || first == c.comment {
			continue // ours; or GitHub does not list it yet, and the next read settles it
		}
		text := fmt.Sprintf("↩️ Withdrawn: another run answered this command first (%s).", commentURL(li, first))
		if err := x.comments.EditComment(ctx, x.repo(), c.comment, x.compose(text)); err != nil {
			notes = append(notes, fmt.Sprintf("could not withdraw the duplicate answer %d (the earlier one counts): %v", c.comment, err))
			continue
		}
		notes = append(notes, fmt.Sprintf("command %d was answered first by another run; withdrew this run's answer", c.command))
	}
	if fresh.Issue == ls.Issue {
		fresh.Commands, fresh.Deferred = nil, 0
		*ls = fresh
	}
	return notes
}

// learningFrom is the learning a finding teaches, if any: the bot conceded
// it, or a maintainer resolved it by hand.
func learningFrom(f state.Finding, pr int, now func() time.Time) (rmcoc.Learning, bool) {
	l := rmcoc.Learning{FindingID: f.Block.ID, PR: pr, Title: f.Block.Title, Fingerprint: review.PatternFingerprint(f.Block.Title),
		PathGlob: dirGlob(f.Block.Path), CreatedAt: now()}
	switch r := f.LastResolution; {
	case f.Block.ID == "" || f.Block.Title == "":
		return l, false
	case f.Thread.IsOutdated && (r == nil || r.Resolution != rmcoc.ResolutionConcession):
		return l, false // the code under it changed: a resolution likely means fixed, not wrong
	case r != nil && r.Resolution == rmcoc.ResolutionConcession:
		l.Origin, l.Reason = rmcoc.LearnedConcession, r.Reason
	case f.ResolvedBy != nil:
		l.Origin, l.By = rmcoc.LearnedResolution, f.ResolvedBy.Login
		l.Reason = fmt.Sprintf("@%s, who has write access, resolved it without a fix.", f.ResolvedBy.Login)
	default:
		return l, false
	}
	if l.Reason == "" {
		l.Reason = "The finding was conceded in its thread."
	}
	if len(f.Thread.Comments) > 0 {
		l.Source = f.Thread.Comments[0].URL
	}
	l.ID = learningID(state.LearningKey(pr, f.Block.ID))
	return l, true
}

// learnedText is the comment that records a learning. The title and the
// reason are the model's (a concession's reason) or hold a login: they are
// vetted as model text; the glob holds a file's directory, shown exactly.
func (x *Learner) learnedText(l rmcoc.Learning) string {
	what := "a conceded dispute"
	if l.Origin == rmcoc.LearnedResolution {
		what = "a finding @" + sanitize.Name(l.By) + " resolved by hand"
	}
	return fmt.Sprintf("📚 Learned %s from [%s](%s) on #%d: **%s** may be wrong on %s.\n\n%s\n\nReviews read this as a hint; the finding is still reported until a maintainer confirms the learning. Maintainers: `@rmc-bot confirm %s` lets it suppress the finding (each review lists what it suppressed); `@rmc-bot forget %s` removes it.",
		sanitize.Code(l.ID), what, l.Source, l.PR, x.fromModelLine(l.Title), sanitize.Code(l.PathGlob), strings.TrimSpace(x.fromModel(l.Reason)), l.ID, l.ID)
}

// resolvedByWriter reports whether a finding's thread was resolved by hand
// by someone with write access who did not write the PR. State settles this
// for blocking findings; a non-blocking one anyone may close, so the
// permission is read here, through the run's shared lookup.
func (x *Learner) resolvedByWriter(ctx context.Context, f state.Finding) bool {
	by := f.Thread.ResolvedBy
	if !f.Thread.IsResolved || by == nil || by.IsBot || by.Login == "" || by.Is(x.pr.Author) || f.Thread.IsOutdated {
		return false
	}
	role, err := x.GitHub.Permission(ctx, x.repo(), by.Login)
	return err == nil && role.Writes()
}

// dirGlob is the glob a learning about a file applies to: its directory.
func dirGlob(p string) string {
	if d := path.Dir(p); d != "." && d != "/" && d != "" {
		return d + "/**"
	}
	return "**"
}

func learningID(seed string) string {
	sum := sha256.Sum256([]byte(seed))
	return "L-" + hex.EncodeToString(sum[:])[:6]
}

// commentURL is the URL of comment id in the issue.
func commentURL(li snapshot.LearningsIssue, id int64) string {
	for _, c := range li.Comments {
		if c.ID == id {
			return c.URL
		}
	}
	return li.URL
}

// command carries out one command, or refuses it, and records that in a
// reply so it is done once. A person without write access is told so once,
// ever: their later commands get no reply (ls.Told). A login whose
// association rules out write access is refused without a lookup.
func (x *Learner) command(ctx context.Context, ls *state.Learnings, c state.LearningCommand) (string, claim) {
	var role snapshot.Role
	if c.Member {
		var err error
		if role, err = x.GitHub.Permission(ctx, x.repo(), c.Author.Login); err != nil {
			return fmt.Sprintf("could not read the permission of @%s for their %s command; it stays pending: %v", c.Author.Login, c.Command, err), claim{}
		}
	}
	if !role.Writes() {
		return x.refuse(ctx, ls, c)
	}
	text, block := x.carryOut(ls, c)
	posted, err := x.comments.CreateComment(ctx, x.repo(), ls.Issue, x.compose(text, block))
	if err != nil {
		return fmt.Sprintf("could not answer the %s command of @%s: %v", c.Command, c.Author.Login, err), claim{}
	}
	switch b := block.(type) {
	case rmcoc.Learning:
		ls.Active = append(ls.Active, b)
		ls.URLs[b.ID] = posted.URL
	case rmcoc.LearningCommand:
		switch {
		case b.Result != rmcoc.CommandDone:
		case b.Command == rmcoc.CommandForget:
			ls.Active = slices.DeleteFunc(ls.Active, func(l rmcoc.Learning) bool { return l.ID == b.LearningID })
		case b.Command == rmcoc.CommandConfirm:
			ls.Confirmed[b.LearningID] = b.By
		}
	}
	return fmt.Sprintf("%s by @%s: %s", c.Command, c.Author.Login, text), claim{command: c.CommentID, comment: posted.ID}
}

// refuse answers a command by someone without write access: once per login,
// ever; later ones are read (within the run's cap) and left unanswered.
func (x *Learner) refuse(ctx context.Context, ls *state.Learnings, c state.LearningCommand) (string, claim) {
	key := strings.ToLower(c.Author.Login)
	if ls.Told[key] {
		return fmt.Sprintf("ignored the %s command of @%s: no write access (told so before)", c.Command, c.Author.Login), claim{}
	}
	block := rmcoc.LearningCommand{CommandCommentID: rmcoc.ID(c.CommentID), Command: c.Command, Result: rmcoc.CommandNotAllowed, By: c.Author.Login, At: x.now()}
	text := fmt.Sprintf("@%s only maintainers (write access) can change what I learned. I answer this once: later commands of yours here get no reply.", sanitize.Name(c.Author.Login))
	posted, err := x.comments.CreateComment(ctx, x.repo(), ls.Issue, x.compose(text, block))
	if err != nil {
		return fmt.Sprintf("could not answer the %s command of @%s: %v", c.Command, c.Author.Login, err), claim{}
	}
	ls.Told[key] = true
	return fmt.Sprintf("%s by @%s: refused (no write access)", c.Command, c.Author.Login), claim{command: c.CommentID, comment: posted.ID}
}

// carryOut is a maintainer's command's reply and its block: the learning a
// remember adds, or the record of a forget or a confirm.
func (x *Learner) carryOut(ls *state.Learnings, c state.LearningCommand) (string, rmcoc.Block) {
	// The command's author, and its argument, are a person's text.
	who, arg := sanitize.Name(c.Author.Login), sanitize.RelayLine(c.Arg)
	if c.Command == rmcoc.CommandRemember {
		l := rmcoc.Learning{ID: learningID(fmt.Sprintf("cmd/%d", c.CommentID)), Reason: c.Arg, PathGlob: "**", Source: c.URL,
			Origin: rmcoc.LearnedRemember, By: c.Author.Login, CommandID: rmcoc.ID(c.CommentID), CreatedAt: x.now()}
		return fmt.Sprintf("📚 Remembered %s for every review, as @%s asked:\n\n> %s\n\n`@rmc-bot forget %s` removes it.", sanitize.Code(l.ID), who, arg, l.ID), l
	}
	done := rmcoc.LearningCommand{CommandCommentID: rmcoc.ID(c.CommentID), Command: c.Command, LearningID: c.Arg, Result: rmcoc.CommandDone, By: c.Author.Login, At: x.now()}
	if !slices.ContainsFunc(ls.Active, func(l rmcoc.Learning) bool { return l.ID == c.Arg }) {
		done.Result = rmcoc.CommandUnknownID
		return fmt.Sprintf("@%s there is no active learning %s here.", who, sanitize.Code(oneLine(c.Arg))), done
	}
	if c.Command == rmcoc.CommandConfirm {
		return fmt.Sprintf("✅ Confirmed %s, as @%s asked: from now on it suppresses the finding it is about on the files it applies to, and each review lists what it suppressed. `@rmc-bot forget %s` removes it.", sanitize.Code(c.Arg), who, c.Arg), done
	}
	return fmt.Sprintf("🗑️ Forgot %s, as @%s asked: findings it suppressed are reported again.", sanitize.Code(c.Arg), who), done
}

// Applicable converts the active learnings whose glob matches a changed
// file into what the review applies, and the prompt's text for them. Every
// one is a hint in the prompt; only one a maintainer confirmed (ConfirmedBy)
// suppresses findings.
func Applicable(ls state.Learnings, files []string) ([]review.Learned, string) {
	if ls.Off {
		return nil, ""
	}
	var out []review.Learned
	var b strings.Builder
	for _, l := range ls.Active {
		if !anyMatch(l.PathGlob, files) {
			continue
		}
		url := ls.URLs[l.ID]
		if url == "" {
			url = ls.URL
		}
		out = append(out, review.Learned{ID: l.ID, Fingerprint: l.Fingerprint, Glob: l.PathGlob, Title: l.Title, URL: url, ConfirmedBy: ls.ConfirmedBy(l)})
		switch {
		case l.Title != "" && out[len(out)-1].ConfirmedBy != "":
			fmt.Fprintf(&b, "- %s (files %s): reported \"%s\"; judged wrong here, and a maintainer confirmed it: %s If you find this again, report it under exactly this title: it is then set aside, and listed as such.\n",
				l.ID, l.PathGlob, oneLine(l.Title), sentence(l.Reason))
		case l.Title != "":
			fmt.Fprintf(&b, "- %s (files %s): reported \"%s\"; judged wrong on one pull request, not confirmed by a maintainer for others: %s A hint only: check the argument against this code, and report the problem if it is real here.\n",
				l.ID, l.PathGlob, oneLine(l.Title), sentence(l.Reason))
		default:
			fmt.Fprintf(&b, "- %s (files %s): %s\n", l.ID, l.PathGlob, oneLine(l.Reason))
		}
	}
	return out, b.String()
}

// sentence is text on one line, ending with a full stop.
func sentence(s string) string {
	s = strings.TrimSpace(oneLine(s))
	if s != "" && !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

func anyMatch(pattern string, files []string) bool {
	g, err := glob.Compile(pattern)
	if err != nil {
		return false
	}
	for _, f := range files {
		if g.Match(f) {
			return true
		}
	}
	return false
}
