package fakegithub

import (
	"net/http"
	"strings"
)

const (
	docListIssueComments  = "https://docs.github.com/rest/issues/comments#list-issue-comments"
	docGetIssueComment    = "https://docs.github.com/rest/issues/comments#get-an-issue-comment"
	docDeleteIssueComment = "https://docs.github.com/rest/issues/comments#delete-an-issue-comment"
	docListReviewComments = "https://docs.github.com/rest/pulls/comments#list-review-comments-on-a-pull-request"
	docGetReviewComment   = "https://docs.github.com/rest/pulls/comments#get-a-review-comment-for-a-pull-request"
	docDeleteReviewCmt    = "https://docs.github.com/rest/pulls/comments#delete-a-review-comment-for-a-pull-request"
)

type bodyInput struct {
	Body *string `json:"body"`
}

// problemsParsingJSON is GitHub's answer to a body that is not JSON.
func problemsParsingJSON(doc string) reply {
	return errorReply(http.StatusBadRequest, "Problems parsing JSON", doc, nil)
}

// checkBody applies GitHub's rules for a required comment body.
func checkBody(in bodyInput, resource, doc string) (string, *reply) {
	if in.Body == nil || strings.TrimSpace(*in.Body) == "" {
		r := missingField(resource, "body", doc)
		return "", &r
	}
	if tooLong(*in.Body) {
		r := bodyTooLong(resource, doc)
		return "", &r
	}
	return *in.Body, nil
}

func (s *Server) listIssueComments(c *call) reply {
	p := c.pullParam()
	if p == nil {
		return notFound(docListIssueComments)
	}
	out := []issueCommentJSON{}
	for _, ic := range paginate(c, p.comments) {
		out = append(out, s.issueCommentJSON(ic))
	}
	return jsonReply(http.StatusOK, out)
}

func (s *Server) createIssueComment(c *call) reply {
	p := c.pullParam()
	if p == nil {
		return notFound(docCreateIssueComment)
	}
	var in bodyInput
	if !c.decode(&in) {
		return problemsParsingJSON(docCreateIssueComment)
	}
	body, bad := checkBody(in, "IssueComment", docCreateIssueComment)
	if bad != nil {
		return *bad
	}
	ic := s.newIssueComment(p, c.who, body)
	s.logWrite("%s:issue-comment:create:%d", p.key(), ic.c.ID)
	j := s.issueCommentJSON(ic)
	return reply{status: http.StatusCreated, json: j, header: http.Header{"Location": {j.URL}}}
}

// issueCommentParam resolves {id} to an issue comment of {owner}/{repo}.
func (c *call) issueCommentParam() *issueComment {
	id, ok := c.intParam("id")
	ic := c.s.comments[id]
	if !ok || ic == nil || ic.pull.repo != c.repoParam() {
		return nil
	}
	return ic
}

func (s *Server) getIssueComment(c *call) reply {
	ic := c.issueCommentParam()
	if ic == nil {
		return notFound(docGetIssueComment)
	}
	return jsonReply(http.StatusOK, s.issueCommentJSON(ic))
}

func (s *Server) editIssueComment(c *call) reply {
	ic := c.issueCommentParam()
	if ic == nil {
		return notFound(docUpdateIssueComment)
	}
	var in bodyInput
	if !c.decode(&in) {
		return problemsParsingJSON(docUpdateIssueComment)
	}
	body, bad := checkBody(in, "IssueComment", docUpdateIssueComment)
	if bad != nil {
		return *bad
	}
	if s.editComment(&ic.c, c.who, body) {
		s.logWrite("%s:issue-comment:edit:%d", ic.pull.key(), ic.c.ID)
	}
	return jsonReply(http.StatusOK, s.issueCommentJSON(ic))
}

func (s *Server) deleteIssueCommentRoute(c *call) reply {
	ic := c.issueCommentParam()
	if ic == nil {
		return notFound(docDeleteIssueComment)
	}
	s.deleteIssueComment(ic)
	s.logWrite("%s:issue-comment:delete:%d", ic.pull.key(), ic.c.ID)
	return reply{status: http.StatusNoContent}
}

func (s *Server) listReviewComments(c *call) reply {
	p := c.pullParam()
	if p == nil {
		return notFound(docListReviewComments)
	}
	out := []reviewCommentJSON{}
	for _, rc := range paginate(c, p.allReviewComments()) {
		out = append(out, s.reviewCommentJSON(rc))
	}
	return jsonReply(http.StatusOK, out)
}

const docCreateReviewComment = "https://docs.github.com/rest/pulls/comments#create-a-review-comment-for-a-pull-request"

// createReviewComment answers POST /pulls/{n}/comments: with in_reply_to
// it is a reply (every other field ignored, as documented); otherwise it
// opens a thread in a new single-comment review, validated like a review's
// inline comment.
func (s *Server) createReviewComment(c *call) reply {
	p := c.pullParam()
	if p == nil {
		return notFound(docCreateReviewComment)
	}
	var in struct {
		reviewCommentInput
		CommitID    string `json:"commit_id"`
		InReplyTo   int64  `json:"in_reply_to"`
		SubjectType string `json:"subject_type"`
	}
	if !c.decode(&in) {
		return problemsParsingJSON(docCreateReviewComment)
	}
	if in.InReplyTo != 0 {
		parent := s.reviewComments[in.InReplyTo]
		if parent == nil || parent.thread.pull != p {
			return notFound(docCreateReviewComment)
		}
		body, bad := checkBody(bodyInput{Body: &in.Body}, "PullRequestReviewComment", docCreateReviewComment)
		if bad != nil {
			return *bad
		}
		rc := s.newReply(parent.thread, c.who, body)
		s.logWrite("%s:review-comment:reply:%d", p.key(), rc.c.ID)
		return jsonReply(http.StatusCreated, s.reviewCommentJSON(rc))
	}
	if strings.EqualFold(in.SubjectType, "file") {
		// File-level comments have no line; the fake does not model them.
		s.unhandled = append(s.unhandled, c.r.Method+" "+c.r.URL.Path+" (subject_type file)")
		return invalidRequest(docCreateReviewComment, "fakegithub does not implement file-level review comments")
	}
	if in.CommitID == "" {
		return invalidRequest(docCreateReviewComment, `"commit_id" wasn't supplied.`)
	}
	a, bad := p.resolveAnchor(in.reviewCommentInput, docCreateReviewComment, true)
	if bad != nil {
		return *bad
	}
	rs := s.newReview(p, c.who, "COMMENTED", "", in.CommitID)
	t := s.newThread(rs, a, c.who, in.Body)
	rc := t.comments[0]
	s.logWrite("%s:review-comment:create:%d", p.key(), rc.c.ID)
	return jsonReply(http.StatusCreated, s.reviewCommentJSON(rc))
}

// reviewCommentParam resolves {id} to a review comment of {owner}/{repo}.
func (c *call) reviewCommentParam() *reviewComment {
	id, ok := c.intParam("id")
	rc := c.s.reviewComments[id]
	if !ok || rc == nil || rc.thread.pull.repo != c.repoParam() {
		return nil
	}
	return rc
}

// createReply answers POST /pulls/{n}/comments/{id}/replies.
func (s *Server) createReply(c *call) reply {
	p, rc := c.pullParam(), c.reviewCommentParam()
	if p == nil || rc == nil || rc.thread.pull != p {
		return notFound(docCreateReply)
	}
	var in bodyInput
	if !c.decode(&in) {
		return problemsParsingJSON(docCreateReply)
	}
	body, bad := checkBody(in, "PullRequestReviewComment", docCreateReply)
	if bad != nil {
		return *bad
	}
	reply := s.newReply(rc.thread, c.who, body)
	s.logWrite("%s:review-comment:reply:%d", p.key(), reply.c.ID)
	return jsonReply(http.StatusCreated, s.reviewCommentJSON(reply))
}

func (s *Server) getReviewComment(c *call) reply {
	rc := c.reviewCommentParam()
	if rc == nil {
		return notFound(docGetReviewComment)
	}
	return jsonReply(http.StatusOK, s.reviewCommentJSON(rc))
}

func (s *Server) editReviewComment(c *call) reply {
	rc := c.reviewCommentParam()
	if rc == nil {
		return notFound(docUpdateReviewCmt)
	}
	var in bodyInput
	if !c.decode(&in) {
		return problemsParsingJSON(docUpdateReviewCmt)
	}
	body, bad := checkBody(in, "PullRequestReviewComment", docUpdateReviewCmt)
	if bad != nil {
		return *bad
	}
	if s.editComment(&rc.c.Comment, c.who, body) {
		s.logWrite("%s:review-comment:edit:%d", rc.thread.pull.key(), rc.c.ID)
	}
	return jsonReply(http.StatusOK, s.reviewCommentJSON(rc))
}

func (s *Server) deleteReviewCommentRoute(c *call) reply {
	rc := c.reviewCommentParam()
	if rc == nil {
		return notFound(docDeleteReviewCmt)
	}
	s.deleteReviewComment(rc)
	s.logWrite("%s:review-comment:delete:%d", rc.thread.pull.key(), rc.c.ID)
	return reply{status: http.StatusNoContent}
}
