package prompts

import (
	"fmt"
	"strings"
)

// Each template has one typed renderer below, taking a struct with exactly
// the fields it uses: passing the wrong data is a compile error, and a
// template naming a field its struct lacks fails every render (and so
// TestTypedRenderersFullyPopulated), never a "<no value>" in a prompt.

// Classify renders classify.tmpl: the intent of a comment mentioning the
// bot.
func Classify(comment string) (string, error) { return render("classify", comment) }

// Turn is one message of a conversation shown to the model.
type Turn struct {
	Source string // "comment by @alice", "your earlier answer"
	Body   string
}

// DisputeData is what dispute.tmpl shows: a finding and the replies on it.
type DisputeData struct {
	Path     string
	Line     int // 0 when the thread is outdated
	Score    int
	Blocking bool
	Status   string
	Thread   []Turn // the thread so far, oldest first
	Author   string // who replied
	Replies  string // the unanswered replies
}

// Dispute renders dispute.tmpl.
func Dispute(d DisputeData) (string, error) { return render("dispute", d) }

// LocalSystemData is what local_system.tmpl shows: an agent's uncommitted
// changes.
type LocalSystemData struct {
	Base  string
	Files []string
	Rules string
}

// LocalSystem renders local_system.tmpl.
func LocalSystem(d LocalSystemData) (string, error) { return render("local_system", d) }

// Thread is the review thread a question was asked in.
type Thread struct {
	Path     string
	Line     int // 0 when outdated
	DiffHunk string
	// Private is set for a file of private_paths: no hunk is shown, and
	// the model is told why.
	Private bool
}

// QuestionData is what question.tmpl shows.
type QuestionData struct {
	Asker, Question string
	Conversation    []Turn
	Thread          *Thread // nil for a PR comment
}

// Question renders question.tmpl.
func Question(d QuestionData) (string, error) { return render("question", d) }

// Pass is a review pass as review_pass.tmpl names it.
type Pass struct {
	N     int
	Name  string
	Focus string
}

// ReviewChunkData is what review_chunk.tmpl shows: the part of the diff
// every pass over it shares, sent once before the passes' prompts.
type ReviewChunkData struct {
	Chunk, Chunks int
	Diff          string
}

// ReviewChunk renders review_chunk.tmpl.
func ReviewChunk(d ReviewChunkData) (string, error) { return render("review_chunk", d) }

// Found is a finding an earlier request of the review reported: where and
// what, so a later one does not report it again.
type Found struct {
	Path  string
	Line  int
	Title string
}

// maxFound bounds the list a pass prompt carries: the most recent ones.
const maxFound = 60

func foundLines(fs []Found) string {
	if len(fs) > maxFound {
		fs = fs[len(fs)-maxFound:]
	}
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s:%d: %s\n", Path(f.Path), f.Line, strings.Join(strings.Fields(f.Title), " "))
	}
	return b.String()
}

// ReviewPassData is what review_pass.tmpl shows. The diff is not in it:
// it comes before, in the chunk all passes share.
type ReviewPassData struct {
	Pass              Pass
	Chunk, Chunks     int
	Found             []Found
	Problem, Blocking int
	// Notes asks for a line per file of the chunk, for the walkthrough.
	Notes bool
}

// ReviewPass renders review_pass.tmpl.
func ReviewPass(d ReviewPassData) (string, error) { return render("review_pass", d) }

// VerifyFixData is what verify_fix.tmpl shows.
type VerifyFixData struct {
	Path string
	Line int
	Body string // the finding's text
	Head string // the head commit, short
}

// VerifyFix renders verify_fix.tmpl.
func VerifyFix(d VerifyFixData) (string, error) { return render("verify_fix", d) }

// SystemData is what system.tmpl shows.
type SystemData struct {
	Repo, Author, HeadRef, BaseRef, HeadShort, TitleAndBody string
	Number                                                  int
	Files                                                   []string
	FilesTruncated                                          bool
	Rules, RulesSource                                      string
	Instructions, Language, Learnings                       string
	// Issues are the issues the pull request says it closes.
	Issues []Issue
}

// Issue is an issue the pull request closes, as a prompt shows it.
type Issue struct {
	Ref   string // "owner/name#12"
	State string // "open" or "closed"
	Title string
	Body  string
}

// SystemPrompt is the run's system prompt in its two parts.
type SystemPrompt struct {
	// Instructions are the fixed rules: who the bot is, how it treats data,
	// the language it writes in. No text from the pull request.
	Instructions string
	// Context is the pull request: data, fenced.
	Context string
}

// String is the system message: the instructions, then the context.
func (s SystemPrompt) String() string { return s.Instructions + s.Context }

// System renders system.tmpl's two parts.
func System(d SystemData) (SystemPrompt, error) {
	instructions, err := render("system_instructions", d)
	if err != nil {
		return SystemPrompt{}, err
	}
	context, err := render("system_context", d)
	if err != nil {
		return SystemPrompt{}, err
	}
	// render ends each part with one newline; a blank line separates them.
	return SystemPrompt{Instructions: strings.TrimSuffix(instructions, "\n") + "\n\n", Context: context}, nil
}

// WalkthroughData is what walkthrough.tmpl shows: what the review's
// reading wrote on each file, never the diff.
type WalkthroughData struct {
	Files   []string // "path (status, +a -d): what changed"
	More    []string // the files that did not fit, by directory: "dir/ (n more files, +a -d)"
	Diagram bool     // a sequence diagram may be drawn
	Issues  bool     // the pull request says it closes issues (the system prompt lists them)
}

// Walkthrough renders walkthrough.tmpl.
func Walkthrough(d WalkthroughData) (string, error) { return render("walkthrough", d) }

// CheckPrompt is one check as checks.tmpl shows it.
type CheckPrompt struct {
	Name, Instructions string
	Files              []string // the changed files it applies to
}

// ChecksData is what checks.tmpl shows.
type ChecksData struct {
	Checks    []CheckPrompt
	Diff      string
	Truncated bool // Diff was cut short
}

// Checks renders checks.tmpl.
func Checks(d ChecksData) (string, error) { return render("checks", d) }
