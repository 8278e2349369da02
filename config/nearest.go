package config

import (
	"fmt"
	"slices"
	"strings"
)

// Nearest is the known name closest to name, for a "did you mean" hint:
// the fewest single-character edits (an insertion, a deletion, a change or
// two neighbours swapped), when they are few enough for a typo (at most a
// third of the name, and at least two); "" when none is that close. Ties go
// to the earlier name in known.
func Nearest(name string, known []string) string {
	name = strings.ToLower(name)
	best, bestDist := "", max(2, len(name)/3)+1
	for _, k := range known {
		if d := editDistance(name, k); d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance of a and b, by
// bytes (names are ASCII).
func editDistance(a, b string) int {
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// didYouMean is the hint for an unknown name: " (did you mean x?)", or
// "" when no known name is near.
func didYouMean(name string, known []string) string {
	if n := Nearest(name, known); n != "" {
		return fmt.Sprintf(" (did you mean %s?)", n)
	}
	return ""
}

// inputPrefix is how the runner passes an input: INPUT_ and its name in
// capitals.
const inputPrefix = "INPUT_"

// UnknownInputs are the warnings for the INPUT_* variables of environ (as
// os.Environ gives them) that name no input: a misspelt input is otherwise
// silently ignored. Each names the nearest known input when one is near.
func UnknownInputs(environ []string) []string {
	names := make([]string, len(Inputs))
	for i, in := range Inputs {
		names[i] = in.Name
	}
	var out []string
	for _, kv := range environ {
		key, _, _ := strings.Cut(kv, "=")
		raw, ok := strings.CutPrefix(key, inputPrefix)
		if !ok {
			continue
		}
		name := strings.ToLower(raw)
		if slices.Contains(names, name) {
			continue
		}
		out = append(out, fmt.Sprintf("unknown input %q is ignored%s; the inputs are listed in docs/inputs.md", name, didYouMean(name, names)))
	}
	slices.Sort(out)
	return out
}
