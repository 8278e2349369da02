package execution

import (
	"cmp"
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
}

func newWalkthroughRunner(r *run) *walkthroughRunner {
	return &walkthroughRunner{env: r.env, GitHub: r.GitHub, Session: r.Session, Diagram: r.Options.WalkthroughDiagram, comment: r.State.Walkthrough,
		ceiling: r.Options.Review.Ceiling(spent(r.Session)), scope: r.scope()}
}

// walkthroughAnswer is the model's walkthrough.
type walkthroughAnswer struct {
	Summary   string    `json:"summary" jsonschema:"two to four sentences on what the pull request does and why"`
	Groups    groupList `json:"groups"`
	Effort    effort    `json:"effort"`
	EffortWhy string    `json:"effort_why" jsonschema:"one sentence: what drives the review effort"`
	Diagram   string    `json:"diagram" jsonschema:"a Mermaid sequence diagram starting with sequenceDiagram, or empty"`
}

func (walkthroughAnswer) SchemaName() string { return "walkthrough" }

type groupList []fileGroup

func (groupList) JSONSchema() *jsonschema.Schema { return llm.ArrayOf[fileGroup]() }

type fileGroup struct {
	Purpose string       `json:"purpose" jsonschema:"what the files of the group are for, a few words"`
	Files   fileLineList `json:"files"`
}

type fileLineList []fileLine

func (fileLineList) JSONSchema() *jsonschema.Schema { return llm.ArrayOf[fileLine]() }

type fileLine struct {
	Path   string `json:"path" jsonschema:"the file's path, as listed"`
	Change string `json:"change" jsonschema:"one line: what changed in it"`
}

// effort is a review effort from 1 to 5.
type effort int

func (effort) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "integer", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(5.0)}
}

// walkthroughAnswerTokens is what a walkthrough answer may take.
const walkthroughAnswerTokens = 1500

var errCeiling = errors.New("the run reached max_run_tokens")

// maxWalkthroughDiff bounds the diff the walkthrough prompt carries; the
// model reads more with its tools.
const maxWalkthroughDiff = 24000

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
	prompt, err := prompts.Walkthrough(walkthroughData(files, x.scope, x.Diagram))
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
	body := x.compose(x.render(ans, files, head), rmcoc.Walkthrough{HeadSHA: head, At: x.now()})
	if x.comment != 0 {
		return x.GitHub.EditComment(ctx, x.repo(), x.comment, body)
	}
	c, err := x.GitHub.CreateComment(ctx, x.repo(), x.number(), body)
	if err == nil {
		x.comment = c.ID
	}
	return err
}

// walkthroughData is the prompt's data: the file list and as much of the
// diff as fits, both through the scope. A private file is not named; an
// out-of-scope one is named, with why its diff is not shown.
func walkthroughData(files []snapshot.ChangedFile, sc review.Scope, diagram bool) prompts.WalkthroughData {
	d := prompts.WalkthroughData{Diagram: diagram}
	parsed, unread := ParseFiles(files)
	why := map[string]string{}
	for _, s := range unread {
		why[s.Path] = cmp.Or(sc.WhyPath(s.Path), s.Why)
	}
	for _, f := range parsed {
		why[f.Path()] = sc.Why(f)
	}
	var diff strings.Builder
	for _, f := range files {
		switch {
		case sc.Private(f.Path) || f.PreviousPath != "" && sc.Private(f.PreviousPath):
			continue
		case why[f.Path] != "":
			d.Files = append(d.Files, fmt.Sprintf("%s (%s, +%d -%d; diff not shown: %s)", prompts.Path(f.Path), f.Status, f.Additions, f.Deletions, why[f.Path]))
			continue
		}
		d.Files = append(d.Files, fmt.Sprintf("%s (%s, +%d -%d)", prompts.Path(f.Path), f.Status, f.Additions, f.Deletions))
		piece := fmt.Sprintf("--- %s\n%s\n", f.Path, f.Patch)
		if diff.Len()+len(piece) > maxWalkthroughDiff {
			d.Truncated = true
			continue
		}
		diff.WriteString(piece)
	}
	d.Diff = diff.String()
	return d
}

// render is the walkthrough's text. Everything in it the model wrote is
// vetted and relayed (no HTML, no live mention); paths are shown as code,
// and only the PR's own: a path the model made up is left out, and a file
// it forgot is listed under "Other changes".
func (x *walkthroughRunner) render(a walkthroughAnswer, files []snapshot.ChangedFile, head string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## 🧭 Walkthrough\n\n%s\n\n", x.fromModel(strings.TrimSpace(a.Summary)))
	changed := map[string]bool{}
	for _, f := range files {
		changed[f.Path] = true
	}
	listed := map[string]bool{}
	b.WriteString("### Changes\n")
	for _, g := range a.Groups {
		var lines []string
		for _, f := range g.Files {
			if !changed[f.Path] || listed[f.Path] {
				continue
			}
			listed[f.Path] = true
			lines = append(lines, fmt.Sprintf("- %s: %s", sanitize.Code(f.Path), x.fromModelLine(f.Change)))
		}
		if len(lines) > 0 {
			fmt.Fprintf(&b, "\n**%s**\n%s\n", x.fromModelLine(g.Purpose), strings.Join(lines, "\n"))
		}
	}
	var rest []string
	for _, f := range files {
		if !listed[f.Path] {
			rest = append(rest, fmt.Sprintf("- %s (%s)", sanitize.Code(f.Path), sanitize.Name(f.Status)))
		}
	}
	if len(rest) > 0 {
		fmt.Fprintf(&b, "\n**Other changes**\n%s\n", strings.Join(rest, "\n"))
	}
	fmt.Fprintf(&b, "\n**Review effort: %d/5**: %s\n", min(max(int(a.Effort), 1), 5), x.fromModelLine(a.EffortWhy))
	if d := diagram(a.Diagram); x.Diagram && d != "" {
		b.WriteString("\n### Sequence\n\n" + sanitize.CodeBlock("mermaid", d) + "\n")
	}
	fmt.Fprintf(&b, "\n<sub>Written for `%.7s` and edited in place on each automatic review; `@rmc-bot summary` writes it again.</sub>", head)
	return b.String()
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
