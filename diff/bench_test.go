package diff

import (
	"fmt"
	"strings"
	"testing"
)

// largeDiff builds a unified diff of about n hunk lines spread over files of
// ten hunks each, mixing context, deleted and added lines as a real refactor
// does.
func largeDiff(n int) string {
	const hunksPerFile, linesPerHunk = 10, 50
	var b strings.Builder
	lines := 0
	for file := 0; lines < n; file++ {
		fmt.Fprintf(&b, "diff --git a/pkg/f%03d.go b/pkg/f%03d.go\nindex 1111111..2222222 100644\n--- a/pkg/f%03d.go\n+++ b/pkg/f%03d.go\n", file, file, file, file)
		for h := 0; h < hunksPerFile && lines < n; h++ {
			// Per hunk: 30 context, 10 deleted, 10 added lines.
			start := 1 + h*100
			fmt.Fprintf(&b, "@@ -%d,40 +%d,40 @@ func f%d() {\n", start, start, h)
			for i := 0; i < linesPerHunk; i++ {
				switch {
				case i >= 20 && i < 30:
					fmt.Fprintf(&b, "-\tx%d := compute(%d) // old\n", i, i)
				case i >= 30 && i < 40:
					fmt.Fprintf(&b, "+\tx%d := computeBetter(%d, ctx) // new\n", i-10, i-10)
				default:
					fmt.Fprintf(&b, " \ty%d := keep(%d)\n", i, i)
				}
			}
			lines += linesPerHunk
		}
	}
	return b.String()
}

func TestLargeDiffParses(t *testing.T) {
	t.Parallel()
	files, err := Parse(largeDiff(20000))
	if err != nil {
		t.Fatal(err)
	}
	var n int
	for _, f := range files {
		for _, h := range f.Hunks {
			n += len(h.Lines)
		}
	}
	if n != 20000 {
		t.Fatalf("parsed %d lines, want 20000", n)
	}
}

// BenchmarkParseLarge measures Parse on a 20,000-line diff, the size the
// local review page must stay usable at.
func BenchmarkParseLarge(b *testing.B) {
	input := largeDiff(20000)
	b.SetBytes(int64(len(input)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(input); err != nil {
			b.Fatal(err)
		}
	}
}
