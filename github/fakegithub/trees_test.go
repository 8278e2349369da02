package fakegithub

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
)

// One commit, one content: a second PR on the same head (its base an
// earlier commit) lists, reads and walks the head's files as the first PR's
// tree holds them, as GitHub does. Its files list reports the head's blob
// ids (the tree's), and the contents API and the GraphQL blob serve the
// content of a file the first PR leaves as its base had it.
func TestSharedHeadAgreesWithItsTree(t *testing.T) {
	t.Parallel()
	s := New()
	t.Cleanup(s.Close)
	s.AddToken(tokInstall, Identity{Login: "github-actions[bot]", Kind: TokenInstallation})
	const head, base1, base2 = "h000000000000000000000000000000000000000", "b100000000000000000000000000000000000000", "b200000000000000000000000000000000000000"
	for p, c := range map[string]string{"keep.go": "kept", "logo.png": "PNG\x00one", "x.go": "x1"} {
		s.SetContents("o/r", base1, p, c)
	}
	for p, c := range map[string]string{"keep.go": "kept", "logo.png": "text now", "x.go": "x1", "gone.bin": "BIN\x00"} {
		s.SetContents("o/r", base2, p, c)
	}
	s.SetContents("o/r", head, "x.go", "x2")
	s.AddPR("o/r", PR{Title: "first", Author: "alice", HeadSHA: head, BaseSHA: base1})
	s.SetFiles("o/r", 1, []File{{Path: "x.go", Patch: "@@ -1 +1 @@\n-x1\n+x2"}, {Path: "new.go", Status: "added", Patch: "@@ -0,0 +1 @@\n+n"}})
	s.AddPR("o/r", PR{Title: "second", Author: "alice", HeadSHA: head, BaseSHA: base2})
	s.SetFiles("o/r", 2, []File{{Path: "logo.png"}, {Path: "x.go", Patch: "@@ -1 +1 @@\n-x1\n+x2"},
		{Path: "new.go", Status: "added", Patch: "@@ -0,0 +1 @@\n+n"}, {Path: "gone.bin", Status: "removed"}})

	var tree struct {
		Tree []struct{ Path, SHA string }
	}
	do(t, s, tokInstall, http.MethodGet, "/repos/o/r/git/trees/"+head+"?recursive=1", nil).decode(t, &tree)
	inTree := map[string]string{}
	for _, e := range tree.Tree {
		inTree[e.Path] = e.SHA
	}
	if len(inTree) != 4 || inTree["logo.png"] != blobSHA("PNG\x00one") || inTree["x.go"] != blobSHA("x2") {
		t.Fatalf("head tree = %v", inTree)
	}
	for _, n := range []string{"1", "2"} {
		var files []struct{ Filename, SHA, Status string }
		do(t, s, tokInstall, http.MethodGet, "/repos/o/r/pulls/"+n+"/files", nil).decode(t, &files)
		for _, f := range files {
			if f.Status != "removed" && f.SHA != inTree[f.Filename] {
				t.Errorf("PR %s lists %s with blob %s; the head's tree holds %s", n, f.Filename, f.SHA, inTree[f.Filename])
			}
		}
	}
	for name, tc := range map[string]struct {
		path, want string
		status     int
	}{
		"a file the first PR leaves as its base had it": {"logo.png", "PNG\x00one", 200},
		"a file nobody changed":                         {"keep.go", "kept", 200},
		"a file the head changed":                       {"x.go", "x2", 200},
		"a file the head added without content":         {"new.go", "", 404},
		"a file only the second PR's base had":          {"gone.bin", "", 404},
	} {
		r := do(t, s, tokInstall, http.MethodGet, "/repos/o/r/contents/"+tc.path+"?ref="+head, nil)
		var c struct{ Content string }
		if r.status == 200 {
			r.decode(t, &c)
		}
		got, _ := base64.StdEncoding.DecodeString(strings.ReplaceAll(c.Content, "\n", ""))
		if r.status != tc.status || string(got) != tc.want {
			t.Errorf("%s: contents at the head %d %q, want %d %q", name, r.status, got, tc.status, tc.want)
		}
		var data struct {
			Repository struct{ Object *struct{ Text string } }
		}
		gqlData(t, s, tokInstall, `query($e: String!) { repository(owner: "o", name: "r") { object(expression: $e) { ... on Blob { text } } } }`,
			map[string]any{"e": head + ":" + tc.path}, &data)
		if o := data.Repository.Object; (o != nil) != (tc.status == 200) || o != nil && o.Text != tc.want {
			t.Errorf("%s: the GraphQL blob at the head is %+v, want %q", name, o, tc.want)
		}
	}
	assertClean(t, s)
}
