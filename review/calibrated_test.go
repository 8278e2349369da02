package review

import "testing"

// A category's calibrated threshold drops the findings under it that do
// not block, and never one that blocks, whatever threshold it is given.
func TestKeepCalibrated(t *testing.T) {
	t.Parallel()
	opt := DefaultSettings()
	opt.ProblemThreshold, opt.BlockingThreshold = 5, 8
	opt.CategoryThresholds = map[string]int{"style": 9}
	tests := map[string]struct {
		category string
		score    int
		want     bool
	}{
		"style under its threshold":          {"style", 7, false},
		"style at the blocking threshold":    {"style", 8, true},
		"style at its threshold":             {"style", 9, true},
		"another category at the problem":    {"bug", 5, true},
		"another category under the problem": {"bug", 4, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := Finding{Path: "a.go", Line: 1, Title: "x", Score: tc.score, Category: tc.category}
			if got := keep(&f, opt, nil, map[string]bool{"a.go": true}, map[string]bool{}, map[string]bool{}); got != tc.want {
				t.Fatalf("kept %v, want %v", got, tc.want)
			}
		})
	}
}
