package review

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

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

// answered is what one pass said about one chunk: its findings, and with
// Options.Notes the first pass's line on each file of the chunk.
type answered struct {
	pass  Pass
	out   passAnswer
	notes []FileNote
}

// slot is what the passes over one of the review's chunks (and the pieces
// it was split into) answered, in the order they were asked.
type slot struct {
	answers []answered
	err     error
}

// reviewer is one review's working state. The workers that review chunks
// side by side share units, done, res.Chunks and the ceiling's accounts
// under mu; findings are taken into res only after every worker is done,
// in chunk order.
type reviewer struct {
	s        Asker
	opt      Options
	passes   []Pass
	ceiling  Ceiling
	throttle *throttle
	byPath   map[string]*diff.File
	focus    map[string]bool
	known    map[string]bool
	seen     map[string]bool
	learned  []learnedMatcher

	mu       sync.Mutex
	units    []unit
	queue    []job
	done     map[int]uint // unit id → bit set of the pass indexes that saw it
	scale    float64      // the most a request cost over its estimate, for the ceiling
	inflight int          // tokens reserved by requests under way, for the ceiling
	begun    bool         // a chunk holds room under the ceiling
	stopped  bool         // the ceiling stopped the review
	failed   error        // the first failure, which stops the other workers
	res      Result
}

func newReviewer(s Asker, opt Options, anchor []diff.File, known map[string]bool) *reviewer {
	r := &reviewer{s: s, opt: opt, passes: opt.Settings.EnabledPasses(), ceiling: opt.Settings.Ceiling(opt.Spent), byPath: map[string]*diff.File{}, focus: map[string]bool{},
		known: known, seen: map[string]bool{}, learned: compileLearnings(opt.Learnings), done: map[int]uint{},
		throttle: newThrottle(opt.Settings.Concurrency, opt.clock)}
	for i := range anchor {
		r.byPath[anchor[i].Path()] = &anchor[i]
	}
	return r
}

// errStopped ends the review early, for the ceiling: what was found stays.
var errStopped = errors.New("stopped at the ceiling")

// run reviews the queue's chunks, up to Settings.Concurrency at once. The
// answers of each chunk's passes wait in the chunk's slot and are taken in
// chunk order once every worker is done, so which findings are kept, which
// duplicate wins and the order of equal scores do not depend on which
// request finished first. The first failure stops the other workers.
func (r *reviewer) run(ctx context.Context) error {
	jobs := r.queue
	slots := make([]slot, len(jobs))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(r.opt.Settings.Concurrency, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if r.halted() {
					continue // the feeder may have handed it over as the review stopped
				}
				slots[i] = r.chunk(ctx, jobs[i], i+1, len(jobs))
				if slots[i].err != nil {
					r.fail(slots[i].err)
					cancel()
				}
			}
		}()
	}
	for i := range jobs {
		if r.halted() {
			break
		}
		select {
		case next <- i:
		case <-ctx.Done():
		}
	}
	close(next)
	wg.Wait()
	noted := map[string]bool{}
	for _, s := range slots {
		for _, a := range s.answers {
			r.keep(a.out, a.pass)
			for _, n := range a.notes {
				if !noted[n.Path] {
					noted[n.Path] = true
					r.res.Notes = append(r.res.Notes, n)
				}
			}
		}
	}
	if r.failed == nil && ctx.Err() != nil {
		return fmt.Errorf("review stopped: %w", ctx.Err())
	}
	return r.failed
}

// fail records the review's first failure.
func (r *reviewer) fail(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.failed == nil {
		r.failed = err
	}
}

// halted reports whether no further chunk should start.
func (r *reviewer) halted() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stopped || r.failed != nil
}

// chunk reviews one chunk of the queue, part of parts: every pass over it
// in order, and over the pieces it is split into when the model's window
// refuses it, each piece in turn.
func (r *reviewer) chunk(ctx context.Context, j job, part, parts int) slot {
	var s slot
	todo := []job{j}
	for len(todo) > 0 {
		pieces, err := r.review(ctx, todo[0], part, parts, &s)
		if errors.Is(err, errStopped) {
			break
		}
		if err != nil {
			s.err = err
			break
		}
		todo = append(pieces, todo[1:]...)
	}
	return s
}

// review runs the passes from j.from on over one chunk, adding their
// answers to s. A chunk the model's window refuses is split: its pieces
// are returned, owing the passes still to run.
func (r *reviewer) review(ctx context.Context, j job, part, parts int, s *slot) ([]job, error) {
	block, err := prompts.ReviewChunk(prompts.ReviewChunkData{Chunk: part, Chunks: parts, Diff: r.text(j.chunk)})
	if err != nil {
		return nil, err
	}
	asker := r.s.Sub(block)
	// The room under the ceiling the chunk holds for its passes still to
	// run, share tokens each: given back when it stops, however it stops.
	share, shares := 0, 0
	defer func() { r.release(share * shares) }()
	own := 0 // what the chunk's latest request cost
	for p := j.from; p < len(r.passes); p++ {
		pass := r.passes[p]
		// The first pass to read the chunk also writes the walkthrough's
		// lines: the chunk is in its context already.
		noted := r.opt.Notes && p == j.from
		prompt, err := prompts.ReviewPass(prompts.ReviewPassData{Pass: prompts.Pass{N: pass.N, Name: pass.Name, Focus: pass.Focus},
			Chunk: part, Chunks: parts, Found: r.found(s.answers), Problem: r.opt.Settings.ProblemThreshold, Blocking: r.opt.Settings.BlockingThreshold, Notes: noted})
		if err != nil {
			return nil, err
		}
		// What the chunk held is given back and held anew (none on a stop).
		held := share * shares
		est := (r.opt.PrefixChars + len(block) + len(prompt)) / 4
		share, shares, err = r.reserve(max(own, est), len(r.passes)-p, held, p > j.from, fmt.Sprintf("pass %d (%s), part %d of %d", pass.N, pass.Name, part, parts))
		if err != nil {
			return nil, err
		}
		out, notes, used, err := r.ask(ctx, asker, pass, prompt, noted)
		shares--
		r.settle(share, used, est)
		own = used
		if errors.Is(err, llm.ErrContextLength) {
			if pieces, ok := r.split(j.chunk, p); ok {
				return pieces, nil
			}
		}
		if err != nil {
			return nil, fmt.Errorf("review pass %d (%s), chunk %d of %d: %w", pass.N, pass.Name, part, parts, err)
		}
		r.saw(j.chunk, p)
		s.answers = append(s.answers, answered{pass: pass, out: out, notes: r.inChunk(notes, j.chunk)})
	}
	return nil, nil
}

// text renders a chunk, counting it among the review's chunks.
func (r *reviewer) text(c chunk) string {
	r.mu.Lock()
	us := make([]unit, len(c))
	for i, id := range c {
		us[i] = r.units[id]
	}
	r.res.Chunks++
	r.mu.Unlock()
	var b strings.Builder
	for _, u := range us {
		u.write(&b)
	}
	return b.String()
}

// saw marks a chunk's units as seen by pass index p.
func (r *reviewer) saw(c chunk, p int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, id := range c {
		r.done[id] |= 1 << p
	}
}

// reserve holds room under the ceiling for the passes a chunk still owes,
// each a request of about est tokens, besides what the other chunks under
// way hold, or stops the review when there is none; at names the request
// for the partial review's note. It returns each pass's share and how many
// it holds.
//
// A chunk starts only when it can finish: a pass that reads it without
// the others covers nothing, and the next run would read it again. Its
// requests are reckoned at est times the most any request of the run cost
// over its estimate (the answer and the request's framing are not in est).
// Only the review's first chunk may start on room for one request, so
// that a ceiling below one chunk's passes still reviews something. A chunk
// under way (started, holding held) needs room for its next request only,
// reckoned by what its own latest request cost (est then, never another
// chunk's cost: a small chunk is not stopped half read because a big one
// answered last), and goes on when another chunk could not start.
func (r *reviewer) reserve(est, passes, held int, started bool, at string) (share, n int, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped && !started {
		return 0, 0, errStopped
	}
	r.inflight -= held
	next := est
	n = passes
	var spent int
	var over bool
	switch {
	case started:
		spent, over = r.ceiling.over(next + r.inflight)
	default:
		next = int(float64(est) * max(r.scale, 1))
		spent, over = r.ceiling.over(next*n + r.inflight)
		if over && !r.begun {
			n = 1
			spent, over = r.ceiling.over(next + r.inflight)
		}
	}
	if over {
		r.stopped = true
		if r.res.Partial == nil {
			r.res.Partial = &Partial{Max: r.ceiling.Max, Spent: spent, StoppedAt: at}
		}
		return 0, 0, errStopped
	}
	r.begun = true
	r.inflight += next * n
	return next, n, nil
}

// release gives back room a chunk held for passes it will not run.
func (r *reviewer) release(held int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.inflight -= held
}

// settle gives back a request's reservation, used being what it cost and
// est what it was estimated at.
func (r *reviewer) settle(held, used, est int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.inflight -= held
	if est > 0 {
		r.scale = max(r.scale, float64(used)/float64(est))
	}
}

// maxRateWaits bounds the pauses one request waits out after a 429
// before the review fails with it: about nine minutes of pauses.
const maxRateWaits = 12

// inChunk keeps the lines on the chunk's own files, the first for each:
// a path the model made up, or one of another chunk, is dropped.
func (r *reviewer) inChunk(notes []FileNote, c chunk) []FileNote {
	r.mu.Lock()
	in := map[string]bool{}
	for _, id := range c {
		in[r.units[id].path] = true
	}
	r.mu.Unlock()
	var out []FileNote
	for _, n := range notes {
		n.Path = strings.TrimPrefix(strings.TrimSpace(n.Path), "/")
		if in[n.Path] && strings.TrimSpace(n.Change) != "" {
			in[n.Path] = false
			out = append(out, n)
		}
	}
	return out
}

// ask asks one pass, retrying a failure other than the window's; a 429
// pauses the whole review (see throttle) and is asked again without
// spending a retry. used is the tokens every attempt cost. noted asks for
// the lines on the chunk's files too; an answer that does not fit is
// asked again without them, not counted as a retry: the walkthrough's
// lines never cost the review its findings.
func (r *reviewer) ask(ctx context.Context, asker llm.JSONAsker, pass Pass, prompt string, noted bool) (out passAnswer, notes []FileNote, used int, err error) {
	label := llm.Label{Task: r.opt.Task, Step: fmt.Sprintf("pass %d", pass.N)}
	for try, waits := 0, 0; try <= r.opt.Settings.Retries; {
		if err := r.throttle.acquire(ctx); err != nil {
			return out, nil, used, fmt.Errorf("wait to ask %s: %w", label, err)
		}
		var reply llm.Reply
		out, notes, reply, err = askPass(ctx, asker, label, prompt, noted)
		// A pause the endpoint asked for and the client would not wait is
		// not shortened here: the pass fails as the client said.
		limited := errors.Is(err, llm.ErrRateLimited) && !errors.Is(err, llm.ErrWaitRefused)
		r.throttle.release(limited)
		used += tokens(reply.Usage)
		switch {
		case err == nil || ctx.Err() != nil || errors.Is(err, llm.ErrContextLength):
			return out, notes, used, err
		case limited && waits < maxRateWaits:
			waits++
		case noted && errors.Is(err, llm.ErrBadResponse):
			noted = false
		default:
			try++
		}
	}
	return out, notes, used, err
}

// askPass asks a pass once, for its findings, and with noted its lines.
func askPass(ctx context.Context, asker llm.JSONAsker, label llm.Label, prompt string, noted bool) (passAnswer, []FileNote, llm.Reply, error) {
	if !noted {
		out, reply, err := llm.AskJSON[passAnswer](ctx, asker, label, prompt)
		return out, nil, reply, err
	}
	out, reply, err := llm.AskJSON[notedAnswer](ctx, asker, label, prompt)
	return passAnswer{Findings: out.Findings}, out.Files, reply, err
}

// split cuts a refused chunk in two: by its units, or a lone unit by its
// lines. The halves owe the passes from p on.
func (r *reviewer) split(c chunk, p int) ([]job, bool) {
	if len(c) > 1 {
		mid := len(c) / 2
		return []job{{chunk: c[:mid:mid], from: p}, {chunk: c[mid:], from: p}}, true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
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

// found lists what the earlier passes over this chunk found, for the next
// pass: where and what, never the diff it came from. Only the chunk's own
// passes are listed, so a request's prompt does not depend on which other
// chunks finished first.
func (r *reviewer) found(prev []answered) []prompts.Found {
	var out []prompts.Found
	seen := map[string]bool{}
	for _, a := range prev {
		for _, raw := range a.out.Findings {
			f := raw.finding()
			if keep(&f, r.opt.Settings, r.byPath, r.focus, r.known, seen) {
				out = append(out, prompts.Found{Path: f.Path, Line: f.Line, Title: f.Title})
			}
		}
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
