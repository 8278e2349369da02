package fakegithub

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

const (
	docListReactions    = "https://docs.github.com/rest/reactions/reactions#list-reactions-for-an-issue-comment"
	docDeleteReaction   = "https://docs.github.com/rest/reactions/reactions#delete-an-issue-comment-reaction"
	docListStatuses     = "https://docs.github.com/rest/commits/statuses#list-commit-statuses-for-a-reference"
	docRemoveReviewers  = "https://docs.github.com/rest/pulls/review-requests#remove-requested-reviewers-from-a-pull-request"
	maxStatusDescLength = 140
)

// reactionContents are the reactions GitHub accepts.
var reactionContents = []string{"+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"}

func (s *Server) newReaction(subject int64, u *user, content string) *Reaction {
	id := s.newID()
	r := &Reaction{ID: id, NodeID: "REA_" + strconv.FormatInt(id, 10), SubjectID: subject,
		Content: content, User: u.login, CreatedAt: s.tick()}
	s.reactions[subject] = append(s.reactions[subject], r)
	return r
}

// reactionSubject resolves the comment a reactions route is about, and the
// PR it lives on. Issue-comment and review-comment ids share one space here,
// so the route's kind must match the comment's.
func (c *call) reactionSubject() (int64, *pullState) {
	if strings.Contains(c.r.URL.Path, "/issues/comments/") {
		if ic := c.issueCommentParam(); ic != nil {
			return ic.c.ID, ic.pull
		}
		return 0, nil
	}
	if rc := c.reviewCommentParam(); rc != nil {
		return rc.c.ID, rc.thread.pull
	}
	return 0, nil
}

func (s *Server) listReactions(c *call) reply {
	id, p := c.reactionSubject()
	if p == nil {
		return notFound(docListReactions)
	}
	want := c.r.URL.Query().Get("content")
	var matched []*Reaction
	for _, r := range s.reactions[id] {
		if want == "" || r.Content == want {
			matched = append(matched, r)
		}
	}
	out := []reactionJSON{}
	for _, r := range paginate(c, matched) {
		out = append(out, s.reactionJSON(r))
	}
	return jsonReply(http.StatusOK, out)
}

// createReaction answers 201 for a new reaction and 200 with the existing
// one when this user already reacted with this content, as GitHub does.
func (s *Server) createReaction(c *call) reply {
	id, p := c.reactionSubject()
	if p == nil {
		return notFound(docCreateReaction)
	}
	var in struct {
		Content string `json:"content"`
	}
	if !c.decode(&in) {
		return problemsParsingJSON(docCreateReaction)
	}
	if !slices.Contains(reactionContents, in.Content) {
		return invalidRequest(docCreateReaction, fmt.Sprintf(
			`For 'properties/content', %q is not one of ["+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"].`, in.Content))
	}
	for _, r := range s.reactions[id] {
		if r.User == c.who.login && r.Content == in.Content {
			return jsonReply(http.StatusOK, s.reactionJSON(r))
		}
	}
	r := s.newReaction(id, c.who, in.Content)
	s.logWrite("%s:reaction:%s:%d", p.key(), r.Content, id)
	return jsonReply(http.StatusCreated, s.reactionJSON(r))
}

func (s *Server) deleteReaction(c *call) reply {
	id, p := c.reactionSubject()
	rid, ok := c.intParam("reaction")
	if p == nil || !ok {
		return notFound(docDeleteReaction)
	}
	for i, r := range s.reactions[id] {
		if r.ID == rid {
			s.reactions[id] = slices.Delete(s.reactions[id], i, i+1)
			s.logWrite("%s:reaction:delete:%s:%d", p.key(), r.Content, id)
			return reply{status: http.StatusNoContent}
		}
	}
	return notFound(docDeleteReaction)
}

// knownCommit reports whether sha is a commit the fake knows on r: a head
// or base any of its PRs has had, so a status may still land on a head the
// PR has since moved past. GitHub refuses statuses on unknown commits.
func (r *repoState) knownCommit(sha string) bool { return r.commits[sha] }

func (s *Server) createStatus(c *call) reply {
	r := c.repoParam()
	if r == nil {
		return notFound(docCreateStatus)
	}
	var in struct {
		State       string `json:"state"`
		TargetURL   string `json:"target_url"`
		Description string `json:"description"`
		Context     string `json:"context"`
	}
	if !c.decode(&in) {
		return problemsParsingJSON(docCreateStatus)
	}
	sha := r.resolveRef(c.params["sha"])
	if !r.knownCommit(sha) {
		return errorReply(http.StatusUnprocessableEntity, "No commit found for SHA: "+c.params["sha"], docCreateStatus, nil)
	}
	switch in.State {
	case "error", "failure", "pending", "success":
	default:
		return invalidRequest(docCreateStatus, fmt.Sprintf(
			`For 'properties/state', %q is not one of ["error", "failure", "pending", "success"].`, in.State))
	}
	if utf8.RuneCountInString(in.Description) > maxStatusDescLength {
		return validationFailed(docCreateStatus, fieldError{Resource: "Status", Code: "custom", Field: "description",
			Message: "description is too long (maximum is 140 characters)"})
	}
	id, now := s.newID(), s.tick()
	st := &Status{ID: id, NodeID: "SC_" + strconv.FormatInt(id, 10), SHA: sha, State: in.State,
		Context: orDefault(in.Context, "default"), Description: in.Description, TargetURL: in.TargetURL,
		Creator: c.who.login, CreatedAt: now, UpdatedAt: now}
	r.statuses = append(r.statuses, st)
	s.logWrite("%s@%s:status:%s:%s", r.FullName(), sha, st.Context, st.State)
	return jsonReply(http.StatusCreated, s.statusJSON(r, st))
}

// getCommitStatuses serves GET /commits/{ref}/statuses (newest first) and
// GET /commits/{ref}/status (combined: the newest status per context).
// Refs may contain slashes, so both hang off one catch-all route.
func (s *Server) getCommitStatuses(c *call) reply {
	r := c.repoParam()
	if r == nil {
		return notFound(docListStatuses)
	}
	rest := c.params["ref"]
	if sha, ok := strings.CutSuffix(rest, "/pulls"); ok {
		return s.commitPulls(c, r, sha)
	}
	ref, combined := strings.CutSuffix(rest, "/status")
	if !combined {
		var ok bool
		if ref, ok = strings.CutSuffix(rest, "/statuses"); !ok {
			return s.notFoundRoute(c)
		}
	}
	sha := r.resolveRef(ref)
	var newest []*Status
	for i := len(r.statuses) - 1; i >= 0; i-- {
		if r.statuses[i].SHA == sha {
			newest = append(newest, r.statuses[i])
		}
	}
	if !combined {
		out := []statusJSON{}
		for _, st := range paginate(c, newest) {
			out = append(out, s.statusJSON(r, st))
		}
		return jsonReply(http.StatusOK, out)
	}
	latest := r.latestStatuses(sha)
	state := combinedState(latest)
	out := []statusJSON{}
	for _, st := range paginate(c, latest) {
		out = append(out, s.statusJSON(r, st))
	}
	return jsonReply(http.StatusOK, map[string]any{
		"state": state, "statuses": out, "sha": sha, "total_count": len(latest),
		"repository": s.repoJSON(r),
		"commit_url": s.apiURL("/repos/" + r.FullName() + "/commits/" + sha),
		"url":        s.apiURL("/repos/" + r.FullName() + "/commits/" + sha + "/status"),
	})
}

type reviewersInput struct {
	Reviewers     []string `json:"reviewers"`
	TeamReviewers []string `json:"team_reviewers"`
}

func (s *Server) listRequestedReviewers(c *call) reply {
	p := c.pullParam()
	if p == nil {
		return notFound(docRequestReviewers)
	}
	users := []userJSON{}
	for _, l := range p.reviewers {
		users = append(users, s.userJSON(s.userFor(l)))
	}
	return jsonReply(http.StatusOK, map[string]any{"users": users, "teams": []any{}})
}

// requestReviewers enforces GitHub's two rules: not the author, and only
// collaborators.
func (s *Server) requestReviewers(c *call) reply {
	p := c.pullParam()
	if p == nil {
		return notFound(docRequestReviewers)
	}
	var in reviewersInput
	if !c.decode(&in) {
		return problemsParsingJSON(docRequestReviewers)
	}
	var add []*user
	for _, login := range in.Reviewers {
		u := s.lookupUser(login)
		if u != nil && strings.EqualFold(u.login, p.pr.Author) {
			return unprocessable(docRequestReviewers, "Review cannot be requested from pull request author.")
		}
		if u == nil || p.repo.permission(u.login) == "none" {
			return errorReply(http.StatusUnprocessableEntity,
				"Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the "+
					p.repo.FullName()+" repository.", docRequestReviewers, nil)
		}
		add = append(add, u)
	}
	for _, u := range add {
		if !slices.Contains(p.reviewers, u.login) {
			p.reviewers = append(p.reviewers, u.login)
			s.logWrite("%s:reviewers:request:%s", p.key(), u.login)
		}
	}
	return jsonReply(http.StatusCreated, s.pullJSON(p))
}

func (s *Server) removeRequestedReviewers(c *call) reply {
	p := c.pullParam()
	if p == nil {
		return notFound(docRemoveReviewers)
	}
	var in reviewersInput
	if !c.decode(&in) {
		return problemsParsingJSON(docRemoveReviewers)
	}
	for _, login := range in.Reviewers {
		i := slices.IndexFunc(p.reviewers, func(l string) bool { return strings.EqualFold(l, login) })
		if i >= 0 {
			s.logWrite("%s:reviewers:remove:%s", p.key(), p.reviewers[i])
			p.reviewers = slices.Delete(p.reviewers, i, i+1)
		}
	}
	return jsonReply(http.StatusOK, s.pullJSON(p))
}

// latestStatuses are the newest status of each context on sha, newest first.
func (r *repoState) latestStatuses(sha string) []*Status {
	var latest []*Status
	seen := map[string]bool{}
	for i := len(r.statuses) - 1; i >= 0; i-- {
		if st := r.statuses[i]; st.SHA == sha && !seen[st.Context] {
			seen[st.Context] = true
			latest = append(latest, st)
		}
	}
	return latest
}

// combinedState is GitHub's combined state of a commit's latest statuses.
func combinedState(latest []*Status) string {
	if len(latest) == 0 {
		return "pending"
	}
	state := "success"
	for _, st := range latest {
		switch {
		case st.State == "error" || st.State == "failure":
			state = "failure"
		case st.State == "pending" && state == "success":
			state = "pending"
		}
	}
	return state
}

// commitPulls serves GET /repos/{o}/{r}/commits/{sha}/pulls: the pull
// requests whose commits hold sha (their head, or an earlier commit), open
// and closed, as GitHub lists them.
func (s *Server) commitPulls(c *call, r *repoState, sha string) reply {
	var nums []int
	for n, p := range r.pulls {
		if !p.issue && (p.pr.HeadSHA == sha || slices.Contains(p.commits, sha)) {
			nums = append(nums, n)
		}
	}
	sort.Ints(nums)
	out := []pullJSON{}
	for _, n := range paginate(c, nums) {
		out = append(out, s.pullJSON(r.pulls[n]))
	}
	return jsonReply(http.StatusOK, out)
}
