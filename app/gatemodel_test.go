package app

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/review-my-code-bot/rmc/event"
	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// The model-based test of the merge gate: random histories of a pull
// request, each step applied to the fake GitHub and followed by a run of
// the pipeline against the scripted model; after every run the gate on the
// head is checked against an oracle that knows nothing of trees, blob ids
// or the ledger. It computes, from the files themselves and from what the
// model was sent:
//
//	green ⇔ the change set is readable (no tree the walk must read is past
//	        GitHub's limit) ∧ every changed file of the head is excluded by
//	        the base (gen/**) or its content was shown to all three passes of
//	        one posted, untampered review (or is binary and such a review saw
//	        it) ∧ no blocking finding was ever posted (nothing here closes one)
//	        ∧ no one edited a bot review (the state ledger is whole: nothing
//	        here clears a cut).
//
//	go test ./app -run TestGateModel -gate.seed 7 -gate.n 5000
var (
	gateSeed = flag.Int64("gate.seed", 1, "seed of the gate's model-based test")
	gateN    = flag.Int("gate.n", 0, "histories the gate's model-based test runs (0: 1,000, or 100 with -short)")
)

// stepKind is one kind of thing that happens to a PR.
type stepKind int

const (
	stepEdit         stepKind = iota // a push that edits a file
	stepAdd                          // a push that adds a file in some directory
	stepDelete                       // a push that deletes a file
	stepRename                       // a push that renames a file, same content
	stepRevert                       // a push that reverts a file to an earlier content
	stepForceBack                    // a force-push back to an earlier head
	stepBinary                       // a push that adds or replaces a file with binary content
	stepTextForBin                   // a push that replaces a binary file with text (GitHub: no patch)
	stepHuge                         // a push of a text file too large for a diff
	stepBigDir                       // a push of a new directory past the tree limit
	stepWideDir                      // a push into a directory that holds more entries than a tree answer
	stepIgnored                      // a push of a file under gen/, which the base excludes
	stepBug                          // a push of a file with a bug the model reports as blocking
	stepCapped                       // a comment run whose review the token ceiling cuts short
	stepComment                      // a comment run (owed reviews resume)
	stepCancelled                    // a push whose run never happened
	stepTamper                       // a person edits the bot's latest review body
	stepDeleteThread                 // a person deletes a finding's comment
	stepWideEdit                     // a push that edits a file in each of many directories
	numSteps
)

var stepNames = [...]string{"edit", "add", "delete", "rename", "revert", "force-back", "binary", "text-for-binary", "huge", "big-dir",
	"wide-dir", "ignored", "bug", "capped-run", "comment-run", "cancelled-push", "tamper-review", "delete-thread", "wide-edit"}

func (k stepKind) String() string { return stepNames[k] }

type step struct {
	kind stepKind
	a, b int // the step's random choices
}

func (s step) String() string { return fmt.Sprintf("%s(%d,%d)", s.kind, s.a, s.b) }

// history is one generated history: the tree limit and its steps.
type history struct {
	limit int // entries per tree answer
	steps []step
}

func (h history) String() string {
	var parts []string
	for _, s := range h.steps {
		parts = append(parts, s.String())
	}
	return fmt.Sprintf("limit %d: %s", h.limit, strings.Join(parts, " → "))
}

func genHistory(rng *rand.Rand) history {
	h := history{limit: []int{0, 0, 8}[rng.Intn(3)]}
	for range 2 + rng.Intn(7) {
		k := stepKind(rng.Intn(int(numSteps)))
		if k == stepBigDir || k == stepWideDir || k == stepBug {
			k = stepKind(rng.Intn(int(numSteps))) // rarer
		}
		h.steps = append(h.steps, step{k, rng.Intn(1000), rng.Intn(1000)})
	}
	return h
}

// content is one version of a file: text whose every version carries a
// unique marker (so the oracle can see it in what the model was sent), or
// binary.
type content struct {
	text   string
	binary bool
	huge   bool // GitHub sends no diff for it
}

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

// modelWorld is the fake GitHub, the scripted model and the oracle's
// record of one history.
type modelWorld struct {
	t       testing.TB
	w       *benchWorld
	base    files
	head    files
	heads   []files // every head so far
	sha     int
	next    int // marker counter
	limit   int
	covered map[string]bool // contents shown whole in one counted review
	binSeen map[string]bool // binary contents a counted review had in its head
	reviews map[int64]reviewSeen
	posted  bool // a blocking finding was posted
	cut     bool // someone edited a bot review: the state ledger is cut
	ran     int  // model requests already attributed to a run
}

// reviewSeen is what one posted review was shown, for the oracle.
type reviewSeen struct{ shown, binary []string }

var marker = regexp.MustCompile(`V[0-9]+X`)

func newModelWorld(t testing.TB, limit int) *modelWorld {
	gh := fakegithub.New()
	t.Cleanup(gh.Close)
	gh.AddToken(benchToken, fakegithub.Identity{Login: "github-actions[bot]", Kind: fakegithub.TokenInstallation})
	gh.AddUser("alice", false)
	gh.AddUser("maria", false)
	gh.AddRepo("acme/svc")
	gh.SetPermission("acme/svc", "maria", "write")
	gh.SetTreeLimit(limit)
	pr := gh.AddPR("acme/svc", fakegithub.PR{Author: "alice", Title: "Model", HeadSHA: modelSHA(0), BaseSHA: strings.Repeat("b", 40)})
	gh.SetContents("acme/svc", pr.BaseSHA, ".github/rmc.yml", "ignore_paths: [\"gen/**\"]\nwalkthrough: false\n")
	model := fakellm.New(fakellm.Config{APIKey: "sk-model"})
	t.Cleanup(model.Close)
	model.AddRule(fakellm.Rule{Name: "review", LastUser: "# Task: review pass", Respond: reviewReply})
	model.AddRule(fakellm.Rule{Name: "fixed?", LastUser: "# Task: is this finding fixed?", Reply: fakellm.Reply{JSON: map[string]any{"fixed": false, "reason": "still there"}}})
	model.AddRule(fakellm.Rule{Name: "walkthrough", LastUser: "# Task: walkthrough", Reply: fakellm.Reply{Text: "no walkthrough"}})
	m := &modelWorld{t: t, w: &benchWorld{gh: gh, model: model, repo: snapshot.Repo{Owner: "acme", Name: "svc"}, pr: pr.Number},
		base: files{}, head: files{}, limit: limit, covered: map[string]bool{}, binSeen: map[string]bool{}, reviews: map[int64]reviewSeen{}}
	for i := range 4 {
		m.base[fmt.Sprintf("src/f%d.go", i)] = m.text()
	}
	for i := range 10 {
		m.base[fmt.Sprintf("pkg/p%d/x.go", i)] = m.text()
	}
	m.base["assets/logo.png"] = content{text: "PNG\x00" + m.text().text, binary: true}
	for p, c := range m.base {
		gh.SetContents("acme/svc", pr.BaseSHA, p, c.text)
	}
	m.head = m.base.clone()
	return m
}

var bugLine = regexp.MustCompile(`BUG in (\S+)`)

// reviewReply is the scripted model: pass 1 reports the marked bug of a
// file it is shown as blocking; nothing else.
func reviewReply(r fakellm.Request) fakellm.Reply {
	out := []map[string]any{}
	if u := r.LastUser(); strings.Contains(u, "review pass 1 of 3") {
		for _, m := range bugLine.FindAllStringSubmatch(u, -1) {
			out = append(out, map[string]any{"path": m[1], "line": 1, "start_line": 0, "side": "right", "title": "Marked bug in " + m[1],
				"explanation": "the file says so", "score": 9, "category": "bug", "suggestion": ""})
		}
	}
	return fakellm.Reply{JSON: map[string]any{"findings": out}}
}

func modelSHA(n int) string { return fmt.Sprintf("%040x", n+1) }

func (m *modelWorld) text() content {
	m.next++
	return content{text: fmt.Sprintf("package x // V%dX\n", m.next)}
}

// pick is the path at index i among the head's, "" when there are none.
func (m *modelWorld) pick(i int, want func(content) bool) string {
	var ps []string
	for _, p := range m.head.paths() {
		if want == nil || want(m.head[p]) {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return ""
	}
	return ps[i%len(ps)]
}

// apply changes the head as the step says; it reports whether a push
// happened.
func (m *modelWorld) apply(s step) bool {
	isText := func(c content) bool { return !c.binary }
	switch s.kind {
	case stepEdit:
		if p := m.pick(s.a, isText); p != "" {
			m.head[p] = m.text()
		}
	case stepAdd:
		m.head[fmt.Sprintf("%s/n%d.go", []string{"src", "lib", "lib/deep"}[s.b%3], s.a)] = m.text()
	case stepDelete:
		if p := m.pick(s.a, nil); p != "" {
			delete(m.head, p)
		}
	case stepRename:
		if p := m.pick(s.a, nil); p != "" {
			m.head[path.Join("moved", path.Base(p))] = m.head[p]
			delete(m.head, p)
		}
	case stepRevert:
		if p := m.pick(s.a, nil); p != "" && len(m.heads) > 0 {
			if old, ok := m.heads[s.b%len(m.heads)][p]; ok {
				m.head[p] = old
			}
		}
	case stepForceBack:
		if len(m.heads) > 0 {
			m.head = m.heads[s.a%len(m.heads)].clone()
		}
	case stepBinary:
		m.head[fmt.Sprintf("assets/b%d.bin", s.a%3)] = content{text: "BIN\x00" + m.text().text, binary: true}
	case stepTextForBin:
		if p := m.pick(s.a, func(c content) bool { return c.binary }); p != "" {
			m.head[p] = content{text: m.text().text, huge: true} // GitHub: "Binary files differ", no patch
		}
	case stepHuge:
		c := m.text()
		c.huge = true
		m.head[fmt.Sprintf("data/h%d.sql", s.a%3)] = c
	case stepBigDir:
		for i := range 12 {
			m.head[fmt.Sprintf("big%d/d%d/f%d.go", s.a%2, i%3, i)] = m.text()
		}
	case stepWideDir:
		for i := range 10 {
			m.head[fmt.Sprintf("wide/w%d_%d.go", s.a%2, i)] = m.text()
		}
	case stepWideEdit:
		for _, p := range m.head.paths() {
			if strings.HasPrefix(p, "pkg/") && (s.a+len(p))%5 != 0 {
				m.head[p] = m.text()
			}
		}
	case stepIgnored:
		m.head[fmt.Sprintf("gen/g%d.go", s.a%3)] = m.text()
	case stepBug:
		p := fmt.Sprintf("src/bug%d.go", s.a%2)
		c := m.text()
		c.text = strings.TrimSuffix(c.text, "\n") + " BUG in " + p + "\n"
		m.head[p] = c
	case stepCapped, stepComment, stepTamper, stepDeleteThread:
		return false
	case stepCancelled:
		if p := m.pick(s.a, isText); p != "" {
			m.head[p] = m.text()
		}
	case numSteps:
	}
	m.push()
	return true
}

// push makes the head a new commit on the fake: its contents, and the PR's
// files as GitHub lists them against the base.
func (m *modelWorld) push() {
	m.heads = append(m.heads, m.head.clone())
	m.sha++
	sha := modelSHA(m.sha)
	gh := m.w.gh
	var list []fakegithub.File
	for _, p := range unionPaths(m.base, m.head) {
		b, inBase := m.base[p]
		h, inHead := m.head[p]
		switch {
		case !inHead:
			list = append(list, fakegithub.File{Path: p, Status: "removed", Deletions: 1, Patch: patchOf(b, content{})})
		case inBase && b == h:
		default:
			gh.SetContents("acme/svc", sha, p, h.text)
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
	gh.UpdatePR("acme/svc", m.w.pr, func(p *fakegithub.PR) { p.HeadSHA = sha })
	gh.SetFiles("acme/svc", m.w.pr, list)
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

// runPipeline runs the pipeline for an event with extra inputs.
func (m *modelWorld) runPipeline(ev event.Event, inputs map[string]string) {
	env := map[string]string{"INPUT_GITHUB_TOKEN": benchToken, "INPUT_LLM_API_KEY": m.w.model.APIKey(), "INPUT_LLM_BASE_URL": m.w.model.BaseURL(),
		"GITHUB_API_URL": m.w.gh.URL, "GITHUB_GRAPHQL_URL": m.w.gh.GraphQLURL(), "RMC_WRITE_INTERVAL": "0s"}
	for k, v := range inputs {
		env["INPUT_"+strings.ToUpper(k)] = v
	}
	getenv := envWithDefaults(env)
	log := newLog(Env{Getenv: getenv, Stdout: io.Discard, ReadFile: os.ReadFile})
	cfg, err := configFrom(getenv)
	if err != nil {
		m.t.Fatal(err)
	}
	gh, err := realGitHub.Connect(Connection{Token: cfg.GitHubToken, Getenv: getenv, Warn: func(string) {}})
	if err != nil {
		m.t.Fatal(err)
	}
	ev.Repo, ev.PRNumber = m.w.repo.String(), m.w.pr
	Pipeline{Config: cfg, GitHub: gh, Log: log}.run(context.Background(), m.w.repo, ev)
}

// step applies one step and the run that follows it (none for a cancelled
// push), and records what the run showed the model.
func (m *modelWorld) step(s step) (ran bool) {
	pushed := m.apply(s)
	reviewsBefore := m.botReviews()
	switch {
	case s.kind == stepCancelled:
		return false
	case pushed:
		pr, _ := m.w.gh.PR("acme/svc", m.w.pr)
		m.runPipeline(event.Event{Name: event.PullRequest, Action: "synchronize", HeadSHA: pr.HeadSHA, BaseSHA: pr.BaseSHA}, nil)
	case s.kind == stepCapped:
		m.comment(map[string]string{"max_run_tokens": fmt.Sprint(40 + s.b%200)})
	case s.kind == stepTamper:
		if rv := m.botReviews(); len(rv) > 0 {
			last := rv[len(rv)-1]
			m.w.gh.EditReview(last.ID, "alice", last.Body+"\n")
			delete(m.reviews, last.ID)
			m.cut = true // the state ledger is cut: nothing here clears it
		}
		m.comment(nil)
	case s.kind == stepDeleteThread:
		for _, c := range m.w.gh.ReviewComments("acme/svc", m.w.pr) {
			if c.InReplyTo == 0 && strings.Contains(c.Body, "Marked bug") {
				m.w.gh.DeleteReviewComment(c.ID)
				break
			}
		}
		m.comment(nil)
	default:
		m.comment(nil)
	}
	m.observe(reviewsBefore)
	return true
}

func (m *modelWorld) comment(inputs map[string]string) {
	c := m.w.gh.AddIssueComment("acme/svc", m.w.pr, "alice", "thanks")
	_ = c
	m.runPipeline(event.Event{Name: event.IssueComment, Action: "created"}, inputs)
}

func (m *modelWorld) botReviews() []fakegithub.Review {
	var out []fakegithub.Review
	for _, r := range m.w.gh.Reviews("acme/svc", m.w.pr) {
		if strings.Contains(r.Body, `"type": "review-run"`) {
			out = append(out, r)
		}
	}
	return out
}

// observe attributes the model's requests since the last run to this run:
// a content is shown when its marker reached all three passes. A review
// the run posted counts it; the binary contents among the changed files
// count as seen by that review.
func (m *modelWorld) observe(before []fakegithub.Review) {
	reqs := m.w.model.Requests()
	passes := [3]map[string]bool{{}, {}, {}}
	for _, r := range reqs[m.ran:] {
		u := r.LastUser()
		for i := range passes {
			if strings.Contains(u, fmt.Sprintf("# Task: review pass %d of 3", i+1)) {
				for _, mk := range shownMarkers(r) {
					passes[i][mk] = true
				}
			}
		}
	}
	m.ran = len(reqs)
	after := m.botReviews()
	if len(after) > len(before) {
		var seen reviewSeen
		for mk := range passes[0] {
			if passes[1][mk] && passes[2][mk] {
				seen.shown = append(seen.shown, mk)
			}
		}
		for _, f := range m.w.gh.Files("acme/svc", m.w.pr) {
			if c, ok := m.head[f.Path]; ok && c.binary {
				seen.binary = append(seen.binary, c.text)
			}
		}
		m.reviews[after[len(after)-1].ID] = seen
	}
	for _, c := range m.w.gh.ReviewComments("acme/svc", m.w.pr) {
		if strings.Contains(c.Body, "Marked bug") {
			m.posted = true
		}
	}
}

// shownMarkers are the markers on the new side of the diff chunk a
// request carries (the "+" lines of "# The diff under review").
func shownMarkers(r fakellm.Request) []string {
	var body struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		return nil
	}
	var out []string
	for _, msg := range body.Messages {
		var text string
		var parts []struct {
			Text string `json:"text"`
		}
		if json.Unmarshal(msg.Content, &text) != nil && json.Unmarshal(msg.Content, &parts) == nil {
			for _, p := range parts {
				text += p.Text
			}
		}
		if msg.Role != "user" || !strings.Contains(text, "# The diff under review") {
			continue
		}
		for _, line := range strings.Split(text, "\n") {
			// A new-side line: its number (when shown), then "+".
			if strings.HasPrefix(strings.TrimLeft(line, "0123456789"), "+") {
				out = append(out, marker.FindAllString(line, -1)...)
			}
		}
	}
	return out
}

// oracle is the gate the invariant asks for: "success", or "failure" when
// a blocking finding was posted, else "pending".
func (m *modelWorld) oracle() string {
	if m.posted || m.cut {
		return "failure"
	}
	shown, binary := map[string]bool{}, map[string]bool{}
	for _, r := range m.reviews {
		for _, s := range r.shown {
			shown[s] = true
		}
		for _, b := range r.binary {
			binary[b] = true
		}
	}
	if !m.readable() {
		return "pending"
	}
	for _, p := range m.head.paths() {
		h := m.head[p]
		if b, ok := m.base[p]; ok && b == h || strings.HasPrefix(p, "gen/") {
			continue
		}
		if h.binary && binary[h.text] || !h.binary && !h.huge && shown[marker.FindString(h.text)] {
			continue
		}
		return "pending"
	}
	return "success"
}

// readable says whether the change set can be read within the tree limit:
// every directory the walk reads one level of holds at most limit entries.
// A directory both sides hold and whose files differ is read on both
// sides; one only the head holds is read whole unless it is past the
// limit, then one level at a time.
func (m *modelWorld) readable() bool {
	if m.limit == 0 {
		return true
	}
	var walk func(dir string, inBase bool) bool
	walk = func(dir string, inBase bool) bool {
		if !inBase && entriesUnder(m.head, dir) <= m.limit {
			return true
		}
		if children(m.head, dir) > m.limit || inBase && children(m.base, dir) > m.limit {
			return false
		}
		var changed []string
		for _, sub := range subdirs(m.head, dir) {
			if !hasDir(m.base, sub) || !sameUnder(m.base, m.head, sub) {
				changed = append(changed, sub)
			}
		}
		if inBase && len(changed) > 8 && entriesUnder(m.base, dir) <= m.limit && entriesUnder(m.head, dir) <= m.limit {
			return true // read whole on both sides
		}
		for _, sub := range changed {
			if !walk(sub, hasDir(m.base, sub)) {
				return false
			}
		}
		return true
	}
	return walk("", true)
}

func under(p, dir string) (rest string, ok bool) {
	if dir == "" {
		return p, true
	}
	return strings.CutPrefix(p, dir+"/")
}

// children counts the entries of one level of dir: files and directories.
func children(f files, dir string) int {
	seen := map[string]bool{}
	for p := range f {
		if rest, ok := under(p, dir); ok {
			name, _, _ := strings.Cut(rest, "/")
			seen[name] = true
		}
	}
	return len(seen)
}

// entriesUnder counts everything a recursive read of dir lists.
func entriesUnder(f files, dir string) int {
	seen := map[string]bool{}
	for p := range f {
		if rest, ok := under(p, dir); ok {
			parts := strings.Split(rest, "/")
			for i := 1; i <= len(parts); i++ {
				seen[strings.Join(parts[:i], "/")] = true
			}
		}
	}
	return len(seen)
}

func subdirs(f files, dir string) []string {
	seen := map[string]bool{}
	for p := range f {
		if rest, ok := under(p, dir); ok {
			if name, _, isDir := strings.Cut(rest, "/"); isDir {
				seen[path.Join(dir, name)] = true
			}
		}
	}
	var out []string
	for d := range seen {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

func hasDir(f files, dir string) bool {
	for p := range f {
		if _, ok := under(p, dir); ok {
			return true
		}
	}
	return false
}

func sameUnder(a, b files, dir string) bool {
	for _, f := range []files{a, b} {
		for p := range f {
			if _, ok := under(p, dir); ok && a[p] != b[p] {
				return false
			}
		}
	}
	return true
}

// gate is the merge gate on the head as the fake GitHub holds it.
func (m *modelWorld) gate() string {
	pr, _ := m.w.gh.PR("acme/svc", m.w.pr)
	state := "none"
	for _, s := range m.w.gh.Statuses("acme/svc", pr.HeadSHA) {
		if s.Context == GateContext {
			state = s.State
		}
	}
	return state
}

// replay runs a history and returns the first step after which the gate
// and the oracle disagree (-1 when none), and what each said.
func replay(t testing.TB, h history) (at int, got, want string) {
	m := newModelWorld(t, h.limit)
	for i, s := range h.steps {
		if !m.step(s) {
			continue
		}
		if got, want := m.gate(), m.oracle(); got != want {
			return i, got, want
		}
	}
	return -1, "", ""
}

// shrink removes steps from a failing history while it still fails.
func shrink(t testing.TB, h history) history {
	for changed := true; changed; {
		changed = false
		for i := range h.steps {
			c := history{limit: h.limit, steps: append(append([]step(nil), h.steps[:i]...), h.steps[i+1:]...)}
			if at, _, _ := replay(t, c); at >= 0 {
				h, changed = c, true
				break
			}
		}
	}
	return h
}

// The gate's invariant over random histories (see the comment at the top).
func TestGateModel(t *testing.T) {
	t.Parallel()
	n := *gateN
	switch {
	case n > 0:
	case testing.Short():
		n = 100
	default:
		n = 1000
	}
	rng := rand.New(rand.NewSource(*gateSeed))
	kinds := map[stepKind]int{}
	hs := make([]history, n)
	for i := range hs {
		hs[i] = genHistory(rng)
		for _, s := range hs[i].steps {
			kinds[s.kind]++
		}
	}
	// Histories are independent worlds: they run on every core, and the
	// first failure (in history order) is shrunk and reported.
	fails := make([]int, n)
	var wg sync.WaitGroup
	next := atomic.Int64{}
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				fails[i], _, _ = replay(t, hs[i])
			}
		}()
	}
	wg.Wait()
	for i, at := range fails {
		if at < 0 {
			continue
		}
		_, got, want := replay(t, hs[i])
		min := shrink(t, hs[i])
		_, got2, want2 := replay(t, min)
		t.Fatalf("history %d (seed %d) broke the invariant at step %d: gate %s, oracle %s\n  history: %s\n  shrunk:  %s (gate %s, oracle %s)",
			i, *gateSeed, at, got, want, hs[i], min, got2, want2)
	}
	var parts []string
	for k := range numSteps {
		parts = append(parts, fmt.Sprintf("%s %d", k, kinds[k]))
	}
	t.Logf("%d histories, seed %d; steps: %s", n, *gateSeed, strings.Join(parts, ", "))
}
