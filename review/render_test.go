package review

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/diff"
)

// place is where a line of a rendered chunk says it is.
type place struct {
	path string
	side diff.Side
	line int
	text string
}

var (
	renderedHeading = regexp.MustCompile(`^### (.*) \((added|modified|deleted|renamed)\)$`)
	renderedLine    = regexp.MustCompile(`^(\d+)([ +-])(.*)$`)
)

// readBack reads a rendered chunk as the model is told to: a file's
// heading, then each line's number before its mark, the old file's before
// "-" and the new file's otherwise.
func readBack(t *testing.T, text string) []place {
	t.Helper()
	var out []place
	path := ""
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if m := renderedHeading.FindStringSubmatch(l); m != nil {
			path = m[1]
			continue
		}
		if strings.HasPrefix(l, "@@ ") {
			continue
		}
		m := renderedLine.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("a rendered line the model cannot read a number off: %q", l)
		}
		n, _ := strconv.Atoi(m[1])
		side := diff.Right
		if m[2] == "-" {
			side = diff.Left
		}
		out = append(out, place{path, side, n, m[3]})
	}
	return out
}

// where is a diff line's place: the old file's number for a deleted line,
// the new file's for the others.
func where(path string, l diff.Line) place {
	if l.Kind == diff.Delete {
		return place{path, diff.Left, l.OldLine, l.Text}
	}
	return place{path, diff.Right, l.NewLine, l.Text}
}

const renameDiff = `diff --git a/old/name.go b/new/name.go
similarity index 80%
rename from old/name.go
rename to new/name.go
--- a/old/name.go
+++ b/new/name.go
@@ -1,4 +1,3 @@
 package name
-
-// 42 is the answer
+// the answer
 const A = 42
@@ -120,3 +119,4 @@ func B() {
 	x := 1
+	y := 2
 	return x
 }
`

// Every line the model reads, it reads its own place off: read back as the
// prompt tells the model to, each line of every chunk gives the file, side
// and number of that line in the diff, and a finding put there is anchored
// exactly there, inline, not moved. Every line of the diff is read.
func TestRenderedNumbersAnchor(t *testing.T) {
	t.Parallel()
	parse := func(text string) []diff.File {
		fs, err := diff.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		return fs
	}
	tests := map[string]struct {
		files []diff.File
		limit int // chunk size: small ones cut hunks into windows
	}{
		"edits, binaries and vendored files":  {parse(goDiff), defaultChunkChars},
		"a rename with two hunks":             {parse(renameDiff), defaultChunkChars},
		"a hunk cut into windows":             {[]diff.File{bigFile(t, "big.go", 700)}, 2_000},
		"hunks of a file in their own chunks": {parse(renameDiff), 120},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			byPath, want := map[string]*diff.File{}, map[place]int{}
			for i := range tc.files {
				f := &tc.files[i]
				byPath[f.Path()] = f
				for _, h := range f.Hunks {
					for _, l := range h.Lines {
						want[where(f.Path(), l)]++
					}
				}
			}
			read := map[place]bool{}
			for _, u := range units(tc.files, tc.limit) {
				var b strings.Builder
				u.write(&b)
				for _, p := range readBack(t, b.String()) {
					if want[p] == 0 {
						t.Fatalf("read %+v, which is no line of the diff", p)
					}
					read[p] = true
					fs := []Finding{{Path: p.path, Line: p.line, Side: p.side, Title: "x", Score: 9}}
					anchor(fs, byPath, 10)
					if got := fs[0]; got.Moved != 0 || got.Line != p.line || got.Side != p.side || !got.Inline {
						t.Fatalf("a finding on %s %s:%d was anchored at %s:%d (moved from %d), inline %v", p.side, p.path, p.line, got.Side, got.Line, got.Moved, got.Inline)
					}
				}
			}
			if len(read) != len(want) {
				t.Errorf("%d of the diff's %d lines were read", len(read), len(want))
			}
		})
	}
}

// Whatever the diff, its rendering reads back to its own lines, in order.
func FuzzRenderReadsBack(f *testing.F) {
	f.Add(goDiff)
	f.Add(renameDiff)
	f.Add("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -9,2 +9,2 @@\n-9\n+10-\n 11 \n")
	f.Fuzz(func(t *testing.T, text string) {
		files, err := diff.Parse(text)
		if err != nil {
			return
		}
		for i := range files {
			fl := &files[i]
			if strings.ContainsAny(fl.Path(), "\n\r") {
				return // a heading of its own; paths come from GitHub's file list, one a line
			}
			var b strings.Builder
			render(&b, fl, fl.Hunks)
			var want []place
			for _, h := range fl.Hunks {
				for _, l := range h.Lines {
					p := where(fl.Path(), l)
					if strings.ContainsAny(l.Text, "\n\r") || p.line <= 0 {
						return // diff.Parse takes "@@ --1 +0 @@"; GitHub sends no such hunk
					}
					want = append(want, p)
				}
			}
			got := readBack(t, b.String())
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("read back\n%v\nwant\n%v", got, want)
			}
		}
	})
}
