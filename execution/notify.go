package execution

import (
	"context"
	"fmt"
	"strings"

	"github.com/review-my-code-bot/rmc/agentmd"
	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// AgentFinding is one blocking finding as the coding agent is told about it.
type AgentFinding struct {
	Path            string
	StartLine, Line int
	Side            diff.Side
	Title, Text     string // Text: the finding's FindingText.Notice
	Score           int
}

// notifier tells the PR's coding agent about a review that requests
// changes, once per review: after the review in the same run, or in a later
// run when a killed one never did.
type notifier struct {
	env
	GitHub   commenter
	handle   string         // e.g. "@claude"; "" = nobody
	notified map[int64]bool // the state's: reviews already notified
}

// send posts one comment that mentions the agent, cites the review, and
// lists the blocking findings in the agent-ready format every reviewer here
// uses. The comment carries its own agent-notification block, so posting it
// is recording it.
func (n *notifier) send(ctx context.Context, reviewID int64, head string, findings []AgentFinding, files []diff.File) error {
	handle := n.handle
	if handle == "" || len(findings) == 0 || n.notified[reviewID] {
		return nil
	}
	doc := agentmd.Review{Title: fmt.Sprintf("Blocking findings in review %d", reviewID)}
	for _, f := range findings {
		doc.Comments = append(doc.Comments, agentmd.Comment{File: f.Path, StartLine: max(f.StartLine, 0), EndLine: f.Line, Side: f.Side,
			Body: "**" + n.fromModelLine(f.Title) + "**\n" + strings.TrimSpace(f.Text), Meta: fmt.Sprintf("blocking · score %d", f.Score)})
		if f.StartLine == 0 {
			doc.Comments[len(doc.Comments)-1].StartLine = f.Line
		}
	}
	text := fmt.Sprintf("%s review-my-code-bot requested changes in review %d (head `%.7s`). Please:\n\n"+
		"1. address the %d blocking finding(s) below and push;\n"+
		"2. reply in each finding's thread, referencing review %d, with what you changed (or why the finding is wrong: I will re-judge it).\n\n"+
		"Leave the threads open: I verify each fix on your push and resolve its thread myself. A thread resolved by the pull request's author or its agent does not clear a blocking finding.\n\n%s%s",
		handle, reviewID, head, len(findings), reviewID, inboxLine(n.repo(), n.number()), sanitize.Relay(agentmd.Markdown(doc, files)))
	block := rmcoc.AgentNotice{ReviewID: rmcoc.ID(reviewID), Handle: handle, SentAt: n.now()}
	if _, err := n.GitHub.CreateComment(ctx, n.repo(), n.number(), n.compose(text, block)); err != nil {
		return fmt.Errorf("notify %s: %w", handle, err)
	}
	n.notified[reviewID] = true
	return nil
}

// pending finds an earlier review that requested changes but whose agent
// notification a killed run never posted. Each finding's text is read back
// from its posted comment.
func (n *notifier) pending(st state.State) (reviewID int64, head string, findings []AgentFinding) {
	last := st.LastReview()
	if n.handle == "" || last == nil || last.ReviewID == 0 || last.Run.Blocking == 0 || n.notified[last.ReviewID] {
		return 0, "", nil
	}
	for _, f := range st.Findings {
		if f.Blocks() && f.Block.HeadSHA == last.Run.HeadSHA {
			findings = append(findings, agentFinding(f))
		}
	}
	return last.ReviewID, last.Run.HeadSHA, findings
}

func agentFinding(f state.Finding) AgentFinding {
	side := diff.Right
	if strings.EqualFold(f.Block.Side, "left") {
		side = diff.Left
	}
	return AgentFinding{Path: f.Block.Path, StartLine: f.Block.StartLine, Line: f.Block.Line, Side: side, Title: f.Block.Title,
		Text: findingNotice(f.Thread.Comments[0].Body), Score: f.Block.Score}
}

// inboxLine tells an agent that runs reviews-for-agent how to work through
// the findings from its review inbox: list and read them, and claim one.
// Resolving is left to the bot, as the notice says: `inbox resolve` would
// resolve the thread, which the bot reopens until it has verified the fix.
// Only the repository and number go in, which GitHub spells safely.
func inboxLine(repo snapshot.Repo, number int) string {
	pr := fmt.Sprintf("%s#%d", repo, number)
	return "With reviews-for-agent: `reviews-for-agent inbox list --pr " + pr + "` lists these findings with their ids, " +
		"`reviews-for-agent inbox get ID` reads one and `reviews-for-agent inbox claim ID --by NAME` takes it so no other agent does " +
		"(the review_inbox MCP tool does the same). Do not resolve them there, which resolves the thread: I resolve each one once I have " +
		"verified its fix, and the list then shows it resolved.\n\n"
}
