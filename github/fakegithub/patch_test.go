package fakegithub

import (
	"testing"
)

func TestPatchFind(t *testing.T) {
	t.Parallel()
	pp, err := parsePatch(mainPatch)
	if err != nil {
		t.Fatalf("parsing: %v", err)
	}
	tests := map[string]struct {
		side         string
		line         int
		wantOK       bool
		wantPosition int
	}{
		"first context line":        {side: "RIGHT", line: 1, wantOK: true, wantPosition: 1},
		"added line":                {side: "RIGHT", line: 4, wantOK: true, wantPosition: 5},
		"removed line on the left":  {side: "LEFT", line: 3, wantOK: true, wantPosition: 3},
		"context line on the left":  {side: "LEFT", line: 4, wantOK: true, wantPosition: 7},
		"second hunk":               {side: "RIGHT", line: 13, wantOK: true, wantPosition: 11},
		"between hunks":             {side: "RIGHT", line: 9, wantOK: false},
		"past the end":              {side: "RIGHT", line: 16, wantOK: false},
		"added line is not on left": {side: "LEFT", line: 13, wantOK: false},
		"zero":                      {side: "RIGHT", line: 0, wantOK: false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			pl, ok := pp.find(tc.side, tc.line)
			if ok != tc.wantOK || ok && pl.position != tc.wantPosition {
				t.Errorf("find(%s, %d) = position %d, %v; want %d, %v", tc.side, tc.line, pl.position, ok, tc.wantPosition, tc.wantOK)
			}
		})
	}
}

func TestPatchPosition(t *testing.T) {
	t.Parallel()
	pp, err := parsePatch(mainPatch)
	if err != nil {
		t.Fatalf("parsing: %v", err)
	}
	tests := map[string]struct {
		position int
		wantOK   bool
		wantSide string
		wantLine int
	}{
		"removed line":        {position: 3, wantOK: true, wantSide: "LEFT", wantLine: 3},
		"added line":          {position: 6, wantOK: true, wantSide: "RIGHT", wantLine: 5},
		"second hunk header":  {position: 9, wantOK: false},
		"after second header": {position: 10, wantOK: true, wantSide: "RIGHT", wantLine: 12},
		"out of range":        {position: 14, wantOK: false},
		"first header":        {position: 0, wantOK: false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			pl, ok := pp.at(tc.position)
			if ok != tc.wantOK {
				t.Fatalf("at(%d) ok = %v, want %v", tc.position, ok, tc.wantOK)
			}
			if side, line := pl.side(); ok && (side != tc.wantSide || line != tc.wantLine) {
				t.Errorf("at(%d) = %s %d, want %s %d", tc.position, side, line, tc.wantSide, tc.wantLine)
			}
		})
	}
}

func TestPatchErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"text before the first hunk": "+x\n@@ -1 +1 @@\n-a\n+b",
		"malformed header":           "@@ nope @@\n+x",
	}
	for name, patch := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if _, err := parsePatch(patch); err == nil {
				t.Errorf("parsePatch(%q) succeeded", patch)
			}
		})
	}
}

func TestDiffRoundTrip(t *testing.T) {
	t.Parallel()
	tests := map[string][]File{
		"modified":    {{Path: "a.go", Status: "modified", Patch: "@@ -1 +1 @@\n-a\n+b", Additions: 1, Deletions: 1}},
		"added":       {{Path: "new.go", Status: "added", Patch: "@@ -0,0 +1,2 @@\n+x\n+y", Additions: 2}},
		"removed":     {{Path: "old.go", Status: "removed", Patch: "@@ -1 +0,0 @@\n-x", Deletions: 1}},
		"renamed":     {{Path: "b.go", PreviousPath: "a.go", Status: "renamed", Patch: "@@ -1 +1 @@\n-a\n+b", Additions: 1, Deletions: 1}},
		"pure rename": {{Path: "d.go", PreviousPath: "c.go", Status: "renamed"}},
		"two files": {
			{Path: "a.go", Status: "modified", Patch: "@@ -1 +1 @@\n-a\n+b", Additions: 1, Deletions: 1},
			{Path: "b.go", Status: "modified", Patch: mainPatch, Additions: 4, Deletions: 1},
		},
	}
	for name, files := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := splitDiff(joinDiff(files))
			if len(got) != len(files) {
				t.Fatalf("got %d files back, want %d:\n%s", len(got), len(files), joinDiff(files))
			}
			for i := range files {
				if got[i] != files[i] {
					t.Errorf("file %d = %+v\nwant     %+v", i, got[i], files[i])
				}
			}
		})
	}
}
