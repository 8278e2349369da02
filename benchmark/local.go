package benchmark

import (
	"bytes"
	"context"
	"crypto/sha1"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/execution"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/workspace"
)

// The local set: small repositories (repos/NAME, the base commit), one diff
// per pull request (prs/NAME/N.diff) and the golden comments in the public
// set's format (golden_comments/NAME.json, URLs "local/NAME/pull/N").
//
//go:embed testdata/local
var localData embed.FS

// Local is the set shipped in the repository. It needs no GitHub access.
type Local struct{ fsys fs.FS }

var _ Set = (*Local)(nil)

// NewLocal opens the embedded local set.
func NewLocal() *Local {
	sub, err := fs.Sub(localData, "testdata/local")
	if err != nil {
		panic(err) // the directory is embedded: it exists
	}
	return &Local{fsys: sub}
}

// Name is "local".
func (*Local) Name() string { return "local" }

// Prompts are the local set's own (LocalPrompts).
func (*Local) Prompts(context.Context) (Prompts, error) { return LocalPrompts(), nil }

// Cases lists the set's PRs, by repository and number.
func (l *Local) Cases(context.Context) ([]Case, error) {
	names, err := fs.Glob(l.fsys, "golden_comments/*.json")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []Case
	for _, name := range names {
		data, err := fs.ReadFile(l.fsys, name)
		if err != nil {
			return nil, err
		}
		prs, err := ParseGolden(path.Base(name), data)
		if err != nil {
			return nil, err
		}
		repo := strings.TrimSuffix(path.Base(name), ".json")
		for _, pr := range prs {
			ref, _ := ParsePRURL(pr.URL)
			if ref.Owner != "local" || ref.Name != repo {
				return nil, fmt.Errorf("%s: %s is not a PR of local/%s", name, pr.URL, repo)
			}
			out = append(out, Case{Ref: ref, Repo: repo, URL: pr.URL, Title: pr.Title, Golden: pr.Comments})
		}
	}
	return out, nil
}

// Load applies the PR's diff to its repository's base tree.
func (l *Local) Load(_ context.Context, c Case) (*Material, error) {
	base, err := readTree(l.fsys, path.Join("repos", c.Ref.Name))
	if err != nil {
		return nil, fmt.Errorf("base tree of %s: %w", c.Ref, err)
	}
	unified, err := fs.ReadFile(l.fsys, fmt.Sprintf("prs/%s/%d.diff", c.Ref.Name, c.Ref.Number))
	if err != nil {
		return nil, fmt.Errorf("diff of %s: %w", c.Ref, err)
	}
	head, files, err := applyDiff(base, string(unified))
	if err != nil {
		return nil, fmt.Errorf("apply the diff of %s: %w", c.Ref, err)
	}
	m := &Material{
		Repo:  snapshot.Repo{Owner: c.Ref.Owner, Name: c.Ref.Name},
		Files: files,
		Diff:  string(unified),
		Rules: localRules(base),
		Code:  workspace.NewRemote(memSource(head)),
		PR: snapshot.PullRequest{Number: c.Ref.Number, Title: c.Title, URL: c.URL, Author: snapshot.NewActor("bench-author", "User"),
			State: snapshot.PROpen, HeadSHA: fakeSHA(string(unified)), BaseSHA: fakeSHA(c.Ref.Name), HeadRef: fmt.Sprintf("pr-%d", c.Ref.Number), BaseRef: "main"},
	}
	return m, nil
}

func readTree(fsys fs.FS, root string) (map[string][]byte, error) {
	tree := map[string][]byte{}
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		tree[strings.TrimPrefix(p, root+"/")] = data
		return err
	})
	if err == nil && len(tree) == 0 {
		err = fmt.Errorf("%s holds no files", root)
	}
	return tree, err
}

// applyDiff returns the head tree and the changed files as GitHub lists
// them (hunks-only patches), so the engine reads the local set through the
// same path as a real PR.
func applyDiff(base map[string][]byte, unified string) (map[string][]byte, []snapshot.ChangedFile, error) {
	head := make(map[string][]byte, len(base))
	for p, b := range base {
		head[p] = b
	}
	sections, err := diff.Sections(unified)
	if err != nil {
		return nil, nil, err
	}
	var files []snapshot.ChangedFile
	for _, s := range sections {
		gfs, _, err := gitdiff.Parse(strings.NewReader(s.Text))
		if err != nil || len(gfs) != 1 {
			return nil, nil, fmt.Errorf("diff of %s does not parse: %v", s.File.Path(), err)
		}
		gf := gfs[0]
		var src []byte
		if !gf.IsNew {
			var ok bool
			if src, ok = base[gf.OldName]; !ok {
				return nil, nil, fmt.Errorf("%s is not in the base tree", gf.OldName)
			}
		}
		var dst bytes.Buffer
		if err := gitdiff.Apply(&dst, bytes.NewReader(src), gf); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", s.File.Path(), err)
		}
		if gf.OldName != "" {
			delete(head, gf.OldName)
		}
		if !gf.IsDelete {
			head[gf.NewName] = dst.Bytes()
		}
		files = append(files, changedFile(s))
	}
	return head, files, nil
}

var githubStatus = map[diff.Status]string{diff.Added: "added", diff.Deleted: "removed", diff.Renamed: "renamed", diff.Modified: "modified"}

func changedFile(s diff.Section) snapshot.ChangedFile {
	f := snapshot.ChangedFile{Path: s.File.Path(), Status: githubStatus[s.File.Status]}
	if s.File.Status == diff.Renamed {
		f.PreviousPath = s.File.OldPath
	}
	if i := strings.Index(s.Text, "\n@@ "); i >= 0 {
		f.Patch = strings.TrimSuffix(s.Text[i+1:], "\n")
	}
	for _, h := range s.File.Hunks {
		for _, l := range h.Lines {
			switch l.Kind {
			case diff.Add:
				f.Additions++
			case diff.Delete:
				f.Deletions++
			case diff.Context: // counted by neither total
			}
		}
	}
	return f
}

// localRules reads the project rules from the base tree, in the form the
// action reads them from the base commit.
func localRules(base map[string][]byte) execution.Rules {
	var r execution.Rules
	for _, p := range []string{"AGENTS.md", "CLAUDE.md", ".github/copilot-instructions.md"} {
		if content := base[p]; len(content) > 0 {
			if r.Source != "" {
				r.Source += ", "
			}
			r.Source += p
			r.Text += "\n\n# " + p + "\n\n" + string(content)
		}
	}
	return r
}

func fakeSHA(s string) string {
	h := sha1.Sum([]byte(s))
	return hex.EncodeToString(h[:])
}

// memSource is a tree in memory, read through workspace.Remote with the
// same refusals as a checkout.
type memSource map[string][]byte

func (m memSource) Tree(context.Context) ([]workspace.Entry, error) {
	out := make([]workspace.Entry, 0, len(m))
	for p, b := range m {
		out = append(out, workspace.Entry{Path: p, Size: int64(len(b))})
	}
	return out, nil
}

func (m memSource) File(_ context.Context, p string) ([]byte, error) {
	b, ok := m[p]
	if !ok {
		return nil, fmt.Errorf("%s: %w", p, fs.ErrNotExist)
	}
	return b, nil
}
