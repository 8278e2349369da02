package benchmark

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/review-my-code-bot/rmc/github"
	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/workspace"
)

const (
	testCommit = "0123456789abcdef0123456789abcdef01234567"
	testToken  = "ghp_benchtesttoken"
)

// samplePR is one PR of testdata/crb, a two-PR sample in the public
// set's format.
type samplePR struct {
	repo   string
	number int
	title  string
	diff   string // testdata/crb/prs/…
	rules  string // AGENTS.md at the base commit
}

var samplePRs = []samplePR{
	{"acme-bench/metrics", 7, "Scrape: retry failed targets", "metrics-7.diff", "Scrapes must back off between retries."},
	{"acme-bench/billing", 12, "Invoices: apply credit notes", "billing-12.diff", ""},
}

var sampleFiles = []string{"metrics.json", "billing.json"}

// newCRBServer serves the golden files at testCommit and the sample PRs,
// except those named in gone.
func newCRBServer(t *testing.T, gone ...string) *fakegithub.Server {
	t.Helper()
	gh := fakegithub.New()
	t.Cleanup(gh.Close)
	gh.AddToken(testToken, fakegithub.Identity{Login: "bench-user", Kind: fakegithub.TokenPAT})
	for _, name := range sampleFiles {
		data, err := os.ReadFile(filepath.Join("testdata/crb/golden_comments", name))
		if err != nil {
			t.Fatal(err)
		}
		gh.SetContents(CRBRepo, testCommit, CRBGoldenDir+"/"+name, string(data))
	}
	for _, path := range []string{UpstreamExtractFile, UpstreamJudgeFile} {
		data, err := os.ReadFile(filepath.Join("testdata/crb/upstream", filepath.Base(path)))
		if err != nil {
			t.Fatal(err)
		}
		gh.SetContents(CRBRepo, testCommit, path, string(data))
	}
	for _, s := range samplePRs {
		if strings.Contains(strings.Join(gone, " "), s.repo) {
			gh.AddRepo(s.repo)
			continue
		}
		unified, err := os.ReadFile(filepath.Join("testdata/crb/prs", s.diff))
		if err != nil {
			t.Fatal(err)
		}
		head, _, err := applyDiff(nil, string(unified))
		if err != nil {
			t.Fatal(err)
		}
		pr := gh.AddPR(s.repo, fakegithub.PR{Number: s.number, Title: s.title, Author: "dev"})
		gh.SetDiff(s.repo, s.number, string(unified))
		for p, content := range head {
			gh.SetContents(s.repo, pr.HeadSHA, p, string(content))
		}
		if s.rules != "" {
			gh.SetContents(s.repo, pr.BaseSHA, "AGENTS.md", s.rules)
		}
	}
	return gh
}

// crbSet reads from gh into cache. clients counts the GitHub clients made.
func crbSet(gh *fakegithub.Server, cache, commit string, clients *atomic.Int32) *CRB {
	return &CRB{Commit: commit, Files: sampleFiles, CacheDir: cache, NewClient: func() (GitHub, error) {
		clients.Add(1)
		if gh == nil {
			return nil, errors.New("no GitHub in this run")
		}
		return github.New(github.Options{Token: testToken, APIURL: gh.URL, GraphQLURL: gh.GraphQLURL()})
	}}
}

var sampleReads = map[string][]string{"acme-bench/metrics": {"scrape/retry.go", "scrape/missing.go"}}

func TestCRBFetchesPinsAndCaches(t *testing.T) {
	t.Parallel()
	gh := newCRBServer(t)
	cache := t.TempDir()
	var clients atomic.Int32
	set := crbSet(gh, cache, testCommit, &clients)
	model := scriptedModel(t, set, behaviour{oracle: true, read: sampleReads})
	first := runSet(t, set, model, nil)
	if first.Failed != 0 {
		t.Fatalf("first run: %s", mustJSON(t, first.PRs))
	}
	if o := first.Summary.Overall; o.TP != 3 || o.FP != 0 || o.FN != 0 {
		t.Errorf("first run: %+v, want the 3 golden comments found", o)
	}
	if first.Summary.Repos["metrics"].TP != 2 || first.Summary.Repos["billing"].TP != 1 {
		t.Errorf("per repository: %+v", first.Summary.Repos)
	}
	// Uncategorized golden comments (the pinned revision of the public
	// set has no categories) count under the pinned rules, and under no
	// profile of the head rules, as upstream's score_profiles.py reads them.
	if first.Rules != PinnedRules || PinnedRules.Count(first.PRs[0].Golden, first.PRs[0].Matching, Strict).TP != 2 ||
		HeadRules.Count(first.PRs[0].Golden, first.PRs[0].Matching, All) != (Counts{Excluded: 2}) {
		t.Errorf("uncategorized golden comments: pinned %+v, head %+v", PinnedRules.Count(first.PRs[0].Golden, first.PRs[0].Matching, Strict),
			HeadRules.Count(first.PRs[0].Golden, first.PRs[0].Matching, All))
	}
	reads := gh.ReadCount()
	var perPR int64
	for _, pr := range first.PRs {
		if pr.GitHubRequests == 0 {
			t.Errorf("%s: no GitHub request counted", pr.PR)
		}
		perPR += pr.GitHubRequests
		t.Logf("%s: %d GitHub requests, %d model calls, %d judge calls", pr.PR, pr.GitHubRequests, pr.ReviewUsage.Requests, pr.JudgeUsage.Requests)
	}
	// The golden files (2), the prompt files (2) plus each PR's own
	// requests: nothing uncounted.
	if int64(reads) != 4+perPR {
		t.Errorf("the fake saw %d reads; the run counted 4 + %d", reads, perPR)
	}
	// The judge and the extraction asked with the pipeline's prompts.
	if first.Method.Prompts.Source != CRBRepo+"@"+testCommit || len(model.RequestsContaining("Test judge prompt (pipeline layout)")) == 0 ||
		len(model.RequestsContaining("Test extraction system message.")) == 0 {
		t.Errorf("the pipeline's prompts were not used: %+v", first.Method.Prompts)
	}
	for _, r := range gh.Requests() {
		if strings.Contains(r.Path, CRBRepo) && !strings.Contains(r.Query, "ref="+testCommit) {
			t.Errorf("golden or prompt file read without the pinned commit: %s?%s", r.Path, r.Query)
		}
	}
	// The model's tools read the head and got the project rules.
	if len(model.RequestsContaining("Scrapes must back off")) == 0 {
		t.Error("the PR's AGENTS.md did not reach the system prompt")
	}
	if len(model.RequestsContaining("for i := 0; i < maxRetries; i++")) == 0 {
		t.Error("read_file did not return the head file")
	}

	// A second run reads everything from the cache: no client, no request.
	clients.Store(0)
	again := crbSet(nil, cache, testCommit, &clients)
	second := runSet(t, again, model, nil)
	if second.Failed != 0 || clients.Load() != 0 || gh.ReadCount() != reads || second.GitHubRequests != 0 {
		t.Fatalf("second run: %d failed, %d clients made, %d new reads, %d counted", second.Failed, clients.Load(), gh.ReadCount()-reads, second.GitHubRequests)
	}
	if second.Summary.Overall != first.Summary.Overall {
		t.Errorf("second run scored %+v, first %+v", second.Summary.Overall, first.Summary.Overall)
	}
}

func TestCRBAnotherCommitIsNotTheCachedOne(t *testing.T) {
	t.Parallel()
	gh := newCRBServer(t)
	cache := t.TempDir()
	var clients atomic.Int32
	if _, err := crbSet(gh, cache, testCommit, &clients).Cases(context.Background()); err != nil {
		t.Fatal(err)
	}
	other := "fedcba9876543210fedcba9876543210fedcba98"
	_, err := crbSet(gh, cache, other, &clients).Cases(context.Background())
	if err == nil || !strings.Contains(err.Error(), "does not exist at commit "+other) {
		t.Fatalf("err = %v, want the golden file missing at the other commit", err)
	}
}

func TestCRBPRThatNoLongerExists(t *testing.T) {
	t.Parallel()
	gh := newCRBServer(t, "acme-bench/billing")
	var clients atomic.Int32
	set := crbSet(gh, t.TempDir(), testCommit, &clients)
	res := runSet(t, set, scriptedModel(t, set, behaviour{oracle: true}), nil)
	// A PR that cannot be read is a failed review: scored as a review with
	// no comments, every golden comment missed.
	if res.Failed != 0 || res.FailedReviews != 1 || len(res.PRs) != 2 {
		t.Fatalf("%d not finished, %d failed reviews of %d", res.Failed, res.FailedReviews, len(res.PRs))
	}
	for _, pr := range res.PRs {
		switch pr.PR {
		case "acme-bench/billing#12":
			if !strings.Contains(pr.ReviewError, "acme-bench/billing#12 no longer exists") || pr.Counts != (Counts{FN: len(pr.Golden)}) {
				t.Errorf("error %q, counts %+v", pr.ReviewError, pr.Counts)
			}
		default:
			if pr.Error != "" || pr.Counts.TP != 2 {
				t.Errorf("%s: the run did not go on: %q %+v", pr.PR, pr.Error, pr.Counts)
			}
		}
	}
}

func TestCRBWithoutTokenOnACacheMiss(t *testing.T) {
	t.Parallel()
	set := &CRB{Files: sampleFiles, CacheDir: t.TempDir(), NewClient: func() (GitHub, error) {
		return github.New(github.Options{})
	}}
	_, err := set.Cases(context.Background())
	if err == nil || !strings.Contains(err.Error(), "no token") {
		t.Fatalf("err = %v, want a missing token", err)
	}
}

// A client that could not be made (no token) counts no request: a PR read
// from the cache whose model asks for a head file the cache lacks gets the
// error, and its count stays 0, rather than the nil client's panic.
func TestLazyClientThatCouldNotBeMade(t *testing.T) {
	t.Parallel()
	lc := &lazyClient{newClient: func() (GitHub, error) { return github.New(github.Options{}) }}
	if _, err := lc.get(); err == nil || !strings.Contains(err.Error(), "no token") {
		t.Fatalf("err = %v, want a missing token", err)
	}
	if n := lc.requests(); n != 0 {
		t.Errorf("%d requests counted", n)
	}
}

func TestCachedSourceRemembersMissingFiles(t *testing.T) {
	t.Parallel()
	calls := 0
	src := &cachedSource{dir: t.TempDir(), remote: func() (workspace.Source, error) {
		calls++
		return memSource{"a.go": []byte("package a\n")}, nil
	}}
	for range 2 {
		if b, err := src.File(context.Background(), "a.go"); err != nil || string(b) != "package a\n" {
			t.Fatalf("File(a.go) = %q, %v", b, err)
		}
		if _, err := src.File(context.Background(), "../../etc/passwd"); err == nil {
			t.Fatal("a missing file was found")
		}
	}
	if calls != 2 {
		t.Errorf("the remote was asked %d times, want 2 (once per file)", calls)
	}
}
