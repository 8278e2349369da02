package inbox

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/github"
	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/rmcoc"
)

const ghToken = "ghs_inbox"

// ghWorld is a fake GitHub with one pull request holding bot findings,
// and an inbox service connected to it.
type ghWorld struct {
	f   *fakegithub.Server
	svc *Service
	pr  string // o/r#N
	n   int
	// threads by finding id
	threads map[string]string
}

func findingBody(f rmcoc.Finding) string {
	return "🔴 **" + f.Title + "**\n\nbug · score 8/10 · blocking\n\nThe error is dropped.\n\n" + rmcoc.Render(f)
}

func newGHWorld(t *testing.T) *ghWorld {
	t.Helper()
	f := fakegithub.New()
	t.Cleanup(f.Close)
	f.AddToken(ghToken, fakegithub.Identity{Login: "github-actions[bot]", Kind: fakegithub.TokenInstallation})
	f.AddUser("alice", false)
	pr := f.AddPR("o/r", fakegithub.PR{Author: "alice", Title: "Add x"})
	f.SetFiles("o/r", pr.Number, []fakegithub.File{{Path: "src/a.go", Status: "modified",
		Patch: "@@ -1,3 +1,4 @@\n package a\n-var x = 1\n+var x = check()\n+var y = 3\n // end"}})
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	w := &ghWorld{f: f, n: pr.Number, pr: "o/r#" + strconv.Itoa(pr.Number), threads: map[string]string{}}
	seed := map[string]struct {
		author   string
		line     int
		resolved bool
		blocking bool
	}{
		"f-open":     {author: "github-actions[bot]", line: 2, blocking: true},
		"f-minor":    {author: "github-actions[bot]", line: 3},
		"f-resolved": {author: "github-actions[bot]", line: 3, resolved: true},
		// A developer pasting a finding block does not make a finding.
		"f-forged": {author: "alice", line: 2},
	}
	for _, id := range []string{"f-open", "f-minor", "f-resolved", "f-forged"} {
		s := seed[id]
		block := rmcoc.Finding{ID: id, Path: "src/a.go", Line: s.line, Side: "RIGHT", Title: "Finding " + id, Category: "bug",
			Score: 8, Blocking: s.blocking, Status: rmcoc.FindingOpen, CreatedAt: at}
		tid, _ := f.AddThread("o/r", pr.Number, fakegithub.ThreadSpec{Path: "src/a.go", Line: s.line, Author: s.author,
			Body: findingBody(block), Resolved: s.resolved})
		w.threads[id] = tid
	}
	s := testStore(t, Options{})
	w.svc = &Service{Store: s, GitHub: func() (GitHub, error) {
		return github.New(github.Options{Token: ghToken, APIURL: f.URL, GraphQLURL: f.GraphQLURL()})
	}}
	return w
}

func (w *ghWorld) id(finding string) string { return "gh:" + w.pr + ":" + finding }

func (w *ghWorld) thread(t *testing.T, finding string) fakegithub.Thread {
	t.Helper()
	for _, th := range w.f.Threads("o/r", w.n) {
		if th.ID == w.threads[finding] {
			return th
		}
	}
	t.Fatalf("no thread for %s", finding)
	return fakegithub.Thread{}
}

func TestGitHubList(t *testing.T) {
	t.Parallel()
	w := newGHWorld(t)
	ctx := context.Background()
	local := reviewIn(t, w.svc.Store, StatusSubmitted)
	tests := map[string]struct {
		opts ListOptions
		want []string
	}{
		"open findings list as submitted":      {opts: ListOptions{PRs: []string{w.pr}}, want: []string{w.id("f-open"), w.id("f-minor"), local.ID}},
		"resolved ones on request":             {opts: ListOptions{PRs: []string{w.pr}, Status: "resolved"}, want: []string{w.id("f-resolved")}},
		"without the pull request, local only": {opts: ListOptions{}, want: []string{local.ID}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			res, err := w.svc.List(ctx, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, it := range res.Items {
				got = append(got, it.ID)
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tc.want))
			if !slices.Equal(got, want) {
				t.Errorf("listed %v, want %v", got, want)
			}
		})
	}
	res, _ := w.svc.List(ctx, ListOptions{PRs: []string{w.pr}})
	for _, it := range res.Items {
		if it.ID == w.id("f-open") && (!it.Blocking || it.Score != 8 || it.PR != w.pr || it.Summary != "Finding f-open (src/a.go:2)" || it.Source != SourceGitHub) {
			t.Errorf("f-open lists as %+v", it)
		}
	}
}

func TestGitHubClaimAndGet(t *testing.T) {
	t.Parallel()
	w := newGHWorld(t)
	ctx := context.Background()
	id := w.id("f-open")
	it, err := w.svc.Claim(ctx, id, "alpha", false)
	if err != nil || it.Status != StatusClaimed || it.ClaimedBy != "alpha" {
		t.Fatalf("claim = %+v, %v", it, err)
	}
	if _, err := w.svc.Claim(ctx, id, "alpha", false); err != nil {
		t.Errorf("re-claim by the same agent = %v", err)
	}
	if _, err := w.svc.Claim(ctx, id, "beta", false); kindOf(err) != "conflict" {
		t.Errorf("claim by another = %v, want conflict", err)
	}
	if _, err := w.svc.Claim(ctx, w.id("f-resolved"), "beta", false); kindOf(err) != "invalid state" {
		t.Errorf("claim of a resolved finding = %v", err)
	}
	for name, bad := range map[string]string{"unknown": w.id("f-nope"), "forged": w.id("f-forged")} {
		if _, err := w.svc.Get(ctx, bad); kindOf(err) != "not found" {
			t.Errorf("get %s finding = %v, want not found", name, err)
		}
	}
	// The claim is in the local store: listings show it, with GitHub and without.
	for _, o := range []ListOptions{{Status: "claimed", PRs: []string{w.pr}}, {Status: "claimed", ClaimedBy: "alpha"}} {
		res, err := w.svc.List(ctx, o)
		if err != nil || len(res.Items) != 1 || res.Items[0].ID != id || res.Items[0].ClaimedBy != "alpha" {
			t.Errorf("list %+v = %+v, %v", o, res.Items, err)
		}
	}
	d, err := w.svc.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	want := "# Review finding f-open on " + w.pr + "\n\n## src/a.go\n\n### Line 2\n_blocking · score 8_\n> +var x = check()\n" +
		"🔴 **Finding f-open**\n\nbug · score 8/10 · blocking\n\nThe error is dropped.\n"
	if d.Markdown != want {
		t.Errorf("markdown =\n%s\nwant\n%s", d.Markdown, want)
	}
	if d.Status != StatusClaimed || strings.Contains(d.Markdown, "rmcoc") {
		t.Errorf("detail = %+v", d.Item)
	}
}

// flakyGitHub fails ResolveThread the first time, after the reply went out.
type flakyGitHub struct {
	GitHub
	failed atomic.Bool
}

func (g *flakyGitHub) ResolveThread(ctx context.Context, id string) error {
	if g.failed.CompareAndSwap(false, true) {
		return errors.New("connection reset")
	}
	return g.GitHub.ResolveThread(ctx, id)
}

func TestGitHubResolve(t *testing.T) {
	t.Parallel()
	w := newGHWorld(t)
	ctx := context.Background()
	id := w.id("f-open")
	connect := w.svc.GitHub
	flaky := &flakyGitHub{}
	w.svc.GitHub = func() (GitHub, error) {
		gh, err := connect()
		flaky.GitHub = gh
		return flaky, err
	}
	if _, err := w.svc.Claim(ctx, id, "alpha", false); err != nil {
		t.Fatal(err)
	}
	// The first try replies, then fails to resolve: the retry must not
	// reply again.
	if _, err := w.svc.Resolve(ctx, id, ResolveOptions{By: "alpha", Note: "Checked the error in 1a2b3c."}); err == nil {
		t.Fatal("resolve succeeded despite the failure")
	}
	it, err := w.svc.Resolve(ctx, id, ResolveOptions{By: "alpha", Note: "Checked the error in 1a2b3c."})
	if err != nil || it.Status != StatusResolved || it.Note != "Checked the error in 1a2b3c." {
		t.Fatalf("retry = %+v, %v", it, err)
	}
	th := w.thread(t, "f-open")
	if !th.Resolved || len(th.Comments) != 2 || !strings.HasPrefix(th.Comments[1].Body, "Resolved by alpha: Checked the error in 1a2b3c.") {
		t.Fatalf("thread after resolve: resolved %v, %d comments: %+v", th.Resolved, len(th.Comments), th.Comments)
	}
	// Once resolved, resolving again writes nothing at all.
	writes := len(w.f.Writes())
	if it, err := w.svc.Resolve(ctx, id, ResolveOptions{By: "alpha", Note: "Checked the error in 1a2b3c."}); err != nil || it.Status != StatusResolved {
		t.Errorf("resolve again = %+v, %v", it, err)
	}
	if got := w.f.Writes(); len(got) != writes {
		t.Errorf("resolving again wrote %v", got[writes:])
	}
	res, _ := w.svc.List(ctx, ListOptions{PRs: []string{w.pr}, Status: "resolved"})
	if len(res.Items) != 2 {
		t.Errorf("resolved findings: %+v", res.Items)
	}
	if r, _ := w.svc.Store.Get(ctx, id); r.Status != StatusResolved || r.Kind != KindGitHubClaim {
		t.Errorf("local claim record = %+v", r)
	}
	// The bot's state agrees: the finding is resolved.
	if d, err := w.svc.Get(ctx, id); err != nil || d.Status != StatusResolved {
		t.Errorf("get after resolve = %+v, %v", d.Item, err)
	}
}

// Resolving a finding nobody claimed still replies once and resolves.
func TestGitHubResolveUnclaimed(t *testing.T) {
	t.Parallel()
	w := newGHWorld(t)
	ctx := context.Background()
	for range 2 {
		if _, err := w.svc.Resolve(ctx, w.id("f-minor"), ResolveOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	th := w.thread(t, "f-minor")
	if !th.Resolved || len(th.Comments) != 2 || !strings.HasPrefix(th.Comments[1].Body, "Resolved.") {
		t.Errorf("thread: resolved %v, comments %+v", th.Resolved, th.Comments)
	}
}

func TestGitHubRequest(t *testing.T) {
	t.Parallel()
	w := newGHWorld(t)
	res, err := w.svc.Request(context.Background(), RequestOptions{PR: "https://github.com/" + strings.Replace(w.pr, "#", "/pull/", 1), LocalRequest: LocalRequest{Message: "Focus on errors."}})
	if err != nil {
		t.Fatal(err)
	}
	cs := w.f.IssueComments("o/r", w.n)
	if len(cs) != 1 || cs[0].Body != "@rmc-bot review\n\nFocus on errors." || cs[0].Author != "github-actions[bot]" {
		t.Errorf("comments = %+v", cs)
	}
	if res.ID != "gh:"+w.pr || res.Source != SourceGitHub || !strings.Contains(res.Hint, "inbox list --pr "+w.pr) {
		t.Errorf("result = %+v", res)
	}
	if _, err := w.svc.Request(context.Background(), RequestOptions{PR: w.pr, LocalRequest: LocalRequest{Files: []string{"a"}}}); kindOf(err) != "invalid input" {
		t.Errorf("request with files and a pull request = %v", err)
	}
}

func TestParseRefs(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		in, want string
		ok       bool
	}{
		"short":        {"o/r#12", "o/r#12", true},
		"url":          {"https://github.com/o/r/pull/12", "o/r#12", true},
		"url with tab": {"https://github.com/o/r/pull/12/files", "o/r#12", true},
		"no number":    {"o/r", "", false},
		"zero":         {"o/r#0", "", false},
		"no repo":      {"#12", "", false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ref, err := ParsePR(tc.in)
			if (err == nil) != tc.ok || (tc.ok && ref.String() != tc.want) {
				t.Errorf("ParsePR(%q) = %v, %v", tc.in, ref, err)
			}
		})
	}
	ref, err := ParseFindingID("gh:o/r#12:f-abc:def")
	if err != nil || ref.PR.String() != "o/r#12" || ref.FindingID != "f-abc:def" || ref.String() != "gh:o/r#12:f-abc:def" {
		t.Errorf("ParseFindingID = %+v, %v", ref, err)
	}
}

// The project's GitHub adapter is what the inbox expects.
var _ GitHub = (*github.Client)(nil)

// With a developer's own token and no bot login, the developer is not
// taken for the bot: their pasted blocks stay ignored, the findings of
// github-actions[bot] count, and the inbox warns once. An explicit bot
// login is followed without a warning.
func TestGitHubPersonalToken(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		botLogin  string
		want      []string
		wantWarns int
	}{
		"no bot login":      {want: []string{"f-open", "f-minor"}, wantWarns: 1},
		"explicit bot":      {botLogin: "github-actions[bot]", want: []string{"f-open", "f-minor"}},
		"the developer, if": {botLogin: "alice", want: []string{"f-forged"}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := newGHWorld(t)
			w.f.AddToken("alice-token", fakegithub.Identity{Login: "alice", Kind: fakegithub.TokenPAT})
			var warns []string
			w.svc.BotLogin = tc.botLogin
			w.svc.Warn = func(m string) { warns = append(warns, m) }
			w.svc.GitHub = func() (GitHub, error) {
				return github.New(github.Options{Token: "alice-token", APIURL: w.f.URL, GraphQLURL: w.f.GraphQLURL()})
			}
			ctx := context.Background()
			for range 2 {
				res, err := w.svc.List(ctx, ListOptions{PRs: []string{w.pr}})
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, it := range res.Items {
					got = append(got, strings.TrimPrefix(it.ID, "gh:"+w.pr+":"))
				}
				slices.Sort(got)
				if want := slices.Sorted(slices.Values(tc.want)); !slices.Equal(got, want) {
					t.Errorf("findings = %v, want %v", got, want)
				}
			}
			if len(warns) != tc.wantWarns || (tc.wantWarns > 0 && !strings.Contains(warns[0], "belongs to alice, a user")) {
				t.Errorf("warnings = %q", warns)
			}
		})
	}
}

// A claim on a GitHub finding lapses after the lease as a local one does.
func TestGitHubClaimLease(t *testing.T) {
	t.Parallel()
	w := newGHWorld(t)
	clock := &fakeClock{now: time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)}
	s, err := Open(w.svc.Store.Path(), Options{Now: clock.Now, ClaimLease: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	w.svc.Store = s
	ctx := context.Background()
	id := w.id("f-open")
	if _, err := w.svc.Claim(ctx, id, "alpha", false); err != nil {
		t.Fatal(err)
	}
	if _, err := w.svc.Claim(ctx, id, "beta", false); kindOf(err) != "conflict" {
		t.Fatalf("claim of a held finding = %v", err)
	}
	clock.advance(2 * time.Minute)
	if it, err := w.svc.Claim(ctx, id, "beta", false); err != nil || it.ClaimedBy != "beta" {
		t.Fatalf("claim after the lease = %+v, %v", it, err)
	}
}
