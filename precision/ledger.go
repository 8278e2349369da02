package precision

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/state"
)

// Bounds of one ledger block. A block keeps at most MaxRecent pull
// requests in full and at most recentBudget bytes of them; older ones are
// rolled up into counts, whose size is fixed by the category, score and
// pass sets (under 10 KiB), so a block stays under the 32 KiB a block may
// hold, and under a comment's 65,536 characters.
const (
	MaxRecent    = 50
	recentBudget = 16 << 10
	maxPass      = 20 // passes above it count as this one: the roll-up's keys stay few
)

// MaxVerify is how many links back from the newest a read checks: each
// check rebuilds a block, and the newest block already holds everything.
const MaxVerify = 50

// MaxFolds is how many forked blocks one append folds in; the rest wait
// for the next.
const MaxFolds = 10

// Fold is a block off the chain whose pull request the chain does not
// hold: another run appended it after the same predecessor at the same
// time, and the chain went on from the other. Link names it; Entry is the
// pull request it added.
type Fold struct {
	Link  rmcoc.Link
	Entry rmcoc.PROutcome
}

// Append returns the ledger block that follows prev (nil for the first),
// which comment prevComment holds, with e added. It is deterministic: a
// reader rebuilds a block from its predecessor to check it.
func Append(prev *rmcoc.Outcomes, prevComment int64, e rmcoc.PROutcome) rmcoc.Outcomes {
	return AppendFolding(prev, prevComment, nil, e)
}

// AppendFolding is Append that first adds the pull requests of forked
// blocks (folds, at most MaxFolds: the caller passes no more) and names
// those blocks. What a block added stays in its recent entries, so a
// reader can rebuild it.
func AppendFolding(prev *rmcoc.Outcomes, prevComment int64, folds []Fold, e rmcoc.PROutcome) rmcoc.Outcomes {
	next := rmcoc.Outcomes{Seq: 1, RollUp: rmcoc.RollUp{}}
	if prev != nil {
		next.Seq = prev.Seq + 1
		next.Prev = &rmcoc.Link{CommentID: rmcoc.ID(prevComment), Digest: rmcoc.Digest(*prev)}
		next.Recent = append(next.Recent, prev.Recent...)
		next.RollUp = copyRollUp(prev.RollUp)
	}
	for _, f := range folds {
		next.Folded = append(next.Folded, f.Link)
		next.Recent = append(next.Recent, f.Entry)
	}
	next.Recent = append(next.Recent, e)
	size := 0
	for _, r := range next.Recent {
		size += entrySize(r)
	}
	for len(next.Recent) > len(folds)+1 && (len(next.Recent) > MaxRecent || size > recentBudget) {
		size -= entrySize(next.Recent[0])
		addPR(&next.RollUp, next.Recent[0])
		next.Recent = next.Recent[1:]
	}
	return next
}

// entrySize is how many bytes e takes in a block.
func entrySize(e rmcoc.PROutcome) int {
	b, err := json.Marshal(e)
	if err != nil {
		panic(fmt.Sprintf("precision: size of the entry of #%d: %v", e.PR, err))
	}
	return len(b) + 1
}

// Has reports whether the ledger's recent entries hold pull request n.
func Has(o *rmcoc.Outcomes, n int) bool {
	if o == nil {
		return false
	}
	for _, e := range o.Recent {
		if e.PR == n {
			return true
		}
	}
	return false
}

// Recorded says whether pull request n, created at created, is counted in
// the ledger whose newest block is head: in its recent entries or in the
// pull requests its roll-up holds. When the roll-up's held set does not
// name every pull request rolled up (it cannot be read), known is false
// for one neither holds, unless it was created after the oldest recent
// entry was recorded (every entry rolled up was recorded before that one,
// and no pull request is recorded before it exists).
func Recorded(head *rmcoc.Outcomes, n int, created time.Time) (recorded, known bool) {
	if head == nil {
		return false, true
	}
	held, err := parseHeld(head.RollUp.Held)
	complete := err == nil && held.count() == head.RollUp.PRs
	switch {
	case Has(head, n) || (err == nil && held.has(n)):
		return true, true
	case complete:
		return false, true
	case len(head.Recent) > 0 && created.After(head.Recent[0].ClosedAt):
		return false, true
	}
	return false, false
}

// held reports whether the ledger counts pull request n for sure.
func held(o *rmcoc.Outcomes, n int) bool {
	recorded, _ := Recorded(o, n, time.Time{})
	return recorded
}

func copyRollUp(r rmcoc.RollUp) rmcoc.RollUp {
	c := r
	c.ByScore, c.ByCategory, c.ByPass = copyMap(r.ByScore), copyMap(r.ByCategory), copyMap(r.ByPass)
	return c
}

func copyMap(m map[string]rmcoc.Tally) map[string]rmcoc.Tally {
	out := make(map[string]rmcoc.Tally, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// addPR folds one pull request into the roll-up.
func addPR(r *rmcoc.RollUp, e rmcoc.PROutcome) {
	// The held set names every pull request rolled up, or it is left as
	// it is: a reader then cannot tell from it (see Recorded).
	if h, err := parseHeld(r.Held); err == nil && h.count() == r.PRs {
		r.Held = h.with(e.PR).encode()
	}
	r.PRs++
	r.Lines += e.Lines
	if r.ByScore == nil {
		r.ByScore, r.ByCategory, r.ByPass = map[string]rmcoc.Tally{}, map[string]rmcoc.Tally{}, map[string]rmcoc.Tally{}
	}
	for _, f := range e.Findings {
		count(&r.Findings, f.Fate)
		bump(r.ByScore, CategoryScoreKey(f.Category, f.Score), f.Fate)
		bump(r.ByCategory, f.Category, f.Fate)
		bump(r.ByPass, strconv.Itoa(min(f.Pass, maxPass)), f.Fate)
		if f.Fate == rmcoc.FateFixed {
			r.FixCount++
			r.FixMinutes += f.FixMinutes
		}
		if f.Loop {
			count(&r.Loops, f.Fate)
			if f.OwnSuggestion {
				r.OwnSuggestion++
			}
		}
	}
}

// CategoryScoreKey keys the roll-up's score counts: by category and score,
// so that per-category thresholds can be read from them.
func CategoryScoreKey(category string, score int) string {
	return Category(category) + "/" + strconv.Itoa(min(10, max(0, score)))
}

func bump(m map[string]rmcoc.Tally, k string, f rmcoc.Fate) {
	t := m[k]
	count(&t, f)
	m[k] = t
}

func count(t *rmcoc.Tally, f rmcoc.Fate) {
	t.Posted++
	switch f {
	case rmcoc.FateFixed:
		t.Fixed++
	case rmcoc.FateAccepted:
		t.Accepted++
	case rmcoc.FateRejected:
		t.Rejected++
	case rmcoc.FateIgnored:
		t.Ignored++
	}
}

// Ledger is the outcome ledger as read from the learnings issue.
type Ledger struct {
	// Head is the newest block whose links check out, nil when none;
	// HeadComment is the comment holding it.
	Head        *rmcoc.Outcomes
	HeadComment int64
	// Problems say which links were forged, edited or missing: what they
	// name is not counted.
	Problems []string
	// Orphans are blocks another run appended after the same predecessor
	// as a block of the chain, whose pull requests the chain does not hold
	// yet: they count (View), and the next append folds them in.
	Orphans []Fold
}

// View is the ledger as counted: the newest block with the orphans'
// pull requests folded in, as the next append will write them. It is
// never written as it is.
func (l Ledger) View() *rmcoc.Outcomes {
	if len(l.Orphans) == 0 || l.Head == nil {
		return l.Head
	}
	folds := l.Orphans[:min(len(l.Orphans), MaxFolds+1)]
	v := AppendFolding(l.Head, l.HeadComment, folds[:len(folds)-1], folds[len(folds)-1].Entry)
	return &v
}

// Folds are the orphans the next append folds in: at most MaxFolds.
func (l Ledger) Folds() []Fold { return l.Orphans[:min(len(l.Orphans), MaxFolds)] }

// Read checks the ledger's chain in recs (the trusted blocks, see
// state.Learnings.Outcomes) from the newest block back, at most MaxVerify
// links. A block that does not follow from the predecessor it names (a
// changed digest, a sequence gap, content the bot would not have written)
// is not counted, nor is anything after it; a predecessor that is gone (a
// deleted comment) is reported, and the block naming it still counts: it
// holds its predecessor's counts. Two blocks naming one predecessor (two
// runs appending at once) keep the one in the earlier comment.
func Read(recs []state.OutcomeRecord) Ledger {
	var l Ledger
	byComment := map[int64]rmcoc.Outcomes{}
	var head *state.OutcomeRecord
	for i, r := range recs {
		byComment[r.CommentID] = r.Block
		if head == nil || r.Block.Seq > head.Block.Seq {
			head = &recs[i]
		}
	}
	if head == nil {
		return l
	}
	chain := []state.OutcomeRecord{*head}
	for cur := *head; cur.Block.Prev != nil && len(chain) <= MaxVerify; {
		prevID := int64(cur.Block.Prev.CommentID)
		prev, ok := byComment[prevID]
		if !ok {
			l.Problems = append(l.Problems, fmt.Sprintf("outcome ledger block %d (comment %d) follows comment %d, which is gone or not the bot's own: links before it are not checked", cur.Block.Seq, cur.CommentID, prevID))
			break
		}
		cur = state.OutcomeRecord{CommentID: prevID, Block: prev}
		chain = append(chain, cur)
	}
	good := oldestGood(chain, &l)
	if good < len(chain) {
		head = &chain[good]
		l.Head, l.HeadComment = &head.Block, head.CommentID
	}
	l.forks(recs, chain, chain[good:])
	return l
}

// oldestGood checks chain (newest first) from its oldest link and returns
// the index of the newest block counted, len(chain) when none is. A block
// whose digest its successor no longer finds was changed after the bot
// wrote it (the successor, written by the bot from it, says so): neither
// counts. A block that does not follow from its predecessor does not.
func oldestGood(chain []state.OutcomeRecord, l *Ledger) int {
	good := len(chain) - 1
	for i := len(chain) - 2; i >= 0; i-- {
		prev, b := chain[i+1], chain[i]
		if b.Block.Prev.Digest != rmcoc.Digest(prev.Block) {
			l.Problems = append(l.Problems, fmt.Sprintf("outcome ledger block %d (comment %d) was changed after block %d (comment %d) named it: they and the blocks after them are not counted", prev.Block.Seq, prev.CommentID, b.Block.Seq, b.CommentID))
			return i + 2
		}
		if why := follows(prev, b.Block); why != "" {
			l.Problems = append(l.Problems, fmt.Sprintf("outcome ledger block %d (comment %d) %s: it and the blocks after it are not counted", b.Block.Seq, b.CommentID, why))
			return i + 1
		}
		good = i
	}
	return good
}

// follows says why b, which names prev by its digest, does not follow it,
// "" when it does.
func follows(prev state.OutcomeRecord, b rmcoc.Outcomes) string {
	k := len(b.Folded)
	if b.Seq != prev.Block.Seq+1 || len(b.Recent) < k+1 || k > MaxFolds {
		return fmt.Sprintf("is not the next block after comment %d", prev.CommentID)
	}
	added := b.Recent[len(b.Recent)-k-1:]
	folds := make([]Fold, k)
	for i, l := range b.Folded {
		folds[i] = Fold{Link: l, Entry: added[i]}
	}
	want := AppendFolding(&prev.Block, prev.CommentID, folds, added[k])
	if rmcoc.Digest(want) != rmcoc.Digest(b) {
		return fmt.Sprintf("holds counts that do not follow from comment %d's block", prev.CommentID)
	}
	return ""
}

// forks sorts the trusted blocks off the chain read (blocks past a broken
// link are reported where it breaks). A block a counted block folded in is
// counted already. One that follows from a counted block as that block's
// successor does (two runs appended at once) is an orphan, unless the
// chain holds its pull request already (both runs recorded the same one).
// Anything else is reported and not counted.
func (l *Ledger) forks(recs, chain, counted []state.OutcomeRecord) {
	in, onCounted, folded := map[int64]bool{}, map[int64]state.OutcomeRecord{}, map[int64]bool{}
	for _, r := range chain {
		in[r.CommentID] = true
	}
	for _, r := range counted {
		onCounted[r.CommentID] = r
		for _, f := range r.Block.Folded {
			folded[int64(f.CommentID)] = true
		}
	}
	oldest := chain[len(chain)-1].Block.Seq
	for _, r := range recs {
		if in[r.CommentID] || folded[r.CommentID] || r.Block.Seq < oldest {
			continue
		}
		e, ok := forkEntry(r, onCounted, oldest == 1 && len(counted) == len(chain))
		switch {
		case !ok:
			l.Problems = append(l.Problems, fmt.Sprintf("outcome ledger block %d (comment %d) is not on the counted chain: not counted", r.Block.Seq, r.CommentID))
		case held(l.View(), e.PR):
			// The same pull request, recorded twice at once: counted once.
		default:
			l.Orphans = append(l.Orphans, Fold{Link: rmcoc.Link{CommentID: rmcoc.ID(r.CommentID), Digest: rmcoc.Digest(r.Block)}, Entry: e})
			l.Problems = append(l.Problems, fmt.Sprintf("outcome ledger block %d (comment %d) was appended at the same time as another after the same block: its pull request #%d counts, and the next record folds it into the chain", r.Block.Seq, r.CommentID, e.PR))
		}
	}
}

// forkEntry is the pull request a fork block added, when it follows from a
// counted block (or is a first block, when the counted chain starts at
// the first) exactly as the bot writes one.
func forkEntry(r state.OutcomeRecord, counted map[int64]state.OutcomeRecord, fromStart bool) (rmcoc.PROutcome, bool) {
	b := r.Block
	if len(b.Recent) == 0 {
		return rmcoc.PROutcome{}, false
	}
	e := b.Recent[len(b.Recent)-1]
	if b.Prev == nil {
		return e, fromStart && b.Seq == 1 && rmcoc.Digest(Append(nil, 0, e)) == rmcoc.Digest(b)
	}
	prev, ok := counted[int64(b.Prev.CommentID)]
	return e, ok && b.Prev.Digest == rmcoc.Digest(prev.Block) && follows(prev, b) == ""
}
