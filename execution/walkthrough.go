package execution

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/prompts"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// walkthroughGitHub is what the walkthrough reads and writes.
type walkthroughGitHub interface {
	Files(ctx context.Context, repo snapshot.Repo, number int) ([]snapshot.ChangedFile, error)
	CreateComment(ctx context.Context, repo snapshot.Repo, number int, body string) (snapshot.Comment, error)
	EditComment(ctx context.Context, repo snapshot.Repo, id int64, body string) error
}

// walkthroughRunner writes the PR's one walkthrough comment: created with
// the first automatic review, edited in place afterwards.
type walkthroughRunner struct {
	env
	GitHub  walkthroughGitHub
	Session Session
	Diagram bool  // walkthrough_diagram
	comment int64 // the walkthrough comment, 0 before the first
	ceiling review.Ceiling
	scope   review.Scope // what the model may be sent
	// read are this run's review's lines on the files it read; kept those
	// the walkthrough's block holds from earlier runs.
	read map[string]string
	kept []rmcoc.FileLine
	// issues is set when the PR says it closes issues (the answer's
	// issue_fit is shown).
	issues bool
}

func newWalkthroughRunner(r *run) *walkthroughRunner {
	return &walkthroughRunner{env: r.env, GitHub: r.GitHub, Session: r.Session, Diagram: r.Options.WalkthroughDiagram, comment: r.State.Walkthrough,
		ceiling: r.Options.Review.Ceiling(spent(r.Session)), scope: r.scope(), read: r.read, kept: r.State.WalkthroughFiles,
		issues: len(r.Snap.PR.Closes) > 0}
}

// walkthroughAnswer is the model's walkthrough, composed from the lines
// the review wrote on each file: it names files and directories, never
// describes them again, so it stays small at any file count.
type walkthroughAnswer struct {
	Summary   string    `json:"summary" jsonschema:"two to four sentences on what the pull request does and why"`
	Groups    groupList `json:"groups"`
	Effort    effort    `json:"effort"`
	EffortWhy string    `json:"effort_why" jsonschema:"one sentence: what drives the review effort"`
	IssueFit  string    `json:"issue_fit" jsonschema:"one sentence: does the change do what the linked issues ask; empty without issues"`
	Diagram   string    `json:"diagram" jsonschema:"a Mermaid sequence diagram starting with sequenceDiagram, or empty"`
}

func (walkthroughAnswer) SchemaName() string { return "walkthrough" }

type groupList []fileGroup

func (groupList) JSONSchema() *jsonschema.Schema { return llm.ArrayOf[fileGroup]() }

type fileGroup struct {
	Purpose string   `json:"purpose" jsonschema:"what the files of the group are for, a few words"`
	Files   pathList `json:"files"`
}

type pathList []string

func (pathList) JSONSchema() *jsonschema.Schema {
	s := llm.ArrayOf[string]()
	s.Description = "paths as listed, or directories ending in / for all their files"
	return s
}

// effort is a review effort from 1 to 5.
type effort int

func (effort) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "integer", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(5.0)}
}

// walkthroughAnswerTokens is what a walkthrough answer may take.
const walkthroughAnswerTokens = 1500

var errCeiling = errors.New("the run reached max_run_tokens")

// Run writes the walkthrough and answers the summary commands it serves.
// With an automatic review a failure is a warning (the review stands); a
// summary command's failure leaves the command pending for the next run.
func (x *walkthroughRunner) Run(ctx context.Context, t detector.Task, wt *detector.WalkthroughTask) Outcome {
	o := Outcome{Task: t}
	err := x.write(ctx, t.Key, wt.HeadSHA)
	switch {
	case err != nil && len(wt.Commands) > 0:
		o.Err = err
		taskError(ctx, x.GitHub, x.env, t, err)
		return o
	case err != nil:
		x.Log.Warningf("the walkthrough was not written: %v", err)
		why := failureMessage(err)
		if errors.Is(err, errCeiling) {
			why = err.Error()
		}
		o.Note, o.Warned = "walkthrough not written: "+why, true
		return o
	}
	o.Note = fmt.Sprintf("walkthrough of %.7s written", wt.HeadSHA)
	for _, m := range wt.Commands {
		block := rmcoc.CommandAnswer{CommandCommentID: rmcoc.ID(m.Ref.ID), Command: string(m.Command), By: m.Author.Login, Result: rmcoc.CommandDone, At: x.now()}
		text := fmt.Sprintf("📝 @%s: I wrote the walkthrough again for `%.7s`.", sanitize.Name(m.Author.Login), wt.HeadSHA)
		if _, err := x.GitHub.CreateComment(ctx, x.repo(), x.number(), x.compose(text, block)); err != nil {
			x.Log.Warningf("could not answer @%s's summary command: %v", m.Author.Login, err)
		}
	}
	return o
}

func (x *walkthroughRunner) write(ctx context.Context, key, head string) error {
	if x.Session == nil {
		return errors.New("no model session for the walkthrough")
	}
	files, err := x.GitHub.Files(ctx, x.repo(), x.number())
	if err != nil {
		return err
	}
	es := x.entries(files)
	d := walkthroughData(es, x.Diagram)
	d.Issues = x.issues
	prompt, err := prompts.Walkthrough(d)
	if err != nil {
		return err
	}
	// About a token per four characters, and room for the answer.
	if x.ceiling.Over(len(prompt)/4 + walkthroughAnswerTokens) {
		return errCeiling
	}
	ans, _, err := llm.AskJSON[walkthroughAnswer](ctx, x.Session, llm.Label{Task: key}, prompt)
	if err != nil {
		return err
	}
	lines, dropped := keepLines(es)
	body := x.compose(x.render(ans, es, head, dropped), rmcoc.Walkthrough{HeadSHA: head, At: x.now(), Files: lines})
	if x.comment != 0 {
		return x.GitHub.EditComment(ctx, x.repo(), x.comment, body)
	}
	c, err := x.GitHub.CreateComment(ctx, x.repo(), x.number(), body)
	if err == nil {
		x.comment = c.ID
	}
	return err
}

// maxDiagramLines bounds the sequence diagram.
const maxDiagramLines = 60

// diagramDirective matches what a sequence diagram does not need and a
// renderer could act on: init directives, links and clicks.
var diagramDirective = regexp.MustCompile(`(?i)^\s*(%%\{|links?\b|click\b|<)`)

// diagram keeps a model's sequence diagram only when it is one, without
// directives, links or markup; "" otherwise.
func diagram(text string) string {
	text = strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n"))
	lines := strings.Split(text, "\n")
	if len(lines) < 2 || strings.TrimSpace(lines[0]) != "sequenceDiagram" || len(lines) > maxDiagramLines {
		return ""
	}
	var out []string
	for _, l := range lines {
		if strings.Contains(l, "```") || strings.Contains(l, "~~~") {
			return ""
		}
		if !diagramDirective.MatchString(l) {
			out = append(out, sanitize.Text(l))
		}
	}
	return strings.Join(out, "\n")
}
