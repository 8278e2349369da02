package rmcoc

import (
	"fmt"
	"strings"
	"time"
)

// The gate ledger. Every block that decides the merge gate (a review run,
// a dispute resolution, a regressed or reopened reply, a waiver, a
// maintainer's command answer, a ledger-cut notice) names its predecessor
// with a Link: the newest such block the writing run saw, by the comment
// that holds it and the digest of the block. Someone who deletes or edits
// one of them leaves a link that names nothing, or a digest that no longer
// matches: a cut. What nothing names (the newest blocks) is named by the
// LedgerHead the bot keeps in its own latest review's body, which no one
// can delete (see package state, ledger.go, for the check).

// Holder is the kind of comment that holds a ledger block: the three kinds
// of GitHub ids are separate spaces.
type Holder string

const (
	HolderComment       Holder = ""               // a comment in the conversation
	HolderReviewComment Holder = "review-comment" // a comment in a review thread
	HolderReview        Holder = "review"         // a review's body
)

// Key is how a link is named in a cut: its holder, id and digest.
func (l Link) Key() string {
	kind := l.Holder
	if kind == HolderComment {
		kind = "comment"
	}
	return fmt.Sprintf("%s/%d@%s", kind, l.CommentID, l.Digest)
}

// genesis is the digest of the link a ledger's first block names: no
// block, only that the ledger began there (so a block written later
// without any link is known to be out of place).
const genesis = "genesis"

// Genesis is the link of a ledger's first block.
func Genesis() *Link { return &Link{Digest: genesis} }

// IsGenesis reports whether l is the link of a ledger's first block.
func (l Link) IsGenesis() bool {
	return l.CommentID == 0 && l.Digest == genesis && l.Holder == HolderComment
}

// LedgerHead names the gate ledger's newest blocks (those no block names
// yet), in the body of the bot's latest review: a submitted review cannot
// be deleted, and an edit of its body by anyone but the bot makes its
// blocks count for nothing, which the state reads as a cut.
type LedgerHead struct {
	Tips []Link    `json:"tips"`
	At   time.Time `json:"at"`
	// Edited are the bot's findings whose comment someone else edited, as
	// runs saw them (the latest edit of each): a decision from before the
	// edit does not count, and the record outlives the comment.
	Edited []EditedFinding `json:"edited,omitempty"`
}

// EditedFinding is one finding whose comment someone else edited, and
// when GitHub says they last did.
type EditedFinding struct {
	FindingID string    `json:"finding_id"`
	At        time.Time `json:"at"`
}

// MaxTips bounds the links a LedgerHead holds: more only come from many
// runs that overlapped, and the newest are kept.
const MaxTips = 16

// LedgerCut tells the PR, once, that its gate ledger is cut: the links
// that name nothing. A cut stays a cut while its notice stands (the
// notice is a ledger block itself: deleting it cuts the ledger again), so
// the bot's next LedgerHead, which names only what is there, does not
// hide it. The findings a cut touches hold the gate
// until a maintainer clears it ("@rmc-bot clear-ledger").
type LedgerCut struct {
	Cuts []Link    `json:"cuts"`
	At   time.Time `json:"at"`
	Prev *Link     `json:"prev,omitempty"`
}

func (LedgerHead) BlockType() Type { return TypeLedgerHead }
func (LedgerCut) BlockType() Type  { return TypeLedgerCut }

// PrevOf is a gate ledger block's link to its predecessor; ok is false for
// a block that is not one. A CommandAnswer is one (whatever its command:
// the ledger names the maintainers' ones, see package state).
func PrevOf(b Block) (prev *Link, ok bool) {
	switch b := b.(type) {
	case ReviewRun:
		return b.Prev, true
	case DisputeResolution:
		return b.Prev, true
	case Waiver:
		return b.Prev, true
	case CommandAnswer:
		return b.Prev, true
	case LedgerCut:
		return b.Prev, true
	}
	return nil, false
}

// WithPrev returns a gate ledger block naming prev; any other block is
// returned as it is.
func WithPrev(b Block, prev *Link) Block {
	switch v := b.(type) {
	case ReviewRun:
		v.Prev = prev
		return v
	case DisputeResolution:
		v.Prev = prev
		return v
	case Waiver:
		v.Prev = prev
		return v
	case CommandAnswer:
		v.Prev = prev
		return v
	case LedgerCut:
		v.Prev = prev
		return v
	}
	return b
}

// Reanchor returns a bot body with its LedgerHead replaced by head (added
// when it has none), its prose and other blocks as they were. The body is
// one the bot wrote: its state section is the trailing run ParseTrusted
// reads.
func Reanchor(body string, head LedgerHead) string {
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	start, secs := trailing(lines)
	var out strings.Builder
	out.WriteString(strings.TrimRight(strings.Join(lines[:start], "\n"), "\n"))
	for _, s := range secs {
		if b, err := decode(s.content); err == "" && b.BlockType() == TypeLedgerHead {
			continue
		}
		out.WriteString("\n\n")
		out.WriteString(strings.Join(lines[s.start:s.end], "\n"))
	}
	out.WriteString("\n\n" + Render(head))
	return strings.TrimLeft(out.String(), "\n")
}
