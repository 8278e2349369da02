package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/diff"
)

const sampleDiff = `diff --git a/main.go b/main.go
index 1111111..2222222 100644
--- a/main.go
+++ b/main.go
@@ -1,2 +1,2 @@
 package main
-func old() {}
+func new() {}
diff --git a/old/name.go b/new/name.go
similarity index 90%
rename from old/name.go
rename to new/name.go
index 3333333..4444444 100644
--- a/old/name.go
+++ b/new/name.go
@@ -1 +1 @@
-package old
+package new
diff --git a/docs/new file.md b/docs/new file.md
new file mode 100644
index 0000000..5555555
--- /dev/null
+++ b/docs/new file.md
@@ -0,0 +1 @@
+hello
diff --git a/logo.png b/logo.png
index 6666666..7777777 100644
Binary files a/logo.png and b/logo.png differ
diff --git "a/caf\303\251.txt" "b/caf\303\251.txt"
deleted file mode 100644
index 8888888..0000000
--- "a/caf\303\251.txt"
+++ /dev/null
@@ -1 +0,0 @@
--- a/not/a/header.go
`

func TestDiff(t *testing.T) {
	t.Parallel()
	var big strings.Builder
	for i := range 300 {
		fmt.Fprintf(&big, "diff --git a/f%03d.go b/f%03d.go\n--- a/f%03d.go\n+++ b/f%03d.go\n@@ -1 +1 @@\n-%s\n+%s\n",
			i, i, i, i, strings.Repeat("o", 200), strings.Repeat("n", 200))
	}
	hugeOne := "diff --git a/h.go b/h.go\n--- a/h.go\n+++ b/h.go\n@@ -0,0 +1,3000 @@\n" + strings.Repeat("+"+strings.Repeat("h", 99)+"\n", 3000)
	tests := map[string]struct {
		diff    string
		getErr  error
		args    string
		want    []string
		not     []string
		wantErr string
	}{
		"whole diff":           {diff: sampleDiff, args: `{}`, want: []string{sampleDiff}},
		"one file":             {diff: sampleDiff, args: `{"path": "main.go"}`, want: []string{"+func new() {}"}, not: []string{"package new", "hello"}},
		"renamed, by new name": {diff: sampleDiff, args: `{"path": "new/name.go"}`, want: []string{"rename to new/name.go"}, not: []string{"main"}},
		"renamed, by old name": {diff: sampleDiff, args: `{"path": "old/name.go"}`, want: []string{"rename from old/name.go"}},
		"name with a space":    {diff: sampleDiff, args: `{"path": "docs/new file.md"}`, want: []string{"+hello"}, not: []string{"logo"}},
		"binary file":          {diff: sampleDiff, args: `{"path": "logo.png"}`, want: []string{"Binary files a/logo.png and b/logo.png differ"}},
		"quoted name":          {diff: sampleDiff, args: `{"path": "café.txt"}`, want: []string{"deleted file mode"}},
		"with a/ prefix":       {diff: sampleDiff, args: `{"path": "a/main.go"}`, want: []string{"+func new() {}"}},
		"hunk text is not a header": {diff: sampleDiff, args: `{"path": "not/a/header.go"}`,
			wantErr: `the PR does not change "not/a/header.go"; changed files: main.go, new/name.go, docs/new file.md, logo.png, café.txt`},
		"empty diff":       {diff: "", args: `{}`, want: []string{"The diff is empty"}},
		"fetch failure":    {getErr: errors.New("HTTP 502"), args: `{}`, wantErr: "the PR's diff could not be fetched: HTTP 502"},
		"unknown argument": {diff: sampleDiff, args: `{"file": "x"}`, wantErr: `unknown argument "file"; the arguments are: path`},
		"whole diff capped": {diff: big.String(), args: `{}`,
			want: []string{"[diff truncated: ", "Call get_pr_diff with a path to see one file's changes. Changed files: f000.go, f001.go,", "f199.go, and 100 more]"},
			not:  []string{"f299.go\n"}},
		"one file capped":        {diff: hugeOne, args: `{"path": "h.go"}`, want: []string{"[diff of h.go truncated: "}},
		"one file of a big diff": {diff: big.String(), args: `{"path": "f299.go"}`, want: []string{"+++ b/f299.go"}, not: []string{"f298.go"}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tool := Diff(func(context.Context) (string, error) { return tt.diff, tt.getErr })
			got, err := call(t, tool, tt.args)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("get_pr_diff(%s) = %q, %v; want an error containing %q", tt.args, head(got), err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("get_pr_diff(%s): %v", tt.args, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("answer lacks %q:\n%s", w, head(got))
				}
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("answer has %q:\n%s", n, head(got))
				}
			}
			if len(got) > maxOutput {
				t.Errorf("answer is %d bytes, over the %d cap", len(got), maxOutput)
			}
		})
	}
}

func TestDiffCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	tool := Diff(func(ctx context.Context) (string, error) { return "", ctx.Err() })
	if _, err := tool.Run(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run with a cancelled context: %v, want context.Canceled", err)
	}
}

// A scoped get_pr_diff never shows a withheld file: the whole diff leaves
// it out and says why (a private file only by count), a path names the
// reason, and a diff it cannot split is not shown at all.
func TestScopedDiff(t *testing.T) {
	t.Parallel()
	withhold := func(f diff.File) (string, bool) {
		switch {
		case strings.HasPrefix(f.Path(), "new/"):
			return "private", true
		case strings.HasPrefix(f.Path(), "docs/"):
			return "matches ignore_paths", false
		}
		return "", false
	}
	tests := map[string]struct {
		diff, args string
		want, not  []string
		wantErr    string
	}{
		"whole diff": {diff: sampleDiff, args: `{}`,
			want: []string{"+func new() {}", "[not shown: 1 changed file(s) out of the review's scope: docs/new file.md (matches ignore_paths); 1 private file(s) (private_paths)"},
			not:  []string{"package new", "+hello", "new/name.go", "old/name.go"}},
		"a private file by its new name": {diff: sampleDiff, args: `{"path": "new/name.go"}`, wantErr: `the diff of "new/name.go" is not shown (private)`},
		"a private file by its old name": {diff: sampleDiff, args: `{"path": "old/name.go"}`, wantErr: `is not shown (private)`},
		"with an a/ prefix":              {diff: sampleDiff, args: `{"path": "a/new/name.go"}`, wantErr: `is not shown (private)`},
		"an ignored file":                {diff: sampleDiff, args: `{"path": "docs/new file.md"}`, wantErr: "is not shown (matches ignore_paths)"},
		"a file in scope":                {diff: sampleDiff, args: `{"path": "main.go"}`, want: []string{"+func new() {}"}, not: []string{"not shown"}},
		"an unknown file names no withheld one": {diff: sampleDiff, args: `{"path": "x.go"}`,
			wantErr: `the PR does not change "x.go"; changed files: main.go, logo.png, café.txt`},
		"a diff that does not split": {diff: "--- a/a\n+++ b/a\n@@ -1 +1 @@\n-a\n+b\n--- a/new/b\n+++ b/new/b\n@@ -1 +1 @@\n-a\n+b\n", args: `{}`, wantErr: "so it is not shown"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tool := ScopedDiff(func(context.Context) (string, error) { return tt.diff, nil }, withhold)
			got, err := call(t, tool, tt.args)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("get_pr_diff(%s) = %q, %v; want an error containing %q", tt.args, head(got), err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("get_pr_diff(%s): %v", tt.args, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("answer lacks %q:\n%s", w, got)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("answer has %q:\n%s", n, got)
				}
			}
		})
	}
}
