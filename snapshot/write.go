package snapshot

import (
	"strings"
	"time"
)

// NewReview is a pull request review to post: one summary body and its
// inline comments, in a single request.
type NewReview struct {
	CommitSHA string
	Event     ReviewEvent
	Body      string
	Comments  []NewReviewComment
}

// ReviewEvent is what a posted review does to the pull request.
type ReviewEvent string

const (
	ReviewEventComment        ReviewEvent = "COMMENT"
	ReviewEventRequestChanges ReviewEvent = "REQUEST_CHANGES"
	ReviewEventApprove        ReviewEvent = "APPROVE"
)

// NewReviewComment is an inline comment anchored to a line or a range.
type NewReviewComment struct {
	Path      string
	Line      int
	Side      string // LEFT or RIGHT
	StartLine int    // 0 for a single line
	StartSide string
	Body      string
}

// Status is a commit status.
type Status struct {
	ID          int64  // GitHub's id of the status, when read over REST (0 otherwise); later statuses have larger ids
	Context     string // e.g. rmc/merge-gate
	State       string // success, failure, pending, error
	Description string
	TargetURL   string
}

// DefaultBot is who the bot is when nothing better is known: the identity
// behind the workflow's GITHUB_TOKEN.
var DefaultBot = NewActor("github-actions[bot]", "")

// BotIdentity decides who the bot is: the configured login, else the token's
// owner as the API reports it, else the GITHUB_TOKEN identity.
//
// A configured login names a bot account when it carries the "[bot]" suffix,
// or when it is the token's own login and the API says that account is a bot
// (bot_login: my-app with my-app's installation token). Otherwise it names a
// user account on purpose: a PAT's owner.
func BotIdentity(configured string, viewer Actor) Actor {
	if configured != "" {
		a := NewActor(configured, "")
		if !a.IsBot && strings.EqualFold(a.Login, viewer.Login) {
			a.IsBot = viewer.IsBot
		}
		return a
	}
	if viewer.Login != "" {
		return viewer
	}
	return DefaultBot
}

// Counts are the requests a GitHub client sent, for the job summary and
// benchmarks.
type Counts struct {
	Reads, Writes, Retries int64
	// GraphQLCost is the rate-limit points the GraphQL queries cost.
	GraphQLCost int64
}

// Subject is a comment a run claims work on: a conversation comment, or a
// comment in a review thread (GitHub keeps their ids and reactions apart).
type Subject struct {
	ID       int64
	InThread bool
}

// Claim is the outcome of claiming a subject: the bot's 👀 reaction on it,
// which GitHub creates once per user. Won is set when this request created
// it; otherwise At is when the existing one was made (by another run, or
// an earlier one) and Age how old it was by GitHub's clock, so a runner's
// clock does not decide whether a claim has lapsed.
type Claim struct {
	Won bool
	At  time.Time
	Age time.Duration
}
