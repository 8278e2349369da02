package github

import (
	"context"
	"fmt"
	"testing"

	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/github/fakegithub"
)

// Trees as GitHub serves them: a commit's tree by the commit, subtrees by
// their ids, equal directories with one id, one level or all of it, and an
// answer past the entry limit cut short and marked truncated.
func TestTreeReads(t *testing.T) {
	t.Parallel()
	f, _, repo := commitWorld(t)
	ctx := context.Background()
	c := client(t, f, nil)
	for i := range 5 {
		f.SetContents("o/r", "c1", fmt.Sprintf("a/f%d.go", i), "same")
		f.SetContents("o/r", "c1", fmt.Sprintf("b/f%d.go", i), "same")
	}
	f.SetContents("o/r", "c1", "top.go", "top")
	root, err := c.Tree(ctx, repo, "c1", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(root.Entries) != 3 || root.Truncated || root.Entries[0].Kind != gate.KindTree || root.Entries[0].ID != root.Entries[1].ID || root.Entries[2].Kind != gate.KindBlob {
		t.Fatalf("root = %+v", root)
	}
	sub, err := c.Tree(ctx, repo, root.Entries[0].ID, false)
	if err != nil || len(sub.Entries) != 5 || sub.Entries[0].Name != "f0.go" {
		t.Fatalf("subtree = %+v, %v", sub, err)
	}
	all, err := c.Tree(ctx, repo, "c1", true)
	if err != nil || len(all.Entries) != 13 || all.Truncated || all.Entries[1].Name != "a/f0.go" {
		t.Fatalf("recursive = %d entries, truncated %v, %v", len(all.Entries), all.Truncated, err)
	}
	f.SetTreeLimit(4)
	for name, tc := range map[string]struct {
		sha       string
		recursive bool
		entries   int
		truncated bool
	}{
		"recursive past the limit":     {"c1", true, 4, true},
		"one level within the limit":   {"c1", false, 3, false},
		"one level past the limit":     {root.Entries[0].ID, false, 4, true},
		"recursive of a small subtree": {root.Entries[0].ID, true, 4, true},
	} {
		got, err := c.Tree(ctx, repo, tc.sha, tc.recursive)
		if err != nil || len(got.Entries) != tc.entries || got.Truncated != tc.truncated {
			t.Errorf("%s: %d entries, truncated %v, %v", name, len(got.Entries), got.Truncated, err)
		}
	}
	if _, err := c.Tree(ctx, repo, "nope", false); err == nil {
		t.Error("a tree that does not exist was read")
	}
}

// A PR's head tree is its base's files with the PR's files applied, each
// with the blob id the files list reports; the merge base comes from the
// comparison, whose file list (like GitHub's) stops at 300, as the PR's
// files list stops at 3,000.
func TestHeadTreeAndListCaps(t *testing.T) {
	t.Parallel()
	f, pr, repo := commitWorld(t)
	ctx := context.Background()
	c := client(t, f, nil)
	f.SetContents("o/r", pr.BaseSHA, "keep.go", "kept")
	f.SetContents("o/r", pr.BaseSHA, "gone.go", "gone")
	var files []fakegithub.File
	for i := range 3005 {
		files = append(files, fakegithub.File{Path: fmt.Sprintf("d%d/f%d.go", i%50, i), Status: "added", Patch: fmt.Sprintf("@@ -0,0 +1,1 @@\n+v%d", i)})
	}
	files = append(files, fakegithub.File{Path: "gone.go", Status: "removed", Patch: "@@ -1,1 +0,0 @@\n-gone"})
	f.SetFiles("o/r", pr.Number, files)
	listed, err := c.Files(ctx, repo, pr.Number)
	if err != nil || len(listed) != 3000 {
		t.Fatalf("files list: %d, %v", len(listed), err)
	}
	cmp, err := c.Compare(ctx, repo, pr.BaseSHA, pr.HeadSHA)
	if err != nil || len(cmp.Files) != 300 {
		t.Fatalf("comparison: %d files, %v", len(cmp.Files), err)
	}
	mb, err := c.MergeBase(ctx, repo, pr.BaseSHA, pr.HeadSHA)
	if err != nil || mb != pr.BaseSHA {
		t.Fatalf("merge base %q, %v", mb, err)
	}
	all, err := c.Tree(ctx, repo, pr.HeadSHA, true)
	if err != nil {
		t.Fatal(err)
	}
	blobs := map[string]string{}
	for _, e := range all.Entries {
		if e.Kind == gate.KindBlob {
			blobs[e.Name] = e.ID
		}
	}
	if len(blobs) != 3006 || blobs["gone.go"] != "" || blobs["keep.go"] == "" || blobs[listed[7].Path] != listed[7].Blob || listed[7].Blob == "" {
		t.Errorf("head tree: %d blobs; gone %q keep %q; %s: tree %q, list %q", len(blobs), blobs["gone.go"], blobs["keep.go"], listed[7].Path, blobs[listed[7].Path], listed[7].Blob)
	}
}
