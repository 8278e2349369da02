package precision

import (
	"fmt"
	"strconv"
	"strings"
)

// Policy is how calibration may act on the stats.
type Policy struct {
	// Problem and Blocking are the configured thresholds: calibration
	// raises a category's problem threshold from Problem and never past
	// Blocking, so a blocking finding is always posted and always blocks.
	Problem, Blocking int
	// Floor is the acceptance, in percent, under which a category's
	// threshold is raised; MinCount the findings it needs acted on or
	// rejected before the evidence counts.
	Floor, MinCount int
}

// Advice is one category's threshold the evidence supports.
type Advice struct {
	Category  string
	Threshold int // the problem threshold that would have served best
	// Judged are its findings acted on or rejected (ignored ones say
	// nothing); Acted of them were acted on. KeptActed and DroppedRejected
	// are what Threshold would have kept and dropped.
	Judged, Acted              int
	KeptActed, DroppedRejected int
}

// Suggest is, per category with findings, the problem threshold from
// p.Problem up to 10 that would have kept the most acted-on findings net
// of the rejected ones kept (the lowest such, ties going to posting
// more), when it differs from p.Problem.
func Suggest(s Slice, p Policy) []Advice {
	var out []Advice
	for _, c := range append(append([]string{}, Categories...), CategoryOther) {
		a := advise(s, c, p.Problem)
		if a.Judged > 0 && a.Threshold != p.Problem {
			out = append(out, a)
		}
	}
	return out
}

func advise(s Slice, c string, problem int) Advice {
	a := Advice{Category: c, Threshold: problem}
	best := -1 << 30
	for t := problem; t <= 10; t++ {
		kept, dropped, net := 0, 0, 0
		for score := 0; score <= 10; score++ {
			x := s.ByCategoryScore[CategoryScoreKey(c, score)]
			if score >= t {
				kept += Acted(x)
				net += Acted(x) - x.Rejected
			} else {
				dropped += x.Rejected
			}
			if t == problem {
				a.Judged += Acted(x) + x.Rejected
				a.Acted += Acted(x)
			}
		}
		if net > best {
			best, a.Threshold, a.KeptActed, a.DroppedRejected = net, t, kept, dropped
		}
	}
	return a
}

// Apply is the raised problem threshold of each category whose acceptance
// is under p.Floor with at least p.MinCount judged findings: the suggested
// threshold, capped at p.Blocking. A category it does not name keeps
// p.Problem.
func Apply(s Slice, p Policy) map[string]int {
	out := map[string]int{}
	for _, a := range Suggest(s, p) {
		rate, _ := Rate(a.Acted, a.Judged)
		if a.Judged < p.MinCount || rate >= p.Floor {
			continue
		}
		if t := min(a.Threshold, p.Blocking); t > p.Problem {
			out[a.Category] = t
		}
	}
	return out
}

// SuggestText writes the advice as Markdown lines, "" when there is none.
func SuggestText(advice []Advice) string {
	var b strings.Builder
	for _, a := range advice {
		rate, _ := Rate(a.Acted, a.Judged)
		fmt.Fprintf(&b, "- %s: a problem threshold of %d would have kept %d of %d acted-on findings and dropped %d rejected ones (acceptance %d%% of %d judged)\n",
			a.Category, a.Threshold, a.KeptActed, a.Acted, a.DroppedRejected, rate, a.Judged)
	}
	return b.String()
}

// AppliedText is what a review body says of the thresholds Apply raised,
// "" when none: every review they filter says so.
func AppliedText(raised map[string]int, p Policy) string {
	if len(raised) == 0 {
		return ""
	}
	var parts []string
	for _, c := range append(append([]string{}, Categories...), CategoryOther) {
		if t, ok := raised[c]; ok {
			parts = append(parts, c+" "+strconv.Itoa(t))
		}
	}
	return fmt.Sprintf("Calibrated (calibrate: apply): the problem threshold is raised for %s, from %d, because fewer than %d%% of at least %d such findings were acted on here. Findings scoring %d or more are always posted.",
		strings.Join(parts, ", "), p.Problem, p.Floor, p.MinCount, p.Blocking)
}
