package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/workspace"
)

var (
	headingRe  = regexp.MustCompile(`^(\S+), lines (\d+)-(\d+) of (\d+):\n`)
	continueRe = regexp.MustCompile(`(?:start_line=(\d+) to continue|continue from line (\d+))`)
)

// A model reads a file page by page, following the notes. Lines longer than
// an answer (a 1 MB minified file, a huge second line, a line between the
// tool's cap and the reader's) are cut with a marker, and every call moves
// on: the loop ends at the last line in a bounded number of calls.
func TestReadFilePagesThroughLongLines(t *testing.T) {
	t.Parallel()
	mb := strings.Repeat("abcdefghé", (1<<20)/10) // 1 MB, multi-byte runes: cuts must keep UTF-8 whole
	mid := strings.Repeat("m", 150_000)           // over the tool's cap, under the reader's
	files := map[string]struct {
		content string
		lines   int
		cut     []int // lines that must come back cut
	}{
		"min.js":       {content: mb, lines: 1, cut: []int{1}},
		"data.txt":     {content: "short\n" + mb + "\nthird\nfourth\n", lines: 4, cut: []int{2}},
		"mid.txt":      {content: "a\n" + mid + "\nb\n", lines: 3, cut: []int{2}},
		"last.txt":     {content: "a\nb\n" + mb, lines: 3, cut: []int{3}},
		"wide.txt":     {content: strings.Repeat(strings.Repeat("w", 60_000)+"\n", 5), lines: 5},
		"crlf-big.txt": {content: "x\r\n" + mid + "\r\ny\r\n", lines: 3, cut: []int{2}},
	}
	dir := t.TempDir()
	for name, f := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(f.content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w, err := workspace.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	read := byName(Workspace(w))["read_file"]
	for name, f := range files {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			start, calls := 1, 0
			var cut []int
			for {
				if calls++; calls > f.lines+1 {
					t.Fatalf("still reading after %d calls", calls-1)
				}
				out, err := call(t, read, fmt.Sprintf(`{"path": %q, "start_line": %d}`, name, start))
				if err != nil {
					t.Fatalf("start_line=%d: %v", start, err)
				}
				if len(out) > maxOutput {
					t.Fatalf("start_line=%d: answer of %d bytes, over the cap", start, len(out))
				}
				if strings.Contains(out, "\uFFFD") {
					t.Fatalf("start_line=%d: a cut split a character", start)
				}
				h := headingRe.FindStringSubmatch(out)
				if h == nil {
					t.Fatalf("start_line=%d: no heading in %q", start, head(out))
				}
				from, to, total := atoi(h[2]), atoi(h[3]), atoi(h[4])
				if from != start || to < from || total != f.lines {
					t.Fatalf("start_line=%d: heading %q", start, h[0])
				}
				if strings.Contains(out, cutMarker) {
					cut = append(cut, to)
				}
				m := continueRe.FindStringSubmatch(out)
				if m == nil {
					if to != total {
						t.Fatalf("start_line=%d: stopped at line %d of %d without saying where to continue:\n%s", start, to, total, tail(out))
					}
					break
				}
				if next := atoi(m[1] + m[2]); next != to+1 {
					t.Fatalf("start_line=%d: showed lines %d-%d but says continue at %d", start, from, to, next)
				}
				start = to + 1
			}
			if fmt.Sprint(cut) != fmt.Sprint(f.cut) && !(len(cut) == 0 && len(f.cut) == 0) {
				t.Errorf("cut lines %v, want %v", cut, f.cut)
			}
		})
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func tail(s string) string { return s[max(0, len(s)-300):] }
