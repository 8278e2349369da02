// Package docs holds the tests that keep the README and the pages of docs/
// working as pasted: the quick start is an example file word for word, every
// workflow passes actionlint, the public example never runs the pull
// request's code, and every link between the pages reaches its target.
package docs

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/internal/golden"
	"go.yaml.in/yaml/v3"
)

const (
	quickStartBegin = "<!-- quick-start: examples/pr-review.yml -->\n```yaml\n"
	quickStartEnd   = "```\n<!-- /quick-start -->"
)

// quickStart is the workflow of the README's quick start.
func quickStart(t *testing.T) string {
	t.Helper()
	readme := readFile(t, "../README.md")
	_, rest, ok := strings.Cut(readme, quickStartBegin)
	block, _, ok2 := strings.Cut(rest, quickStartEnd)
	if !ok || !ok2 {
		t.Fatalf("README.md has no quick-start workflow between %q and %q", quickStartBegin, quickStartEnd)
	}
	return block
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The quick start is the private-repository example, so what a reader
// pastes is the file the other tests check (-update copies it in).
func TestQuickStartIsTheExample(t *testing.T) {
	t.Parallel()
	got, want := quickStart(t), readFile(t, "../examples/pr-review.yml")
	if golden.Updating() && got != want {
		readme := readFile(t, "../README.md")
		readme = strings.Replace(readme, quickStartBegin+got+quickStartEnd, quickStartBegin+want+quickStartEnd, 1)
		if err := os.WriteFile("../README.md", []byte(readme), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got != want {
		t.Errorf("the README's quick-start workflow differs from examples/pr-review.yml (go test ./docs -update copies it)")
	}
}

// actionlint finds the workflow linter: on PATH, or where make tools puts it.
// Under CI it must be there; elsewhere a missing linter skips the test.
func actionlint(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"actionlint", "../bin/actionlint"} {
		if path, err := exec.LookPath(p); err == nil {
			if abs, err := filepath.Abs(path); err == nil {
				return abs // the linter runs in another directory
			}
			return path
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("actionlint is not installed: run make tools")
	}
	t.Skip("actionlint is not installed (make tools installs it)")
	return ""
}

// Every workflow a reader can copy passes actionlint as pasted: the
// README's quick start (extracted into a repository of its own) and each
// file in examples/.
func TestWorkflowsPassActionlint(t *testing.T) {
	t.Parallel()
	lint := actionlint(t)
	repo := t.TempDir()
	workflows := filepath.Join(repo, ".github", "workflows")
	if err := os.MkdirAll(workflows, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"readme-quick-start.yml": quickStart(t)}
	examples, _ := filepath.Glob("../examples/*.yml")
	if len(examples) < 2 {
		t.Fatalf("examples/ has %d workflows, want the private and the public one", len(examples))
	}
	for _, e := range examples {
		files["example-"+filepath.Base(e)] = readFile(t, e)
	}
	args := []string{"-no-color"}
	for name, text := range files {
		path := filepath.Join(workflows, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, path)
	}
	cmd := exec.Command(lint, args...)
	cmd.Dir = repo
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		t.Errorf("actionlint finds problems:\n%s", out)
	case err != nil:
		t.Fatalf("run actionlint: %v\n%s", err, out)
	}
}

// workflow is the part of a workflow file these tests read.
type workflow struct {
	On          map[string]any    `yaml:"on"`
	Permissions map[string]string `yaml:"permissions"`
	Jobs        map[string]struct {
		Steps []struct {
			Uses string            `yaml:"uses"`
			Run  string            `yaml:"run"`
			With map[string]string `yaml:"with"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

func loadWorkflow(t *testing.T, path string) workflow {
	t.Helper()
	var w workflow
	if err := yaml.Unmarshal([]byte(readFile(t, path)), &w); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return w
}

// Both examples check out the PR's head only to read it, hand it to the
// action and nothing else, and ask for exactly the permissions the action
// needs. The public one runs on pull_request_target (secrets, a token that
// can write) and never on pull_request; with those secrets in the job, it
// must not run anything from the checkout.
func TestExamplesNeverRunThePullRequest(t *testing.T) {
	t.Parallel()
	wantPerms := map[string]string{"contents": "read", "pull-requests": "write", "issues": "write", "statuses": "write", "actions": "read"}
	headRef := regexp.MustCompile(`^refs/pull/\$\{\{ github\.event\.pull_request\.number \|\| github\.event\.issue\.number \|\| inputs\.pr \}\}/head$`)
	for file, trigger := range map[string]string{"pr-review.yml": "pull_request", "pr-review-public.yml": "pull_request_target"} {
		t.Run(file, func(t *testing.T) {
			t.Parallel()
			w := loadWorkflow(t, "../examples/"+file)
			if _, ok := w.On[trigger]; !ok {
				t.Errorf("does not run on %s", trigger)
			}
			if _, ok := w.On["pull_request"]; ok && trigger == "pull_request_target" {
				t.Error("the public example also runs on pull_request, where a fork gets no secrets")
			}
			if len(w.Permissions) != len(wantPerms) {
				t.Errorf("permissions %v, want exactly %v", w.Permissions, wantPerms)
			}
			for k, v := range wantPerms {
				if w.Permissions[k] != v {
					t.Errorf("permissions: %s is %q, want %q", k, w.Permissions[k], v)
				}
			}
			if len(w.Jobs) != 1 {
				t.Fatalf("%d jobs, want 1", len(w.Jobs))
			}
			for _, job := range w.Jobs {
				var uses []string
				for _, s := range job.Steps {
					if s.Run != "" {
						t.Errorf("a step runs a command: %q", s.Run)
					}
					uses = append(uses, s.Uses)
				}
				if !slices.Equal(uses, []string{"actions/checkout@v4", "review-my-code-bot/rmc@" + actionRef}) {
					t.Fatalf("steps use %q, want the checkout and the action", uses)
				}
				checkout := job.Steps[0].With
				if !headRef.MatchString(checkout["ref"]) || checkout["persist-credentials"] != "false" {
					t.Errorf("the checkout is not the PR's head without credentials: %v", checkout)
				}
				if job.Steps[1].With["llm_api_key"] != "${{ secrets.OPENROUTER_API_KEY }}" {
					t.Errorf("the action does not get the README's secret: %v", job.Steps[1].With)
				}
			}
		})
	}
}
