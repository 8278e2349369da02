package precision

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/internal/golden"
	"github.com/review-my-code-bot/rmc/rmcoc"
)

// TestCompute builds a ledger of 70 closed pull requests (20 of them
// rolled up) and checks every number against a count made here, straight
// from the entries.
func TestCompute(t *testing.T) {
	t.Parallel()
	const prs, n = 70, 20
	var head *rmcoc.Outcomes
	for i := 1; i <= prs; i++ {
		b := Append(head, int64(i), entry(i))
		head = &b
	}
	if head.RollUp.PRs == 0 {
		t.Fatal("nothing was rolled up: the test does not cover the roll-up")
	}
	s := Compute(head, n)
	check := func(name string, got Slice, from, to int) {
		var want, loops rmcoc.Tally
		lines, fixes, minutes, own := 0, 0, 0, 0
		byCat, byScore, byPass := map[string]int{}, map[string]int{}, map[string]int{}
		for i := from; i <= to; i++ {
			e := entry(i)
			lines += e.Lines
			for _, f := range e.Findings {
				tallies := []*rmcoc.Tally{&want}
				if f.Loop {
					tallies = append(tallies, &loops)
				}
				if f.OwnSuggestion {
					own++
				}
				for _, t := range tallies {
					t.Posted++
					switch f.Fate {
					case rmcoc.FateFixed:
						t.Fixed++
					case rmcoc.FateAccepted:
						t.Accepted++
					case rmcoc.FateRejected:
						t.Rejected++
					case rmcoc.FateIgnored:
						t.Ignored++
					}
				}
				if f.Fate == rmcoc.FateFixed {
					fixes++
					minutes += f.FixMinutes
				}
				byCat[f.Category]++
				byScore[strconv.Itoa(f.Score)]++
				byPass[strconv.Itoa(f.Pass)]++
			}
		}
		if got.PRs != to-from+1 || got.Lines != lines || got.Findings != want || got.FixCount != fixes || got.FixMinutes != minutes {
			t.Errorf("%s: %d PRs, %d lines, %+v, %d fixes in %d min; want %d, %d, %+v, %d in %d", name, got.PRs, got.Lines, got.Findings, got.FixCount, got.FixMinutes, to-from+1, lines, want, fixes, minutes)
		}
		if got.FixLoops != loops || got.OwnSuggestion != own || loops.Posted == 0 || own == 0 {
			t.Errorf("%s: fix loops %+v, %d on an own suggestion; want %+v, %d (and some of each)", name, got.FixLoops, got.OwnSuggestion, loops, own)
		}
		for k, c := range byCat {
			if got.ByCategory[k].Posted != c {
				t.Errorf("%s: category %s posted %d, want %d", name, k, got.ByCategory[k].Posted, c)
			}
		}
		for k, c := range byScore {
			if got.ByScore[k].Posted != c {
				t.Errorf("%s: score %s posted %d, want %d", name, k, got.ByScore[k].Posted, c)
			}
		}
		for k, c := range byPass {
			if got.ByPass[k].Posted != c {
				t.Errorf("%s: pass %s posted %d, want %d", name, k, got.ByPass[k].Posted, c)
			}
		}
		if len(got.ByCategory) != len(byCat) || len(got.ByPass) != len(byPass) {
			t.Errorf("%s: %d categories and %d passes, want %d and %d", name, len(got.ByCategory), len(got.ByPass), len(byCat), len(byPass))
		}
	}
	check("last", s.Last, prs-n+1, prs)
	check("previous", s.Previous, prs-2*n+1, prs-n)
	check("all time", s.AllTime, 1, prs)
	golden.Assert(t, "stats.md", Table(s))
	js, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, "stats.json", string(js)+"\n")
}

func TestTableEmpty(t *testing.T) {
	t.Parallel()
	got := Table(Compute(nil, 20))
	if !strings.Contains(got, "| findings posted | 0 | 0 |") || !strings.Contains(got, "not enough closed PRs") {
		t.Fatalf("empty table:\n%s", got)
	}
}

// slice is a span whose findings of one category are acted on at scores
// 7 and above and rejected below.
func slice(category string, acted, rejected map[int]int) Slice {
	s := newSlice()
	for score, c := range acted {
		s.ByCategoryScore[CategoryScoreKey(category, score)] = rmcoc.Tally{Posted: c, Fixed: c}
	}
	for score, c := range rejected {
		x := s.ByCategoryScore[CategoryScoreKey(category, score)]
		x.Posted += c
		x.Rejected += c
		s.ByCategoryScore[CategoryScoreKey(category, score)] = x
	}
	return s
}

func TestCalibrate(t *testing.T) {
	t.Parallel()
	p := Policy{Problem: 5, Blocking: 8, Floor: 40, MinCount: 20}
	tests := map[string]struct {
		s       Slice
		p       Policy
		suggest map[string]int
		apply   map[string]int
	}{
		"style mostly rejected below 7": {
			s: slice("style", map[int]int{7: 4, 8: 2}, map[int]int{5: 10, 6: 8}), p: p,
			suggest: map[string]int{"style": 7}, apply: map[string]int{"style": 7},
		},
		"one short of the minimum count": {
			s: slice("style", map[int]int{7: 3, 8: 2}, map[int]int{5: 10, 6: 4}), p: p,
			suggest: map[string]int{"style": 7}, apply: map[string]int{},
		},
		"exactly the minimum count": {
			s: slice("style", map[int]int{7: 3, 8: 2}, map[int]int{5: 10, 6: 5}), p: p,
			suggest: map[string]int{"style": 7}, apply: map[string]int{"style": 7},
		},
		"acceptance at the floor is left alone": {
			s: slice("bug", map[int]int{7: 8}, map[int]int{5: 12}), p: p,
			suggest: map[string]int{"bug": 6}, apply: map[string]int{}, // 6 and 7 drop the same: the lower posts more
		},
		"never past the blocking threshold": {
			s: slice("style", map[int]int{10: 4}, map[int]int{5: 10, 6: 8, 7: 3, 8: 3, 9: 3}), p: p,
			suggest: map[string]int{"style": 10}, apply: map[string]int{"style": 8},
		},
		"blocking at the problem threshold leaves nothing to raise": {
			s: slice("style", map[int]int{7: 4}, map[int]int{5: 20}), p: Policy{Problem: 5, Blocking: 5, Floor: 40, MinCount: 20},
			suggest: map[string]int{"style": 6}, apply: map[string]int{},
		},
		"findings acted on at every score": {
			s: slice("bug", map[int]int{5: 10, 9: 10}, nil), p: p,
			suggest: map[string]int{}, apply: map[string]int{},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := map[string]int{}
			for _, a := range Suggest(tc.s, tc.p) {
				got[a.Category] = a.Threshold
			}
			if !equal(got, tc.suggest) {
				t.Errorf("suggest %v, want %v", got, tc.suggest)
			}
			if a := Apply(tc.s, tc.p); !equal(a, tc.apply) {
				t.Errorf("apply %v, want %v", a, tc.apply)
			}
		})
	}
}

func equal(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func TestAppliedText(t *testing.T) {
	t.Parallel()
	p := Policy{Problem: 5, Blocking: 8, Floor: 40, MinCount: 20}
	if AppliedText(nil, p) != "" {
		t.Fatal("text without a raised threshold")
	}
	got := AppliedText(map[string]int{"style": 7, "bug": 6}, p)
	if !strings.Contains(got, "bug 6, style 7, from 5") || !strings.Contains(got, "scoring 8 or more are always posted") {
		t.Fatalf("applied text: %s", got)
	}
}
