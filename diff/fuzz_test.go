package diff

import (
	"os"
	"path/filepath"
	"testing"
)

// addTestdataSeeds seeds f with every real diff in testdata, on top of the
// committed corpus in testdata/fuzz.
func addTestdataSeeds(f *testing.F, pattern string) {
	f.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatalf("read seed %s: %v", p, err)
		}
		f.Add(string(b))
	}
}

// checkInvariants holds for any File the parser returns: every shown line
// is anchorable where its numbers say, numbers count up without gaps, and
// the header counts match the lines.
func checkInvariants(t *testing.T, f File) {
	t.Helper()
	for hi, h := range f.Hunks {
		oldN, newN := h.OldStart, h.NewStart
		var oldCount, newCount int
		for _, l := range h.Lines {
			switch l.Kind {
			case Add:
				if l.OldLine != 0 || l.NewLine != newN {
					t.Fatalf("%s hunk %d: added line numbered %d/%d, want 0/%d", f.Path(), hi, l.OldLine, l.NewLine, newN)
				}
				newN++
				newCount++
			case Delete:
				if l.NewLine != 0 || l.OldLine != oldN {
					t.Fatalf("%s hunk %d: deleted line numbered %d/%d, want %d/0", f.Path(), hi, l.OldLine, l.NewLine, oldN)
				}
				oldN++
				oldCount++
			case Context:
				if l.OldLine != oldN || l.NewLine != newN {
					t.Fatalf("%s hunk %d: context line numbered %d/%d, want %d/%d", f.Path(), hi, l.OldLine, l.NewLine, oldN, newN)
				}
				oldN++
				newN++
				oldCount++
				newCount++
			default:
				t.Fatalf("%s hunk %d: unknown kind %v", f.Path(), hi, l.Kind)
			}
			for _, side := range []Side{Left, Right} {
				n := l.number(side)
				if n <= 0 {
					continue
				}
				if !f.Contains(side, n) {
					t.Fatalf("%s: line %d %s is shown but not Contained", f.Path(), n, side)
				}
				if got, ok := f.Nearest(side, n); !ok || got != n {
					t.Fatalf("%s: Nearest(%s, %d) = %d, %v", f.Path(), side, n, got, ok)
				}
				if len(f.Snippet(side, n, n)) == 0 {
					t.Fatalf("%s: empty Snippet for shown line %d %s", f.Path(), n, side)
				}
			}
		}
		if oldCount != h.OldLines || newCount != h.NewLines {
			t.Fatalf("%s hunk %d: header says -%d +%d, lines say -%d +%d", f.Path(), hi, h.OldLines, h.NewLines, oldCount, newCount)
		}
	}
	if f.Binary && len(f.Hunks) > 0 {
		t.Fatalf("%s: binary file with %d hunks", f.Path(), len(f.Hunks))
	}
}

func FuzzParse(f *testing.F) {
	addTestdataSeeds(f, "*.diff")
	f.Fuzz(func(t *testing.T, unified string) {
		files, err := Parse(unified)
		if err != nil {
			return
		}
		for _, file := range files {
			checkInvariants(t, file)
		}
	})
}

func FuzzParsePatch(f *testing.F) {
	addTestdataSeeds(f, "*.patch")
	f.Fuzz(func(t *testing.T, patch string) {
		file, err := ParsePatch("fuzz.go", patch)
		if err != nil {
			return
		}
		if file.Path() != "fuzz.go" {
			t.Fatalf("Path() = %q, want fuzz.go", file.Path())
		}
		checkInvariants(t, file)
	})
}
