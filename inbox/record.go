// Package inbox is the agent's deferred review inbox: reviews a coding agent
// asked for and picks up later, without blocking and without a person
// pasting files into its chat.
//
// It has two sources. Local reviews, which a person submits on the
// reviews-for-agent page, live in an append-only JSONL store shared by every
// process on the machine (see Store). Findings the review bot left on a
// GitHub pull request live in the bot's trusted rmcoc blocks on GitHub; only
// an agent's claim on one is recorded locally. Service lists, shows, claims
// and resolves both alike; package inboxmcp offers the same operations to
// agents over MCP.
package inbox

import (
	"time"

	"github.com/review-my-code-bot/rmc/agentmd"
)

// Status is where a review is in its life:
//
//	open ──submit──▶ submitted ──claim──▶ claimed ──resolve──▶ resolved
//	  │                  └──────────────resolve──────────────▶
//	  └──cancel──▶ cancelled
type Status string

// The statuses.
const (
	StatusOpen      Status = "open"      // waiting for a person
	StatusSubmitted Status = "submitted" // comments are in, no agent has taken them
	StatusCancelled Status = "cancelled" // withdrawn before anyone submitted
	StatusClaimed   Status = "claimed"   // an agent is working on it
	StatusResolved  Status = "resolved"  // done
)

// Valid reports whether s is one of the statuses.
func (s Status) Valid() bool {
	switch s {
	case StatusOpen, StatusSubmitted, StatusCancelled, StatusClaimed, StatusResolved:
		return true
	}
	return false
}

// terminal statuses are the ones retention drops once old enough.
func (s Status) terminal() bool { return s == StatusResolved || s == StatusCancelled }

// Record kinds.
const (
	KindReview      = "review"       // a local review (the default)
	KindGitHubClaim = "github-claim" // an agent's claim on a GitHub finding
)

// FormatVersion is the version of the store's record format.
const FormatVersion = 1

// Record is one review as the store keeps it. Each line of the store holds
// the fields of one record that a write set; folding the lines in order,
// later fields over earlier ones, gives the record.
type Record struct {
	V           int        `json:"v"`
	ID          string     `json:"id"`
	Kind        string     `json:"kind,omitempty"` // KindReview when empty
	Status      Status     `json:"status"`
	CreatedAt   time.Time  `json:"createdAt,omitzero"`
	UpdatedAt   time.Time  `json:"updatedAt,omitzero"`
	SubmittedAt *time.Time `json:"submittedAt,omitempty"`
	// ViewedAt is when the page of an open review was first opened.
	ViewedAt   *time.Time `json:"viewedAt,omitempty"`
	ResolvedAt *time.Time `json:"resolvedAt,omitempty"`

	Request       *Request       `json:"request,omitempty"`
	Submission    *Submission    `json:"submission,omitempty"`
	Claim         *Claim         `json:"claim,omitempty"`
	ResultSummary *ResultSummary `json:"resultSummary,omitempty"`
	Resolution    *Resolution    `json:"resolution,omitempty"`
	// GitHub describes the finding a KindGitHubClaim record claims.
	GitHub *GitHubRef `json:"github,omitempty"`
}

// kind is the record's kind with the default filled in.
func (r Record) kind() string {
	if r.Kind == "" {
		return KindReview
	}
	return r.Kind
}

// Request is what the agent asked to have reviewed. The diff itself is
// kept beside the store (see Store.Diff), since it can be large and every
// operation reads the whole store.
type Request struct {
	Files    []string `json:"files"`              // the changed files under review
	Warnings []string `json:"warnings,omitempty"` // what the request could not include, and why
	Message  string   `json:"message,omitempty"`  // the agent's note to the reviewer
	Cwd      string   `json:"cwd"`                // where the request was made
	Root     string   `json:"root"`               // the repository's top-level directory
	Branch   string   `json:"branch,omitempty"`
	Commit   string   `json:"commit,omitempty"`
	Base     string   `json:"base,omitempty"`   // what the diff is against, for people
	Server   string   `json:"server,omitempty"` // the page server's base URL when it was requested
	// Origin is OriginStart for a review a person started themselves
	// (the start command), "" for one an agent requested.
	Origin string `json:"origin,omitempty"`
	// Token lets a browser into that server; the store is private to its
	// owner, as the token is.
	Token string `json:"token,omitempty"`
	// Reviewed is what the diff is of: source, sides and blob ids. Absent
	// in records written before it was kept.
	Reviewed *Reviewed `json:"reviewed,omitempty"`
	// DiffSHA256 and DiffBytes identify the diff kept beside the store.
	DiffSHA256 string `json:"diffSha256"`
	DiffBytes  int    `json:"diffBytes"`
}

// OriginStart marks the reviews of the start command.
const OriginStart = "start"

// Submission is what the person sent: the comments in the page's JSON
// format, and the files they were also written to in the repository.
type Submission struct {
	agentmd.Submission
	JSONPath string `json:"jsonPath,omitempty"` // rfa/comments_<hash>.json, relative to the root
	MDPath   string `json:"mdPath,omitempty"`
}

// Claim says which agent is working on a review.
type Claim struct {
	ClaimedBy string    `json:"claimedBy"`
	ClaimedAt time.Time `json:"claimedAt"`
}

// ResultSummary is what a listing shows without reading the comments.
type ResultSummary struct {
	CommentCount int  `json:"commentCount"` // comments, the overall one included
	Global       bool `json:"global,omitempty"`
}

// Resolution is how a review was closed, and by whom (when is the
// record's ResolvedAt).
type Resolution struct {
	Note       string `json:"note,omitempty"`
	ResolvedBy string `json:"resolvedBy,omitempty"`
	// Forced is set when it was resolved over another agent's claim.
	Forced bool `json:"forced,omitempty"`
}

// GitHubRef locates a bot finding on a pull request.
type GitHubRef struct {
	Repo      string `json:"repo"` // owner/name
	Number    int    `json:"number"`
	FindingID string `json:"findingId"`
	Title     string `json:"title,omitempty"`
	Path      string `json:"path,omitempty"`
	Line      int    `json:"line,omitempty"`
}

// summarize counts a submission's comments.
func summarize(s agentmd.Submission) *ResultSummary {
	r := &ResultSummary{CommentCount: len(s.Comments)}
	if s.GlobalComment != nil && *s.GlobalComment != "" {
		r.CommentCount++
		r.Global = true
	}
	return r
}
