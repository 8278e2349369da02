package fakegithub

import (
	"slices"
	"sort"
)

// The getters below return copies, so callers can keep or modify them
// without racing the server. Unknown repositories or PRs yield nothing.

// PR returns a pull request.
func (s *Server) PR(repo string, number int) (PR, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pull(repo, number)
	if p == nil {
		return PR{}, false
	}
	return p.pr, true
}

// Files returns a PR's changed files.
func (s *Server) Files(repo string, number int) []File {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.pull(repo, number); p != nil {
		return slices.Clone(p.files)
	}
	return nil
}

// Commits returns a PR's commit oids, oldest first: the last is the head.
func (s *Server) Commits(repo string, number int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.pull(repo, number); p != nil {
		return slices.Clone(p.commits)
	}
	return nil
}

// IssueComments returns a PR's conversation comments, oldest first.
func (s *Server) IssueComments(repo string, number int) []Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pull(repo, number)
	if p == nil {
		return nil
	}
	out := make([]Comment, 0, len(p.comments))
	for _, ic := range p.comments {
		out = append(out, ic.c)
	}
	return out
}

// Threads returns a PR's review threads, oldest first, with their comments.
func (s *Server) Threads(repo string, number int) []Thread {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pull(repo, number)
	if p == nil {
		return nil
	}
	out := make([]Thread, 0, len(p.threads))
	for _, t := range p.threads {
		out = append(out, t.snapshot())
	}
	return out
}

func (t *threadState) snapshot() Thread {
	th := t.t
	th.Comments = make([]ReviewComment, 0, len(t.comments))
	for _, rc := range t.comments {
		th.Comments = append(th.Comments, rc.c)
	}
	return th
}

// ReviewComments returns every review comment of a PR, oldest first, as
// GET /pulls/{n}/comments lists them.
func (s *Server) ReviewComments(repo string, number int) []ReviewComment {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pull(repo, number)
	if p == nil {
		return nil
	}
	var out []ReviewComment
	for _, rc := range p.allReviewComments() {
		out = append(out, rc.c)
	}
	return out
}

// allReviewComments lists a PR's review comments in creation order.
func (p *pullState) allReviewComments() []*reviewComment {
	var all []*reviewComment
	for _, t := range p.threads {
		all = append(all, t.comments...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].c.ID < all[j].c.ID })
	return all
}

// Reviews returns a PR's reviews, oldest first.
func (s *Server) Reviews(repo string, number int) []Review {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pull(repo, number)
	if p == nil {
		return nil
	}
	out := make([]Review, 0, len(p.reviews))
	for _, rs := range p.reviews {
		out = append(out, rs.r)
	}
	return out
}

// Statuses returns the statuses posted on a commit, oldest first.
func (s *Server) Statuses(repo, sha string) []Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.repo(repo)
	if r == nil {
		return nil
	}
	var out []Status
	for _, st := range r.statuses {
		if st.SHA == sha {
			out = append(out, *st)
		}
	}
	return out
}

// Reactions returns the reactions on a comment, oldest first.
func (s *Server) Reactions(commentID int64) []Reaction {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Reaction
	for _, r := range s.reactions[commentID] {
		out = append(out, *r)
	}
	return out
}

// RequestedReviewers returns the logins a PR's review is requested from.
func (s *Server) RequestedReviewers(repo string, number int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.pull(repo, number); p != nil {
		return slices.Clone(p.reviewers)
	}
	return nil
}

// Requests returns every request received, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Writes returns the effective state changes clients made, one line each in
// a stable format, e.g. "o/r#1:issue-comment:create:1001",
// "o/r#1:review:create:1050:COMMENT:3", "o/r#1:thread:resolve:PRRT_1040",
// "o/r@<sha>:status:rmc/merge-gate:failure". Requests that changed nothing
// (an existing reaction re-posted, an edit to the same body) add no line.
func (s *Server) Writes() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.writes)
}

// ReadCount is the number of read requests received (REST GETs and
// GraphQL queries), whatever their outcome.
func (s *Server) ReadCount() int { return s.countRequests(false) }

// WriteCount is the number of write requests received (other REST methods
// and GraphQL mutations), whatever their outcome.
func (s *Server) WriteCount() int { return s.countRequests(true) }

func (s *Server) countRequests(write bool) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.requests {
		if r.Write == write {
			n++
		}
	}
	return n
}

// Unhandled lists requests no route served, as "METHOD /path". A test
// should fail when it is not empty: the client called something the fake
// does not implement.
func (s *Server) Unhandled() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.unhandled)
}

// GraphQLErrors lists the GraphQL errors the server answered with: invalid
// documents, unsupported fields, unknown nodes.
func (s *Server) GraphQLErrors() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.gqlErrors)
}

// ResetLogs clears Requests, Writes, Unhandled, GraphQLErrors and the
// OnWrite count, e.g. between a seeding run and the run under test.
func (s *Server) ResetLogs() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests, s.writes, s.unhandled, s.gqlErrors = nil, nil, nil, nil
	s.writeSeq = 0
}

// HeadBlobs are the blob ids of a PR's changed files at its head, as the
// files list reports them (removed files have none), in the list's order.
func (s *Server) HeadBlobs(repo string, number int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.mustPull(repo, number)
	var out []string
	for _, f := range p.files {
		if f.Status != "removed" {
			out = append(out, p.repo.fileBlob(p.pr.HeadSHA, f))
		}
	}
	return out
}
