// Package snapshot holds the domain's view of one pull request, read once per
// run. It is plain data: the GitHub adapter fills it, everything downstream
// (state, detector, execution) reads it. Nothing here imports a GitHub client.
package snapshot

import (
	"strings"
	"time"
)

// Repo names a repository.
type Repo struct {
	Owner string
	Name  string
}

func (r Repo) String() string { return r.Owner + "/" + r.Name }

// ParseRepo splits "owner/name"; ok is false for anything else.
func ParseRepo(s string) (Repo, bool) {
	owner, name, found := strings.Cut(s, "/")
	if !found || owner == "" || name == "" || strings.Contains(name, "/") {
		return Repo{}, false
	}
	return Repo{Owner: owner, Name: name}, true
}

// Actor is a normalized identity. Login never carries the "[bot]" suffix, so
// the same account compares equal whichever API reported it (REST says
// "github-actions[bot]", GraphQL author.login says "github-actions").
type Actor struct {
	Login string
	IsBot bool
}

// NewActor normalizes a login as any GitHub API spells it. typename is the
// GraphQL __typename when known ("Bot", "User", "Mannequin"), else "".
func NewActor(login, typename string) Actor {
	l := strings.TrimSpace(login)
	isBot := typename == "Bot"
	if trimmed, ok := strings.CutSuffix(l, "[bot]"); ok {
		l, isBot = trimmed, true
	}
	return Actor{Login: l, IsBot: isBot}
}

// Is reports whether a and b are the same account: the same login (logins
// are case-insensitive) and the same kind of account. The kind matters: the
// App "rmc-bot[bot]" and a user who registers "rmc-bot" share a login once
// the suffix is dropped, and only one of them is the bot.
func (a Actor) Is(b Actor) bool {
	return a.Login != "" && a.IsBot == b.IsBot && strings.EqualFold(a.Login, b.Login)
}

// Handle is how a person is addressed in a comment: "@octocat".
func (a Actor) Handle() string { return "@" + a.Login }

// String gives the REST spelling ("github-actions[bot]") for logs.
func (a Actor) String() string {
	if a.IsBot {
		return a.Login + "[bot]"
	}
	return a.Login
}

// Role is a user's permission on a repository, as the REST API's role_name
// spells it.
type Role string

// The roles.
const (
	RoleAdmin    Role = "admin"
	RoleMaintain Role = "maintain"
	RoleWrite    Role = "write"
	RoleTriage   Role = "triage"
	RoleRead     Role = "read"
	RoleNone     Role = "none"
)

// Writes reports a role with write access or more: a maintainer's, whose
// resolutions, concessions, waivers and commands count.
func (r Role) Writes() bool { return r == RoleAdmin || r == RoleMaintain || r == RoleWrite }

// PRState is a pull request's state, as GraphQL names it.
type PRState string

// The pull request states.
const (
	PROpen   PRState = "OPEN"
	PRClosed PRState = "CLOSED"
	PRMerged PRState = "MERGED"
)

// PullRequest is the PR's metadata.
type PullRequest struct {
	Number    int
	NodeID    string
	Title     string
	Body      string
	URL       string
	Author    Actor
	Draft     bool
	State     PRState
	HeadSHA   string
	BaseSHA   string
	HeadRef   string
	BaseRef   string
	HeadRepo  string // "owner/name" of the head repository; "" when deleted
	IsFork    bool   // head repository differs from the base repository
	CreatedAt time.Time
	// ChangedFiles is how many files GitHub counts changed. Its list of
	// the files stops at 3,000; a list shorter than this count was cut.
	ChangedFiles int
	// Commits are the oids of the PR's commits as GitHub lists them (those
	// the head holds and the base does not), oldest first, so the last is
	// the head: at most the newest MaxCommits. A force-push replaces them.
	// CommitsTotal is how many the PR has; when it exceeds len(Commits), an
	// oid not in Commits may still be an older commit of the head.
	Commits      []string
	CommitsTotal int
	// Closes are the issues the pull request says it closes, as GitHub
	// links them: at most MaxClosingIssues, each body cut to MaxIssueBody.
	Closes []ClosingIssue
}

// ClosingIssue is an issue a pull request closes ("Fixes #12", or a link a
// person made). Its title and body are what people wrote: untrusted.
type ClosingIssue struct {
	Repo   string // "owner/name"
	Number int
	Title  string
	Body   string // cut to MaxIssueBody, "…" where it was cut
	URL    string
	Closed bool
}

// Bounds on the closing issues a snapshot keeps: a few, each short enough
// to sit in every prompt that reads them.
const (
	MaxClosingIssues = 3
	MaxIssueBody     = 4000
)

// MaxCommits is how many of a PR's newest commits a snapshot reads.
const MaxCommits = 250

// Comment is a top-level PR conversation comment (an "issue comment").
type Comment struct {
	ID        int64 // REST/database id; the key every rmcoc block refers to
	NodeID    string
	Author    Actor
	Body      string
	URL       string
	CreatedAt time.Time
	UpdatedAt time.Time
	Editor    *Actor // last editor when the comment was edited, else nil
	// EditedAt is when its body was last edited, as GitHub says
	// (lastEditedAt); zero when it was never edited, or GitHub did not
	// say when.
	EditedAt time.Time
	// Association is GitHub's authorAssociation of the author with the
	// repository: OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, NONE, …
	Association string
}

// Trusted reports whether the author may ask the bot for work: the
// repository's owner, a member of its organization, or a collaborator.
func (c Comment) Trusted() bool {
	switch c.Association {
	case "OWNER", "MEMBER", "COLLABORATOR":
		return true
	}
	return false
}

// ReviewComment is one comment in a review thread.
type ReviewComment struct {
	Comment
	ReplyToID int64  // database id of the comment it replies to; 0 for the thread's root
	ReviewID  int64  // database id of the review it belongs to, 0 when unknown
	Path      string // file path
	Line      int    // current line (0 when outdated)
	DiffHunk  string // the hunk the comment sits on
	CommitSHA string
}

// Thread is a review thread: an inline conversation anchored to a line.
type Thread struct {
	ID         string // GraphQL node id (needed by resolveReviewThread)
	IsResolved bool
	IsOutdated bool
	Path       string
	Line       int
	StartLine  int
	DiffSide   string // LEFT or RIGHT
	ResolvedBy *Actor
	Comments   []ReviewComment // chronological; Comments[0] is the root
}

// Root is the first comment of the thread, or nil for an empty thread.
func (t Thread) Root() *ReviewComment {
	if len(t.Comments) == 0 {
		return nil
	}
	return &t.Comments[0]
}

// ReviewState is a submitted review's state, as GitHub names it.
type ReviewState string

const (
	ReviewCommented        ReviewState = "COMMENTED"
	ReviewApproved         ReviewState = "APPROVED"
	ReviewChangesRequested ReviewState = "CHANGES_REQUESTED"
	ReviewDismissed        ReviewState = "DISMISSED"
	ReviewPending          ReviewState = "PENDING"
)

// Review is a submitted pull request review.
type Review struct {
	ID          int64
	NodeID      string
	Author      Actor
	State       ReviewState
	Body        string
	CommitSHA   string
	SubmittedAt time.Time
	Association string // see Comment.Association
	Editor      *Actor // last editor when the body was edited, else nil
}

// Snapshot is everything the run knows about the PR, read in one pass.
type Snapshot struct {
	Repo          Repo
	PR            PullRequest
	Viewer        Actor // who the token belongs to, as GraphQL viewer reports it
	IssueComments []Comment
	Threads       []Thread
	Reviews       []Review
	// Config is the repository's config file; read only when asked for
	// (the first read of a run).
	Config ConfigFile
	// Learnings is the repository's learnings issue; read with Config.
	Learnings LearningsIssue
}

// ChangedFile is one changed file of a PR, with its patch (hunks only) when
// GitHub sends one (it omits it for binary and very large files).
type ChangedFile struct {
	Path, PreviousPath, Status string
	Additions, Deletions       int
	Patch                      string
	// Blob is the file's blob id at the head ("" when removed): what the
	// merge gate's ledger records a review of.
	Blob string
}

// Comparison is what changed between two commits.
type Comparison struct {
	// Status is GitHub's: "ahead" when head descends from base (an ordinary
	// push), "diverged" or "behind" after a force-push or rebase.
	Status string
	Files  []ChangedFile
}
