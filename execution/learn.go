package execution

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"slices"
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
	Permission(ctx context.Context, repo snapshot.Repo, login string) (string, error)
}

// Learner records what runs teach in the repository's learnings issue and
// carries out the maintainers' commands there.
type Learner struct {
	env
	comments commenter       // the run's writer, as for every other comment
	GitHub   LearningsGitHub // the issue and permission calls
	pr       snapshot.PullRequest
}

// NewLearner builds the run's Learner; it writes its comments through the
// run's GitHub client and reads permissions through gh.
func NewLearner(cfg Config, gh LearningsGitHub) (*Learner, error) {
	if cfg.GitHub == nil || gh == nil || cfg.Log == nil {
		return nil, errors.New("execution: a learner needs both GitHub clients and a log")
	}
	return &Learner{env: newEnv(cfg), comments: cfg.GitHub, GitHub: gh, pr: cfg.Snap.PR}, nil
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

const learningsIntro = "This issue holds what review-my-code-bot learned about this repository: findings it conceded in a dispute, or that a maintainer resolved by hand, are not reported again on the paths they apply to.\n\n" +
	"- `@rmc-bot remember <rule>` (maintainers) adds a rule every review reads.\n" +
	"- `@rmc-bot forget <id>` (maintainers) removes a learning.\n" +
	"- Closing this issue turns learning off; reopening it turns it back on.\n\n" +
	"Only the bot's own comments count: a learning pasted by anyone else is ignored. Commands are carried out by the next run of the action on any pull request."

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

// Commands carries out the maintainers' remember/forget commands in the
// learnings issue before the run's tasks, so they apply to this run's
// review, and updates ls to match. It returns a note per command.
func (x *Learner) Commands(ctx context.Context, ls *state.Learnings) []string {
	if ls.Off || ls.Issue == 0 {
		return nil
	}
	var notes []string
	for _, c := range ls.Commands {
		notes = append(notes, x.command(ctx, ls, c))
	}
	ls.Commands = nil
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
	return fmt.Sprintf("📚 Learned %s from [%s](%s) on #%d: **%s** is not to be reported on %s.\n\n%s\n\nMaintainers: `@rmc-bot forget %s` removes it.",
		sanitize.Code(l.ID), what, l.Source, l.PR, x.fromModelLine(l.Title), sanitize.Code(l.PathGlob), strings.TrimSpace(x.fromModel(l.Reason)), l.ID)
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
	return err == nil && (role == "admin" || role == "maintain" || role == "write")
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

// command carries out one remember/forget command, or refuses it, and
// records that in a reply so it is done once.
func (x *Learner) command(ctx context.Context, ls *state.Learnings, c state.LearningCommand) string {
	done := rmcoc.LearningCommand{CommandCommentID: rmcoc.ID(c.CommentID), Command: c.Command, At: x.now(), Result: "done"}
	role, err := x.GitHub.Permission(ctx, x.repo(), c.Author.Login)
	if err != nil {
		return fmt.Sprintf("could not read the permission of @%s for their %s command; it stays pending: %v", c.Author.Login, c.Command, err)
	}
	// The command's author, and its argument, are a person's text.
	who, arg := sanitize.Name(c.Author.Login), sanitize.RelayLine(c.Arg)
	var text string
	var block rmcoc.Block // nil: the command block
	switch {
	case role != "admin" && role != "maintain" && role != "write":
		done.Result = "not-allowed"
		text = fmt.Sprintf("@%s only maintainers (write access) can change what I learned.", who)
	case c.Command == rmcoc.CommandRemember:
		l := rmcoc.Learning{ID: learningID(fmt.Sprintf("cmd/%d", c.CommentID)), Reason: c.Arg, PathGlob: "**", Source: c.URL,
			Origin: rmcoc.LearnedRemember, By: c.Author.Login, CommandID: rmcoc.ID(c.CommentID), CreatedAt: x.now()}
		block = l
		text = fmt.Sprintf("📚 Remembered %s for every review, as @%s asked:\n\n> %s\n\n`@rmc-bot forget %s` removes it.", sanitize.Code(l.ID), who, arg, l.ID)
	default:
		found := false
		for _, l := range ls.Active {
			found = found || l.ID == c.Arg
		}
		done.LearningID = c.Arg
		if !found {
			done.Result = "unknown-id"
			text = fmt.Sprintf("@%s there is no active learning %s here.", who, sanitize.Code(oneLine(c.Arg)))
		} else {
			text = fmt.Sprintf("🗑️ Forgot %s, as @%s asked: findings it suppressed are reported again.", sanitize.Code(c.Arg), who)
		}
	}
	if block == nil {
		block = done
	}
	posted, err := x.comments.CreateComment(ctx, x.repo(), ls.Issue, x.compose(text, block))
	if err != nil {
		return fmt.Sprintf("could not answer the %s command of @%s: %v", c.Command, c.Author.Login, err)
	}
	switch b := block.(type) {
	case rmcoc.Learning:
		ls.Active = append(ls.Active, b)
		ls.URLs[b.ID] = posted.URL
	case rmcoc.LearningCommand:
		if b.Command == rmcoc.CommandForget && b.Result == "done" {
			ls.Active = slices.DeleteFunc(ls.Active, func(l rmcoc.Learning) bool { return l.ID == b.LearningID })
		}
	}
	return fmt.Sprintf("%s by @%s: %s", c.Command, c.Author.Login, text)
}

// Applicable converts the active learnings whose glob matches a changed
// file into what the review applies, and the prompt's text for them.
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
		out = append(out, review.Learned{ID: l.ID, Fingerprint: l.Fingerprint, Glob: l.PathGlob, Title: l.Title, URL: url})
		if l.Title != "" {
			fmt.Fprintf(&b, "- %s (files %s): reported \"%s\"; judged wrong here: %s\n", l.ID, l.PathGlob, oneLine(l.Title), oneLine(l.Reason))
		} else {
			fmt.Fprintf(&b, "- %s (files %s): %s\n", l.ID, l.PathGlob, oneLine(l.Reason))
		}
	}
	return out, b.String()
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
