// Package e2e runs the built action binary the way a runner runs it: env
// vars, an event file, INPUT_* defaults read from action.yml, GITHUB_OUTPUT
// and GITHUB_STEP_SUMMARY files, against the fake GitHub and the scripted
// OpenAI-compatible model.
package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "rmc-e2e")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "rmc")
	build := exec.Command("go", "build", "-o", binary, "../cmd/action")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build the action: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// actionDefaults reads every input's default from action.yml, as the runner
// does when a workflow sets no value.
func actionDefaults(t testing.TB) map[string]string {
	t.Helper()
	raw, err := os.ReadFile("../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^  ([a-z_]+):\n    description: .*\n    required: false\n    default: (.*)$`)
	out := map[string]string{}
	for _, m := range re.FindAllStringSubmatch(string(raw), -1) {
		out[m[1]] = strings.Trim(m[2], `"`)
	}
	if len(out) < 10 {
		t.Fatalf("read only %d inputs from action.yml", len(out))
	}
	return out
}

const (
	repoName = "acme/gateway"
	token    = "ghs_e2e_installation_token"
	botLogin = "github-actions[bot]"
)

// world is one PR on a fake GitHub, with a scripted model.
type world struct {
	t      testing.TB
	gh     *fakegithub.Server
	llm    *fakellm.Server
	pr     int
	inputs map[string]string // overrides of action.yml's defaults
	// passOne is what review pass 1 reports (see scriptReview).
	passOne []finding
	token   string // the github_token the run gets
	// killAfter, when set, SIGKILLs the run as it attempts write
	// killAfter+1: exactly killAfter writes are applied.
	killAfter int
	// termOn, when set, sends SIGTERM (what a cancelled job receives) to
	// the run when it is closed.
	termOn <-chan struct{}
	// env overrides the runner's variables ("NAME=value"; "NAME=" unsets).
	env []string
	// checkout holds more files of the PR's head checkout, by path.
	checkout map[string]string
}

func newWorld(t testing.TB) *world {
	t.Helper()
	return newWorldOn(t, fakegithub.New())
}

// newWorldOn seeds the PR on a given fake GitHub (an Enterprise Server, say).
func newWorldOn(t testing.TB, gh *fakegithub.Server) *world {
	t.Helper()
	t.Cleanup(gh.Close)
	gh.AddToken(token, fakegithub.Identity{Login: botLogin, Kind: fakegithub.TokenInstallation})
	for _, u := range []string{"alice", "bob", "mallory"} {
		gh.AddUser(u, false)
	}
	gh.AddRepo(repoName)
	gh.SetPermission(repoName, "bob", "write") // a collaborator; mallory is an outsider
	pr := gh.AddPR(repoName, fakegithub.PR{Title: "Add a rate limiter", Author: "alice", Body: "Limits clients to 100 req/s."})
	gh.SetFiles(repoName, pr.Number, []fakegithub.File{{Path: "limiter/bucket.go", Status: "added", Additions: 3,
		Patch: "@@ -0,0 +1,3 @@\n+package limiter\n+\n+var buckets = map[string]int{}"}})
	gh.SetDiff(repoName, pr.Number, "diff --git a/limiter/bucket.go b/limiter/bucket.go\nnew file mode 100644\n--- /dev/null\n+++ b/limiter/bucket.go\n@@ -0,0 +1,3 @@\n+package limiter\n+\n+var buckets = map[string]int{}\n")
	model := fakellm.New(fakellm.Config{APIKey: "sk-e2e-test-key"})
	t.Cleanup(model.Close)
	return &world{t: t, gh: gh, llm: model, pr: pr.Number, inputs: map[string]string{}, token: token}
}

// run is one workflow run.
type run struct {
	code    int
	log     string
	outputs map[string]string
	summary string
	// sinceTERM is how long the run took to exit after SIGTERM (termOn);
	// 0 when it got none.
	sinceTERM time.Duration
	// cpu is the process's user and system time; maxRSS its peak resident
	// set, in bytes.
	cpu    time.Duration
	maxRSS int64
}

// commentEvent writes an issue_comment payload, derived from GitHub's real
// example, for a comment on the PR.
func (w *world) commentEvent(id int64, author, body string) (string, []byte) {
	w.t.Helper()
	raw, err := os.ReadFile("../testdata/webhooks/issue_comment/created.on-pull-request.json")
	if err != nil {
		w.t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(raw, &p); err != nil {
		w.t.Fatal(err)
	}
	issue := p["issue"].(map[string]any)
	issue["number"] = w.pr
	comment := p["comment"].(map[string]any)
	comment["id"], comment["body"] = id, body
	comment["user"].(map[string]any)["login"] = author
	repo := p["repository"].(map[string]any)
	repo["full_name"], repo["name"] = repoName, "gateway"
	repo["owner"].(map[string]any)["login"] = "acme"
	out, _ := json.Marshal(p)
	return "issue_comment", out
}

// run executes the binary for an event.
func (w *world) run(name string, payload []byte) run {
	w.t.Helper()
	return w.runWith(nil, name, payload)
}

// runWith is run with extra environment variables (a workflow run's id),
// for runs that overlap: each gets its own, and the world is not written.
func (w *world) runWith(extra []string, name string, payload []byte) run {
	w.t.Helper()
	dir := w.t.TempDir()
	eventPath := filepath.Join(dir, "event.json")
	outPath, summaryPath := filepath.Join(dir, "output"), filepath.Join(dir, "summary.md")
	if err := os.WriteFile(eventPath, payload, 0o600); err != nil {
		w.t.Fatal(err)
	}
	for _, p := range []string{outPath, summaryPath} {
		os.WriteFile(p, nil, 0o600)
	}
	// The checkout: the PR's head, as actions/checkout leaves it (detached).
	pr, _ := w.gh.PR(repoName, w.pr)
	ws := filepath.Join(dir, "workspace")
	os.MkdirAll(filepath.Join(ws, ".git"), 0o755)
	os.MkdirAll(filepath.Join(ws, "limiter"), 0o755)
	os.WriteFile(filepath.Join(ws, ".git", "HEAD"), []byte(pr.HeadSHA+"\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "limiter", "bucket.go"), []byte("package limiter\n"), 0o644)
	for p, content := range w.checkout {
		os.MkdirAll(filepath.Dir(filepath.Join(ws, p)), 0o755)
		os.WriteFile(filepath.Join(ws, p), []byte(content), 0o644)
	}
	inputs := actionDefaults(w.t)
	inputs["github_token"] = w.token // the runner evaluates ${{ github.token }}
	inputs["llm_base_url"] = w.llm.BaseURL()
	inputs["llm_api_key"] = w.llm.APIKey()
	for k, v := range w.inputs {
		inputs[k] = v
	}
	env := []string{
		"GITHUB_ACTIONS=true", "CI=true", "HOME=" + dir, "PATH=/usr/bin:/bin",
		"GITHUB_EVENT_NAME=" + name, "GITHUB_EVENT_PATH=" + eventPath,
		"GITHUB_REPOSITORY=" + repoName, "GITHUB_WORKSPACE=" + ws,
		"GITHUB_OUTPUT=" + outPath, "GITHUB_STEP_SUMMARY=" + summaryPath,
		"RMC_WRITE_INTERVAL=0s", // the fake has no secondary rate limit; pacing is tested in package github
	}
	env = append(env, w.gh.Env()...)
	env = append(env, w.env...) // the last value of a variable wins
	env = append(env, extra...)
	for k, v := range inputs {
		env = append(env, "INPUT_"+strings.ToUpper(k)+"="+v)
	}
	cmd := exec.Command(binary)
	cmd.Env = env
	cmd.Dir = dir
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	// The hook is in place before the run starts: on a loaded machine the
	// run may make several writes before this goroutine runs again.
	started := make(chan struct{})
	if k := int64(w.killAfter); k > 0 {
		var seen atomic.Int64
		w.gh.OnWrite(func(int) bool {
			if seen.Add(1) > k {
				<-started // cmd.Process is set
				cmd.Process.Kill()
				return false
			}
			return true
		})
		defer w.gh.OnWrite(nil)
	}
	if err := cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	close(started)
	termed := make(chan time.Time, 1)
	if w.termOn != nil {
		exited := make(chan struct{})
		defer close(exited)
		go func() {
			select {
			case <-w.termOn:
				termed <- time.Now()
				cmd.Process.Signal(syscall.SIGTERM)
			case <-exited:
			}
		}()
	}
	err := cmd.Wait()
	r := run{log: log.String(), outputs: map[string]string{}}
	if ps := cmd.ProcessState; ps != nil {
		r.cpu = ps.UserTime() + ps.SystemTime()
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			r.maxRSS = int64(ru.Maxrss) * 1024 // Linux reports kilobytes
		}
	}
	select {
	case at := <-termed:
		r.sinceTERM = time.Since(at)
	default:
	}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode() // -1 when killed
	} else if err != nil {
		w.t.Fatal(err)
	}
	outs, _ := os.ReadFile(outPath)
	r.outputs = parseOutputs(string(outs))
	summary, _ := os.ReadFile(summaryPath)
	r.summary = string(summary)
	for _, secret := range []string{w.token, w.llm.APIKey()} {
		for _, line := range strings.Split(r.log, "\n") {
			// ::add-mask:: is how a secret is masked: the runner hides it
			// from then on, and from the log itself.
			if strings.Contains(line, secret) && !strings.HasPrefix(line, "::add-mask::") {
				w.t.Errorf("a secret leaked into the log: %q", line)
			}
		}
		if strings.Contains(r.summary, secret) {
			w.t.Errorf("a secret leaked into the job summary")
		}
	}
	return r
}

// parseOutputs reads GITHUB_OUTPUT's heredoc format (name<<DELIM ... DELIM).
func parseOutputs(s string) map[string]string {
	out := map[string]string{}
	lines := strings.Split(s, "\n")
	for i := 0; i < len(lines); i++ {
		name, delim, ok := strings.Cut(lines[i], "<<")
		if !ok {
			continue
		}
		var val []string
		for i++; i < len(lines) && lines[i] != delim; i++ {
			val = append(val, lines[i])
		}
		out[name] = strings.Join(val, "\n")
	}
	return out
}

// comments returns the PR's conversation comments.
func (w *world) comments() []fakegithub.Comment { return w.gh.IssueComments(repoName, w.pr) }

// botComments returns the bot's conversation comments.
func (w *world) botComments() []fakegithub.Comment {
	var out []fakegithub.Comment
	for _, c := range w.comments() {
		if c.Author == botLogin {
			out = append(out, c)
		}
	}
	return out
}
