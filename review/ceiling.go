package review

import (
	"fmt"
	"slices"
	"strings"

	"github.com/review-my-code-bot/rmc/llm"
)

// Ceiling stops a review before a request would take the run past its token
// budget (max_run_tokens): prompt + completion tokens of every model call
// of the run, the review's and the other tasks'.
type Ceiling struct {
	Max   int              // 0 = no ceiling
	Spent func() llm.Usage // the run's usage so far; nil = no ceiling
}

// Partial says where a review stopped and what it left unreviewed.
type Partial struct {
	Max, Spent int
	StoppedAt  string       // "pass 2 (structure), part 1 of 1"
	Unreviewed []Unreviewed // per pass, the files it did not look at
	// NotReviewed are the files no pass looked at.
	NotReviewed []string
}

// Unreviewed is what one pass did not look at.
type Unreviewed struct {
	Pass  string
	Paths []string
}

func tokens(u llm.Usage) int { return u.PromptTokens + u.CompletionTokens }

// estimate is what the next request costs at least: the session sends its
// whole history again, so as much as the last request plus the new prompt
// (about four characters a token).
func (c Ceiling) over(prompt string, last int) (spent int, over bool) {
	if c.Max <= 0 || c.Spent == nil {
		return 0, false
	}
	spent = tokens(c.Spent())
	return spent, spent+last+len(prompt)/4 > c.Max
}

// partial describes a review stopped before pass n's chunk i.
func partial(c Ceiling, spent int, passes []Pass, n, i int, paths [][]string) *Partial {
	p := &Partial{Max: c.Max, Spent: spent, StoppedAt: fmt.Sprintf("pass %d (%s), part %d of %d", passes[n].N, passes[n].Name, i+1, len(paths))}
	all := func(from int) []string {
		var out []string
		for _, ps := range paths[from:] {
			for _, x := range ps {
				if !slices.Contains(out, x) {
					out = append(out, x)
				}
			}
		}
		return out
	}
	for k := n; k < len(passes); k++ {
		from := 0
		if k == n {
			from = i
		}
		p.Unreviewed = append(p.Unreviewed, Unreviewed{Pass: fmt.Sprintf("%d (%s)", passes[k].N, passes[k].Name), Paths: all(from)})
	}
	if n == 0 {
		var seen []string
		for _, ps := range paths[:i] {
			seen = append(seen, ps...)
		}
		for _, x := range all(i) {
			if !slices.Contains(seen, x) {
				p.NotReviewed = append(p.NotReviewed, x)
			}
		}
	}
	return p
}

// Note is the partial review's label, for the review body and the summary.
func (p *Partial) Note() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Partial review: the run reached max_run_tokens (%d tokens, %d spent) and stopped before %s.", p.Max, p.Spent, p.StoppedAt)
	if len(p.NotReviewed) > 0 {
		fmt.Fprintf(&b, " Not reviewed at all: %s.", strings.Join(quoted(p.NotReviewed), ", "))
	}
	for _, u := range p.Unreviewed {
		fmt.Fprintf(&b, " Pass %s did not look at: %s.", u.Pass, strings.Join(quoted(u.Paths), ", "))
	}
	b.WriteString(" The findings above gate the merge; the rest is unreviewed.")
	return b.String()
}

// maxListed bounds each list of paths in the note: a partial review of a
// huge PR must not outgrow the review body.
const maxListed = 20

// quoted renders paths (which the PR's author chose) as code spans on one
// line each, at most maxListed of them.
func quoted(paths []string) []string {
	var out []string
	for i, p := range paths {
		if i == maxListed {
			out = append(out, fmt.Sprintf("and %d more", len(paths)-maxListed))
			break
		}
		p = strings.Map(func(r rune) rune {
			if r < 0x20 || r == 0x7f || r == '`' {
				return '?'
			}
			return r
		}, p)
		out = append(out, "`"+p+"`")
	}
	return out
}
