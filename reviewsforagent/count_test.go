package reviewsforagent

import (
	"testing"

	"github.com/review-my-code-bot/rmc/diff"
)

// TestCountFile checks the counts the page sizes an unparsed file by (its
// rows, and its longest line for the table's width): in the split layout a run of deletions sits beside the additions that follow it,
// so the run takes as many rows as the longer side, and a context line one.
func TestCountFile(t *testing.T) {
	t.Parallel()
	const head = "diff --git a/f.go b/f.go\nindex 1111111..2222222 100644\n--- a/f.go\n+++ b/f.go\n"
	tests := map[string]struct {
		hunks string
		want  fileInfo
	}{
		"a change between context": {
			hunks: "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n",
			want:  fileInfo{Lines: 4, Added: 1, Deleted: 1, Hunks: 1, SplitRows: 3, Width: 1},
		},
		"more added than deleted": {
			hunks: "@@ -1,3 +1,5 @@\n a\n-b\n+B\n+C\n+D\n c\n",
			want:  fileInfo{Lines: 6, Added: 3, Deleted: 1, Hunks: 1, SplitRows: 5, Width: 1},
		},
		"a deletion after additions starts a new change": {
			// -a beside +A and +A2 takes 2 rows, -b and -c 2 more, d one:
			// read as one change, the five would take 3 rows and d one.
			hunks: "@@ -1,4 +1,3 @@\n-a\n+A\n+A2\n-b\n-c\n d\n",
			want:  fileInfo{Lines: 6, Added: 2, Deleted: 3, Hunks: 1, SplitRows: 5, Width: 2},
		},
		"the width counts a tab four and an emoji two, as the page lays them out": {
			hunks: "@@ -1,1 +1,2 @@\n a\n+\tb\U0001F600\n",
			want:  fileInfo{Lines: 2, Added: 1, Hunks: 1, SplitRows: 2, Width: 7},
		},
		"a change at the end of a hunk": {
			hunks: "@@ -1,2 +1,2 @@\n a\n-b\n+B\n@@ -9,1 +9,2 @@\n z\n+y\n",
			want:  fileInfo{Lines: 5, Added: 2, Deleted: 1, Hunks: 2, SplitRows: 4, Width: 1},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			files, err := diff.Parse(head + tt.hunks)
			if err != nil || len(files) != 1 {
				t.Fatalf("parse: %d files, %v", len(files), err)
			}
			var got fileInfo
			countFile(&got, files[0])
			if got != tt.want {
				t.Errorf("countFile = %+v, want %+v", got, tt.want)
			}
		})
	}
}
