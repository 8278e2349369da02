package diff

import (
	"fmt"
	"strings"
	"testing"
)

// A patch Unified builds reads back, through ParsePatch, as the lines that
// changed, numbered as in the two files.
func TestUnified(t *testing.T) {
	t.Parallel()
	var old, new strings.Builder
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&old, "line %d\n", i)
		switch i {
		case 10:
			fmt.Fprintf(&new, "line %d changed\n", i)
		case 20:
		default:
			fmt.Fprintf(&new, "line %d\n", i)
		}
	}
	new.WriteString("added at the end")
	for name, tc := range map[string]struct {
		old, new        string
		adds, deletes   []int // new-side and old-side line numbers
		empty, tooLarge bool
	}{
		"edited":         {old: old.String(), new: new.String(), adds: []int{10, 30}, deletes: []int{10, 20}},
		"added":          {old: "", new: "a\nb\n", adds: []int{1, 2}},
		"equal":          {old: "a\n", new: "a\n", empty: true},
		"blank lines":    {old: "a\n\n", new: "a\n\nb\n", adds: []int{3}},
		"past the bound": {old: "", new: strings.Repeat("x\n", MaxUnifiedLines+1), tooLarge: true},
	} {
		patch, ok := Unified(tc.old, tc.new)
		if ok == tc.tooLarge {
			t.Errorf("%s: ok = %v", name, ok)
			continue
		}
		if tc.tooLarge || tc.empty {
			if patch != "" {
				t.Errorf("%s: patch %q", name, patch)
			}
			continue
		}
		f, err := ParsePatch("a.go", patch)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, patch)
		}
		var adds, deletes []int
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				switch l.Kind {
				case Add:
					adds = append(adds, l.NewLine)
				case Delete:
					deletes = append(deletes, l.OldLine)
				case Context:
				}
			}
		}
		if fmt.Sprint(adds) != fmt.Sprint(tc.adds) || fmt.Sprint(deletes) != fmt.Sprint(tc.deletes) {
			t.Errorf("%s: added %v deleted %v, want %v %v\n%s", name, adds, deletes, tc.adds, tc.deletes, patch)
		}
	}
}

// The matcher on the largest files it takes, with scattered edits.
//
//	go test ./diff -run '^$' -bench Unified -benchtime 1x
func BenchmarkUnified(b *testing.B) {
	var old, new strings.Builder
	for i := range MaxUnifiedLines {
		fmt.Fprintf(&old, "\tx%d := compute(%d) // %d\n", i%500, i, i)
		if i%97 == 0 {
			fmt.Fprintf(&new, "\tx%d := computeAgain(%d)\n", i%500, i)
			continue
		}
		fmt.Fprintf(&new, "\tx%d := compute(%d) // %d\n", i%500, i, i)
	}
	for range b.N {
		if _, ok := Unified(old.String(), new.String()); !ok {
			b.Fatal("not computed")
		}
	}
}
