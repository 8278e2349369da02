package fakegithub

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
)

const (
	docCreateIssue = "https://docs.github.com/rest/issues/issues#create-an-issue"
	docUpdateIssue = "https://docs.github.com/rest/issues/issues#update-an-issue"
)

// Issue is a plain issue as tests see it.
type Issue struct {
	Number int
	Title  string
	Author string
	State  string // "open" or "closed"
	Labels []string
}

// AddIssue seeds a plain issue and returns its number. Issues and pull
// requests share one number sequence, as on GitHub.
func (s *Server) AddIssue(repo, author, title string, labels ...string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.newIssue(s.ensureRepo(repo), s.userFor(author), title, labels).pr.Number
}

func (s *Server) newIssue(r *repoState, author *user, title string, labels []string) *pullState {
	n := r.nextNumber
	r.nextNumber++
	id := s.newID()
	now := s.tick()
	p := &pullState{repo: r, issue: true, labels: labels, pr: PR{Number: n, ID: id, NodeID: "I_" + strconv.FormatInt(id, 10),
		Title: title, Author: author.login, State: "open", CreatedAt: now, UpdatedAt: now}}
	r.pulls[n] = p
	s.nodes[p.pr.NodeID] = p
	return p
}

// SetIssueBody sets a plain issue's description.
func (s *Server) SetIssueBody(repo string, number int, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mustPull(repo, number).pr.Body = body
}

// SetClosingIssues says which issues, given as "owner/name#n", a pull
// request closes: what GitHub lists as its closingIssuesReferences (from
// "Fixes #n" in its description, or a link a person made).
func (s *Server) SetClosingIssues(repo string, number int, issues ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.mustPull(repo, number)
	p.closes = nil
	for _, ref := range issues {
		name, n, _ := strings.Cut(ref, "#")
		num, _ := strconv.Atoi(n)
		p.closes = append(p.closes, s.mustPull(name, num))
	}
}

// SetIssueState opens or closes a plain issue.
func (s *Server) SetIssueState(repo string, number int, state string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mustPull(repo, number).pr.State = state
}

// Issues lists the repository's plain issues, oldest first.
func (s *Server) Issues(repo string) []Issue {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Issue
	r := s.repo(repo)
	if r == nil {
		return nil
	}
	for n := 1; n < r.nextNumber; n++ {
		if p := r.pulls[n]; p != nil && p.issue {
			out = append(out, Issue{Number: n, Title: p.pr.Title, Author: p.pr.Author, State: p.pr.State, Labels: slices.Clone(p.labels)})
		}
	}
	return out
}

type issueJSON struct {
	ID      int64       `json:"id"`
	NodeID  string      `json:"node_id"`
	Number  int         `json:"number"`
	Title   string      `json:"title"`
	State   string      `json:"state"`
	HTMLURL string      `json:"html_url"`
	URL     string      `json:"url"`
	User    userJSON    `json:"user"`
	Labels  []labelJSON `json:"labels"`
}

type labelJSON struct {
	Name string `json:"name"`
}

func (s *Server) issueJSON(p *pullState) issueJSON {
	j := issueJSON{ID: p.pr.ID, NodeID: p.pr.NodeID, Number: p.pr.Number, Title: p.pr.Title, State: p.pr.State,
		HTMLURL: s.htmlURL("/" + p.repo.FullName() + "/issues/" + strconv.Itoa(p.pr.Number)),
		URL:     s.apiURL("/repos/" + p.repo.FullName() + "/issues/" + strconv.Itoa(p.pr.Number)),
		User:    s.userJSON(s.userFor(p.pr.Author)), Labels: []labelJSON{}}
	for _, l := range p.labels {
		j.Labels = append(j.Labels, labelJSON{l})
	}
	return j
}

// createIssue is POST /repos/{o}/{r}/issues. As on GitHub, labels are set
// only by callers with push access (silently dropped otherwise), and a label
// that does not exist yet is created.
func (s *Server) createIssue(c *call) reply {
	r := c.repoParam()
	if r == nil {
		return notFound(docCreateIssue)
	}
	var in struct {
		Title  *string  `json:"title"`
		Body   string   `json:"body"`
		Labels []string `json:"labels"`
	}
	if !c.decode(&in) {
		return problemsParsingJSON(docCreateIssue)
	}
	if in.Title == nil || strings.TrimSpace(*in.Title) == "" {
		return invalidRequest(docCreateIssue, `No subschema in "anyOf" matched. For 'properties/title', nil is not a string.`)
	}
	var labels []string
	switch r.permission(c.who.login) {
	case "admin", "maintain", "write":
		labels = in.Labels
	}
	if c.kind == TokenInstallation {
		labels = in.Labels // an installation token with issues: write may label
	}
	p := s.newIssue(r, c.who, *in.Title, labels)
	if in.Body != "" {
		p.pr.Body = in.Body
	}
	s.logWrite("%s:issue:create", p.key())
	j := s.issueJSON(p)
	return reply{status: http.StatusCreated, json: j, header: http.Header{"Location": {j.URL}}}
}

// updateIssue is PATCH /repos/{o}/{r}/issues/{n}; it changes the state.
func (s *Server) updateIssue(c *call) reply {
	p := c.pullParam()
	if p == nil {
		return notFound(docUpdateIssue)
	}
	var in struct {
		State string `json:"state"`
	}
	if !c.decode(&in) {
		return problemsParsingJSON(docUpdateIssue)
	}
	if in.State == "open" || in.State == "closed" {
		p.pr.State = in.State
	}
	s.logWrite("%s:issue:update:%s", p.key(), p.pr.State)
	return jsonReply(http.StatusOK, s.issueJSON(p))
}

func init() {
	pr := pullRequestFields()
	issue := map[string]resolver{}
	for _, k := range []string{"id", "databaseId", "fullDatabaseId", "number", "title", "body", "closed", "createdAt", "author", "comments", "state", "repository"} {
		if r, ok := pr[k]; ok {
			issue[k] = r
		}
	}
	issue["url"] = field(func(x *executor, p *pullState, _ map[string]any) (any, error) {
		return x.s.htmlURL("/" + p.repo.FullName() + "/issues/" + strconv.Itoa(p.pr.Number)), nil
	})
	resolvers["Issue"] = issue
	// Repository.issues filters by labels and states and orders by creation
	// (the only order served).
	resolvers["Repository"]["issues"] = field(func(_ *executor, r *repoState, args map[string]any) (any, error) {
		labels, _ := args["labels"].([]any)
		states, _ := args["states"].([]any)
		var out []*pullState
		for n := 1; n < r.nextNumber; n++ {
			p := r.pulls[n]
			if p == nil || !p.issue {
				continue
			}
			if len(states) > 0 && !slices.Contains(states, any(strings.ToUpper(p.pr.State))) {
				continue
			}
			if len(labels) > 0 && !slices.ContainsFunc(labels, func(l any) bool { s, _ := l.(string); return slices.Contains(p.labels, s) }) {
				continue
			}
			out = append(out, p)
		}
		if o, _ := args["orderBy"].(map[string]any); o != nil && o["direction"] == "DESC" {
			slices.Reverse(out)
		}
		return toConn(out), nil
	}, "first", "after", "last", "before", "labels", "states", "orderBy", "filterBy")
}
