package fakegithub

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// handler answers one routed request. It runs with s.mu held.
type handler func(c *call) reply

// route is one REST endpoint. Segments in braces are parameters; a final
// "{name...}" takes the rest of the path (file paths, refs with slashes).
type route struct {
	method string
	segs   []string
	h      handler
}

// restRoutes is the REST surface. More specific literal routes come first
// because the first match wins ("pulls/comments/{id}" before
// "pulls/{number}/comments").
func restRoutes(s *Server) []route {
	table := []struct {
		pattern string
		h       handler
	}{
		{"GET /user", s.getUser},
		{"GET /rate_limit", s.getRateLimit},
		{"GET /repos/{owner}/{repo}", s.getRepo},

		{"GET /repos/{owner}/{repo}/pulls/comments/{id}", s.getReviewComment},
		{"PATCH /repos/{owner}/{repo}/pulls/comments/{id}", s.editReviewComment},
		{"DELETE /repos/{owner}/{repo}/pulls/comments/{id}", s.deleteReviewCommentRoute},
		{"GET /repos/{owner}/{repo}/pulls/comments/{id}/reactions", s.listReactions},
		{"POST /repos/{owner}/{repo}/pulls/comments/{id}/reactions", s.createReaction},
		{"DELETE /repos/{owner}/{repo}/pulls/comments/{id}/reactions/{reaction}", s.deleteReaction},

		{"POST /repos/{owner}/{repo}/issues", s.createIssue},
		{"PATCH /repos/{owner}/{repo}/issues/{number}", s.updateIssue},

		{"GET /repos/{owner}/{repo}/pulls/{number}", s.getPull},
		{"GET /repos/{owner}/{repo}/pulls/{number}/files", s.listFiles},
		{"GET /repos/{owner}/{repo}/pulls/{number}/comments", s.listReviewComments},
		{"POST /repos/{owner}/{repo}/pulls/{number}/comments", s.createReviewComment},
		{"POST /repos/{owner}/{repo}/pulls/{number}/comments/{id}/replies", s.createReply},
		{"GET /repos/{owner}/{repo}/pulls/{number}/reviews", s.listReviews},
		{"POST /repos/{owner}/{repo}/pulls/{number}/reviews", s.createReview},
		{"GET /repos/{owner}/{repo}/pulls/{number}/reviews/{id}", s.getReview},
		{"PUT /repos/{owner}/{repo}/pulls/{number}/reviews/{id}", s.updateReview},
		{"GET /repos/{owner}/{repo}/pulls/{number}/requested_reviewers", s.listRequestedReviewers},
		{"POST /repos/{owner}/{repo}/pulls/{number}/requested_reviewers", s.requestReviewers},
		{"DELETE /repos/{owner}/{repo}/pulls/{number}/requested_reviewers", s.removeRequestedReviewers},

		{"GET /repos/{owner}/{repo}/issues/comments/{id}", s.getIssueComment},
		{"PATCH /repos/{owner}/{repo}/issues/comments/{id}", s.editIssueComment},
		{"DELETE /repos/{owner}/{repo}/issues/comments/{id}", s.deleteIssueCommentRoute},
		{"GET /repos/{owner}/{repo}/issues/comments/{id}/reactions", s.listReactions},
		{"POST /repos/{owner}/{repo}/issues/comments/{id}/reactions", s.createReaction},
		{"DELETE /repos/{owner}/{repo}/issues/comments/{id}/reactions/{reaction}", s.deleteReaction},
		{"GET /repos/{owner}/{repo}/issues/{number}/comments", s.listIssueComments},
		{"POST /repos/{owner}/{repo}/issues/{number}/comments", s.createIssueComment},

		{"POST /repos/{owner}/{repo}/statuses/{sha}", s.createStatus},
		{"GET /repos/{owner}/{repo}/commits/{ref...}", s.getCommitStatuses},
		{"GET /repos/{owner}/{repo}/contents/{path...}", s.getContents},
		{"GET /repos/{owner}/{repo}/git/trees/{sha}", s.getTree},
		{"GET /repos/{owner}/{repo}/collaborators/{user}/permission", s.getPermission},
		{"GET /repos/{owner}/{repo}/compare/{basehead...}", s.getCompare},
		{"GET /repos/{owner}/{repo}/actions/runs/{run}", s.getRun},
	}
	routes := make([]route, 0, len(table))
	for _, t := range table {
		method, path, _ := strings.Cut(t.pattern, " ")
		routes = append(routes, route{method: method, segs: strings.Split(strings.Trim(path, "/"), "/"), h: t.h})
	}
	return routes
}

// match finds the handler for r. Unknown routes get notFoundRoute, which
// records them so tests fail naming the request the fake could not serve.
func (s *Server) match(r *http.Request) (handler, map[string]string) {
	segs := splitPath(r.URL.EscapedPath())
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	for _, rt := range s.routes {
		if rt.method != method {
			continue
		}
		if params, ok := rt.match(segs); ok {
			return rt.h, params
		}
	}
	return s.notFoundRoute, nil
}

func (rt route) match(segs []string) (map[string]string, bool) {
	params := map[string]string{}
	for i, want := range rt.segs {
		if name, ok := strings.CutSuffix(strings.TrimPrefix(want, "{"), "...}"); ok && strings.HasPrefix(want, "{") {
			params[name] = strings.Join(segs[min(i, len(segs)):], "/")
			return params, true
		}
		if i >= len(segs) {
			return nil, false
		}
		if strings.HasPrefix(want, "{") {
			if segs[i] == "" {
				return nil, false
			}
			params[strings.Trim(want, "{}")] = segs[i]
			continue
		}
		if want != segs[i] {
			return nil, false
		}
	}
	return params, len(segs) == len(rt.segs)
}

// splitPath splits an escaped path into unescaped segments, so an encoded
// "/" inside a file name cannot be mistaken for a separator.
func splitPath(escaped string) []string {
	parts := strings.Split(strings.Trim(escaped, "/"), "/")
	for i, p := range parts {
		if u, err := url.PathUnescape(p); err == nil {
			parts[i] = u
		}
	}
	return parts
}

func (s *Server) notFoundRoute(c *call) reply {
	s.unhandled = append(s.unhandled, c.r.Method+" "+c.r.URL.Path)
	return notFound("https://docs.github.com/rest")
}

// intParam parses a numeric path parameter.
func (c *call) intParam(name string) (int64, bool) {
	n, err := strconv.ParseInt(c.params[name], 10, 64)
	return n, err == nil && n > 0
}

// repoParam resolves {owner}/{repo}.
func (c *call) repoParam() *repoState { return c.s.repoByParts(c.params["owner"], c.params["repo"]) }

// pullParam resolves {owner}/{repo} and {number}.
func (c *call) pullParam() *pullState {
	r := c.repoParam()
	n, ok := c.intParam("number")
	if r == nil || !ok {
		return nil
	}
	return r.pulls[int(n)]
}

// decode reads the JSON body into v.
func (c *call) decode(v any) bool {
	if len(c.body) == 0 {
		return true
	}
	return json.Unmarshal(c.body, v) == nil
}
