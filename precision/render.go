package precision

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/review-my-code-bot/rmc/rmcoc"
)

// Table renders s as plain Markdown tables a team lead can paste: the
// totals, then acceptance by category, score and pass. Every value in it
// is a count or a key from a fixed set: no text anyone wrote.
func Table(s Stats) string {
	var b strings.Builder
	last := fmt.Sprintf("last %d PRs", s.Last.PRs)
	fmt.Fprintf(&b, "| | %s | all time |\n|---|---:|---:|\n", last)
	row := func(name string, f func(Slice) string) {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", name, f(s.Last), f(s.AllTime))
	}
	row("PRs closed", func(x Slice) string { return strconv.Itoa(x.PRs) })
	row("findings posted", func(x Slice) string { return strconv.Itoa(x.Findings.Posted) })
	row("acted on (fixed + accepted)", func(x Slice) string {
		return fmt.Sprintf("%d (%d + %d)", Acted(x.Findings), x.Findings.Fixed, x.Findings.Accepted)
	})
	row("rejected", func(x Slice) string { return strconv.Itoa(x.Findings.Rejected) })
	row("ignored", func(x Slice) string { return strconv.Itoa(x.Findings.Ignored) })
	row("acceptance", func(x Slice) string { return acceptance(x.Findings) })
	row("mean time to fix", func(x Slice) string {
		m, ok := x.MeanFixMinutes()
		return orDash(duration(m), ok)
	})
	row("findings per 1,000 changed lines", func(x Slice) string {
		t, ok := x.PerKLines()
		return orDash(fmt.Sprintf("%d.%d", t/10, t%10), ok)
	})
	row("findings on lines a fix wrote (fix loops)", func(x Slice) string {
		r, ok := Rate(x.FixLoops.Posted, x.Findings.Posted)
		return fmt.Sprintf("%d (%s)", x.FixLoops.Posted, orDash(strconv.Itoa(r)+"%", ok))
	})
	row("of them on my own committed suggestion", func(x Slice) string { return strconv.Itoa(x.OwnSuggestion) })
	row("fix loops acted on", func(x Slice) string { return acceptance(x.FixLoops) })
	fmt.Fprintf(&b, "\nTrend: %s\n", Trend(s))
	breakdown(&b, "category", s, func(x Slice) map[string]rmcoc.Tally { return x.ByCategory }, append(append([]string{}, Categories...), CategoryOther))
	breakdown(&b, "score", s, func(x Slice) map[string]rmcoc.Tally { return x.ByScore }, scoreKeys())
	breakdown(&b, "pass", s, func(x Slice) map[string]rmcoc.Tally { return x.ByPass }, passKeys(s.AllTime.ByPass))
	return b.String()
}

// breakdown writes acceptance by one key, the keys with any finding only.
func breakdown(b *strings.Builder, name string, s Stats, of func(Slice) map[string]rmcoc.Tally, keys []string) {
	var rows []string
	for _, k := range keys {
		all := of(s.AllTime)[k]
		if all.Posted == 0 {
			continue
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s |", k, cell(of(s.Last)[k]), cell(all)))
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(b, "\n| acceptance by %s | last %d PRs | all time |\n|---|---:|---:|\n%s\n", name, s.Last.PRs, strings.Join(rows, "\n"))
}

func cell(t rmcoc.Tally) string {
	if t.Posted == 0 {
		return "–"
	}
	return fmt.Sprintf("%s of %d", acceptance(t), t.Posted)
}

func acceptance(t rmcoc.Tally) string {
	r, ok := Rate(Acted(t), t.Posted)
	return orDash(strconv.Itoa(r)+"%", ok)
}

// Trend compares the last N pull requests' acceptance with the N before.
func Trend(s Stats) string {
	now, ok1 := Rate(Acted(s.Last.Findings), s.Last.Findings.Posted)
	before, ok2 := Rate(Acted(s.Previous.Findings), s.Previous.Findings.Posted)
	switch {
	case !ok1 || !ok2:
		return "not enough closed PRs with findings yet"
	case now > before:
		return fmt.Sprintf("acceptance up from %d%% to %d%% (the %d PRs before against the last %d)", before, now, s.Previous.PRs, s.Last.PRs)
	case now < before:
		return fmt.Sprintf("acceptance down from %d%% to %d%% (the %d PRs before against the last %d)", before, now, s.Previous.PRs, s.Last.PRs)
	}
	return fmt.Sprintf("acceptance steady at %d%%", now)
}

func passKeys(m map[string]rmcoc.Tally) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, _ := strconv.Atoi(keys[i])
		c, _ := strconv.Atoi(keys[j])
		return a < c
	})
	return keys
}

func duration(minutes int) string {
	switch {
	case minutes < 60:
		return fmt.Sprintf("%d min", minutes)
	case minutes < 48*60:
		return fmt.Sprintf("%d h %d min", minutes/60, minutes%60)
	}
	return fmt.Sprintf("%d days", minutes/(24*60))
}

func orDash(s string, ok bool) string {
	if !ok {
		return "–"
	}
	return s
}
