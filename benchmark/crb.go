package benchmark

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/review-my-code-bot/rmc/execution"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/workspace"
)

// The public set: withmartian/code-review-benchmark, offline/golden_comments,
// at a pinned commit, so a score always refers to the same golden comments.
const (
	CRBRepo          = "withmartian/code-review-benchmark"
	CRBGoldenDir     = "offline/golden_comments"
	DefaultCRBCommit = "012d68202e56280855b85abb956410086008a7b2"
)

// CRBFiles are the golden files of the public set, one per repository.
var CRBFiles = []string{"cal_dot_com.json", "discourse.json", "grafana.json", "keycloak.json", "sentry.json"}

// GitHub is what the crb set reads through GitHub's API (package github's
// client, or a fake): the pull request, its files and unified diff, a file
// at a commit, the head commit's tree, and how many requests were made.
// An answer GitHub refused with 404 is snapshot.ErrNotFound.
type GitHub interface {
	PullRequest(ctx context.Context, repo snapshot.Repo, number int) (snapshot.PullRequest, error)
	Files(ctx context.Context, repo snapshot.Repo, number int) ([]snapshot.ChangedFile, error)
	Diff(ctx context.Context, repo snapshot.Repo, number int) (string, error)
	Contents(ctx context.Context, repo snapshot.Repo, ref, path string) (content string, found bool, err error)
	Source(repo snapshot.Repo, sha string) workspace.Source
	Counts() snapshot.Counts
}

// CRB is the Code Review Bench offline set. Golden comments, PR metadata,
// patches, diffs, project rules and every head file the model reads are
// cached under CacheDir: a second run makes no GitHub request for anything
// the first one read.
type CRB struct {
	Commit   string   // the benchmark's commit; DefaultCRBCommit when empty
	Files    []string // golden files to read; CRBFiles when empty
	CacheDir string
	// NewClient makes a GitHub client. It is called only on a cache miss,
	// once per PR, so that each PR's requests are counted apart.
	NewClient func() (GitHub, error)
}

var _ Set = (*CRB)(nil)

// Name is "crb".
func (*CRB) Name() string { return "crb" }

func (s *CRB) commit() string {
	if s.Commit == "" {
		return DefaultCRBCommit
	}
	return s.Commit
}

// Cases reads the golden files at the pinned commit.
func (s *CRB) Cases(ctx context.Context) ([]Case, error) {
	files := s.Files
	if len(files) == 0 {
		files = CRBFiles
	}
	lc := &lazyClient{newClient: s.NewClient}
	var out []Case
	for _, name := range files {
		data, err := s.upstream(ctx, lc, "golden", CRBGoldenDir+"/"+name)
		if err != nil {
			return nil, fmt.Errorf("fetch the public set's golden comments: %w", err)
		}
		prs, err := ParseGolden(name, data)
		if err != nil {
			return nil, err
		}
		for _, pr := range prs {
			ref, _ := ParsePRURL(pr.URL)
			out = append(out, Case{Ref: ref, Repo: strings.TrimSuffix(name, ".json"), URL: pr.URL, Title: pr.Title, Golden: pr.Comments})
		}
	}
	return out, nil
}

// Prompts reads the judge and extraction prompts from the benchmark's
// pipeline at the pinned commit.
func (s *CRB) Prompts(ctx context.Context) (Prompts, error) {
	lc := &lazyClient{newClient: s.NewClient}
	extract, err := s.upstream(ctx, lc, "prompts", UpstreamExtractFile)
	if err != nil {
		return Prompts{}, fmt.Errorf("fetch the benchmark's extraction prompt: %w", err)
	}
	judge, err := s.upstream(ctx, lc, "prompts", UpstreamJudgeFile)
	if err != nil {
		return Prompts{}, fmt.Errorf("fetch the benchmark's judge prompt: %w", err)
	}
	return UpstreamPrompts(CRBRepo+"@"+s.commit(), extract, judge)
}

// upstream reads a file of the benchmark's repository at the pinned
// commit, from the cache (kind/commit/base name) or through GitHub into it.
func (s *CRB) upstream(ctx context.Context, lc *lazyClient, kind, path string) ([]byte, error) {
	cache := filepath.Join(s.CacheDir, kind, s.commit(), filepath.Base(path))
	if data, err := os.ReadFile(cache); err == nil {
		return data, nil
	}
	client, err := lc.get()
	if err != nil {
		return nil, err
	}
	owner, repo, _ := strings.Cut(CRBRepo, "/")
	content, found, err := client.Contents(ctx, snapshot.Repo{Owner: owner, Name: repo}, s.commit(), path)
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, fmt.Errorf("%s does not exist at commit %s of %s", path, s.commit(), CRBRepo)
	}
	return []byte(content), writeCache(cache, []byte(content))
}

// crbPR is what is cached about one PR.
type crbPR struct {
	PR    snapshot.PullRequest   `json:"pr"`
	Files []snapshot.ChangedFile `json:"files"`
	Diff  string                 `json:"diff"`
	Rules execution.Rules        `json:"rules"`
}

// Load reads the PR from the cache, or from GitHub into the cache.
func (s *CRB) Load(ctx context.Context, c Case) (*Material, error) {
	dir := filepath.Join(s.CacheDir, "prs", c.Ref.Owner, c.Ref.Name, strconv.Itoa(c.Ref.Number))
	repo := snapshot.Repo{Owner: c.Ref.Owner, Name: c.Ref.Name}
	lc := &lazyClient{newClient: s.NewClient}
	var p crbPR
	data, err := os.ReadFile(filepath.Join(dir, "pr.json"))
	if err == nil {
		err = json.Unmarshal(data, &p)
	}
	if err != nil {
		if p, err = fetchPR(ctx, lc, repo, c.Ref.Number); err != nil {
			return nil, err
		}
		data, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		if err := writeCache(filepath.Join(dir, "pr.json"), data); err != nil {
			return nil, err
		}
	}
	src := &cachedSource{dir: filepath.Join(dir, "head"), remote: func() (workspace.Source, error) {
		gh, err := lc.get()
		if err != nil {
			return nil, err
		}
		return gh.Source(repo, p.PR.HeadSHA), nil
	}}
	return &Material{PR: p.PR, Repo: repo, Files: p.Files, Diff: p.Diff, Rules: p.Rules, Code: workspace.NewRemote(src), GitHubRequests: lc.requests}, nil
}

func fetchPR(ctx context.Context, lc *lazyClient, repo snapshot.Repo, number int) (crbPR, error) {
	gh, err := lc.get()
	if err != nil {
		return crbPR{}, err
	}
	pr, err := gh.PullRequest(ctx, repo, number)
	if errors.Is(err, snapshot.ErrNotFound) {
		return crbPR{}, fmt.Errorf("pull request %s#%d no longer exists, or the token cannot see it (GitHub answered 404)", repo, number)
	}
	if err != nil {
		return crbPR{}, err
	}
	files, err := gh.Files(ctx, repo, number)
	if err != nil {
		return crbPR{}, err
	}
	unified, err := gh.Diff(ctx, repo, number)
	if err != nil {
		// GitHub refuses the raw diff of very large PRs; the patches say
		// the same for the get_pr_diff tool.
		unified = joinPatches(files)
	}
	p := crbPR{PR: pr, Files: files, Diff: unified}
	for _, path := range []string{"AGENTS.md", "CLAUDE.md", ".github/copilot-instructions.md"} {
		content, found, err := gh.Contents(ctx, repo, pr.BaseSHA, path)
		if err != nil {
			return crbPR{}, err
		}
		if found && content != "" {
			if p.Rules.Source != "" {
				p.Rules.Source += ", "
			}
			p.Rules.Source += path
			p.Rules.Text += "\n\n# " + path + "\n\n" + content
		}
	}
	return p, nil
}

func joinPatches(files []snapshot.ChangedFile) string {
	var b strings.Builder
	for _, f := range files {
		if f.Patch != "" {
			fmt.Fprintf(&b, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n%s\n", f.Path, f.Path, f.Path, f.Path, strings.TrimSuffix(f.Patch, "\n"))
		}
	}
	return b.String()
}

// lazyClient makes the PR's GitHub client on first use.
type lazyClient struct {
	newClient func() (GitHub, error)
	once      sync.Once
	gh        GitHub // nil until made, and when making it failed
	err       error
}

func (l *lazyClient) get() (GitHub, error) {
	l.once.Do(func() {
		if gh, err := l.newClient(); err != nil {
			l.err = err
		} else {
			l.gh = gh
		}
	})
	return l.gh, l.err
}

func (l *lazyClient) requests() int64 {
	if l.gh == nil {
		return 0
	}
	c := l.gh.Counts()
	return c.Reads + c.Writes
}

// cachedSource keeps the head tree and each file read under dir.
type cachedSource struct {
	dir    string
	remote func() (workspace.Source, error)
}

func (c *cachedSource) Tree(ctx context.Context) ([]workspace.Entry, error) {
	path := filepath.Join(c.dir, "tree.json")
	var tree []workspace.Entry
	if data, err := os.ReadFile(path); err == nil && json.Unmarshal(data, &tree) == nil {
		return tree, nil
	}
	src, err := c.remote()
	if err != nil {
		return nil, err
	}
	if tree, err = src.Tree(ctx); err != nil {
		return nil, err
	}
	data, err := json.Marshal(tree)
	if err != nil {
		return nil, err
	}
	return tree, writeCache(path, data)
}

// File reads a file; one that does not exist is remembered too.
func (c *cachedSource) File(ctx context.Context, p string) ([]byte, error) {
	sum := sha256.Sum256([]byte(p))
	path := filepath.Join(c.dir, "files", hex.EncodeToString(sum[:]))
	if data, err := os.ReadFile(path); err == nil {
		return data, nil
	}
	if _, err := os.Stat(path + ".missing"); err == nil {
		return nil, fmt.Errorf("%s: %w", p, fs.ErrNotExist)
	}
	src, err := c.remote()
	if err != nil {
		return nil, err
	}
	data, err := src.File(ctx, p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errors.Join(err, writeCache(path+".missing", nil))
	}
	if err != nil {
		return nil, err
	}
	return data, writeCache(path, data)
}

// writeCache writes a cache file whole or not at all: a run killed midway
// leaves no half file that a later run would trust.
func writeCache(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("cache: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}
