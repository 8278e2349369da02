package fakegithub

import (
	"slices"
	"strconv"
)

// The constructors below are shared by the REST handlers, the GraphQL
// mutations and the seeding helpers, so an object looks the same whichever
// way it was made. They run with s.mu held and do not log writes; callers
// that act for a client do.

func (s *Server) newIssueComment(p *pullState, author *user, body string) *issueComment {
	id, now := s.newID(), s.tick()
	ic := &issueComment{pull: p, c: Comment{
		ID: id, NodeID: "IC_kwDO" + strconv.FormatInt(id, 10),
		Author: author.login, Body: body, CreatedAt: now, UpdatedAt: now,
	}}
	p.comments = append(p.comments, ic)
	s.comments[id] = ic
	s.nodes[ic.c.NodeID] = ic
	return ic
}

// newReview records a review. state uses the REST spelling; PENDING reviews
// have no submission time.
func (s *Server) newReview(p *pullState, author *user, state, body, commit string) *reviewState {
	id, now := s.newID(), s.tick()
	rs := &reviewState{pull: p, r: Review{
		ID: id, NodeID: "PRR_" + strconv.FormatInt(id, 10), Author: author.login,
		State: state, Body: body, CommitID: commit,
	}}
	if state != "PENDING" {
		rs.r.SubmittedAt = now
		// GitHub drops a review request once the reviewer has reviewed.
		p.reviewers = slices.DeleteFunc(p.reviewers, func(l string) bool { return l == author.login })
	}
	p.reviews = append(p.reviews, rs)
	s.reviews[id] = rs
	s.nodes[rs.r.NodeID] = rs
	return rs
}

// anchor is where a thread sits in the diff.
type anchor struct {
	path      string
	line      int
	startLine int
	side      string
	startSide string
	position  int
	hunk      string
	outdated  bool
}

// newThread opens a review thread whose root comment belongs to review.
func (s *Server) newThread(rs *reviewState, a anchor, author *user, body string) *threadState {
	p := rs.pull
	tid := s.newID()
	t := &threadState{pull: p, t: Thread{
		ID: "PRRT_" + strconv.FormatInt(tid, 10), DatabaseID: tid, Path: a.path,
		Line: a.line, StartLine: a.startLine, Side: a.side, StartSide: a.startSide, Outdated: a.outdated,
	}}
	if a.outdated {
		t.t.Line, t.t.StartLine = 0, 0
	}
	p.threads = append(p.threads, t)
	s.nodes[t.t.ID] = t

	id, now := s.newID(), s.tick()
	rc := &reviewComment{thread: t, c: ReviewComment{
		Comment: Comment{
			ID: id, NodeID: "PRRC_" + strconv.FormatInt(id, 10),
			Author: author.login, Body: body, CreatedAt: now, UpdatedAt: now,
		},
		ThreadID: t.t.ID, ReviewID: rs.r.ID, Path: a.path,
		Line: t.t.Line, StartLine: t.t.StartLine, OriginalLine: a.line, OriginalStartLine: a.startLine,
		Side: a.side, StartSide: a.startSide, Position: a.position, DiffHunk: a.hunk,
		CommitID: rs.r.CommitID, OriginalCommitID: rs.r.CommitID,
	}}
	if a.outdated {
		rc.c.Position = 0
	}
	t.comments = append(t.comments, rc)
	s.reviewComments[id] = rc
	s.nodes[rc.c.NodeID] = rc
	return t
}

// newReply answers a thread. Like GitHub, a reply made outside a review
// creates its own single-comment COMMENTED review, and its in_reply_to_id
// always names the thread's root.
func (s *Server) newReply(t *threadState, author *user, body string) *reviewComment {
	root := t.comments[0].c
	rs := s.newReview(t.pull, author, "COMMENTED", "", t.pull.pr.HeadSHA)
	id, now := s.newID(), s.tick()
	rc := &reviewComment{thread: t, c: root}
	rc.c.Comment = Comment{
		ID: id, NodeID: "PRRC_" + strconv.FormatInt(id, 10),
		Author: author.login, Body: body, CreatedAt: now, UpdatedAt: now,
	}
	rc.c.ReviewID, rc.c.InReplyTo = rs.r.ID, root.ID
	rc.c.CommitID, rc.c.OriginalCommitID = rs.r.CommitID, root.OriginalCommitID
	t.comments = append(t.comments, rc)
	s.reviewComments[id] = rc
	s.nodes[rc.c.NodeID] = rc
	return rc
}

// editComment changes a body and records who edited it and when. It
// reports false when the body is unchanged, which GitHub does not count as
// an edit.
func (s *Server) editComment(c *Comment, editor *user, body string) bool {
	if c.Body == body {
		return false
	}
	now := s.tick()
	c.Body, c.UpdatedAt, c.LastEditedAt, c.Editor = body, now, now, editor.login
	return true
}

func (s *Server) deleteIssueComment(ic *issueComment) {
	p := ic.pull
	p.comments = slices.DeleteFunc(p.comments, func(x *issueComment) bool { return x == ic })
	delete(s.comments, ic.c.ID)
	delete(s.nodes, ic.c.NodeID)
	delete(s.reactions, ic.c.ID)
}

// deleteReviewComment removes a comment; a thread left empty goes too.
func (s *Server) deleteReviewComment(rc *reviewComment) {
	t := rc.thread
	t.comments = slices.DeleteFunc(t.comments, func(x *reviewComment) bool { return x == rc })
	delete(s.reviewComments, rc.c.ID)
	delete(s.nodes, rc.c.NodeID)
	delete(s.reactions, rc.c.ID)
	if len(t.comments) == 0 {
		p := t.pull
		p.threads = slices.DeleteFunc(p.threads, func(x *threadState) bool { return x == t })
		delete(s.nodes, t.t.ID)
	}
}

// anchorFor computes the diff position and hunk of a line on a side of a
// PR file, as GitHub stores them with a comment. ok is false when the line
// is not part of the diff.
func (p *pullState) anchorFor(path, side string, line int) (anchor, bool) {
	a := anchor{path: path, line: line, side: side}
	f, found := p.file(path)
	if !found {
		return a, false
	}
	pp, err := parsePatch(f.Patch)
	if err != nil {
		return a, false
	}
	pl, ok := pp.find(side, line)
	if !ok {
		return a, false
	}
	a.position, a.hunk = pl.position, pp.hunkText(pl)
	return a, true
}

func (p *pullState) file(path string) (File, bool) {
	for _, f := range p.files {
		if f.Path == path {
			return f, true
		}
	}
	return File{}, false
}
