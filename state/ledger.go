package state

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// Chain is the gate ledger as the snapshot holds it (see rmcoc's
// ledger.go): every block that decides the merge gate names its
// predecessor, and the bot's latest review names the newest ones. A link
// that names nothing there (a block deleted, or edited by someone else),
// a bot review edited by someone else, or a block written without a link
// after the ledger began is a cut: it fails closed until a maintainer
// clears it.
type Chain struct {
	// Latest is the newest ledger block, which the next one names; nil
	// when the PR has none.
	Latest *rmcoc.Link
	// Tips are the linked blocks in deletable comments that no block
	// names yet, newest last, and the links of the cuts (the head keeps
	// naming them); Unanchored is set when some of them is named by no
	// LedgerHead: the run writes one.
	Tips       []rmcoc.Link
	Unanchored bool
	// Anchor is the bot's latest review its own, unedited: where the
	// LedgerHead goes (ID 0 when the PR has none).
	Anchor snapshot.Review
	// Cuts are the cuts found, or recorded by a notice, each once.
	Cuts []Cut
	// edits are when the bot's findings were last edited by someone else,
	// by finding id: as the heads recorded them and as this read sees them
	// (noteEdits). A finding's edit outlives its deleted comment.
	edits map[string]time.Time
}

// Edited are the edits the LedgerHead records, by finding id.
func (c Chain) Edited() []rmcoc.EditedFinding {
	out := make([]rmcoc.EditedFinding, 0, len(c.edits))
	for _, id := range slices.Sorted(maps.Keys(c.edits)) {
		out = append(out, rmcoc.EditedFinding{FindingID: id, At: c.edits[id]})
	}
	return out
}

// editedAt is when someone else last edited finding id's comment, as a
// run recorded or this read sees it.
func (c Chain) editedAt(id string) (time.Time, bool) {
	t, ok := c.edits[id]
	return t, ok
}

// Cut is one cut of the gate ledger.
type Cut struct {
	// Link names what is gone: the holder, the block's digest, and what
	// the block was about (a finding, a reply it answered).
	Link rmcoc.Link
	Why  string // for people, naming the cut
	// Noticed is when the PR was told (the zero time: not yet);
	// ClearedBy the maintainer whose clear-ledger command cleared it.
	Noticed   time.Time
	ClearedBy string
	ClearedIn Ref
}

// Key names the cut, as notices and clear commands record it.
func (c Cut) Key() string { return c.Link.Key() }

// Open reports whether the cut still holds the gate.
func (c Cut) Open() bool { return c.ClearedBy == "" }

// OpenCuts are the cuts no maintainer cleared.
func (s State) OpenCuts() []Cut {
	var out []Cut
	for _, c := range s.Chain.Cuts {
		if c.Open() {
			out = append(out, c)
		}
	}
	return out
}

// Unnoticed are the cuts the PR was not told about yet.
func (s State) Unnoticed() []Cut {
	var out []Cut
	for _, c := range s.Chain.Cuts {
		if c.Noticed.IsZero() && c.Open() {
			out = append(out, c)
		}
	}
	return out
}

// Touched reports whether an open cut touches finding id: a block about
// it is gone, or the cut cannot say which finding it touched (then it
// touches every finding).
func (s State) Touched(id string) bool {
	for _, c := range s.OpenCuts() {
		if c.Link.FindingID == "" || c.Link.FindingID == id {
			return true
		}
	}
	return false
}

// holderKey is one comment, review comment or review.
type holderKey struct {
	kind rmcoc.Holder
	id   int64
}

// chainRec is one ledger block as the snapshot holds it.
type chainRec struct {
	at    time.Time
	self  rmcoc.Link // how a successor names it
	prev  *rmcoc.Link
	block rmcoc.Block
}

// chainReader collects what the check needs while the bot's blocks are
// read.
type chainReader struct {
	recs    []chainRec
	heads   []rmcoc.LedgerHead
	notices []chainNotice
	edited  map[holderKey]string // bot holders someone else edited, by editor
	// editedReviews are bot reviews someone else edited (their blocks,
	// a LedgerHead included, count for nothing).
	editedReviews []snapshot.Review
	edits         map[string]time.Time // what the heads record of edited findings
	anchor        snapshot.Review
	began         bool // an edited review held a linked block
}

type chainNotice struct {
	at   time.Time
	cuts []rmcoc.Link
}

// inLedger reports whether b is a gate ledger block: a command answer is
// one when its command is a maintainer's.
func inLedger(b rmcoc.Block) bool {
	if c, ok := b.(rmcoc.CommandAnswer); ok {
		spec, found := LookupCommand(Command(c.Command))
		return found && spec.Who == Maintainers
	}
	_, ok := rmcoc.PrevOf(b)
	return ok
}

// InLedger is inLedger for writers: whether a block they write names its
// predecessor.
func InLedger(b rmcoc.Block) bool { return inLedger(b) }

// hold records the blocks a bot holder (kind, id, written at) yields, and
// whether someone else edited it.
func (r *chainReader) hold(kind rmcoc.Holder, id int64, at time.Time, editor string, blocks []rmcoc.Block) {
	if editor != "" {
		if r.edited == nil {
			r.edited = map[holderKey]string{}
		}
		r.edited[holderKey{kind, id}] = editor
	}
	for _, b := range blocks {
		switch b := b.(type) {
		case rmcoc.LedgerHead:
			r.heads = append(r.heads, b)
			if editor == "" {
				r.edits = laterEdits(r.edits, b.Edited)
			}
		case rmcoc.LedgerCut:
			r.notices = append(r.notices, chainNotice{at: at, cuts: b.Cuts})
		}
		if !inLedger(b) {
			continue
		}
		prev, _ := rmcoc.PrevOf(b)
		self := rmcoc.Link{Holder: kind, CommentID: rmcoc.ID(id), Digest: rmcoc.Digest(b)}
		if d, ok := b.(rmcoc.DisputeResolution); ok {
			self.FindingID, self.ReplyTo = d.FindingID, d.ReplyToCommentID
		}
		r.recs = append(r.recs, chainRec{at: at, self: self, prev: prev, block: b})
	}
}

// review records a bot review: where the LedgerHead goes when it is the
// latest the bot wrote and no one else edited.
func (r *chainReader) review(rv snapshot.Review, edited bool) {
	if edited {
		r.editedReviews = append(r.editedReviews, rv)
		// What the edit left of its blocks counts for nothing, but it
		// still says whether the ledger had begun.
		for _, b := range rmcoc.All[rmcoc.Block](rv.Body) {
			if prev, _ := rmcoc.PrevOf(b); prev != nil || b.BlockType() == rmcoc.TypeLedgerHead {
				r.began = true
			}
		}
		return
	}
	if r.anchor.ID == 0 || !rv.SubmittedAt.Before(r.anchor.SubmittedAt) {
		r.anchor = rv
	}
}

// same reports whether two links name one block.
func same(a, b rmcoc.Link) bool {
	return a.Holder == b.Holder && a.CommentID == b.CommentID && a.Digest == b.Digest
}

// check is the chain's verdict: its cuts, its newest block and the tips.
// It is pure over what hold and review collected.
func (r *chainReader) check() Chain {
	c := Chain{Anchor: r.anchor, edits: maps.Clone(r.edits)}
	linked, first := false, time.Time{}
	for _, rec := range r.recs {
		if rec.prev != nil && (!linked || rec.at.Before(first)) {
			linked, first = true, rec.at
		}
	}
	add := func(l rmcoc.Link, why string) {
		if !slices.ContainsFunc(c.Cuts, func(x Cut) bool { return x.Key() == l.Key() }) {
			c.Cuts = append(c.Cuts, Cut{Link: l, Why: why})
		}
	}
	r.links(add, linked, first)
	if linked || len(r.heads) > 0 || r.began {
		for _, rv := range r.editedReviews {
			add(rmcoc.Link{Holder: rmcoc.HolderReview, CommentID: rmcoc.ID(rv.ID), Digest: "edited"},
				fmt.Sprintf("the bot's review %d was edited by @%s", rv.ID, r.edited[holderKey{rmcoc.HolderReview, rv.ID}]))
		}
	}
	r.recorded(&c, add)
	c.Latest, c.Tips, c.Unanchored = r.tips(linked)
	// The head keeps naming what is cut, so that deleting the notice that
	// told of a cut does not make it whole again.
	for _, cut := range c.Cuts {
		if !slices.ContainsFunc(c.Tips, func(t rmcoc.Link) bool { return same(t, cut.Link) }) {
			c.Tips = append(c.Tips, cut.Link)
			c.Unanchored = c.Unanchored || !r.anchored(cut.Link)
		}
	}
	return c
}

// links adds the cuts of the links blocks and heads name, and of the
// blocks written without one after the ledger began (at first).
func (r *chainReader) links(add func(rmcoc.Link, string), linked bool, first time.Time) {
	for _, rec := range r.recs {
		switch {
		case rec.prev != nil:
			if why := r.resolve(*rec.prev); why != "" {
				add(*rec.prev, why)
			}
		case linked && rec.at.After(first):
			add(rec.self, fmt.Sprintf("%s holds a ledger block written without a link after the ledger began", where(rec.self)))
		}
	}
	for _, h := range r.heads {
		for _, tip := range h.Tips {
			if why := r.resolve(tip); why != "" {
				add(tip, why)
			}
		}
	}
}

// recorded adds the cuts notices recorded, and dates each cut's notice.
func (r *chainReader) recorded(c *Chain, add func(rmcoc.Link, string)) {
	for _, n := range r.notices {
		for _, l := range n.cuts {
			add(l, fmt.Sprintf("%s was deleted or edited", where(l)))
		}
	}
	for i := range c.Cuts {
		for _, n := range r.notices {
			if slices.ContainsFunc(n.cuts, func(l rmcoc.Link) bool { return l.Key() == c.Cuts[i].Key() }) &&
				(c.Cuts[i].Noticed.IsZero() || n.at.Before(c.Cuts[i].Noticed)) {
				c.Cuts[i].Noticed = n.at
			}
		}
	}
}

// resolve says why a link names nothing ("" when it names a block).
func (r *chainReader) resolve(l rmcoc.Link) string {
	if l.IsGenesis() {
		return ""
	}
	for _, rec := range r.recs {
		if same(rec.self, l) {
			return ""
		}
	}
	if by, ok := r.edited[holderKey{l.Holder, int64(l.CommentID)}]; ok {
		return fmt.Sprintf("%s was edited by @%s", where(l), by)
	}
	for _, rec := range r.recs {
		if rec.self.Holder == l.Holder && rec.self.CommentID == l.CommentID {
			return fmt.Sprintf("%s no longer holds the block the ledger names", where(l))
		}
	}
	return fmt.Sprintf("%s was deleted", where(l))
}

// tips are the newest block, and the linked blocks in deletable comments
// no block names. Unanchored says some tip is named by no LedgerHead.
func (r *chainReader) tips(linked bool) (latest *rmcoc.Link, tips []rmcoc.Link, unanchored bool) {
	recs := slices.Clone(r.recs)
	slices.SortStableFunc(recs, func(a, b chainRec) int { return a.at.Compare(b.at) })
	if len(recs) > 0 {
		l := recs[len(recs)-1].self
		latest = &l
	}
	for _, rec := range recs {
		if rec.self.Holder == rmcoc.HolderReview || rec.prev == nil {
			continue
		}
		if slices.ContainsFunc(r.recs, func(o chainRec) bool { return o.prev != nil && same(*o.prev, rec.self) }) {
			continue
		}
		tips = append(tips, rec.self)
		if !r.anchored(rec.self) {
			unanchored = true
		}
	}
	if !linked {
		// A PR whose blocks were all written before links were: they are
		// the ledger's start, which the first linked block names.
		return latest, nil, false
	}
	return latest, tips, unanchored
}

func (r *chainReader) anchored(l rmcoc.Link) bool {
	for _, h := range r.heads {
		if slices.ContainsFunc(h.Tips, func(t rmcoc.Link) bool { return same(t, l) }) {
			return true
		}
	}
	return false
}

// where names a link's holder for people.
func where(l rmcoc.Link) string {
	var s string
	switch l.Holder {
	case rmcoc.HolderReview:
		s = fmt.Sprintf("the bot's review %d", l.CommentID)
	case rmcoc.HolderReviewComment:
		s = fmt.Sprintf("the bot's reply %d", l.CommentID)
	case rmcoc.HolderComment:
		s = fmt.Sprintf("the bot's comment %d", l.CommentID)
	default:
		// A holder this version does not know: named as a comment.
		s = fmt.Sprintf("the bot's comment %d", l.CommentID)
	}
	if l.FindingID != "" {
		s += " on finding " + l.FindingID
	}
	return s
}

// cutNotices tells the job summary of the cuts no maintainer cleared.
func (d *deriver) cutNotices() {
	for _, c := range d.st.OpenCuts() {
		d.st.Notices = append(d.st.Notices, "warning: the state ledger is cut: "+c.Why)
	}
}

// readChain checks the ledger the bot's blocks hold, marks the replies a
// cut verdict answered as answered (a dispute is judged once: deleting its
// verdict does not ask the model again), and keeps the chain in the state.
// laterEdits adds edits to m (made when nil), keeping each finding's
// latest.
func laterEdits(m map[string]time.Time, edits []rmcoc.EditedFinding) map[string]time.Time {
	if m == nil {
		m = map[string]time.Time{}
	}
	for _, e := range edits {
		if t, ok := m[e.FindingID]; !ok || e.At.After(t) {
			m[e.FindingID] = e.At
		}
	}
	return m
}

// noteEdits adds to the chain the edits of the bot's findings this read
// sees that no LedgerHead records yet, so the run writes them into its
// head: deleting the edited comment later does not take the edit away.
func (d *deriver) noteEdits() {
	c := &d.st.Chain
	c.edits = laterEdits(c.edits, nil)
	for _, f := range d.st.Findings {
		if !f.Tampered || f.EditedAt.IsZero() {
			continue
		}
		if t, ok := c.edits[f.Block.ID]; !ok || f.EditedAt.After(t) {
			c.edits[f.Block.ID], c.Unanchored = f.EditedAt, true
		}
	}
}

func (d *deriver) readChain() {
	d.st.Chain = d.chain.check()
	for _, c := range d.st.Chain.Cuts {
		if c.Link.ReplyTo != 0 {
			d.answeredReplies[int64(c.Link.ReplyTo)] = true
		}
	}
}
