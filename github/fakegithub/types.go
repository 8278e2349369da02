package fakegithub

import (
	"fmt"
	"strings"
	"time"
)

// TokenKind says what kind of credential a token is, which decides how GitHub
// treats the identity behind it.
type TokenKind int

const (
	// TokenInstallation is the workflow's GITHUB_TOKEN (login
	// "github-actions[bot]").
	TokenInstallation TokenKind = iota + 1
	// TokenApp is a GitHub App installation token (login "my-app[bot]").
	TokenApp
	// TokenPAT is a personal access token of a human user.
	TokenPAT
)

func (k TokenKind) String() string {
	switch k {
	case TokenInstallation:
		return "installation"
	case TokenApp:
		return "app"
	case TokenPAT:
		return "pat"
	default:
		return fmt.Sprintf("TokenKind(%d)", int(k))
	}
}

// isBot reports whether the token acts as a bot account. Installation and App
// tokens are integrations: GitHub refuses them /user and spells them "[bot]".
func (k TokenKind) isBot() bool { return k == TokenInstallation || k == TokenApp }

// Identity is who a token acts as. Login is spelled the way REST spells it,
// so bots carry the "[bot]" suffix ("github-actions[bot]").
type Identity struct {
	Login string
	Kind  TokenKind
}

// Repo is a repository. FullName is "owner/name".
type Repo struct {
	ID            int64
	NodeID        string
	Owner         string
	Name          string
	DefaultBranch string
	Private       bool
}

// FullName is "owner/name".
func (r Repo) FullName() string { return r.Owner + "/" + r.Name }

// PR is a pull request. Zero fields get defaults from AddPR: the next number,
// author "octocat", state "open", synthetic SHAs, head ref "feature-<n>",
// base ref the default branch, head repository the PR's own repository.
type PR struct {
	Number    int
	ID        int64
	NodeID    string
	Title     string
	Body      string
	Author    string // REST spelling of the login
	Draft     bool
	State     string // "open" or "closed"
	Merged    bool
	HeadSHA   string
	BaseSHA   string
	HeadRef   string
	BaseRef   string
	HeadRepo  string // "owner/name"; the fork's name when Fork
	Fork      bool
	CreatedAt time.Time
	UpdatedAt time.Time
}

// File is one changed file of a pull request or comparison, shaped like the
// REST "files" entries. Patch holds the unified-diff hunks without the file
// header, starting at the first "@@" line.
type File struct {
	Path         string
	PreviousPath string // set for renames
	Status       string // added, removed, modified, renamed
	Additions    int
	Deletions    int
	Patch        string
}

// Comment is an issue (conversation) comment. Author and Editor use the REST
// spelling of logins; LastEditedAt is zero until the body is edited.
type Comment struct {
	ID              int64
	NodeID          string
	Author          string
	Body            string
	CreatedAt       time.Time
	UpdatedAt       time.Time
	LastEditedAt    time.Time
	Editor          string
	Minimized       bool
	MinimizedReason string
}

// ReviewComment is one comment of a review thread.
type ReviewComment struct {
	Comment
	ThreadID          string
	ReviewID          int64
	InReplyTo         int64 // the thread root's id for replies, 0 for the root
	Path              string
	Line              int // 0 when outdated
	StartLine         int
	OriginalLine      int
	OriginalStartLine int
	Side              string // LEFT or RIGHT
	StartSide         string
	Position          int // legacy diff position, 0 when outdated
	DiffHunk          string
	CommitID          string
	OriginalCommitID  string
}

// Thread is a review thread with its comments in order; Comments[0] is the
// root.
type Thread struct {
	ID         string // GraphQL node id, "PRRT_<id>"
	DatabaseID int64
	Path       string
	Line       int // 0 when outdated
	StartLine  int
	Side       string
	StartSide  string
	Resolved   bool
	ResolvedBy string
	Outdated   bool
	Comments   []ReviewComment
}

// ThreadSpec seeds a review thread with AddThread. Side defaults to RIGHT,
// Author to "octocat" and CommitID to the PR's head SHA. Outdated threads
// report no current line, as GitHub does once the code moved on.
type ThreadSpec struct {
	Path       string
	Line       int
	StartLine  int
	Side       string
	StartSide  string
	Author     string
	Body       string
	CommitID   string
	Resolved   bool
	ResolvedBy string
	Outdated   bool
}

// Review is a pull request review. State is GitHub's REST spelling:
// COMMENTED, APPROVED, CHANGES_REQUESTED, DISMISSED or PENDING.
type Review struct {
	ID          int64
	NodeID      string
	Author      string
	State       string
	Body        string
	CommitID    string
	SubmittedAt time.Time // zero while PENDING
	Editor      string    // who last edited the body, "" when never edited
	// LastEditedAt is when Editor last edited the body, zero until then.
	LastEditedAt time.Time
}

// Reaction is an emoji reaction on a comment.
type Reaction struct {
	ID        int64
	NodeID    string
	SubjectID int64 // the comment reacted to
	Content   string
	User      string
	CreatedAt time.Time
}

// Status is a commit status.
type Status struct {
	ID          int64
	NodeID      string
	SHA         string
	State       string
	Context     string
	Description string
	TargetURL   string
	Creator     string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// Request is one request the server answered, in arrival order.
type Request struct {
	ID        string // X-GitHub-Request-Id
	Method    string
	Path      string
	Query     string
	Operation string // GraphQL operation name, else its first field
	Login     string // identity the token resolved to, "" when unauthenticated
	Status    int
	Write     bool // non-GET REST request or GraphQL mutation
	Fault     bool // answered (at least partly) by an injected fault
	Bytes     int  // length of the response body sent
}

func (r Request) String() string {
	s := r.Method + " " + r.Path
	if r.Query != "" {
		s += "?" + r.Query
	}
	if r.Operation != "" {
		s += " (" + r.Operation + ")"
	}
	return fmt.Sprintf("%s -> %d", s, r.Status)
}

// botBase strips the "[bot]" suffix GitHub's REST API puts on bot logins.
func botBase(login string) string { return strings.TrimSuffix(login, "[bot]") }
