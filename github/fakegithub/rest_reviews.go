package fakegithub

import (
	"fmt"
	"net/http"
	"strings"
)

// GitHub's messages for rejected reviews, verbatim.
const (
	msgLineNotInDiff     = "Pull request review thread line must be part of the diff"
	msgStartNotInHunk    = "Pull request review thread start line must be part of the same hunk as the line."
	msgStartAfterEnd     = "Pull request review thread start line must precede the end line."
	msgPositionInvalid   = "Pull request review thread position is invalid"
	msgPathNotResolved   = "Path could not be resolved"
	msgOwnRequestChanges = "Can not request changes on your own pull request"
	msgOwnApprove        = "Can not approve your own pull request"
	msgOnePending        = "User can only have one pending review per pull request"
	// GitHub rejects a body-less COMMENT or REQUEST_CHANGES review without
	// inline comments; this wording is the fake's, the 422 is GitHub's.
	msgBodyRequired = "Body is required when using REQUEST_CHANGES or COMMENT events"
)

const docListReviews = "https://docs.github.com/rest/pulls/reviews#list-reviews-for-a-pull-request"

// reviewStates maps a review event to the state the review ends in.
var reviewStates = map[string]string{
	"COMMENT":         "COMMENTED",
	"APPROVE":         "APPROVED",
	"REQUEST_CHANGES": "CHANGES_REQUESTED",
	"":                "PENDING",
}

type reviewCommentInput struct {
	Path      string `json:"path"`
	Position  *int   `json:"position"`
	Body      string `json:"body"`
	Line      *int   `json:"line"`
	Side      string `json:"side"`
	StartLine *int   `json:"start_line"`
	StartSide string `json:"start_side"`
}

type reviewInput struct {
	CommitID string               `json:"commit_id"`
	Body     string               `json:"body"`
	Event    string               `json:"event"`
	Comments []reviewCommentInput `json:"comments"`
}

// invalidRequest is the 422 GitHub's JSON-schema check answers with.
func invalidRequest(doc, detail string) reply {
	return errorReply(http.StatusUnprocessableEntity, "Invalid request.\n\n"+detail, doc, nil)
}

func (s *Server) listReviews(c *call) reply {
	p := c.pullParam()
	if p == nil {
		return notFound(docListReviews)
	}
	// A pending review is visible to its author only.
	var visible []*reviewState
	for _, rs := range p.reviews {
		if rs.r.State != "PENDING" || rs.r.Author == c.who.login {
			visible = append(visible, rs)
		}
	}
	out := []reviewJSON{}
	for _, rs := range paginate(c, visible) {
		out = append(out, s.reviewJSON(rs))
	}
	return jsonReply(http.StatusOK, out)
}

func (s *Server) getReview(c *call) reply {
	p := c.pullParam()
	id, ok := c.intParam("id")
	rs := s.reviews[id]
	if p == nil || !ok || rs == nil || rs.pull != p {
		return notFound("https://docs.github.com/rest/pulls/reviews#get-a-review-for-a-pull-request")
	}
	return jsonReply(http.StatusOK, s.reviewJSON(rs))
}

// updateReview replaces a review's body, as GitHub's "update a review"
// does; the editor is recorded, as the web UI shows it.
func (s *Server) updateReview(c *call) reply {
	const doc = "https://docs.github.com/rest/pulls/reviews#update-a-review-for-a-pull-request"
	p := c.pullParam()
	id, ok := c.intParam("id")
	rs := s.reviews[id]
	if p == nil || !ok || rs == nil || rs.pull != p {
		return notFound(doc)
	}
	var in bodyInput
	if !c.decode(&in) {
		return problemsParsingJSON(doc)
	}
	body, bad := checkBody(in, "PullRequestReview", doc)
	if bad != nil {
		return *bad
	}
	if rs.r.Body != body {
		rs.r.Body, rs.r.Editor, rs.r.LastEditedAt = body, c.who.login, s.tick()
		s.logWrite("%s:review:edit:%d", p.key(), rs.r.ID)
	}
	return jsonReply(http.StatusOK, s.reviewJSON(rs))
}

// createReview validates the whole review before writing anything: one bad
// inline comment rejects the review and leaves no trace, as on GitHub.
func (s *Server) createReview(c *call) reply {
	p := c.pullParam()
	if p == nil {
		return notFound(docCreateReview)
	}
	var in reviewInput
	if !c.decode(&in) {
		return problemsParsingJSON(docCreateReview)
	}
	state, ok := reviewStates[in.Event]
	if !ok {
		return invalidRequest(docCreateReview, fmt.Sprintf(`For 'properties/event', %q is not one of ["APPROVE", "REQUEST_CHANGES", "COMMENT"].`, in.Event))
	}
	if strings.EqualFold(p.pr.Author, c.who.login) {
		switch in.Event {
		case "REQUEST_CHANGES":
			return unprocessable(docCreateReview, msgOwnRequestChanges)
		case "APPROVE":
			return unprocessable(docCreateReview, msgOwnApprove)
		}
	}
	if (in.Event == "COMMENT" || in.Event == "REQUEST_CHANGES") && strings.TrimSpace(in.Body) == "" && len(in.Comments) == 0 {
		return unprocessable(docCreateReview, msgBodyRequired)
	}
	if tooLong(in.Body) {
		return bodyTooLong("PullRequestReview", docCreateReview)
	}
	for _, rs := range p.reviews {
		if rs.r.State == "PENDING" && rs.r.Author == c.who.login {
			return unprocessable(docCreateReview, msgOnePending)
		}
	}
	anchors := make([]anchor, 0, len(in.Comments))
	for _, cm := range in.Comments {
		a, bad := p.resolveAnchor(cm, docCreateReview, false)
		if bad != nil {
			return *bad
		}
		anchors = append(anchors, a)
	}

	rs := s.newReview(p, c.who, state, in.Body, orDefault(in.CommitID, p.pr.HeadSHA))
	for i, a := range anchors {
		s.newThread(rs, a, c.who, in.Comments[i].Body)
	}
	s.logWrite("%s:review:create:%d:%s:%d", p.key(), rs.r.ID, orDefault(in.Event, "PENDING"), len(anchors))
	return jsonReply(http.StatusOK, s.reviewJSON(rs)) // GitHub answers 200, not 201, here
}
