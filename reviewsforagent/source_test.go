package reviewsforagent

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/inbox"
)

// "Expand context" shows the old side of whatever the diff is of: for the
// unstaged changes that is the index, which holds a staged edit HEAD has
// not.
func TestContextOfTheOldSide(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs git")
	}
	dir := newRepo(t, map[string]string{"a.txt": numbered(60)})
	staged := strings.Replace(numbered(60), "line 2\n", "line two\n", 1)
	writeFile(t, dir, "a.txt", staged)
	runGit(t, dir, "add", "a.txt")
	writeFile(t, dir, "a.txt", strings.Replace(staged, "line 40\n", "line forty\n", 1))
	tests := map[string]struct {
		kind inbox.DiffSource
		want string
	}{
		"unstaged: the index": {kind: inbox.DiffUnstaged, want: `{"lines":["line 1","line two","line 3"]}`},
		"uncommitted: HEAD":   {kind: inbox.DiffUncommitted, want: `{"lines":["line 1","line 2","line 3"]}`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, err := LoadSource(context.Background(), dir, Source{Kind: tc.kind})
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(NewServer(c, Options{Token: testToken}))
			t.Cleanup(srv.Close)
			code, body := call(t, http.MethodGet, srv.URL+"/api/context?file=0&from=1&to=3", testToken, "")
			if code != http.StatusOK || strings.TrimSpace(body) != tc.want {
				t.Errorf("context = %d %s, want %s", code, body, tc.want)
			}
		})
	}
}

func TestBlobIDs(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		section, old, new string
	}{
		"changed":    {section: "diff --git a/x b/x\nindex 0123abc..4567def 100644\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", old: "0123abc", new: "4567def"},
		"added":      {section: "diff --git a/x b/x\nnew file mode 100644\nindex 0000000..4567def\n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+b\n", new: "4567def"},
		"deleted":    {section: "diff --git a/x b/x\ndeleted file mode 100644\nindex 0123abc..0000000\n--- a/x\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n", old: "0123abc"},
		"no index":   {section: "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"},
		"in a hunk":  {section: "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\nindex 1111111..2222222\n"},
		"mode apart": {section: "diff --git a/x b/x\nold mode 100644\nnew mode 100755\nindex 0123abc..4567def\n", old: "0123abc", new: "4567def"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if old, new := blobIDs(tc.section); old != tc.old || new != tc.new {
				t.Errorf("blobIDs = %q, %q; want %q, %q", old, new, tc.old, tc.new)
			}
		})
	}
}

// A plain unified diff gets one "diff --git" line per file and nothing
// else changes; a git diff is left alone.
func FuzzWithGitHeaders(f *testing.F) {
	f.Add("--- x\n+++ x\n@@ -1,2 +1,2 @@\n x\n--- y\n+++ z\n--- /dev/null\n+++ y\n@@ -0,0 +1 @@\n+y\n")
	f.Add("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n")
	f.Add("@@ -1 +1 @@\n")
	f.Fuzz(func(t *testing.T, text string) {
		out := withGitHeaders(text)
		if strings.HasPrefix(text, "diff --git ") || strings.Contains(text, "\ndiff --git ") {
			if out != text {
				t.Fatalf("a git diff was changed:\n%q\n->\n%q", text, out)
			}
			return
		}
		var rest strings.Builder
		for _, l := range strings.SplitAfter(out, "\n") {
			if !strings.HasPrefix(l, "diff --git ") {
				rest.WriteString(l)
			}
		}
		if rest.String() != text {
			t.Fatalf("withGitHeaders changed more than headers:\n%q\n->\n%q", text, out)
		}
	})
}
