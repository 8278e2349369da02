package rmcoc

import (
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// Fate is what became of one finding by the time its pull request closed.
type Fate string

// Finding fates. Fixed and accepted are acted on; rejected is a finding
// the bot conceded or a maintainer waived or resolved by hand; ignored is
// one left open when the pull request closed.
const (
	FateFixed    Fate = "fixed"
	FateAccepted Fate = "accepted"
	FateRejected Fate = "rejected"
	FateIgnored  Fate = "ignored"
)

// FileKind is the kind of file a finding sat on.
type FileKind string

// File kinds.
const (
	FileCode   FileKind = "code"
	FileTest   FileKind = "test"
	FileConfig FileKind = "config"
	FileDocs   FileKind = "docs"
)

// FateRecord is one finding's fate, compact: a ledger holds thousands.
type FateRecord struct {
	Fate     Fate     `json:"f"`
	Score    int      `json:"s"`
	Pass     int      `json:"p,omitempty"`
	Category string   `json:"c"`
	Kind     FileKind `json:"k"`
	Blocking bool     `json:"b,omitempty"`
	// FixMinutes is, for a fixed finding, the minutes from its posting to
	// the verified fix.
	FixMinutes int `json:"m,omitempty"`
	// Loop is set on a finding raised on lines a fix for an earlier
	// finding wrote; OwnSuggestion on one of those whose lines were the
	// bot's own suggestion, committed.
	Loop          bool `json:"l,omitempty"`
	OwnSuggestion bool `json:"o,omitempty"`
}

// PROutcome is one closed pull request's entry in the outcome ledger.
type PROutcome struct {
	PR       int          `json:"pr"`
	Merged   bool         `json:"merged,omitempty"`
	Lines    int          `json:"lines"`     // changed lines (additions and deletions)
	ClosedAt time.Time    `json:"closed_at"` // when it was recorded: at the close, or when a maintainer asked
	Findings []FateRecord `json:"findings,omitempty"`
}

// Tally counts findings by fate.
type Tally struct {
	Posted   int `json:"posted"`
	Fixed    int `json:"fixed,omitempty"`
	Accepted int `json:"accepted,omitempty"`
	Rejected int `json:"rejected,omitempty"`
	Ignored  int `json:"ignored,omitempty"`
}

// RollUp is the ledger's older pull requests folded into counts: what the
// stats need of them, in a size that does not grow with their number
// (categories, scores and passes are small fixed sets).
type RollUp struct {
	PRs        int              `json:"prs"`
	Lines      int              `json:"lines"`
	Findings   Tally            `json:"findings"`
	ByScore    map[string]Tally `json:"by_score,omitempty"`
	ByCategory map[string]Tally `json:"by_category,omitempty"`
	ByPass     map[string]Tally `json:"by_pass,omitempty"`
	FixCount   int              `json:"fix_count,omitempty"`
	FixMinutes int              `json:"fix_minutes,omitempty"`
	// Loops counts, by fate, the findings raised on lines a fix wrote;
	// OwnSuggestion those of them on the bot's own committed suggestion.
	Loops         Tally `json:"loops,omitzero"`
	OwnSuggestion int   `json:"own_suggestion,omitempty"`
	// Held names the pull requests rolled up, so that one closed again
	// after its entry rolled up is not counted twice.
	Held PRSet `json:"held,omitempty"`
}

// PRSet is a set of pull request numbers written compactly: "r:" and
// sorted ranges ("r:1-40,42,45-90"), or "b:", the first number, ":" and
// a bitmap from it in unpadded base64url, whichever is shorter (package
// precision writes and reads it).
type PRSet string

// Link names the ledger block a block follows: the comment holding it and
// the digest of that block. The outcome ledger's links name learnings
// issue comments; the gate ledger's (see ledger.go) also say which kind of
// comment holds the block, and what it was about, so a cut can be told
// apart from the thread it touches even when the block is gone.
type Link struct {
	CommentID ID     `json:"comment_id"`
	Digest    string `json:"digest"`
	// Holder is the kind of comment CommentID names, "" for an issue
	// comment (the outcome ledger's only kind).
	Holder Holder `json:"holder,omitempty"`
	// FindingID and ReplyTo are, for a block about a finding, the finding
	// and the developer reply it answered.
	FindingID string `json:"finding_id,omitempty"`
	ReplyTo   ID     `json:"reply_to,omitempty"`
}

// Outcomes is one link of the outcome ledger the bot keeps in its
// learnings issue, one comment per closed pull request. Each block is
// whole on its own (the recent pull requests in full, older ones rolled
// up) and names its predecessor, so a block someone forged, edited or
// deleted breaks the chain where it sits.
type Outcomes struct {
	Seq    int         `json:"seq"` // 1 for the first block
	Prev   *Link       `json:"prev,omitempty"`
	Recent []PROutcome `json:"recent"` // oldest first; the last is this block's pull request
	RollUp RollUp      `json:"rollup"`
	// Folded are blocks another run appended after the same predecessor
	// as one on this chain (two runs recording at once): this block added
	// their pull requests, in this order, just before its own.
	Folded []Link `json:"folded,omitempty"`
}

func (Outcomes) BlockType() Type { return TypeOutcomes }
func (Outcomes) compact()        {}

// Digest is a short content hash of b as the bot writes it: a later block
// names its predecessor by it.
func Digest(b Block) string {
	payload, err := marshal(b)
	if err != nil {
		panic("rmcoc: digest " + string(b.BlockType()) + ": " + err.Error())
	}
	sum := sha256.Sum256(payload)
	return hex.EncodeToString(sum[:12])
}

// MaxBlockBytes is the largest block Parse reads: a writer keeps its
// blocks under it.
const MaxBlockBytes = maxBlockBytes
