package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/review-my-code-bot/rmc/event"
	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
	"github.com/review-my-code-bot/rmc/snapshot"
	"testing"
)

// The world of the gate's model-based test: the fake GitHub with one PR
// (and, once a step opens it, a second PR whose head is the same commit),
// two scripted models (a run talks to one of them, so two overlapping runs'
// requests are told apart), and the oracle's record of each PR.

const (
	modelRepo  = "acme/svc"
	author     = "alice" // the PR's author: write access to nothing
	maintainer = "maria" // write access, not the author
)

// content is one version of a file: text whose every version carries a
// unique marker (so the oracle can see it in what the model was sent), or
// binary.
type content struct {
	text   string
	binary bool
	huge   bool // GitHub sends no diff for it
}

// bug reports whether the content holds a bug the scripted model reports.
func (c content) bug() bool { return strings.Contains(c.text, "BUG in ") }

// mark is the content's marker, "" for none.
func (c content) mark() string { return marker.FindString(c.text) }

type files map[string]content

func (f files) clone() files {
	out := files{}
	for k, v := range f {
		out[k] = v
	}
	return out
}

func (f files) paths() []string {
	var out []string
	for p := range f {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

var (
	marker  = regexp.MustCompile(`V[0-9]+X`)
	bugLine = regexp.MustCompile(`(V[0-9]+X) BUG in (\S+)`)
	// What the verify prompt names: the finding's file and the head.
	verifyPath = regexp.MustCompile(`source="file path">\n(.*?)\n</untrusted>`)
	verifyHead = regexp.MustCompile(`at the head \(([0-9a-f]+)\)`)
	disputeAsk = regexp.MustCompile(`(?s)source="reply by @[^"]+">\n(.*?)\n</untrusted>\s*\nDecide what`)
)

// modelWorld is the fake GitHub, the scripted models and the oracle's
// record of one history.
type modelWorld struct {
	t      testing.TB
	gh     *fakegithub.Server
	models [2]*fakellm.Server
	prs    []*prModel // PR 1, then PR 2 once opened
	base   files
	head   files   // PR 1's head
	heads  []files // every head of PR 1 so far
	sha    int
	next   int // marker counter
	limit  int
	// overlapped counts the runs held at a write while another ran.
	overlapped int
	runs       atomic.Int64 // workflow run ids

	mu    sync.Mutex
	bySHA map[string]files // every commit's files by its short id: the scripted model reads them, threads are placed by them
}

func modelSHA(n int) string { return fmt.Sprintf("%07x%033x", n+1, 0) }

func newModelWorld(t testing.TB, limit int) *modelWorld {
	gh := fakegithub.New()
	t.Cleanup(gh.Close)
	gh.AddToken(benchToken, fakegithub.Identity{Login: "github-actions[bot]", Kind: fakegithub.TokenInstallation})
	gh.AddUser(author, false)
	gh.AddUser(maintainer, false)
	gh.AddRepo(modelRepo)
	gh.SetPermission(modelRepo, maintainer, "write")
	gh.SetTreeLimit(limit)
	gh.SetFilesLimit(limit) // GitHub's two lists, cut as soon
	m := &modelWorld{t: t, gh: gh, base: files{}, limit: limit, bySHA: map[string]files{}}
	for i := range m.models {
		m.models[i] = m.newModel()
	}
	for i := range 4 {
		m.base[fmt.Sprintf("src/f%d.go", i)] = m.text()
	}
	for i := range 10 {
		m.base[fmt.Sprintf("pkg/p%d/x.go", i)] = m.text()
	}
	m.base["assets/logo.png"] = content{text: "PNG\x00" + m.text().text, binary: true}
	baseSHA := strings.Repeat("b", 40)
	m.store(baseSHA, m.base)
	pr := gh.AddPR(modelRepo, fakegithub.PR{Author: author, Title: "Model", HeadSHA: modelSHA(0), BaseSHA: baseSHA, HeadRef: "feature", BaseRef: "main"})
	m.head = m.base.clone()
	m.bySHA[modelSHA(0)[:7]] = m.head.clone()
	m.prs = []*prModel{newPRModel(pr.Number, baseSHA, m.base, m.head, modelSHA(0), m.limit)}
	return m
}

// store puts a commit's whole content on the fake: the config the base
// excludes gen/** with, and every file.
func (m *modelWorld) store(sha string, f files) {
	m.gh.SetContents(modelRepo, sha, ".github/rmc.yml", "ignore_paths: [\"gen/**\"]\nwalkthrough: false\n")
	for p, c := range f {
		m.gh.SetContents(modelRepo, sha, p, c.text)
	}
}

// newModel is one scripted model: a review reports the marked bug of each
// file pass 1 is shown as blocking; a fix is verified by reading the file
// at the head; a dispute is conceded when the reply says CONCEDE.
func (m *modelWorld) newModel() *fakellm.Server {
	model := fakellm.New(fakellm.Config{APIKey: "sk-model"})
	m.t.Cleanup(model.Close)
	model.AddRule(fakellm.Rule{Name: "review", LastUser: "# Task: review pass", Respond: reviewReply})
	model.AddRule(fakellm.Rule{Name: "fixed?", LastUser: "# Task: is this finding fixed?", Respond: m.verifyReply})
	model.AddRule(fakellm.Rule{Name: "dispute", LastUser: "# Task: answer a reply on your finding", Respond: disputeReply})
	model.AddRule(fakellm.Rule{Name: "walkthrough", LastUser: "# Task: walkthrough", Reply: fakellm.Reply{Text: "no walkthrough"}})
	model.AddRule(fakellm.Rule{Name: "intent", LastUser: "Decide what a developer wants", Reply: fakellm.Reply{JSON: map[string]string{"intent": "question"}}})
	model.AddRule(fakellm.Rule{Name: "answer", LastUser: "# Task: answer a question", Reply: fakellm.Reply{Text: "an answer"}})
	return model
}

// reviewReply is the scripted review: pass 1 reports the marked bug of a
// file it is shown as blocking; nothing else.
func reviewReply(r fakellm.Request) fakellm.Reply {
	out := []map[string]any{}
	if strings.Contains(r.LastUser(), "review pass 1 of 3") {
		for _, b := range bugLine.FindAllStringSubmatch(strings.Join(shownLines(r), "\n"), -1) {
			out = append(out, map[string]any{"path": b[2], "line": 1, "start_line": 0, "side": "right", "title": "Marked bug in " + b[2],
				"explanation": "the file says so", "score": 9, "category": "bug", "suggestion": ""})
		}
	}
	return fakellm.Reply{JSON: map[string]any{"findings": out}}
}

// verifyReply reads the file at the head the prompt names: fixed when it
// holds no bug (or is gone).
func (m *modelWorld) verifyReply(r fakellm.Request) fakellm.Reply {
	u := r.LastUser()
	p, h := verifyPath.FindStringSubmatch(u), verifyHead.FindStringSubmatch(u)
	fixed := false
	if p != nil && h != nil {
		m.mu.Lock()
		f, ok := m.bySHA[h[1]]
		m.mu.Unlock()
		fixed = ok && !f[p[1]].bug()
	}
	return fakellm.Reply{JSON: map[string]any{"fixed": fixed, "reason": "read the file"}}
}

// disputeReply concedes a reply that says CONCEDE and maintains any other.
func disputeReply(r fakellm.Request) fakellm.Reply {
	v := map[string]string{"kind": "dispute", "verdict": "maintain", "reply": "The bug is real.", "reason": "The marker is there."}
	if d := disputeAsk.FindStringSubmatch(r.LastUser()); d != nil && strings.Contains(d[1], "CONCEDE") {
		v = map[string]string{"kind": "dispute", "verdict": "concede", "reply": "You are right.", "reason": "Conceded."}
	}
	return fakellm.Reply{JSON: v}
}

func (m *modelWorld) text() content {
	m.next++
	return content{text: fmt.Sprintf("package x // V%dX\n", m.next)}
}

// pick is the path at index i among the head's that want allows, "" when
// there are none.
func (m *modelWorld) pick(i int, want func(string, content) bool) string {
	var ps []string
	for _, p := range m.head.paths() {
		if want == nil || want(p, m.head[p]) {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return ""
	}
	return ps[i%len(ps)]
}

// push makes PR 1's head a new commit on the fake, with the files GitHub
// lists against the base; threads whose line changed go outdated.
func (m *modelWorld) push() {
	m.heads = append(m.heads, m.head.clone())
	m.sha++
	sha := modelSHA(m.sha)
	m.mu.Lock()
	m.bySHA[sha[:7]] = m.head.clone()
	m.mu.Unlock()
	pr := m.prs[0]
	for p, c := range m.head {
		if b, ok := m.base[p]; !ok || b != c {
			m.gh.SetContents(modelRepo, sha, p, c.text)
		}
	}
	m.gh.UpdatePR(modelRepo, pr.num, func(p *fakegithub.PR) { p.HeadSHA = sha })
	m.gh.SetFiles(modelRepo, pr.num, filesList(pr.base, m.head))
	pr.moved(sha, m.head)
	m.outdate(pr)
}

// outdate marks the PR's finding threads outdated when their line no
// longer holds the content it was posted on, as GitHub does.
func (m *modelWorld) outdate(pr *prModel) {
	for _, th := range m.gh.Threads(modelRepo, pr.num) {
		if len(th.Comments) == 0 {
			continue
		}
		m.mu.Lock()
		at := m.bySHA[shortSHA(th.Comments[0].CommitID)][th.Path].mark()
		m.mu.Unlock()
		if gone := pr.head[th.Path].mark() != at; gone != th.Outdated {
			m.gh.SetThreadOutdated(th.ID, gone)
		}
	}
}

// filesList is the PR's files as GitHub lists them: each changed path
// against the base, with a patch unless git cannot make one.
func filesList(base, head files) []fakegithub.File {
	var list []fakegithub.File
	for _, p := range unionPaths(base, head) {
		b, inBase := base[p]
		h, inHead := head[p]
		switch {
		case !inHead:
			list = append(list, fakegithub.File{Path: p, Status: "removed", Deletions: 1, Patch: patchOf(b, content{})})
		case inBase && b == h:
		default:
			f := fakegithub.File{Path: p, Status: "modified"}
			if !inBase {
				f.Status = "added"
			}
			switch {
			case h.huge && !h.binary && !b.binary:
				f.Additions = 50000 // too large: no patch
			case h.binary || b.binary || h.huge:
				// git: "Binary files differ": no patch, no counts
			default:
				f.Patch = patchOf(b, h)
			}
			list = append(list, f)
		}
	}
	return list
}

func patchOf(b, h content) string {
	var lines []string
	old, nu := 0, 0
	if b.text != "" {
		lines, old = append(lines, "-"+strings.TrimSuffix(b.text, "\n")), 1
	}
	if h.text != "" {
		lines, nu = append(lines, "+"+strings.TrimSuffix(h.text, "\n")), 1
	}
	return fmt.Sprintf("@@ -%d,%d +%d,%d @@\n%s", old, old, nu, nu, strings.Join(lines, "\n"))
}

func unionPaths(a, b files) []string {
	seen := map[string]bool{}
	for p := range a {
		seen[p] = true
	}
	for p := range b {
		seen[p] = true
	}
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// runOf is one run of the pipeline: its PR, its event, its inputs and the
// model it talks to.
type runOf struct {
	pr     *prModel
	ev     event.Event
	inputs map[string]string
	model  int
}

// exec runs the pipeline in process for one run.
func (m *modelWorld) exec(r runOf) {
	model := m.models[r.model]
	env := map[string]string{"INPUT_GITHUB_TOKEN": benchToken, "INPUT_LLM_API_KEY": model.APIKey(), "INPUT_LLM_BASE_URL": model.BaseURL(),
		"GITHUB_API_URL": m.gh.URL, "GITHUB_GRAPHQL_URL": m.gh.GraphQLURL(), "RMC_WRITE_INTERVAL": "0s"}
	for k, v := range r.inputs {
		env["INPUT_"+strings.ToUpper(k)] = v
	}
	getenv := envWithDefaults(env)
	log := newLog(Env{Getenv: getenv, Stdout: runLog(), ReadFile: os.ReadFile})
	cfg, err := configFrom(getenv)
	if err != nil {
		m.t.Error(err)
		return
	}
	gh, err := realGitHub.Connect(Connection{Token: cfg.GitHubToken, Getenv: getenv, Warn: func(string) {}})
	if err != nil {
		m.t.Error(err)
		return
	}
	ev := r.ev
	ev.Repo, ev.PRNumber = modelRepo, r.pr.num
	// A workflow run has an id, and the Actions API says whether it is
	// still at work: a run leaves a review to another that is.
	id := m.runs.Add(1)
	m.gh.SetRun(modelRepo, id, "in_progress")
	defer m.gh.SetRun(modelRepo, id, "completed")
	Pipeline{Config: cfg, GitHub: gh, Log: log, RunID: fmt.Sprint(id)}.run(context.Background(), snapshot.Repo{Owner: "acme", Name: "svc"}, ev)
}

// pushRun is the run a push starts on a PR.
func (m *modelWorld) pushRun(pr *prModel, model int) runOf {
	p, _ := m.gh.PR(modelRepo, pr.num)
	return runOf{pr: pr, ev: event.Event{Name: event.PullRequest, Action: "synchronize", HeadSHA: p.HeadSHA, BaseSHA: p.BaseSHA}, model: model}
}

// commentRun is the run a comment on a PR starts.
func (m *modelWorld) commentRun(pr *prModel, who, body string, inputs map[string]string) runOf {
	c := m.gh.AddIssueComment(modelRepo, pr.num, who, body)
	return runOf{pr: pr, ev: event.Event{Name: event.IssueComment, Action: "created", Sender: who,
		Comment: &event.Comment{ID: c.ID, Body: body, Author: who}}, inputs: inputs}
}

// run runs r to its end and has the oracle observe it; it returns the
// reviews the run posted.
func (m *modelWorld) run(r runOf) map[int64]bool {
	w := m.watch(r)
	m.exec(r)
	return w.done(nil)
}

// watching is what the oracle needs to attribute one run's effects: the
// PR's reviews before it, and where its model's requests start.
type watching struct {
	m      *modelWorld
	r      runOf
	before map[int64]bool
	from   int
}

func (m *modelWorld) watch(r runOf) *watching {
	w := &watching{m: m, r: r, before: map[int64]bool{}, from: len(m.models[r.model].Requests())}
	for _, rv := range m.botReviews(r.pr) {
		w.before[rv.ID] = true
	}
	return w
}

// posted are the reviews the PR gained since watch began, less those in skip.
func (w *watching) posted(skip map[int64]bool) []fakegithub.Review {
	var out []fakegithub.Review
	for _, rv := range w.m.botReviews(w.r.pr) {
		if !w.before[rv.ID] && !skip[rv.ID] {
			out = append(out, rv)
		}
	}
	return out
}

// done attributes the run's model requests to the reviews it posted (those
// the PR gained since watch, less another run's in skip) and returns them.
func (w *watching) done(skip map[int64]bool) map[int64]bool {
	reqs := w.m.models[w.r.model].Requests()[w.from:]
	posted := w.posted(skip)
	w.r.pr.observe(reqs, posted)
	out := map[int64]bool{}
	for _, rv := range posted {
		out[rv.ID] = true
	}
	return out
}

func (m *modelWorld) botReviews(pr *prModel) []fakegithub.Review {
	var out []fakegithub.Review
	for _, r := range m.gh.Reviews(modelRepo, pr.num) {
		if strings.Contains(r.Body, `"type": "review-run"`) {
			out = append(out, r)
		}
	}
	return out
}

// findingRoots are the bot's finding comments of a PR whose thread is
// not resolved, oldest first.
func (m *modelWorld) findingRoots(pr *prModel, open bool) []fakegithub.Thread {
	var out []fakegithub.Thread
	for _, th := range m.gh.Threads(modelRepo, pr.num) {
		if len(th.Comments) == 0 || th.Comments[0].InReplyTo != 0 || !strings.Contains(th.Comments[0].Body, "Marked bug") {
			continue
		}
		if !open || !th.Resolved {
			out = append(out, th)
		}
	}
	return out
}

// gate is the merge gate on PR 1's head as the fake GitHub holds it.
func (m *modelWorld) gate() string {
	pr, _ := m.gh.PR(modelRepo, m.prs[0].num)
	state := "none"
	for _, s := range m.gh.Statuses(modelRepo, pr.HeadSHA) {
		if s.Context == GateContext {
			state = s.State
		}
	}
	return state
}

func renamedPath(p string) string { return path.Join("moved", path.Base(p)) }

// runLog is where a run's log goes: nowhere, or stderr with -gate.log (to
// follow one history: run its row alone).
func runLog() io.Writer {
	if *gateLog {
		return os.Stderr
	}
	return io.Discard
}
