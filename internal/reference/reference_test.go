package reference

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/review-my-code-bot/rmc/config"
	"github.com/review-my-code-bot/rmc/outcome"
	"github.com/review-my-code-bot/rmc/state"
)

var update = flag.Bool("update", false, "rewrite the generated files from the code's tables")

// generated is the header of a file this test writes whole.
const generated = "<!-- Generated from the code by go test ./internal/reference -update: edit the table in the code, not this file. -->\n\n"

// moduleRoot is two directories up.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// check compares a file with what the tables generate, or rewrites it.
func check(t *testing.T, rel, want string) {
	t.Helper()
	path := filepath.Join(moduleRoot(t), filepath.FromSlash(rel))
	got, err := os.ReadFile(path)
	if err != nil && !*update {
		t.Fatal(err)
	}
	if string(got) == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s is not what the code's tables generate: run go test ./internal/reference -update", rel)
}

// yamlString is s as a YAML double-quoted scalar.
func yamlString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// actionYAML is action.yml with its inputs and outputs generated.
func actionYAML(t *testing.T, current string) string {
	t.Helper()
	i, j, k := strings.Index(current, "\ninputs:\n"), strings.Index(current, "\noutputs:\n"), strings.Index(current, "\nruns:\n")
	if i < 0 || j < i || k < j {
		t.Fatal("action.yml has no inputs:, outputs: and runs:, in that order")
	}
	var b strings.Builder
	b.WriteString(current[:i])
	b.WriteString("\ninputs:\n")
	for _, in := range config.Inputs {
		fmt.Fprintf(&b, "  %s:\n    description: %s\n    required: false\n    default: %s\n", in.Name, yamlString(in.Doc), yamlString(in.Default))
	}
	b.WriteString("outputs:\n")
	for _, out := range outcome.Outputs {
		fmt.Fprintf(&b, "  %s:\n    description: %s\n", out.Name, yamlString(out.Doc))
	}
	b.WriteString(current[k+1:])
	return b.String()
}

// parsed reads the generated action.yml as the runner would, and checks
// that every input's default and description survived YAML's quoting.
func parsed(t *testing.T, yml string) {
	t.Helper()
	var a struct {
		Inputs map[string]struct {
			Description string `yaml:"description"`
			Default     string `yaml:"default"`
		} `yaml:"inputs"`
		Outputs map[string]struct {
			Description string `yaml:"description"`
		} `yaml:"outputs"`
	}
	if err := yaml.Unmarshal([]byte(yml), &a); err != nil {
		t.Fatalf("the generated action.yml is not YAML: %v", err)
	}
	if len(a.Inputs) != len(config.Inputs) || len(a.Outputs) != len(outcome.Outputs) {
		t.Errorf("action.yml holds %d inputs and %d outputs; the tables %d and %d", len(a.Inputs), len(a.Outputs), len(config.Inputs), len(outcome.Outputs))
	}
	for _, in := range config.Inputs {
		if got := a.Inputs[in.Name]; got.Default != in.Default || got.Description != in.Doc {
			t.Errorf("action.yml reads input %s as %+v", in.Name, got)
		}
	}
	for _, out := range outcome.Outputs {
		if got := a.Outputs[out.Name]; got.Description != out.Doc {
			t.Errorf("action.yml reads output %s as %+v", out.Name, got)
		}
	}
}

// jsonString is s as a JSON string, its HTML characters as they are.
func jsonString(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// schemaJSON is rmc.schema.json with its properties generated from
// config.Keys; what precedes them (the schema's id and title) is kept.
func schemaJSON(t *testing.T, current string) string {
	t.Helper()
	const open = "  \"properties\": {\n"
	i := strings.Index(current, open)
	if i < 0 {
		t.Fatal("rmc.schema.json has no properties")
	}
	var b strings.Builder
	b.WriteString(current[:i+len(open)])
	for n, k := range config.Keys {
		fmt.Fprintf(&b, "    %s: {\n      \"description\": %s,\n      %s\n    }", jsonString(t, k.Name), jsonString(t, k.Doc), k.Schema)
		if n < len(config.Keys)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("  }\n}\n")
	var v any
	if err := json.Unmarshal([]byte(b.String()), &v); err != nil {
		t.Fatalf("the generated rmc.schema.json is not JSON: %v", err)
	}
	return b.String()
}

// cell is text as a Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer(`|`, `\|`, `*`, `\*`, `<`, `&lt;`).Replace(s)
}

func inputsMarkdown() string {
	var b strings.Builder
	b.WriteString("# Inputs\n\n" + generated)
	b.WriteString("Set them in the `with:` block of the step that uses the action. Every input is optional;\n")
	b.WriteString("an input left empty takes its default. An input the action does not know is ignored with a\n")
	b.WriteString("warning that names the nearest known one.\n\n")
	b.WriteString("| Input | Kind | Default | What it does |\n|---|---|---|---|\n")
	var also []string
	for _, in := range config.Inputs {
		def := "empty"
		if in.Default != "" {
			def = "`" + in.Default + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", in.Name, in.Kind, cell(def), cell(in.Doc))
		if slices.Contains(config.FileKeys, in.Name) {
			also = append(also, "`"+in.Name+"`")
		}
	}
	fmt.Fprintf(&b, "\nThese inputs can also be set by the repository in `.github/rmc.yml` on the base branch; an input\nset in the workflow wins over the file: %s.\n", strings.Join(also, ", "))
	b.WriteString("\n## Keys of `.github/rmc.yml`\n\nRead from the pull request's base commit; `rmc.schema.json` describes them for an editor. A key\nthe action does not know is ignored with a warning that names the nearest known one.\n\n")
	b.WriteString("| Key | What it does |\n|---|---|\n")
	for _, k := range config.Keys {
		fmt.Fprintf(&b, "| `%s` | %s |\n", k.Name, cell(k.Doc))
	}
	return b.String()
}

// whoMay is who may give a command, as the reference says it.
var whoMay = map[state.Who]string{
	state.Collaborators: "a collaborator, or the pull request's author",
	state.Maintainers:   "a maintainer (write access), not the pull request's author",
}

func commandsMarkdown() string {
	var b strings.Builder
	b.WriteString("# Command reference\n\n" + generated)
	b.WriteString("Comment `@rmc-bot <command>` in the pull request's conversation, the command alone (any case, an\n")
	b.WriteString("optional final `.` or `!`). Commands are read by rules, never by the model. A command someone\n")
	b.WriteString("else edited does not count; one from someone who may not give it changes nothing and is\n")
	b.WriteString("answered with a refusal.\n\n")
	b.WriteString("| Command | Who may give it | What it does |\n|---|---|---|\n")
	for _, c := range state.Commands() {
		usage := string(c.Name)
		if c.Usage != "" {
			usage = c.Usage
		}
		words := "`" + usage + "`"
		for _, a := range c.Aliases {
			words += " (or `" + a + "`)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", strings.ReplaceAll(words, "|", `\|`), whoMay[c.Who], cell(c.Help))
	}
	b.WriteString("\nThe bot also takes `review` and `full review` (a review of what changed since its last one, or of\n")
	b.WriteString("the whole pull request), and `@rmc-bot ignore` in the pull request's description (no automatic\n")
	b.WriteString("reviews). Anything else addressed to it is a question, answered in a reply.\n")
	return b.String()
}

func outputsMarkdown() string {
	var b strings.Builder
	b.WriteString("# Outputs\n\n" + generated)
	b.WriteString("Every run writes them, a run that fails included. Read them as\n`steps.<id>.outputs.<name>`.\n\n")
	b.WriteString("| Output | What it says |\n|---|---|\n")
	for _, out := range outcome.Outputs {
		fmt.Fprintf(&b, "| `%s` | %s |\n", out.Name, cell(out.Doc))
	}
	b.WriteString("\n`review_status` is one of:\n\n| Value | Meaning |\n|---|---|\n")
	for _, s := range outcome.ReviewStatuses {
		fmt.Fprintf(&b, "| `%s` | %s |\n", s.Status, cell(s.Doc))
	}
	return b.String()
}

// The reference is what the code's tables say: action.yml's inputs and
// outputs, docs/inputs.md and docs/outputs.md.
func TestReferenceIsGenerated(t *testing.T) {
	root := moduleRoot(t)
	raw, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	yml := actionYAML(t, string(raw))
	parsed(t, yml)
	check(t, "action.yml", yml)
	schema, err := os.ReadFile(filepath.Join(root, "rmc.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	check(t, "rmc.schema.json", schemaJSON(t, string(schema)))
	check(t, "docs/inputs.md", inputsMarkdown())
	check(t, "docs/outputs.md", outputsMarkdown())
	check(t, "docs/command-reference.md", commandsMarkdown())
}
