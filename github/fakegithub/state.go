package fakegithub

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// firstID is the first database id handed out; real GitHub ids are large and
// opaque, and starting well above small integers keeps ids from being
// confused with PR numbers or counts in assertions.
const firstID = 1000

// epoch is where the deterministic clock starts.
var epoch = time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)

// user is an account. login is the REST spelling ("x[bot]" for bots).
type user struct {
	id    int64
	login string
	bot   bool
}

// actorLogin is how GraphQL's Actor.login spells the account: bots lose the
// "[bot]" suffix there, unlike in REST and in Query.viewer.
func (u *user) actorLogin() string {
	if u.bot {
		return botBase(u.login)
	}
	return u.login
}

func (u *user) nodeID() string {
	if u.bot {
		return "BOT_" + strconv.FormatInt(u.id, 10)
	}
	return "U_" + strconv.FormatInt(u.id, 10)
}

type repoState struct {
	Repo
	pulls      map[int]*pullState
	nextNumber int
	contents   map[string]string    // ref + "\x00" + path
	trees      map[string]*treeNode // by id, as getTree built them
	compares   map[string][]File    // base + "..." + head
	statuses   []*Status            // chronological
	perms      map[string]string    // lower-case login -> admin/maintain/write/triage/read
	commits    map[string]bool      // every head and base SHA any PR has had
	runs       map[int64]string     // workflow run id -> status (queued, in_progress, completed)
	fork       bool                 // a stand-in for a PR's head fork, not stored
}

type pullState struct {
	repo  *repoState
	pr    PR
	files []File // set by setFiles, which indexes them
	// changed is the index in files of each path the PR leaves at its
	// head (the first such entry); touched holds every path a file names,
	// old and new. Big PRs' trees and files lists look paths up here.
	changed   map[string]int
	touched   map[string]bool
	diff      string
	comments  []*issueComment
	threads   []*threadState
	reviews   []*reviewState
	reviewers []string
	// commits are the PR's commit oids, oldest first; the last is the head.
	commits []string
	// issue marks a plain issue (issues and pull requests share numbers
	// and the comment routes); labels are its label names.
	issue  bool
	labels []string
	// closes are the issues the pull request says it closes
	// (closingIssuesReferences), in the order GitHub lists them.
	closes []*pullState
}

// key prefixes Writes entries: "owner/name#7".
func (p *pullState) key() string { return p.repo.FullName() + "#" + strconv.Itoa(p.pr.Number) }

type issueComment struct {
	pull *pullState
	c    Comment
}

type reviewComment struct {
	thread *threadState
	c      ReviewComment
}

type threadState struct {
	pull     *pullState
	t        Thread // Comments is always nil here; see comments
	comments []*reviewComment
}

type reviewState struct {
	pull *pullState
	r    Review
}

// newID hands out the next database id.
func (s *Server) newID() int64 {
	id := s.nextID
	s.nextID++
	return id
}

// tick stamps an object: it returns the current time and moves the clock one
// second on, so every creation or edit gets a distinct, ordered timestamp.
func (s *Server) tick() time.Time {
	t := s.now
	s.now = s.now.Add(time.Second)
	return t
}

// userFor finds or registers the account with the given login. A "[bot]"
// suffix makes a new account a bot.
func (s *Server) userFor(login string) *user {
	if u, ok := s.users[strings.ToLower(login)]; ok {
		return u
	}
	if u, ok := s.users[strings.ToLower(login)+"[bot]"]; ok {
		return u
	}
	u := &user{id: s.newID(), login: login, bot: strings.HasSuffix(login, "[bot]")}
	s.users[strings.ToLower(login)] = u
	return u
}

// lookupUser finds an account without creating one.
func (s *Server) lookupUser(login string) *user {
	if u, ok := s.users[strings.ToLower(login)]; ok {
		return u
	}
	return s.users[strings.ToLower(login)+"[bot]"]
}

func (s *Server) repo(full string) *repoState { return s.repos[strings.ToLower(full)] }

func (s *Server) repoByParts(owner, name string) *repoState { return s.repo(owner + "/" + name) }

func (s *Server) pull(full string, number int) *pullState {
	r := s.repo(full)
	if r == nil {
		return nil
	}
	return r.pulls[number]
}

// ensureRepo returns the repository, creating it (and its owner, who gets
// admin permission as on GitHub) when absent.
func (s *Server) ensureRepo(full string) *repoState {
	if r := s.repo(full); r != nil {
		return r
	}
	owner, name, ok := cutRepo(full)
	if !ok {
		panic(fmt.Sprintf("fakegithub: repository %q is not of the form owner/name", full))
	}
	id := s.newID()
	r := &repoState{
		Repo: Repo{
			ID: id, NodeID: "R_" + strconv.FormatInt(id, 10),
			Owner: owner, Name: name, DefaultBranch: "main",
		},
		pulls:      map[int]*pullState{},
		nextNumber: 1,
		contents:   map[string]string{},
		compares:   map[string][]File{},
		runs:       map[int64]string{},
		perms:      map[string]string{strings.ToLower(owner): "admin"},
		commits:    map[string]bool{},
	}
	s.userFor(owner)
	s.repos[strings.ToLower(full)] = r
	s.nodes[r.NodeID] = r
	return r
}

// mustPull is for seeding helpers: an unknown PR is a bug in the caller.
func (s *Server) mustPull(full string, number int) *pullState {
	p := s.pull(full, number)
	if p == nil {
		panic(fmt.Sprintf("fakegithub: no pull request %s#%d; add it with AddPR first", full, number))
	}
	return p
}

// permission is the collaborator permission of login on r: "none" for
// accounts that were never granted one.
func (r *repoState) permission(login string) string {
	if p, ok := r.perms[strings.ToLower(login)]; ok {
		return p
	}
	return "none"
}

// association is GitHub's author_association of login on r.
func (r *repoState) association(login string) string {
	if strings.EqualFold(login, r.Owner) {
		return "OWNER"
	}
	switch r.permission(login) {
	case "admin", "maintain", "write", "triage":
		return "COLLABORATOR"
	}
	return "NONE"
}

// fakeSHA derives a stable 40-hex commit id from a seed, for PRs seeded
// without explicit SHAs.
func fakeSHA(seed string) string {
	sum := sha1.Sum([]byte(seed))
	return hex.EncodeToString(sum[:])
}

// blobSHA is git's blob id for content, which the contents API reports.
func blobSHA(content string) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(content))
	h.Write([]byte(content))
	return hex.EncodeToString(h.Sum(nil))
}

// resolveRef maps a branch name to the head SHA of a PR using it, so status
// lookups by branch work like GitHub's; anything else is taken as a SHA.
func (r *repoState) resolveRef(ref string) string {
	for _, p := range r.pulls {
		if p.pr.HeadRef == ref {
			return p.pr.HeadSHA
		}
	}
	return ref
}

// threadByNode finds a review thread by its GraphQL node id.
func (s *Server) threadByNode(nodeID string) *threadState {
	t, _ := s.nodes[nodeID].(*threadState)
	return t
}

// logWrite records one effective state change in the Writes log.
func (s *Server) logWrite(format string, args ...any) {
	s.writes = append(s.writes, fmt.Sprintf(format, args...))
}

// cutRepo splits "owner/name".
func cutRepo(full string) (owner, name string, ok bool) {
	owner, name, ok = strings.Cut(full, "/")
	return owner, name, ok && owner != "" && name != "" && !strings.Contains(name, "/")
}
