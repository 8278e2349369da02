package review

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/prompts"
)

// job is a chunk still to review, from pass index from on (a chunk split
// after the window refused it keeps the passes it already had).
type job struct {
	chunk chunk
	from  int
}

// reviewer is one review's working state.
type reviewer struct {
	s       Asker
	opt     Options
	passes  []Pass
	ceiling Ceiling
	byPath  map[string]*diff.File
	focus   map[string]bool
	known   map[string]bool
	seen    map[string]bool
	learned []learnedMatcher

	units []unit
	queue []job
	done  map[int]uint // unit id → bit set of the pass indexes that saw it
	last  int          // tokens the latest request cost, for the ceiling
	res   Result
}

func newReviewer(s Asker, opt Options, anchor []diff.File, known map[string]bool) *reviewer {
	r := &reviewer{s: s, opt: opt, passes: opt.Settings.EnabledPasses(), ceiling: opt.Settings.Ceiling(opt.Spent), byPath: map[string]*diff.File{}, focus: map[string]bool{},
		known: known, seen: map[string]bool{}, learned: compileLearnings(opt.Learnings), done: map[int]uint{}}
	for i := range anchor {
		r.byPath[anchor[i].Path()] = &anchor[i]
	}
	return r
}

// errStopped ends the review early, for the ceiling: what was found stays.
var errStopped = errors.New("stopped at the ceiling")

// run works through the queue, a chunk at a time, every pass over it.
func (r *reviewer) run(ctx context.Context) error {
	for n := 0; len(r.queue) > 0; n++ {
		j := r.queue[0]
		r.queue = r.queue[1:]
		r.res.Chunks++
		err := r.review(ctx, j, n+1, n+1+len(r.queue))
		if errors.Is(err, errStopped) {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// review runs the passes from j.from on over one chunk. A chunk the
// model's window refuses is split, and its halves go first in the queue
// with the passes still owed.
func (r *reviewer) review(ctx context.Context, j job, part, parts int) error {
	block, err := prompts.ReviewChunk(prompts.ReviewChunkData{Chunk: part, Chunks: parts, Diff: j.chunk.text(r.units)})
	if err != nil {
		return err
	}
	asker := r.s.Sub(block)
	for p := j.from; p < len(r.passes); p++ {
		pass := r.passes[p]
		prompt, err := prompts.ReviewPass(prompts.ReviewPassData{Pass: prompts.Pass{N: pass.N, Name: pass.Name, Focus: pass.Focus},
			Chunk: part, Chunks: parts, Found: r.found(), Problem: r.opt.Settings.ProblemThreshold, Blocking: r.opt.Settings.BlockingThreshold})
		if err != nil {
			return err
		}
		spent, over := r.ceiling.over(max(r.last, (r.opt.PrefixChars+len(block)+len(prompt))/4))
		if over {
			r.res.Partial = &Partial{Max: r.ceiling.Max, Spent: spent, StoppedAt: fmt.Sprintf("pass %d (%s), part %d of %d", pass.N, pass.Name, part, parts)}
			return errStopped
		}
		out, err := r.ask(ctx, asker, pass, prompt)
		if r.ceiling.Spent != nil {
			r.last = tokens(r.ceiling.Spent()) - spent
		}
		if errors.Is(err, llm.ErrContextLength) {
			if halves, ok := r.split(j.chunk, p); ok {
				r.queue = append(halves, r.queue...)
				return nil
			}
		}
		if err != nil {
			return fmt.Errorf("review pass %d (%s), chunk %d of %d: %w", pass.N, pass.Name, part, parts, err)
		}
		for _, id := range j.chunk {
			r.done[id] |= 1 << p
		}
		r.keep(out, pass)
	}
	return nil
}

// ask asks one pass, retrying a failure other than the window's.
func (r *reviewer) ask(ctx context.Context, asker llm.JSONAsker, pass Pass, prompt string) (passAnswer, error) {
	label := llm.Label{Task: r.opt.Task, Step: fmt.Sprintf("pass %d", pass.N)}
	var out passAnswer
	var err error
	for try := 0; try <= r.opt.Settings.Retries; try++ {
		out, _, err = llm.AskJSON[passAnswer](ctx, asker, label, prompt)
		if err == nil || ctx.Err() != nil || errors.Is(err, llm.ErrContextLength) {
			break
		}
	}
	return out, err
}

// split cuts a refused chunk in two: by its units, or a lone unit by its
// lines. The halves owe the passes from p on.
func (r *reviewer) split(c chunk, p int) ([]job, bool) {
	if len(c) > 1 {
		mid := len(c) / 2
		return []job{{chunk: c[:mid:mid], from: p}, {chunk: c[mid:], from: p}}, true
	}
	parts, ok := split(r.units[c[0]], c[0])
	if !ok {
		return nil, false
	}
	var jobs []job
	for _, u := range parts {
		r.units = append(r.units, u)
		jobs = append(jobs, job{chunk: chunk{len(r.units) - 1}, from: p})
	}
	return jobs, true
}

// found lists what this review found so far, for the next request: where
// and what, never the diff it came from.
func (r *reviewer) found() []prompts.Found {
	var out []prompts.Found
	for _, f := range r.res.Findings {
		out = append(out, prompts.Found{Path: f.Path, Line: f.Line, Title: f.Title})
	}
	return out
}

// keep filters a pass's findings into the result.
func (r *reviewer) keep(out passAnswer, pass Pass) {
	for _, a := range out.Findings {
		f := a.finding()
		f.Pass = pass.N
		if !keep(&f, r.opt.Settings, r.byPath, r.focus, r.known, r.seen) {
			r.res.Dropped++
		} else if l, ok := suppressedBy(f, r.learned); ok {
			r.res.Suppressed = append(r.res.Suppressed, Suppressed{f, l})
		} else {
			r.res.Findings = append(r.res.Findings, f)
		}
	}
}

// finish sorts and anchors the findings and states the coverage: a file is
// reviewed when every enabled pass saw every unit of it.
func (r *reviewer) finish(files []diff.File) Result {
	all := uint(1)<<len(r.passes) - 1
	children := map[int][]int{}
	for id, u := range r.units {
		if u.parent >= 0 {
			children[u.parent] = append(children[u.parent], id)
		}
	}
	var seen func(id int) uint
	seen = func(id int) uint {
		got := r.done[id]
		if kids := children[id]; len(kids) > 0 {
			both := all
			for _, k := range kids {
				both &= seen(k)
			}
			got |= both
		}
		return got
	}
	covered := map[string]bool{}
	for _, f := range files {
		covered[f.Path()] = true
	}
	for id, u := range r.units {
		if u.parent < 0 && seen(id) != all {
			covered[u.path] = false
		}
	}
	for _, f := range files {
		if covered[f.Path()] {
			r.res.Reviewed = append(r.res.Reviewed, f.Path())
		} else {
			r.res.Unreviewed = append(r.res.Unreviewed, f.Path())
		}
	}
	if r.res.Partial != nil {
		r.res.Partial.NotCovered = r.res.Unreviewed
	}
	sort.SliceStable(r.res.Findings, func(i, j int) bool { return r.res.Findings[i].Score > r.res.Findings[j].Score })
	anchor(r.res.Findings, r.byPath, r.opt.Settings.MaxInline)
	return r.res
}
