package execution

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// commandLease is how long a claim on a command holds: answering one
// takes no model call, so a run that claimed it and did not answer within
// this is dead, and the next run answers it.
const commandLease = 2 * time.Minute

// commandHelp is one line for each command, in help's order.
var commandHelp = map[state.Command]string{
	state.CommandPause:         "stop automatic reviews of this pull request; the merge gate stays pending on any head not reviewed yet",
	state.CommandResume:        "start automatic reviews again, and review the head now",
	state.CommandSummary:       "write the walkthrough again for the current head",
	state.CommandResolve:       "(a maintainer who is not the author) resolve all my open findings: they are recorded as your waivers and stop holding the merge gate",
	state.CommandConfiguration: "show the effective settings and where each came from",
	state.CommandHelp:          "show this list",
}

// helpText lists the commands, one line each, and the requests the bot
// also takes.
func helpText() string {
	var b strings.Builder
	b.WriteString("ℹ️ Commands: comment `@rmc-bot <command>` in this conversation, the command alone. Collaborators and the pull request's author can give them.\n\n")
	for _, c := range state.Commands {
		fmt.Fprintf(&b, "- `%s`: %s\n", c, commandHelp[c])
	}
	b.WriteString("- `review` / `full review`: review what changed since my last review / the whole pull request (informational: a manual review does not open the merge gate)\n")
	b.WriteString("- `waive <finding id>`: (a maintainer) let a blocking finding whose thread was deleted stop holding the merge gate\n")
	b.WriteString("- `@rmc-bot ignore` in the pull request's description: no automatic reviews of this pull request\n")
	b.WriteString("\nAnything else addressed to me is a question, answered in a reply.")
	return b.String()
}

// answerCommand answers a command once: the reply holds the block that
// says it was answered. What the command did (a pause, a resolve's
// waivers) the state already says, from the command's own comment; the
// answer only reports it. Summary is answered by its task, which writes the
// walkthrough.
func (r *run) answerCommand(ctx context.Context, m state.Mention) error {
	// The claim (the bot's 👀 on the command) acknowledges it at once, and
	// keeps two overlapping runs from answering it twice.
	if held, why := r.claim(ctx, r.GitHub, commandLease, snapshot.Subject{ID: m.Ref.ID}); held {
		r.Log.Infof("@%s's %s command: %s", m.Author.Login, m.Command, why)
		return nil
	}
	block := rmcoc.CommandAnswer{CommandCommentID: rmcoc.ID(m.Ref.ID), Command: string(m.Command), By: m.Author.Login, Result: rmcoc.CommandDone, At: r.now()}
	who := "@" + sanitize.Name(m.Author.Login)
	var text string
	switch m.Command {
	case state.CommandPause:
		text = fmt.Sprintf("⏸️ %s paused automatic reviews of this pull request. Pushes are not reviewed until someone comments `@rmc-bot resume`; meanwhile the merge gate stays pending on any head not reviewed yet.", who)
	case state.CommandResume:
		text = fmt.Sprintf("▶️ %s resumed automatic reviews of this pull request.", who)
		if p := r.State.Pause; p != nil {
			text += " The pull request's description still says `@rmc-bot ignore`: remove it for pushes to be reviewed."
		} else if !r.State.ReviewedAuto(r.Snap.PR.HeadSHA) {
			text += fmt.Sprintf(" This run reviews `%.7s`.", r.Snap.PR.HeadSHA)
		}
	case state.CommandResolve:
		text, block.FindingIDs, block.Result = r.resolveText(m, who)
	case state.CommandConfiguration:
		// The values are the repository's, but one may name people
		// (human_reviewers, notify_agent): relayed, they notify nobody.
		text = "⚙️ The effective settings for this pull request, and where each came from:\n\n" + sanitize.Relay(r.Options.Settings)
		if r.Options.Settings == "" {
			text = "⚙️ This run read no settings file, so every setting is an input of the workflow or its default."
		}
	case state.CommandHelp:
		text = helpText()
	case state.CommandSummary:
		// With the walkthrough on, a summary command is the walkthrough
		// task's to answer.
		text = "ℹ️ The walkthrough is off on this repository (`walkthrough: false` in `.github/rmc.yml` on the base branch), so there is none to write again."
	default:
		return fmt.Errorf("no answer for command %q", m.Command)
	}
	if m.Edited {
		block.Result = rmcoc.CommandNotAllowed
		text = fmt.Sprintf("🔒 %s: someone else edited this command's comment, so it does not count. Post it again as a new comment.", who)
	}
	_, err := r.GitHub.CreateComment(ctx, r.repo(), r.number(), r.compose(text, block))
	return err
}

// resolveText answers a resolve command: the findings it waived, or why it
// does not count.
func (r *run) resolveText(m state.Mention, who string) (string, []string, string) {
	if !m.Allowed {
		return fmt.Sprintf("🔒 %s: only a maintainer (write access, not the pull request's author) can resolve my findings; they keep holding the merge gate until they are fixed, disputed in their thread, or resolved by a maintainer.", who), nil, rmcoc.CommandNotAllowed
	}
	ids := r.State.ResolvedBy(m.Ref)
	if len(ids) == 0 {
		return fmt.Sprintf("ℹ️ %s: none of my findings was open, so there was nothing to resolve.", who), nil, rmcoc.CommandDone
	}
	var b strings.Builder
	fmt.Fprintf(&b, "✅ %s resolved %d open finding(s) of mine. They are recorded as %s's waivers and no longer hold the merge gate:\n", who, len(ids), who)
	for _, f := range r.State.Findings {
		if w, ok := r.State.WaivedBy[f.Block.ID]; ok && w.Command == m.Ref {
			fmt.Fprintf(&b, "\n- %s %s (%s)", sanitize.Code(f.Block.ID), r.fromModelLine(f.Block.Title), sanitize.Code(f.Thread.Path))
		}
	}
	return b.String(), ids, rmcoc.CommandDone
}
