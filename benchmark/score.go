package benchmark

import (
	"fmt"
	"slices"
	"sort"
)

// Profile chooses which golden categories count, as the public scorer's
// profiles do (offline/analysis/score_profiles.py).
type Profile string

// The profiles.
const (
	Strict Profile = "strict"
	Core   Profile = "core"
	All    Profile = "all"
)

var profileCategories = map[Profile][]string{
	Strict: {"bug", "security", "concurrency", "data", "api"},
	Core:   {"bug", "security", "concurrency", "data", "api", "perf", "test_gap", "doc_defect"},
	All:    {"bug", "security", "concurrency", "data", "api", "perf", "test_gap", "doc_defect", "style", "speculative"},
}

// ParseProfile reads --profile.
func ParseProfile(s string) (Profile, error) {
	p := Profile(s)
	if _, ok := profileCategories[p]; !ok {
		return "", fmt.Errorf("profile %q is not strict, core or all", s)
	}
	return p, nil
}

// Categories lists the categories the profile counts.
func (p Profile) Categories() []string { return profileCategories[p] }

// Includes reports whether a golden comment of category counts under p, as
// upstream's score_profiles.py decides: a comment without a category is in
// no profile. Profiles belong to the head rule set; the pinned one counts
// every golden comment (see Rules.Counts).
func (p Profile) Includes(category string) bool {
	return known(profileCategories[p], category)
}

// Rules is a rule set of the public benchmark: what its scorer did at one
// commit. A run is scored with one rule set and the report names it; only
// a run scored with the leaderboard's rule set is ranked beside it.
type Rules string

// The rule sets read from upstream's scorer.
const (
	// PinnedRules are the rules at the pinned commit (012d682,
	// step3_judge_comments.py): every golden comment counts, a candidate
	// text repeated word for word is one candidate, every other candidate
	// that raises no golden comment's best confidence is a false positive.
	// The leaderboard was measured with them.
	PinnedRules Rules = "pinned"
	// HeadRules are the rules upstream moved to after the pin (step3 with
	// dedup groups, analysis/score_profiles.py): a candidate in one
	// duplicate group with a matched candidate is not a false positive,
	// and only golden comments whose category is in the profile count
	// (found or missed); one without a category counts under none.
	HeadRules Rules = "head"
)

// HeadCommits name where the head rule set was read.
const HeadCommits = "step3_judge_comments.py@18c30f9, analysis/score_profiles.py@01776de"

// ParseRules reads --rules.
func ParseRules(s string) (Rules, error) {
	switch r := Rules(s); r {
	case PinnedRules, HeadRules:
		return r, nil
	}
	return "", fmt.Errorf("rules %q are not pinned or head", s)
}

// Describe says where the rule set comes from, for the report.
func (r Rules) Describe() string {
	switch r {
	case PinnedRules:
		return "pinned: " + CRBRepo + "@" + DefaultCRBCommit[:7] + " (step3_judge_comments.py: every golden comment counts; a repeated candidate text is one candidate; no duplicate groups)"
	case HeadRules:
		return "head: " + CRBRepo + " " + HeadCommits + " (duplicate groups are not false positives; only golden comments in the profile's categories count)"
	}
	return string(r)
}

// Verdict is the judge's answer for one golden comment and one candidate.
type Verdict struct {
	Reasoning  string  `json:"reasoning" jsonschema:"one or two sentences: why they are or are not the same issue"`
	Match      bool    `json:"match" jsonschema:"whether the candidate identifies the same underlying issue"`
	Confidence float64 `json:"confidence" jsonschema:"from 0 to 1"`
}

// Judged is a verdict on the pair (Golden, Candidate), indexes into the
// PR's golden comments and candidates. Err is set when the judge gave no
// usable answer; such a pair counts as no match, as in the public scorer.
type Judged struct {
	Golden    int    `json:"golden"`
	Candidate int    `json:"candidate"`
	Err       string `json:"error,omitempty"`
	Verdict
}

// Matching is what the verdicts decide for one PR.
type Matching struct {
	// GoldenBy[i] is the candidate that matches golden comment i with the
	// highest confidence (the first such in golden-then-candidate order),
	// or -1.
	GoldenBy []int `json:"golden_matched_by"`
	// Matched[j] reports that candidate j was, at some point of the walk
	// through the verdicts, the best match of a golden comment (or, under
	// HeadRules, shares a duplicate group with one that was): it is not a
	// false positive.
	Matched []bool `json:"candidate_matched"`
}

// Match applies upstream's rule (step 3 of the public benchmark's
// pipeline) to nGolden golden comments and nCand candidates. Verdicts are
// walked golden comment by golden comment, candidates in order; a verdict
// counts only when it says match and its confidence is above that golden
// comment's best so far (which starts at 0). The candidate that raised it
// is marked matched. So a second report of an issue already matched with
// equal or higher confidence stays a false positive, and a match with
// confidence 0 never counts. A verdict the judge could not give (Err) is no
// match.
//
// Under HeadRules a candidate that is matched marks the
// other candidates of its duplicate group (indexes into the candidates)
// matched too, as upstream's step 3 does with step 2.5's groups; under
// PinnedRules groups are ignored.
func (r Rules) Match(nGolden, nCand int, verdicts []Judged, groups [][]int) Matching {
	m := Matching{GoldenBy: make([]int, nGolden), Matched: make([]bool, nCand)}
	best := make([]float64, nGolden)
	for i := range m.GoldenBy {
		m.GoldenBy[i] = -1
	}
	ordered := append([]Judged(nil), verdicts...)
	sort.SliceStable(ordered, func(a, b int) bool {
		if ordered[a].Golden != ordered[b].Golden {
			return ordered[a].Golden < ordered[b].Golden
		}
		return ordered[a].Candidate < ordered[b].Candidate
	})
	for _, v := range ordered {
		if v.Err != "" || !v.Match || v.Golden < 0 || v.Golden >= nGolden || v.Candidate < 0 || v.Candidate >= nCand {
			continue
		}
		if v.Confidence > best[v.Golden] {
			m.GoldenBy[v.Golden], best[v.Golden] = v.Candidate, v.Confidence
			m.Matched[v.Candidate] = true
			if r == HeadRules {
				markSiblings(m.Matched, groups, v.Candidate)
			}
		}
	}
	return m
}

// markSiblings marks matched every candidate that shares a group with c.
func markSiblings(matched []bool, groups [][]int, c int) {
	for _, g := range groups {
		if !slices.Contains(g, c) {
			continue
		}
		for _, j := range g {
			if j >= 0 && j < len(matched) {
				matched[j] = true
			}
		}
	}
}

// Counts are true positives (golden comments found), false positives
// (candidates that match nothing) and false negatives (golden comments
// missed) under one profile. Excluded counts golden comments that were
// found but fall outside the profile: neither rewarded nor penalized.
type Counts struct {
	TP       int `json:"tp"`
	FP       int `json:"fp"`
	FN       int `json:"fn"`
	Excluded int `json:"matched_excluded"`
}

// Count scores one PR. Under PinnedRules every golden comment counts and p
// is not read; under HeadRules a golden comment outside p is neither found
// nor missed.
func (r Rules) Count(golden []Golden, m Matching, p Profile) Counts {
	var c Counts
	for i, g := range golden {
		found := i < len(m.GoldenBy) && m.GoldenBy[i] >= 0
		switch {
		case r == HeadRules && !p.Includes(g.Category):
			if found {
				c.Excluded++
			}
		case found:
			c.TP++
		default:
			c.FN++
		}
	}
	for _, ok := range m.Matched {
		if !ok {
			c.FP++
		}
	}
	return c
}

// Add sums counts.
func (c Counts) Add(o Counts) Counts {
	return Counts{TP: c.TP + o.TP, FP: c.FP + o.FP, FN: c.FN + o.FN, Excluded: c.Excluded + o.Excluded}
}

// Precision is TP/(TP+FP); 0 when there were no candidates.
func (c Counts) Precision() float64 { return ratio(c.TP, c.TP+c.FP) }

// Recall is TP/(TP+FN); 0 when there was nothing to find.
func (c Counts) Recall() float64 { return ratio(c.TP, c.TP+c.FN) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// FBeta is the weighted harmonic mean of precision and recall: beta 1 is
// F1, beta 2 weighs recall four times as much (F2).
func FBeta(precision, recall, beta float64) float64 {
	b2 := beta * beta
	d := b2*precision + recall
	if d == 0 {
		return 0
	}
	return (1 + b2) * precision * recall / d
}

// Score is a row of the report: counts and the measures derived from them.
type Score struct {
	PRs int `json:"prs"`
	Counts
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
	F2        float64 `json:"f2"`
}

func scoreOf(prs int, c Counts) Score {
	p, r := c.Precision(), c.Recall()
	return Score{PRs: prs, Counts: c, Precision: p, Recall: r, F1: FBeta(p, r, 1), F2: FBeta(p, r, 2)}
}

// Scored is the part of a PR's result scoring reads.
type Scored struct {
	Repo     string
	Golden   []Golden
	Matching Matching
}

// Summary is a run's score per repository and overall.
type Summary struct {
	Rules   Rules            `json:"rules"`
	Profile Profile          `json:"profile"`
	Overall Score            `json:"overall"`
	Repos   map[string]Score `json:"repos"`
	// Clean is what the model reported on PRs without golden comments.
	Clean Clean `json:"clean"`
}

// Clean counts PRs with no known problem. Upstream leaves such PRs out of
// precision and recall (there is nothing to find); every finding on one is
// a false alarm, reported here per clean PR.
type Clean struct {
	PRs         int     `json:"prs"`
	FalseAlarms int     `json:"false_alarms"`
	PerPR       float64 `json:"false_alarms_per_pr"`
}

// RepoNames lists the repositories in order.
func (s Summary) RepoNames() []string {
	names := make([]string, 0, len(s.Repos))
	for n := range s.Repos {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Summarize pools the counts of every PR (a micro-average, as the public
// scorer does), per repository and overall. PRs without golden comments
// are counted apart (Clean).
func (r Rules) Summarize(prs []Scored, p Profile) Summary {
	var total Counts
	var clean Clean
	repo := map[string]Counts{}
	n := map[string]int{}
	for _, pr := range prs {
		if len(pr.Golden) == 0 {
			clean.PRs++
			clean.FalseAlarms += len(pr.Matching.Matched)
			continue
		}
		c := r.Count(pr.Golden, pr.Matching, p)
		total = total.Add(c)
		repo[pr.Repo] = repo[pr.Repo].Add(c)
		n[pr.Repo]++
	}
	if clean.PRs > 0 {
		clean.PerPR = float64(clean.FalseAlarms) / float64(clean.PRs)
	}
	s := Summary{Rules: r, Profile: p, Overall: scoreOf(sum(n), total), Repos: map[string]Score{}, Clean: clean}
	for r, c := range repo {
		s.Repos[r] = scoreOf(n[r], c)
	}
	return s
}

func sum(n map[string]int) int {
	t := 0
	for _, v := range n {
		t += v
	}
	return t
}
