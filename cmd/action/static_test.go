package main

import (
	"bytes"
	"debug/elf"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/review-my-code-bot/rmc/config"
	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// The action ships as a lone static binary in a scratch image: it must run
// with no libc, no shell, no git, no CA bundle, no HOME and no variables but
// the runner's. Every user proves that much: the binary has no ELF
// interpreter, and it answers a question end to end with an empty
// environment in an empty directory, talking only to the loopback fakes.
// Root also runs it chrooted into a directory holding nothing but itself.
func TestStaticBinary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "rmc")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	if st, err := os.Stat(bin); err == nil {
		t.Logf("binary size: %.1f MB", float64(st.Size())/1e6)
	}
	if p := dynamicHeader(t, bin); p != "" {
		t.Fatalf("binary is dynamically linked (program header %s)", p)
	}

	t.Run("empty environment", func(t *testing.T) {
		t.Parallel()
		// The binary sits elsewhere; the working directory is empty and
		// the event comes from a directory of its own.
		runAlone(t, bin, t.TempDir(), t.TempDir(), nil)
	})
	t.Run("empty root filesystem", func(t *testing.T) {
		t.Parallel()
		if os.Geteuid() != 0 {
			t.Skip("chroot needs root; the run in an empty environment proves the rest")
		}
		root := t.TempDir()
		if err := os.Link(bin, filepath.Join(root, "rmc")); err != nil {
			copyFile(t, bin, filepath.Join(root, "rmc"))
		}
		// The event and output files live in the new root; paths given to
		// the binary are seen from inside it.
		runAlone(t, "/rmc", "/", root, &syscall.SysProcAttr{Chroot: root})
	})
}

// dynamicHeader names the program header that makes bin dynamically
// linked, or returns "".
func dynamicHeader(t *testing.T, bin string) string {
	t.Helper()
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			return p.Type.String()
		}
	}
	return ""
}

// runAlone runs bin twice with only the variables set here: `version`, then
// the action on an issue_comment asking a question, against a fake GitHub
// and a scripted model on loopback. files is the directory, as the test sees
// it, that holds the event and output files; with a chroot, files is the
// new root and the binary sees it as "/".
func runAlone(t *testing.T, bin, workdir, files string, attr *syscall.SysProcAttr) {
	t.Helper()
	inside := func(name string) string {
		if attr != nil && attr.Chroot != "" {
			return "/" + name
		}
		return filepath.Join(files, name)
	}
	exe := func(env []string, args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.SysProcAttr = attr
		cmd.Dir = workdir
		cmd.Env = env
		if cmd.Env == nil {
			cmd.Env = []string{} // nil would inherit the test's environment
		}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return out.String(), err
	}

	out, err := exe(nil, "version")
	if err != nil || strings.TrimSpace(out) == "" {
		t.Fatalf("rmc version with an empty environment: %v\n%s", err, out)
	}
	t.Logf("rmc version: %s", firstLines(out, 1))

	gh := fakegithub.New()
	t.Cleanup(gh.Close)
	const repoName, token = "acme/gateway", "ghs_static_installation_token"
	gh.AddToken(token, fakegithub.Identity{Login: "github-actions[bot]", Kind: fakegithub.TokenInstallation})
	gh.AddUser("alice", false)
	gh.AddRepo(repoName)
	pr := gh.AddPR(repoName, fakegithub.PR{Title: "Add a rate limiter", Author: "alice"})
	gh.SetFiles(repoName, pr.Number, []fakegithub.File{{Path: "limiter/bucket.go", Status: "added", Additions: 1, Patch: "@@ -0,0 +1 @@\n+package limiter"}})
	q := gh.AddIssueComment(repoName, pr.Number, "alice", "@rmc-bot why a global map?")
	model := fakellm.New(fakellm.Config{APIKey: "sk-static-test-key"})
	t.Cleanup(model.Close)
	model.AddRule(fakellm.Rule{Name: "classify", LastUser: "Decide what a developer wants", Reply: fakellm.Reply{JSON: map[string]string{"intent": "question"}}})
	model.AddRule(fakellm.Rule{Name: "answer", LastUser: "# Task: answer a question", Reply: fakellm.Reply{Text: "ANSWERED WITHOUT AN ENVIRONMENT"}})

	writeFile(t, filepath.Join(files, "event.json"), commentEvent(t, repoName, pr.Number, q.ID, q.Body))
	writeFile(t, filepath.Join(files, "output"), nil)
	writeFile(t, filepath.Join(files, "summary.md"), nil)
	inputs := config.Defaults()
	inputs["github_token"] = token
	inputs["llm_base_url"] = model.BaseURL()
	inputs["llm_api_key"] = model.APIKey()
	env := []string{
		"GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=issue_comment", "GITHUB_EVENT_PATH=" + inside("event.json"),
		"GITHUB_REPOSITORY=" + repoName, "GITHUB_OUTPUT=" + inside("output"), "GITHUB_STEP_SUMMARY=" + inside("summary.md"),
		"RMC_WRITE_INTERVAL=0s",
	}
	env = append(env, gh.Env()...)
	for k, v := range inputs {
		env = append(env, "INPUT_"+strings.ToUpper(k)+"="+v)
	}
	out, err = exe(env)
	if err != nil {
		t.Fatalf("the action with an empty environment: %v\n%s", err, out)
	}
	var answered bool
	for _, c := range gh.IssueComments(repoName, pr.Number) {
		answered = answered || c.Author == "github-actions[bot]" && strings.Contains(c.Body, "ANSWERED WITHOUT AN ENVIRONMENT")
	}
	if !answered {
		t.Fatalf("the question was not answered on the fake GitHub\n%s", out)
	}
	if n := len(model.Requests()); n == 0 {
		t.Errorf("the model was never asked")
	}
	outputs, err := os.ReadFile(filepath.Join(files, "output"))
	if err != nil || !bytes.Contains(outputs, []byte("tasks_executed")) {
		t.Errorf("GITHUB_OUTPUT holds %q (%v), want the outputs", outputs, err)
	}
	t.Logf("the action with an empty environment:\n%s", firstLines(out, 6))
}

// commentEvent is GitHub's example issue_comment payload, pointed at the
// fake's repository, PR and comment.
func commentEvent(t *testing.T, repoName string, number int, id int64, body string) []byte {
	t.Helper()
	raw, err := os.ReadFile("../../testdata/webhooks/issue_comment/created.on-pull-request.json")
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	p["issue"].(map[string]any)["number"] = number
	comment := p["comment"].(map[string]any)
	comment["id"], comment["body"] = id, body
	comment["user"].(map[string]any)["login"] = "alice"
	owner, name, _ := strings.Cut(repoName, "/")
	repo := p["repository"].(map[string]any)
	repo["full_name"], repo["name"] = repoName, name
	repo["owner"].(map[string]any)["login"] = owner
	out, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o755); err != nil {
		t.Fatal(err)
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
