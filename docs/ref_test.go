package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/internal/golden"
	"go.yaml.in/yaml/v3"
)

// What a reader copies names the action and its commands at one ref: the
// branch until a release exists. Cutting 1.0.0 (docs/releases.md) sets
// these to "v1" and "latest" and runs go test ./docs -update, which
// rewrites every copyable line to them.
const (
	actionRef  = "main" // uses: review-my-code-bot/rmc@…
	installRef = "main" // go install github.com/review-my-code-bot/rmc/cmd/…@…
)

var (
	usesRef    = regexp.MustCompile(`(review-my-code-bot/rmc)@([A-Za-z0-9._/-]+)`)
	installCmd = regexp.MustCompile(`(github\.com/review-my-code-bot/rmc/cmd/([a-z-]+))@([A-Za-z0-9._/-]+)`)
)

// copyable is what a reader copies from a document: the fenced code
// blocks of a Markdown page, or the whole of an example workflow. It
// returns the byte ranges.
func copyable(path, text string) [][2]int {
	if !strings.HasSuffix(path, ".md") {
		return [][2]int{{0, len(text)}}
	}
	var spans [][2]int
	start, off := -1, 0
	for line := range strings.SplitAfterSeq(text, "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " "), "```") {
			if start < 0 {
				start = off + len(line)
			} else {
				spans, start = append(spans, [2]int{start, off}), -1
			}
		}
		off += len(line)
	}
	return spans
}

// copied lists the README, the pages of docs/ and the example workflows.
func copied(t *testing.T) []string {
	t.Helper()
	docs, _ := filepath.Glob("*.md")
	examples, _ := filepath.Glob("../examples/*.yml")
	return append(append([]string{"../README.md"}, docs...), examples...)
}

// Every `uses:` of the action and every `go install` of its commands that
// a reader can copy names actionRef and installRef, and each command
// exists: a pasted line resolves. -update rewrites them to the constants.
func TestCopiedRefsAgree(t *testing.T) {
	t.Parallel()
	uses, installs := 0, 0
	for _, path := range copied(t) {
		text := readFile(t, path)
		var b strings.Builder
		last := 0
		for _, span := range copyable(path, text) {
			b.WriteString(text[last:span[0]])
			block := text[span[0]:span[1]]
			block = usesRef.ReplaceAllStringFunc(block, func(m string) string {
				uses++
				if ref := usesRef.FindStringSubmatch(m)[2]; ref != actionRef && !golden.Updating() {
					t.Errorf("%s: uses %s, want @%s (go test ./docs -update rewrites it)", path, m, actionRef)
				}
				return usesRef.ReplaceAllString(m, "${1}@"+actionRef)
			})
			block = installCmd.ReplaceAllStringFunc(block, func(m string) string {
				installs++
				sub := installCmd.FindStringSubmatch(m)
				if sub[3] != installRef && !golden.Updating() {
					t.Errorf("%s: go install %s, want @%s (go test ./docs -update rewrites it)", path, m, installRef)
				}
				if _, err := os.Stat(filepath.Join("../cmd", sub[2], "main.go")); err != nil {
					t.Errorf("%s: go install %s: there is no cmd/%s", path, m, sub[2])
				}
				return installCmd.ReplaceAllString(m, "${1}@"+installRef)
			})
			b.WriteString(block)
			last = span[1]
		}
		b.WriteString(text[last:])
		if golden.Updating() && b.String() != text {
			if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if uses < 10 || installs < 2 {
		t.Errorf("found %d uses: and %d go install lines to check: the test no longer reads them", uses, installs)
	}
}

// actionInputs are the inputs action.yml declares.
func actionInputs(t *testing.T) map[string]bool {
	t.Helper()
	var a struct {
		Inputs map[string]any `yaml:"inputs"`
	}
	if err := yaml.Unmarshal([]byte(readFile(t, "../action.yml")), &a); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for k := range a.Inputs {
		names[k] = true
	}
	return names
}

// withKeys are the keys of the `with:` blocks of the steps that use the
// action, in a workflow or in a list of steps as the provider page shows.
func withKeys(t *testing.T, where, text string) []string {
	t.Helper()
	var doc any
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatalf("%s: %v\n%s", where, err, text)
	}
	var keys []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if uses, _ := v["uses"].(string); usesRef.MatchString(uses) {
				with, _ := v["with"].(map[string]any)
				for k := range with {
					keys = append(keys, k)
				}
			}
			for _, c := range v {
				walk(c)
			}
		case []any:
			for _, c := range v {
				walk(c)
			}
		}
	}
	walk(doc)
	return keys
}

// yamlBlocks are the ```yaml blocks of a Markdown page.
func yamlBlocks(text string) []string {
	var blocks []string
	for _, span := range copyable(".md", text) {
		header := text[strings.LastIndex(text[:span[0]-1], "\n")+1 : span[0]]
		if strings.TrimSpace(header) == "```yaml" {
			blocks = append(blocks, text[span[0]:span[1]])
		}
	}
	return blocks
}

// The README, the pages and the examples give the action only inputs
// action.yml declares, and the README's secret is the examples'.
func TestCopiedInputsAreTheActions(t *testing.T) {
	t.Parallel()
	inputs := actionInputs(t)
	seen := 0
	for _, path := range copied(t) {
		text := readFile(t, path)
		blocks := []string{text}
		if strings.HasSuffix(path, ".md") {
			blocks = yamlBlocks(text)
		}
		for _, block := range blocks {
			for _, k := range withKeys(t, path, block) {
				seen++
				if !inputs[k] {
					t.Errorf("%s gives the action %s, which action.yml does not declare", path, k)
				}
			}
		}
	}
	if seen < 15 {
		t.Errorf("checked %d inputs given to the action: the test no longer finds them", seen)
	}
	readme := readFile(t, "../README.md")
	for _, e := range []string{"../examples/pr-review.yml", "../examples/pr-review-public.yml"} {
		w := loadWorkflow(t, e)
		for _, job := range w.Jobs {
			key := job.Steps[len(job.Steps)-1].With["llm_api_key"]
			secret := strings.TrimSuffix(strings.TrimPrefix(key, "${{ secrets."), " }}")
			if secret == key || !strings.Contains(readme, "name `"+secret+"`") {
				t.Errorf("%s passes %q; the README's step 2 does not name that secret", e, key)
			}
		}
	}
}

// The examples' `if:` starts a job for each handle bot_mentions answers to
// by default, and says beside it that a custom handle goes there too.
func TestExamplesStartForTheDefaultHandles(t *testing.T) {
	t.Parallel()
	handles := []string{"@review-my-code-bot", "@rmc-bot"}
	schema := readFile(t, "../rmc.schema.json")
	for _, h := range handles {
		if !strings.Contains(schema, h) {
			t.Fatalf("rmc.schema.json no longer names %s: the default handles changed, change this test and the examples", h)
		}
	}
	for _, e := range []string{"../examples/pr-review.yml", "../examples/pr-review-public.yml"} {
		text := readFile(t, e)
		cond, _, _ := strings.Cut(text[strings.Index(text, "    if: >-"):], "    concurrency:")
		for _, h := range handles {
			if n := strings.Count(cond, "'"+h+"'"); n < 3 {
				t.Errorf("%s: the if: names %s in %d of the 3 comment events", e, h, n)
			}
		}
		if !slices.ContainsFunc(strings.Split(text, "\n"), func(l string) bool { return strings.Contains(l, "bot_mentions") }) {
			t.Errorf("%s: nothing beside the if: says a custom bot_mentions handle goes there too", e)
		}
	}
}

// `go build ./cmd/X` at the root writes the binary X there: nothing at the
// root may have a command's name (the bench command once met the bench
// package's directory), and .gitignore keeps the binary out of git.
func TestRootBuildsEveryCommand(t *testing.T) {
	t.Parallel()
	cmds, _ := filepath.Glob("../cmd/*/main.go")
	if len(cmds) < 4 {
		t.Fatalf("found %d commands under cmd/", len(cmds))
	}
	ignore := strings.Split(readFile(t, "../.gitignore"), "\n")
	for _, c := range cmds {
		name := filepath.Base(filepath.Dir(c))
		if _, err := os.Stat(filepath.Join("..", name)); err == nil {
			t.Errorf("the root has a file or directory named %s: go build ./cmd/%s cannot write its binary", name, name)
		}
		if !slices.Contains(ignore, "/"+name) {
			t.Errorf(".gitignore does not list /%s, the binary go build ./cmd/%s writes", name, name)
		}
	}
}
