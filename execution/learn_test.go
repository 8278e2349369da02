package execution

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

func TestLearningFrom(t *testing.T) {
	t.Parallel()
	now := func() time.Time { return time.Unix(0, 0) }
	bob := &snapshot.Actor{Login: "bob"}
	base := func() state.Finding {
		return state.Finding{Block: rmcoc.Finding{ID: "f1", Title: "Magic number", Path: "svc/a/b.go"},
			Thread: snapshot.Thread{Comments: []snapshot.ReviewComment{{Comment: snapshot.Comment{URL: "https://x/pull/1#r1"}}}}}
	}
	tests := map[string]struct {
		edit       func(f *state.Finding)
		wantOrigin string // "" = no learning
	}{
		"open": {edit: func(*state.Finding) {}},
		"conceded": {edit: func(f *state.Finding) {
			f.LastResolution = &rmcoc.DisputeResolution{Resolution: rmcoc.ResolutionConcession, Reason: "fine here"}
		}, wantOrigin: rmcoc.LearnedConcession},
		"maintainer":                  {edit: func(f *state.Finding) { f.ResolvedBy = bob }, wantOrigin: rmcoc.LearnedResolution},
		"maintainer on outdated code": {edit: func(f *state.Finding) { f.ResolvedBy, f.Thread.IsOutdated = bob, true }},
		"fixed":                       {edit: func(f *state.Finding) { f.LastResolution = &rmcoc.DisputeResolution{Resolution: rmcoc.ResolutionFixed} }},
		"maintained": {edit: func(f *state.Finding) {
			f.LastResolution = &rmcoc.DisputeResolution{Resolution: rmcoc.ResolutionMaintained}
		}},
		"no id": {edit: func(f *state.Finding) { f.Block.ID, f.ResolvedBy = "", bob }},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := base()
			tc.edit(&f)
			l, ok := learningFrom(f, 7, now)
			if ok != (tc.wantOrigin != "") || (ok && l.Origin != tc.wantOrigin) {
				t.Fatalf("learning %+v, ok %v", l, ok)
			}
			if ok && (l.PathGlob != "svc/a/**" || l.Fingerprint != review.PatternFingerprint("magic  NUMBER") || l.Source != "https://x/pull/1#r1" || l.PR != 7 || l.ID != learningID("7/f1")) {
				t.Errorf("learning %+v", l)
			}
		})
	}
	if dirGlob("main.go") != "**" || dirGlob("a/b.go") != "a/**" {
		t.Errorf("dirGlob")
	}
}

// TestApplicableSuppressesOnlyConfirmed: every learning on a changed file
// reaches the prompt; only one a maintainer confirmed, or a remember rule
// (its maintainer's own), carries who vouched for it, which is what lets
// the review suppress a finding.
func TestApplicableSuppressesOnlyConfirmed(t *testing.T) {
	t.Parallel()
	ls := state.Learnings{URLs: map[string]string{}, Confirmed: map[string]string{"L-b": "bob"}, Active: []rmcoc.Learning{
		{ID: "L-a", Fingerprint: "fa", Title: "Magic number", Reason: "fine here", PathGlob: "svc/**", Origin: rmcoc.LearnedConcession},
		{ID: "L-b", Fingerprint: "fb", Title: "Unsynchronized map", Reason: "mu guards it", PathGlob: "svc/**", Origin: rmcoc.LearnedConcession},
		{ID: "L-c", Fingerprint: "fc", Title: "Name", Reason: "ok", PathGlob: "svc/**", Origin: rmcoc.LearnedResolution, By: "carol"},
		{ID: "L-d", Reason: "tabs", PathGlob: "**", Origin: rmcoc.LearnedRemember, By: "dan"},
		{ID: "L-e", Fingerprint: "fe", Title: "Elsewhere", PathGlob: "other/**", Origin: rmcoc.LearnedConcession},
	}}
	got, prompt := Applicable(ls, []string{"svc/a.go"})
	var by []string
	for _, l := range got {
		by = append(by, l.ID+"="+l.ConfirmedBy)
	}
	if strings.Join(by, " ") != "L-a= L-b=bob L-c= L-d=dan" {
		t.Errorf("applicable: %v", by)
	}
	for _, want := range []string{"- L-a (files svc/**): reported \"Magic number\"; judged wrong on one pull request, not confirmed by a maintainer for others: fine here. A hint only",
		"- L-b (files svc/**): reported \"Unsynchronized map\"; judged wrong here, and a maintainer confirmed it: mu guards it. If you find this again, report it under exactly this title",
		"- L-d (files **): tabs"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, prompt)
		}
	}
}

// TestSuppressedList: each suppressed finding is listed with its learning's
// id and who confirmed it, a blocking one marked, and the note counts the
// blocking ones.
func TestSuppressedList(t *testing.T) {
	t.Parallel()
	sup := []review.Suppressed{
		{Finding: review.Finding{Path: "svc/a.go", Line: 3, Title: "Unsynchronized map", Score: 9, Blocking: true}, Learning: review.Learned{ID: "L-b", URL: "https://x/issues/9#c1", ConfirmedBy: "bob"}},
		{Finding: review.Finding{Path: "svc/b.go", Line: 4, Title: "Magic number", Score: 6}, Learning: review.Learned{ID: "L-b", URL: "https://x/issues/9#c1", ConfirmedBy: "bob"}},
	}
	if note := suppressedNote(sup); note != "2 findings suppressed by learnings ([L-b](https://x/issues/9#c1)), 1 of them blocking" {
		t.Errorf("note %q", note)
	}
	list := testEnv(&testLog{}).suppressedList(sup)
	for _, want := range []string{"Suppressed by learnings (2)", "- `svc/a.go:3` **Unsynchronized map** (🔴 blocking, score 9): suppressed by [`L-b`](https://x/issues/9#c1)", "confirmed by `bob`",
		"- `svc/b.go:4` **Magic number** (non-blocking, score 6)"} {
		if !strings.Contains(list, want) {
			t.Errorf("the list lacks %q:\n%s", want, list)
		}
	}
}

// sharedIssue is one learnings issue on a fake GitHub that several runs'
// Learners write and read: comments get increasing ids, as on GitHub.
// beforeRead, when set, runs before a fresh read (to interleave runs).
type sharedIssue struct {
	GitHub
	mu         sync.Mutex
	comments   []snapshot.Comment
	next       int64
	roles      map[string]string
	asked      map[string]int
	beforeRead map[string]func() // by the run's name
	created    chan int          // the number of comments after each create
}

// runOf is one run's view of the shared issue.
type runOf struct {
	*sharedIssue
	name string
}

func (g runOf) CreateComment(_ context.Context, _ snapshot.Repo, _ int, body string) (snapshot.Comment, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.next++
	c := snapshot.Comment{ID: 100 + g.next, Author: testBot, Body: body, URL: fmt.Sprintf("https://github.com/o/r/issues/9#issuecomment-%d", 100+g.next)}
	g.comments = append(g.comments, c)
	if g.created != nil {
		g.created <- len(g.comments)
	}
	return c, nil
}

func (g runOf) EditComment(_ context.Context, _ snapshot.Repo, id int64, body string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	for i := range g.comments {
		if g.comments[i].ID == id {
			g.comments[i].Body = body
			return nil
		}
	}
	return fmt.Errorf("no comment %d", id)
}

func (g runOf) CreateLearningsIssue(context.Context, snapshot.Repo, string) (int, string, error) {
	return 9, "https://github.com/o/r/issues/9", nil
}

func (g runOf) Permission(_ context.Context, _ snapshot.Repo, login string) (snapshot.Role, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.asked[login]++
	return snapshot.Role(g.roles[login]), nil
}

func (g runOf) ReadLearnings(context.Context, snapshot.Repo) (snapshot.LearningsIssue, error) {
	if f := g.beforeRead[g.name]; f != nil {
		f()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return snapshot.LearningsIssue{Number: 9, URL: "https://github.com/o/r/issues/9", Author: testBot, Comments: slices.Clone(g.comments)}, nil
}

func (g runOf) learner(t *testing.T) *Learner {
	t.Helper()
	rig := newTestExecutor(&recorder{}, &testLog{})
	rig.GitHub = g
	x, err := NewLearner(rig.Config, g)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// derived is the shared issue as the next run reads it.
func (g *sharedIssue) derived() state.Learnings {
	li, _ := runOf{sharedIssue: g}.ReadLearnings(context.Background(), snapshot.Repo{})
	return state.DeriveLearnings(li, state.Options{Bot: testBot, Handles: []string{"@rmc-bot"}})
}

// TestCommandClaimedOnceAcrossOverlappingRuns: two runs read the same
// pending confirm and refusal; both answer before either reads the issue
// again. The earliest answer to each command counts; the later run
// withdraws its own, so each command is carried out once, and the person
// refused is told once.
func TestCommandClaimedOnceAcrossOverlappingRuns(t *testing.T) {
	t.Parallel()
	learned := rmcoc.Learning{ID: "L-abc123", Fingerprint: "f", Title: "Magic number", PathGlob: "svc/**", Origin: rmcoc.LearnedConcession}
	g := &sharedIssue{roles: map[string]string{"bob": "write", "rita": "read"}, asked: map[string]int{}, beforeRead: map[string]func(){}, created: make(chan int)}
	g.comments = []snapshot.Comment{
		{ID: 1, Author: testBot, Body: "📚\n\n" + rmcoc.Render(learned)},
		{ID: 2, Author: snapshot.Actor{Login: "bob"}, Association: "COLLABORATOR", Body: "@rmc-bot confirm L-abc123"},
		{ID: 3, Author: snapshot.Actor{Login: "rita"}, Association: "COLLABORATOR", Body: "@rmc-bot forget L-abc123"},
	}
	start := g.derived()
	if len(start.Commands) != 2 {
		t.Fatalf("pending commands %+v", start.Commands)
	}
	a, b := runOf{g, "a"}.learner(t), runOf{g, "b"}.learner(t)
	lsA, lsB := start, start
	lsA.Confirmed, lsB.Confirmed = map[string]string{}, map[string]string{}
	lsA.Told, lsB.Told = map[string]bool{}, map[string]bool{}
	// Run a answers both commands, then waits, before its fresh read, for
	// run b to answer them too (b's fresh read sees a's answers first).
	bDone := make(chan struct{})
	g.beforeRead["a"] = func() { <-bDone }
	aDone := make(chan []string)
	go func() { aDone <- a.Commands(t.Context(), &lsA) }()
	for n := range g.created {
		if n == 5 {
			break
		}
	}
	g.mu.Lock()
	g.created = nil
	g.mu.Unlock()
	notesB := b.Commands(t.Context(), &lsB)
	close(bDone)
	notesA := <-aDone

	if len(g.comments) != 7 {
		t.Fatalf("%d comments, want 3 + 2 answers per run", len(g.comments))
	}
	for _, c := range g.comments[5:] {
		if !strings.HasPrefix(c.Body, "↩️ Withdrawn: another run answered this command first") || len(rmcoc.ParseTrusted(c.Body).Blocks) != 0 {
			t.Errorf("run b's answer %d is not withdrawn:\n%s", c.ID, c.Body)
		}
	}
	if strings.Count(strings.Join(notesB, "\n"), "withdrew") != 2 || strings.Contains(strings.Join(notesA, "\n"), "withdrew") {
		t.Errorf("notes a %q, b %q", notesA, notesB)
	}
	end := g.derived()
	if end.Confirmed["L-abc123"] != "bob" || !end.Told["rita"] || len(end.Commands) != 0 || len(end.Active) != 1 {
		t.Errorf("after both runs: confirmed %v, told %v, pending %+v, active %+v", end.Confirmed, end.Told, end.Commands, end.Active)
	}
	for _, ls := range []state.Learnings{lsA, lsB} {
		if ls.Confirmed["L-abc123"] != "bob" || len(ls.Active) != 1 {
			t.Errorf("a run's learnings after settling: %+v", ls)
		}
	}
	// The next run has nothing to do.
	writes := len(g.comments)
	next := g.derived()
	if notes := (runOf{g, "c"}).learner(t).Commands(t.Context(), &next); len(notes) != 0 || len(g.comments) != writes {
		t.Errorf("a third run: notes %q, %d new comments", notes, len(g.comments)-writes)
	}
}

// TestCommandsRefuseOncePerLogin: a command by someone without write access
// is refused once per login, ever; one whose association rules out write
// access costs no lookup; a maintainer's commands are carried out; confirm
// on an unknown id says so.
func TestCommandsRefuseOncePerLogin(t *testing.T) {
	t.Parallel()
	g := &sharedIssue{roles: map[string]string{"bob": "write", "rita": "read"}, asked: map[string]int{}}
	l1 := rmcoc.Learning{ID: "L-1", Fingerprint: "f", PathGlob: "**", Origin: rmcoc.LearnedConcession}
	g.comments = []snapshot.Comment{{ID: 1, Author: testBot, Body: rmcoc.Render(l1)}}
	x := runOf{g, "a"}.learner(t)
	cmd := func(id int64, login string, member bool, verb, arg string) state.LearningCommand {
		return state.LearningCommand{CommentID: id, Author: snapshot.Actor{Login: login}, Member: member, Command: verb, Arg: arg}
	}
	ls := state.Learnings{Issue: 9, URLs: map[string]string{}, Confirmed: map[string]string{}, Told: map[string]bool{"otto": true},
		Active: []rmcoc.Learning{l1},
		Commands: []state.LearningCommand{
			cmd(11, "mallory", false, rmcoc.CommandForget, "L-1"),
			cmd(12, "rita", true, rmcoc.CommandForget, "L-1"),
			cmd(13, "rita", true, rmcoc.CommandRemember, "anything"),
			cmd(14, "otto", true, rmcoc.CommandForget, "L-1"),
			cmd(15, "bob", true, rmcoc.CommandConfirm, "L-9"),
			cmd(16, "bob", true, rmcoc.CommandConfirm, "L-1"),
		}}
	notes := x.Commands(t.Context(), &ls)
	var results []string
	for _, c := range g.comments {
		for _, b := range rmcoc.All[rmcoc.LearningCommand](c.Body) {
			results = append(results, fmt.Sprintf("%d:%s:%s", b.CommandCommentID, b.By, b.Result))
		}
	}
	if strings.Join(results, " ") != "11:mallory:not-allowed 12:rita:not-allowed 15:bob:unknown-id 16:bob:done" {
		t.Errorf("answers %v\nnotes %q", results, notes)
	}
	// The run's shared lookup (app's) asks GitHub once per login; here
	// every ask is counted, and an outsider costs none.
	if g.asked["mallory"] != 0 || g.asked["rita"] == 0 || g.asked["otto"] == 0 {
		t.Errorf("permission lookups %v", g.asked)
	}
	if ls.Confirmed["L-1"] != "bob" || !ls.Told["mallory"] || !ls.Told["rita"] || len(ls.Active) != 1 {
		t.Errorf("learnings after: %+v", ls)
	}
	if !strings.Contains(g.comments[1].Body, "I answer this once") {
		t.Errorf("the refusal does not say it is the only one:\n%s", g.comments[1].Body)
	}
}
