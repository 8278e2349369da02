package execution

import (
	"fmt"

	"github.com/review-my-code-bot/rmc/prompts"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// Turn is one message of the conversation shown to the model.
type Turn = prompts.Turn

// maxConversation bounds the history in characters; the oldest turns go
// first (the session's own context holds earlier tasks anyway).
const maxConversation = 60_000

// conversation is everything said on the PR before the question, oldest
// first: in its review thread for a thread question, else in the PR's
// conversation, including follow-ups that did not mention the bot (seed 004:
// developers often post follow-ups without tagging). The bot's status and
// placeholder comments are left out; its answers stay in, without blocks.
func conversation(snap snapshot.Snapshot, bot snapshot.Actor, m *state.Mention) []Turn {
	var turns []Turn
	add := func(author snapshot.Actor, body string) {
		if author.Is(bot) {
			qa := rmcoc.TrustedAll[rmcoc.QuestionAnswer](body)
			if len(qa) == 0 || qa[0].Status == rmcoc.AnswerInProgress || qa[0].Status == rmcoc.AnswerFailed {
				return // status and error comments are not conversation
			}
			turns = append(turns, Turn{Source: "your earlier answer", Body: rmcoc.Strip(body)})
			return
		}
		if author.IsBot {
			return
		}
		turns = append(turns, Turn{Source: fmt.Sprintf("comment by @%s", author.Login), Body: rmcoc.Strip(body)})
	}
	if m.Thread != nil {
		for _, t := range snap.Threads {
			if t.ID != m.Thread.ID {
				continue
			}
			for _, c := range t.Comments {
				if c.ID == m.Ref.ID {
					break
				}
				add(c.Author, c.Body)
			}
		}
	} else {
		for _, c := range snap.IssueComments {
			if !c.CreatedAt.Before(m.CreatedAt) || c.ID == m.Ref.ID {
				continue
			}
			add(c.Author, c.Body)
		}
	}
	total := 0
	for i := len(turns) - 1; i >= 0; i-- {
		total += len(turns[i].Body)
		if total > maxConversation {
			if i == len(turns)-1 { // the newest turn alone is too long: keep its end
				t := turns[i]
				t.Body = "(start omitted) " + t.Body[len(t.Body)-maxConversation:]
				return append([]Turn{{Source: "note", Body: fmt.Sprintf("(%d earlier messages omitted)", i)}}, t)
			}
			return append([]Turn{{Source: "note", Body: fmt.Sprintf("(%d earlier messages omitted)", i+1)}}, turns[i+1:]...)
		}
	}
	return turns
}
