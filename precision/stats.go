package precision

import (
	"strconv"
	"strings"

	"github.com/review-my-code-bot/rmc/rmcoc"
)

// Slice is the precision of a span of closed pull requests.
type Slice struct {
	PRs      int         `json:"prs"`
	Lines    int         `json:"changed_lines"`
	Findings rmcoc.Tally `json:"findings"`
	// ByCategoryScore counts by category and score (CategoryScoreKey);
	// ByCategory, ByScore and ByPass by one of them.
	ByCategoryScore map[string]rmcoc.Tally `json:"by_category_score"`
	ByCategory      map[string]rmcoc.Tally `json:"by_category"`
	ByScore         map[string]rmcoc.Tally `json:"by_score"`
	ByPass          map[string]rmcoc.Tally `json:"by_pass"`
	FixCount        int                    `json:"fix_count"`
	FixMinutes      int                    `json:"fix_minutes_total"`
	// FixLoops counts, by fate, the findings raised on lines a fix for
	// an earlier finding wrote; OwnSuggestion those of them on the bot's
	// own suggestion, committed.
	FixLoops      rmcoc.Tally `json:"fix_loops"`
	OwnSuggestion int         `json:"fix_loops_on_own_suggestion"`
}

// Stats are the ledger's numbers: the last N closed pull requests, the N
// before them (for the trend), and all time.
type Stats struct {
	N        int   `json:"n"`
	Last     Slice `json:"last"`
	Previous Slice `json:"previous"`
	AllTime  Slice `json:"all_time"`
}

// Compute reads the stats from the ledger's newest block (nil: none yet).
// Last covers the newest min(n, recent) pull requests the block holds in
// full; Previous the ones before them, as far as the block holds them.
func Compute(head *rmcoc.Outcomes, n int) Stats {
	s := Stats{N: n, Last: newSlice(), Previous: newSlice(), AllTime: newSlice()}
	if head == nil {
		return s
	}
	r := copyRollUp(head.RollUp)
	s.AllTime.PRs, s.AllTime.Lines, s.AllTime.Findings = r.PRs, r.Lines, r.Findings
	s.AllTime.ByCategoryScore, s.AllTime.ByCategory, s.AllTime.ByPass = r.ByScore, r.ByCategory, r.ByPass
	s.AllTime.FixCount, s.AllTime.FixMinutes = r.FixCount, r.FixMinutes
	s.AllTime.FixLoops, s.AllTime.OwnSuggestion = r.Loops, r.OwnSuggestion
	for i, e := range head.Recent {
		s.AllTime.add(e)
		switch age := len(head.Recent) - i; {
		case age <= n:
			s.Last.add(e)
		case age <= 2*n:
			s.Previous.add(e)
		}
	}
	for _, sl := range []*Slice{&s.Last, &s.Previous, &s.AllTime} {
		sl.split()
	}
	return s
}

func newSlice() Slice {
	return Slice{ByCategoryScore: map[string]rmcoc.Tally{}, ByCategory: map[string]rmcoc.Tally{}, ByScore: map[string]rmcoc.Tally{}, ByPass: map[string]rmcoc.Tally{}}
}

func (s *Slice) add(e rmcoc.PROutcome) {
	var r rmcoc.RollUp
	addPR(&r, e)
	s.PRs++
	s.Lines += e.Lines
	s.FixCount += r.FixCount
	s.FixMinutes += r.FixMinutes
	s.OwnSuggestion += r.OwnSuggestion
	plus(&s.Findings, r.Findings)
	plus(&s.FixLoops, r.Loops)
	merge(s.ByCategoryScore, r.ByScore)
	merge(s.ByCategory, r.ByCategory)
	merge(s.ByPass, r.ByPass)
}

// split derives the by-score counts from the by-category-and-score ones.
func (s *Slice) split() {
	s.ByScore = map[string]rmcoc.Tally{}
	for k, t := range s.ByCategoryScore {
		score := k[strings.LastIndexByte(k, '/')+1:]
		u := s.ByScore[score]
		plus(&u, t)
		s.ByScore[score] = u
	}
}

func merge(dst, src map[string]rmcoc.Tally) {
	for k, t := range src {
		u := dst[k]
		plus(&u, t)
		dst[k] = u
	}
}

func plus(t *rmcoc.Tally, u rmcoc.Tally) {
	t.Posted += u.Posted
	t.Fixed += u.Fixed
	t.Accepted += u.Accepted
	t.Rejected += u.Rejected
	t.Ignored += u.Ignored
}

// Acted is how many findings were acted on: fixed or accepted.
func Acted(t rmcoc.Tally) int { return t.Fixed + t.Accepted }

// Rate is part/whole in percent, rounded down, and false when whole is 0.
func Rate(part, whole int) (int, bool) {
	if whole <= 0 {
		return 0, false
	}
	return part * 100 / whole, true
}

// PerKLines is findings per 1,000 changed lines, in tenths (rounded down),
// and false without changed lines.
func (s Slice) PerKLines() (tenths int, ok bool) {
	if s.Lines <= 0 {
		return 0, false
	}
	return s.Findings.Posted * 10000 / s.Lines, true
}

// MeanFixMinutes is the mean time from a finding to its verified fix.
func (s Slice) MeanFixMinutes() (int, bool) {
	if s.FixCount == 0 {
		return 0, false
	}
	return s.FixMinutes / s.FixCount, true
}

// scoreKeys are the by-score keys in order.
func scoreKeys() []string {
	out := make([]string, 0, 11)
	for i := 10; i >= 0; i-- {
		out = append(out, strconv.Itoa(i))
	}
	return out
}
