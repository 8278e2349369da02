package execution

import (
	"fmt"

	"github.com/review-my-code-bot/rmc/prompts"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// maxListedFiles bounds the changed-file list in the system prompt; the
// model can list the rest with its tools.
const maxListedFiles = 300

// Rules are the project's rules for reviewers, read from the base branch.
type Rules struct {
	Source string // e.g. "AGENTS.md"
	Text   string
	// Instructions are the repository's review instructions
	// (.github/rmc.yml's instructions and the path_instructions matching
	// the PR's files), fenced as data like the rules.
	Instructions string
	// Language is what the bot writes in; "" = English. It is checked to
	// be a plain language name, so it may sit in the instructions.
	Language string
	// Learnings are the repository's learnings that apply to the PR's
	// files, one a line (see Applicable), fenced as data.
	Learnings string
}

// SystemPrompt is sent once per run (its String()): it is the shared
// prefix every task's request starts with, so providers can cache it. Its
// Instructions part holds no pull request text: an answer that echoes it
// is leaking the rules.
func SystemPrompt(snap snapshot.Snapshot, files []snapshot.ChangedFile, rules Rules) (prompts.SystemPrompt, error) {
	in := prompts.SystemData{
		Repo: snap.Repo.String(), Number: snap.PR.Number, Author: snap.PR.Author.Login,
		HeadRef: snap.PR.HeadRef, BaseRef: snap.PR.BaseRef, HeadShort: short(snap.PR.HeadSHA),
		TitleAndBody: snap.PR.Title + "\n\n" + snap.PR.Body, Rules: rules.Text, RulesSource: rules.Source,
		Instructions: rules.Instructions, Language: rules.Language, Learnings: rules.Learnings,
	}
	for _, is := range snap.PR.Closes {
		state := "open"
		if is.Closed {
			state = "closed"
		}
		in.Issues = append(in.Issues, prompts.Issue{Ref: fmt.Sprintf("%s#%d", is.Repo, is.Number), State: state, Title: is.Title, Body: is.Body})
	}
	for i, f := range files {
		if i == maxListedFiles {
			in.FilesTruncated = true
			break
		}
		in.Files = append(in.Files, fmt.Sprintf("%s (%s, +%d -%d)", prompts.Path(f.Path), f.Status, f.Additions, f.Deletions))
	}
	return prompts.System(in)
}

func short(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}
