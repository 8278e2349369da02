package execution

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// chain is the run's end of the gate ledger (see package state, ledger.go):
// each ledger block the run writes names the newest one before it, and at
// the end of the run the bot's latest review names the blocks nothing
// names yet, so that deleting the newest is seen too. Runners share it
// through env.
type chain struct {
	mu     sync.Mutex
	latest *rmcoc.Link
	tips   []rmcoc.Link
	edited []rmcoc.EditedFinding // the edits of the bot's findings the head records
	dirty  bool                  // some tip, or edit, is named by no LedgerHead
	anchor snapshot.Review
}

func newChain(c state.Chain) *chain {
	return &chain{latest: c.Latest, tips: c.Tips, edited: c.Edited(), dirty: c.Unanchored, anchor: c.Anchor}
}

// link returns b naming the newest ledger block the run knows, when b is
// a ledger block; other blocks are returned as they are.
func (c *chain) link(b rmcoc.Block) rmcoc.Block {
	if c == nil || !state.InLedger(b) {
		return b
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	prev := rmcoc.Genesis()
	if c.latest != nil {
		l := *c.latest
		prev = &l
	}
	return rmcoc.WithPrev(b, prev)
}

// wrote records the ledger blocks of a body the run posted, read back from
// the body as sent, so each digest is of the block as GitHub holds it.
func (c *chain) wrote(kind rmcoc.Holder, id int64, body string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, b := range rmcoc.ParseTrusted(body).Blocks {
		if !state.InLedger(b) {
			continue
		}
		self := rmcoc.Link{Holder: kind, CommentID: rmcoc.ID(id), Digest: rmcoc.Digest(b)}
		if d, ok := b.(rmcoc.DisputeResolution); ok {
			self.FindingID, self.ReplyTo = d.FindingID, d.ReplyToCommentID
		}
		if prev, _ := rmcoc.PrevOf(b); prev != nil {
			c.tips = slices.DeleteFunc(c.tips, func(t rmcoc.Link) bool { return sameLink(t, *prev) })
		}
		c.latest = &self
		if kind != rmcoc.HolderReview {
			c.tips, c.dirty = append(c.tips, self), true
		}
	}
	if kind == rmcoc.HolderReview {
		c.anchor = snapshot.Review{ID: id, Body: body}
	}
}

func sameLink(a, b rmcoc.Link) bool {
	return a.Holder == b.Holder && a.CommentID == b.CommentID && a.Digest == b.Digest
}

// reviewEditor is the one call anchoring the ledger makes.
type reviewEditor interface {
	EditReview(ctx context.Context, repo snapshot.Repo, number int, id int64, body string) error
}

// anchorLedger writes the ledger's head into the bot's latest review when
// some tip, or an edit of a finding, is not named there yet: at most one
// write per run, none for a run that wrote no ledger block outside a
// review and saw no new edit.
func (r *run) anchorLedger(ctx context.Context) {
	c := r.ledger
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.dirty || len(c.tips) == 0 && len(c.edited) == 0 {
		return
	}
	if c.anchor.ID == 0 {
		r.Log.Warningf("the state ledger's newest blocks are named by no review of mine (this pull request has none): deleting them would not be seen")
		return
	}
	tips := c.tips[max(0, len(c.tips)-rmcoc.MaxTips):]
	body := rmcoc.Reanchor(c.anchor.Body, rmcoc.LedgerHead{Tips: tips, At: r.now(), Edited: c.edited})
	if len([]rune(body)) > sanitize.MaxBody {
		r.Log.Warningf("review %d has no room for the state ledger's head: deleting the newest blocks would not be seen", c.anchor.ID)
		return
	}
	if err := r.GitHub.EditReview(ctx, r.repo(), r.number(), c.anchor.ID, body); err != nil {
		r.Log.Warningf("could not write the state ledger's head into review %d: %v", c.anchor.ID, err)
		return
	}
	c.anchor.Body, c.dirty = body, false
}

// noticeCuts tells the PR, once, that its state ledger is cut: the notice
// is a ledger block itself, naming the cuts, so the next runs neither
// repeat it nor forget the cuts when the head moves past them.
func (r *run) noticeCuts(ctx context.Context) error {
	cuts := r.State.Unnoticed()
	if len(cuts) == 0 {
		return nil
	}
	block := rmcoc.LedgerCut{At: r.now()}
	var b strings.Builder
	b.WriteString("⛔ My state ledger is cut: a reply or comment of mine that decides the merge gate was deleted or edited by someone else.\n")
	for _, c := range cuts {
		block.Cuts = append(block.Cuts, c.Link)
		fmt.Fprintf(&b, "\n- %s", sanitize.RelayLine(c.Why))
	}
	b.WriteString("\n\nThe findings it touches (every finding, where I cannot tell which) hold the merge gate. A maintainer (write access, not the pull request's author) who has checked what changed can clear it by commenting `@rmc-bot clear-ledger`.")
	body := r.compose(b.String(), r.ledger.link(block))
	c, err := r.GitHub.CreateComment(ctx, r.repo(), r.number(), body)
	if err != nil {
		return fmt.Errorf("tell the PR its state ledger is cut: %w", err)
	}
	r.ledger.wrote(rmcoc.HolderComment, c.ID, body)
	return nil
}
