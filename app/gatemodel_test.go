package app

import (
	"flag"
	"fmt"
	"math/rand"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// The model-based test of the merge gate: random histories of a pull
// request, each step applied to the fake GitHub and followed by the runs it
// starts against the scripted model; after every step the status on the
// head is checked against an oracle that knows nothing of trees, blob ids,
// blocks or the ledger (gatemodel_oracle_test.go says its rule). A failure
// is shrunk to a minimal history.
//
//	go test ./app -run TestGateModel -gate.seed 7 -gate.n 5000
//	go test ./app -run TestGateModel -gate.off regress,cut,redispute
//	go test ./app -run 'TestGateModelOptionHistories/gap:_a_second' -gate.log
var (
	gateSeed = flag.Int64("gate.seed", 1, "seed of the gate's model-based test")
	gateN    = flag.Int("gate.n", 0, "histories the gate's model-based test runs (0: 2,000, or 100 with -short)")
	gateLog  = flag.Bool("gate.log", false, "write every run's log of the gate's model-based test to stderr (with -run naming one history row)")
	gateOff  = flag.String("gate.off", "", "step options ("+strings.Join(optionNames[:], ", ")+") or step kinds the gate's model-based test leaves out, comma-separated")
)

// stepKind is one kind of thing that happens to a PR.
type stepKind int

const (
	stepEdit          stepKind = iota // a push that edits a file
	stepAdd                           // a push that adds a file in some directory
	stepDelete                        // a push that deletes a file
	stepRename                        // a push that renames a file, same content
	stepRevert                        // a push that reverts a file to an earlier content (never to one a finding was raised on: see stepRegress)
	stepForceBack                     // a force-push back to an earlier head (same)
	stepBinary                        // a push that adds or replaces a file with binary content
	stepTextForBin                    // a push that replaces a binary file with text (GitHub: no patch)
	stepHuge                          // a push of a text file too large for a diff
	stepBigDir                        // a push of a new directory past the tree limit
	stepWideDir                       // a push into a directory that holds more entries than a tree answer
	stepIgnored                       // a push of a file under gen/, which the base excludes
	stepBug                           // a push of a file with a bug the model reports as blocking
	stepFix                           // a push that takes a bug out of its file
	stepCapped                        // a comment run whose review the token ceiling cuts short
	stepComment                       // a comment run (owed reviews resume)
	stepCancelled                     // a push whose run never happened
	stepTamper                        // [cut] a person edits the bot's latest review body (its coverage and findings ledger)
	stepDeleteThread                  // a person deletes a finding's comment
	stepWideEdit                      // a push that edits a file in each of many directories
	stepSecondPR                      // a second open PR whose head is PR 1's head: opened, or moved to it; its run
	stepCloseSecond                   // the second PR is closed; a comment run on PR 1
	stepOverlap                       // a push and two runs on its snapshot, the push's held at its review until the other finished
	stepOverlapStale                  // a comment run held while a push is reviewed, finishing last on the old head
	stepResolveAuthor                 // the author comments "@rmc-bot resolve" (no effect)
	stepResolveMaint                  // a maintainer comments "@rmc-bot resolve" (closes what is open then)
	stepWaive                         // "@rmc-bot waive <id>" of a deleted finding, by the author or a maintainer
	stepDispute                       // the author disputes a finding; the model concedes or maintains
	stepRegress                       // [regress] a push that brings back a content a finding was raised on, after it was closed
	stepDeleteReply                   // [cut] a person deletes the bot's latest reply in a finding's thread (a verdict, a fix)
	stepEditFinding                   // [cut] a person edits a bot finding's comment
	stepRedispute                     // [redispute] the author disputes again a content a dispute was maintained on
	stepOverlapRace                   // [race] a push and two runs on its snapshot, one held where its read and its write race the other's
	numSteps
)

var stepNames = [...]string{"edit", "add", "delete", "rename", "revert", "force-back", "binary", "text-for-binary", "huge", "big-dir",
	"wide-dir", "ignored", "bug", "fix", "capped-run", "comment-run", "cancelled-push", "tamper-review", "delete-thread", "wide-edit",
	"second-pr", "close-second", "overlap", "overlap-stale", "resolve-by-author", "resolve-by-maintainer", "waive", "dispute",
	"regress", "delete-reply", "edit-finding", "redispute", "overlap-race"}

func (k stepKind) String() string { return stepNames[k] }

// option is a group of step kinds for behaviour the gate may not have yet:
// each is on by default and -gate.off leaves it out (as it leaves out a
// step kind it names).
type option int

const (
	optRegress   option = iota // decisions bound to the content they judged: a revert reopens
	optCut                     // a cut ledger (deleted replies, edited blocks) blocks until a maintainer clears it
	optRedispute               // a dispute is judged once per content
	optRace                    // a status read and then written by one run, another run's write between
	numOptions
)

var optionNames = [numOptions]string{"regress", "cut", "redispute", "race"}

// optionOf is the option a step kind needs, numOptions for none.
func optionOf(k stepKind) option {
	if o, ok := optionKinds[k]; ok {
		return o
	}
	return numOptions
}

var optionKinds = map[stepKind]option{stepRegress: optRegress, stepTamper: optCut, stepDeleteReply: optCut, stepEditFinding: optCut,
	stepRedispute: optRedispute, stepOverlapRace: optRace}

// options are the step kinds a history may draw: every kind but those
// -gate.off names, by option or by kind.
type options [numSteps]bool

func parseOptions(off string) (options, error) {
	var o options
	for k := range o {
		o[k] = true
	}
	for _, name := range strings.Split(off, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		opt, kind := slices.Index(optionNames[:], name), slices.Index(stepNames[:], name)
		if opt < 0 && kind < 0 {
			return o, fmt.Errorf("-gate.off: no option or step kind %q (options: %s)", name, strings.Join(optionNames[:], ", "))
		}
		for k := range numSteps {
			if k == stepKind(kind) || opt >= 0 && optionOf(k) == option(opt) {
				o[k] = false
			}
		}
	}
	return o, nil
}

type step struct {
	kind stepKind
	a, b int // the step's random choices
}

func (s step) String() string { return fmt.Sprintf("%s(%d,%d)", s.kind, s.a, s.b) }

// history is one generated history: the limit of GitHub's lists and its
// steps.
type history struct {
	limit int // entries per tree answer and files in a PR's files list (0: GitHub's, 100,000 and 3,000)
	steps []step
}

func (h history) String() string {
	var parts []string
	for _, s := range h.steps {
		parts = append(parts, s.String())
	}
	return fmt.Sprintf("limit %d: %s", h.limit, strings.Join(parts, " → "))
}

// rare kinds are drawn less often: they are heavy.
func rare(k stepKind) bool {
	return k == stepBigDir || k == stepWideDir || k == stepWideEdit
}

func genHistory(rng *rand.Rand, opts options) history {
	var kinds []stepKind
	for k := range numSteps {
		if opts[k] {
			kinds = append(kinds, k)
		}
	}
	h := history{limit: []int{0, 0, 8}[rng.Intn(3)]}
	for range 3 + rng.Intn(8) {
		k := kinds[rng.Intn(len(kinds))]
		switch {
		case rng.Intn(8) == 0:
			k = stepBug // most steps act on findings: a history needs some
		case rare(k):
			k = kinds[rng.Intn(len(kinds))]
		}
		h.steps = append(h.steps, step{k, rng.Intn(1000), rng.Intn(1000)})
	}
	return h
}

// replayed is what replaying a history found.
type replayed struct {
	at        int // the first step after which the gate and the oracle disagree, -1 for none
	got, want string
	checked   []bool // per step: whether it did something and the gate was checked after it
	held      int    // runs held at a write while another ran
}

// replay runs a history and stops at the first disagreement.
func replay(t testing.TB, h history) replayed {
	m := newModelWorld(t, h.limit)
	// The PR opens, and its pull_request run sets the gate: a run that
	// changes nothing (a comment's) leaves a head without a status as it
	// is, for the head's own automatic run.
	m.run(m.pushRun(m.prs[0], 0))
	o := replayed{at: -1}
	for i, s := range h.steps {
		did := m.step(s)
		o.checked = append(o.checked, did)
		if !did {
			continue
		}
		if got, want := m.gate(), m.oracle(); got != want {
			o.at, o.got, o.want, o.held = i, got, want, m.overlapped
			return o
		}
		if _, push := edits[s.kind]; push {
			if owed := m.owedAfterARun(); len(owed) > 0 {
				o.at, o.got, o.want, o.held = i, owing+strings.Join(owed, ", ")+" after its run", "every changed file reviewed", m.overlapped
				return o
			}
		}
	}
	o.held = m.overlapped
	return o
}

// shrink removes steps from a failing history while it still fails.
func shrink(t testing.TB, h history) history {
	for changed := true; changed; {
		changed = false
		for i := range h.steps {
			c := history{limit: h.limit, steps: append(append([]step(nil), h.steps[:i]...), h.steps[i+1:]...)}
			if replay(t, c).at >= 0 {
				h, changed = c, true
				break
			}
		}
		if h.limit != 0 && !changed {
			if c := (history{steps: h.steps}); replay(t, c).at >= 0 {
				h, changed = c, true
			}
		}
	}
	return h
}

// The gate's invariant over random histories (see the oracle).
func TestGateModel(t *testing.T) {
	t.Parallel()
	opts, err := parseOptions(*gateOff)
	if err != nil {
		t.Fatal(err)
	}
	n := *gateN
	switch {
	case n > 0:
	case testing.Short():
		n = 100
	default:
		n = 2000
	}
	rng := rand.New(rand.NewSource(*gateSeed))
	hs := make([]history, n)
	for i := range hs {
		hs[i] = genHistory(rng, opts)
	}
	// Histories are independent worlds: they run on every core, and the
	// first failure (in history order) is shrunk and reported.
	outs := make([]replayed, n)
	var wg sync.WaitGroup
	next := atomic.Int64{}
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				outs[i] = replay(t, hs[i])
			}
		}()
	}
	wg.Wait()
	var failed []int
	for i, o := range outs {
		if o.at >= 0 {
			failed = append(failed, i)
		}
	}
	// Each failing history is shrunk and reported, up to maxReported: two
	// histories may fail for two causes.
	for _, i := range failed[:min(len(failed), maxReported)] {
		o := outs[i]
		shrunk := shrink(t, hs[i])
		m := replay(t, shrunk)
		t.Errorf("history %d (seed %d) broke the invariant at step %d: gate %s, oracle %s (%s)\n  history: %s\n  shrunk:  %s (gate %s, oracle %s)",
			i, *gateSeed, o.at, o.got, o.want, kindOf(o.got, o.want), hs[i], shrunk, m.got, m.want)
	}
	if len(failed) > 0 {
		t.Errorf("%d of %d histories broke the invariant", len(failed), n)
	}
	held := 0
	for _, o := range outs {
		held += o.held
	}
	t.Logf("%d histories, seed %d, options off %q; runs held while another ran: %d; steps (drawn/checked): %s", n, *gateSeed, *gateOff, held, distribution(hs, outs))
}

// distribution counts each step kind drawn, and how many were checked (a
// step that found nothing to act on is not, nor a cancelled push: its head
// has no run).
func distribution(hs []history, outs []replayed) string {
	var drawn, did [numSteps]int
	for i, h := range hs {
		for j, s := range h.steps {
			drawn[s.kind]++
			if j < len(outs[i].checked) && outs[i].checked[j] {
				did[s.kind]++
			}
		}
	}
	var parts []string
	for k := range numSteps {
		parts = append(parts, fmt.Sprintf("%s %d/%d", k, drawn[k], did[k]))
	}
	return strings.Join(parts, ", ")
}

// owing starts a progress failure's description (owedAfterARun).
const owing = "owing "

// maxReported is how many failing histories the test shrinks and reports.
const maxReported = 10

// kindOf names a disagreement: a gate greener than the oracle breaks the
// gate's promise (code nobody reviewed could merge); a stricter one is a
// liveness gap (a pull request nobody can merge). Both fail, as does a
// run that left owed files unread (owedAfterARun).
func kindOf(got, want string) string {
	if strings.HasPrefix(got, owing) {
		return "no progress: a run left owed files unread"
	}
	if stricterThan(got, want) {
		return "stricter: a liveness gap"
	}
	return "greener: an unsafe gate"
}

// stricterThan reports whether the gate's state got holds the merge more
// than want: no status blocks a required check as pending does.
func stricterThan(got, want string) bool {
	rank := func(s string) int {
		if s == "none" {
			return strictness["pending"]
		}
		return strictness[s]
	}
	return rank(got) > rank(want)
}
