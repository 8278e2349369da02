package benchmark

import (
	"math"
	"reflect"
	"testing"
)

func yes(g, c int, conf float64) Judged {
	return Judged{Golden: g, Candidate: c, Verdict: Verdict{Match: true, Confidence: conf, Reasoning: "same"}}
}

func no(g, c int) Judged {
	return Judged{Golden: g, Candidate: c, Verdict: Verdict{Reasoning: "different"}}
}

func TestMatch(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		golden, cands int
		verdicts      []Judged
		want          Matching
	}{
		"nothing reported": {
			golden: 2, cands: 0, want: Matching{GoldenBy: []int{-1, -1}, Matched: []bool{}},
		},
		"one to one": {
			golden: 2, cands: 2,
			verdicts: []Judged{yes(0, 0, 0.9), no(0, 1), no(1, 0), yes(1, 1, 0.8)},
			want:     Matching{GoldenBy: []int{0, 1}, Matched: []bool{true, true}},
		},
		"a more confident later candidate takes over, the earlier stays matched": {
			golden: 1, cands: 2,
			verdicts: []Judged{yes(0, 0, 0.6), yes(0, 1, 0.9)},
			want:     Matching{GoldenBy: []int{1}, Matched: []bool{true, true}},
		},
		"a repeat as confident as the first is a false positive": {
			golden: 1, cands: 2,
			verdicts: []Judged{yes(0, 1, 0.7), yes(0, 0, 0.7)},
			want:     Matching{GoldenBy: []int{0}, Matched: []bool{true, false}},
		},
		"a less confident repeat after the match is a false positive": {
			golden: 1, cands: 3,
			verdicts: []Judged{yes(0, 0, 1), no(0, 1), yes(0, 2, 0.8)},
			want:     Matching{GoldenBy: []int{0}, Matched: []bool{true, false, false}},
		},
		"a match with confidence 0 never counts": {
			golden: 1, cands: 1,
			verdicts: []Judged{yes(0, 0, 0)},
			want:     Matching{GoldenBy: []int{-1}, Matched: []bool{false}},
		},
		"one candidate can be the best match of two golden comments": {
			golden: 2, cands: 1,
			verdicts: []Judged{yes(0, 0, 0.8), yes(1, 0, 0.6)},
			want:     Matching{GoldenBy: []int{0, 0}, Matched: []bool{true}},
		},
		"an unparsed answer is no match": {
			golden: 1, cands: 1,
			verdicts: []Judged{{Golden: 0, Candidate: 0, Err: "bad", Verdict: Verdict{Match: true, Confidence: 1}}},
			want:     Matching{GoldenBy: []int{-1}, Matched: []bool{false}},
		},
		"out-of-range indexes are ignored": {
			golden: 1, cands: 1,
			verdicts: []Judged{yes(3, 0, 1), yes(0, 5, 1)},
			want:     Matching{GoldenBy: []int{-1}, Matched: []bool{false}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := PinnedRules.Match(tc.golden, tc.cands, tc.verdicts, nil); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Match = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestCountProfiles(t *testing.T) {
	t.Parallel()
	golden := []Golden{
		{Comment: "a", Severity: "High", Category: "bug"},
		{Comment: "b", Severity: "Low", Category: "style"},
		{Comment: "c", Severity: "Low", Category: "perf"},
		{Comment: "d", Severity: "Medium"}, // uncategorized: in no profile
		{Comment: "e", Severity: "Medium", Category: "test_gap"},
	}
	// a and b and d found; c and e missed; one candidate is noise.
	m := Matching{GoldenBy: []int{0, 1, -1, 2, -1}, Matched: []bool{true, true, true, false}}
	tests := map[Profile]Counts{
		Strict: {TP: 1, FP: 1, FN: 0, Excluded: 2},
		Core:   {TP: 1, FP: 1, FN: 2, Excluded: 2},
		All:    {TP: 2, FP: 1, FN: 2, Excluded: 1},
	}
	for p, want := range tests {
		t.Run(string(p), func(t *testing.T) {
			t.Parallel()
			if got := HeadRules.Count(golden, m, p); got != want {
				t.Errorf("head Count(%s) = %+v, want %+v", p, got, want)
			}
			// The pinned rules read no category: 3 found, 2 missed.
			if got := PinnedRules.Count(golden, m, p); got != (Counts{TP: 3, FP: 1, FN: 2}) {
				t.Errorf("pinned Count(%s) = %+v", p, got)
			}
		})
	}
}

func TestMeasures(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		c            Counts
		p, r, f1, f2 float64
	}{
		"perfect":          {c: Counts{TP: 4}, p: 1, r: 1, f1: 1, f2: 1},
		"nothing reported": {c: Counts{FN: 3}, p: 0, r: 0, f1: 0, f2: 0},
		"nothing to find":  {c: Counts{FP: 2}, p: 0, r: 0, f1: 0, f2: 0},
		"half and half":    {c: Counts{TP: 1, FP: 1, FN: 1}, p: 0.5, r: 0.5, f1: 0.5, f2: 0.5},
		// p=2/3, r=2/5: F1 = 2pr/(p+r) = 0.5; F2 = 5pr/(4p+r) = 0.4348.
		"recall weighs more in F2": {c: Counts{TP: 2, FP: 1, FN: 3}, p: 2.0 / 3, r: 0.4, f1: 0.5, f2: (5 * 2.0 / 3 * 0.4) / (4*2.0/3 + 0.4)},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := scoreOf(1, tc.c)
			for _, x := range []struct {
				name      string
				got, want float64
			}{{"precision", s.Precision, tc.p}, {"recall", s.Recall, tc.r}, {"F1", s.F1, tc.f1}, {"F2", s.F2, tc.f2}} {
				if math.Abs(x.got-x.want) > 1e-9 {
					t.Errorf("%s = %v, want %v", x.name, x.got, x.want)
				}
			}
		})
	}
}

func TestSummarizePerRepoAndOverall(t *testing.T) {
	t.Parallel()
	g := func(cat string) Golden { return Golden{Comment: "x", Severity: "High", Category: cat} }
	prs := []Scored{
		{Repo: "sentry", Golden: []Golden{g("bug"), g("security")}, Matching: Matching{GoldenBy: []int{0, -1}, Matched: []bool{true, false}}},
		{Repo: "sentry", Golden: []Golden{g("bug")}, Matching: Matching{GoldenBy: []int{0}, Matched: []bool{true}}},
		{Repo: "grafana", Golden: []Golden{g("style")}, Matching: Matching{GoldenBy: []int{0}, Matched: []bool{true, false, false}}},
		// Clean PRs: out of precision and recall, every finding a false alarm.
		{Repo: "grafana", Matching: Matching{GoldenBy: []int{}, Matched: []bool{false, false}}},
		{Repo: "sentry", Matching: Matching{GoldenBy: []int{}, Matched: []bool{false}}},
		{Repo: "sentry", Matching: Matching{GoldenBy: []int{}, Matched: []bool{}}},
	}
	s := HeadRules.Summarize(prs, Core)
	want := map[string]Counts{
		"sentry":  {TP: 2, FP: 1, FN: 1},
		"grafana": {TP: 0, FP: 2, FN: 0, Excluded: 1},
	}
	for repo, c := range want {
		if got := s.Repos[repo].Counts; got != c {
			t.Errorf("%s: %+v, want %+v", repo, got, c)
		}
	}
	if got, want := s.Overall.Counts, (Counts{TP: 2, FP: 3, FN: 1, Excluded: 1}); got != want {
		t.Errorf("overall %+v, want %+v", got, want)
	}
	if s.Overall.PRs != 3 || s.Repos["sentry"].PRs != 2 {
		t.Errorf("PR counts: overall %d, sentry %d", s.Overall.PRs, s.Repos["sentry"].PRs)
	}
	if math.Abs(s.Overall.Precision-0.4) > 1e-9 || math.Abs(s.Overall.Recall-2.0/3) > 1e-9 {
		t.Errorf("overall precision %v recall %v, want 0.4 and 0.667", s.Overall.Precision, s.Overall.Recall)
	}
	if want := (Clean{PRs: 3, FalseAlarms: 3, PerPR: 1}); s.Clean != want {
		t.Errorf("clean PRs %+v, want %+v", s.Clean, want)
	}
	if got := s.RepoNames(); !reflect.DeepEqual(got, []string{"grafana", "sentry"}) {
		t.Errorf("RepoNames = %v", got)
	}
}

func TestParseProfile(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"strict", "core", "all"} {
		if _, err := ParseProfile(s); err != nil {
			t.Errorf("ParseProfile(%q): %v", s, err)
		}
	}
	for _, s := range []string{"", "Core", "lenient"} {
		if _, err := ParseProfile(s); err == nil {
			t.Errorf("ParseProfile(%q) succeeded", s)
		}
	}
}
