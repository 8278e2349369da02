package fakegithub

import (
	"strconv"
	"time"
)

// The types below are the REST shapes GitHub sends, trimmed to the fields
// clients read. Field order follows GitHub's so raw dumps read familiar;
// nullable fields are pointers so they encode as null rather than zero.

type userJSON struct {
	Login     string `json:"login"`
	ID        int64  `json:"id"`
	NodeID    string `json:"node_id"`
	AvatarURL string `json:"avatar_url"`
	URL       string `json:"url"`
	HTMLURL   string `json:"html_url"`
	Type      string `json:"type"`
	SiteAdmin bool   `json:"site_admin"`
}

type repoJSON struct {
	ID            int64    `json:"id"`
	NodeID        string   `json:"node_id"`
	Name          string   `json:"name"`
	FullName      string   `json:"full_name"`
	Private       bool     `json:"private"`
	Owner         userJSON `json:"owner"`
	HTMLURL       string   `json:"html_url"`
	Fork          bool     `json:"fork"`
	URL           string   `json:"url"`
	DefaultBranch string   `json:"default_branch"`
	Visibility    string   `json:"visibility"`
}

type branchJSON struct {
	Label string    `json:"label"`
	Ref   string    `json:"ref"`
	SHA   string    `json:"sha"`
	User  userJSON  `json:"user"`
	Repo  *repoJSON `json:"repo"`
}

type pullJSON struct {
	URL                string     `json:"url"`
	ID                 int64      `json:"id"`
	NodeID             string     `json:"node_id"`
	HTMLURL            string     `json:"html_url"`
	DiffURL            string     `json:"diff_url"`
	PatchURL           string     `json:"patch_url"`
	IssueURL           string     `json:"issue_url"`
	Number             int        `json:"number"`
	State              string     `json:"state"`
	Locked             bool       `json:"locked"`
	Title              string     `json:"title"`
	User               userJSON   `json:"user"`
	Body               *string    `json:"body"`
	CreatedAt          string     `json:"created_at"`
	UpdatedAt          string     `json:"updated_at"`
	ClosedAt           *string    `json:"closed_at"`
	MergedAt           *string    `json:"merged_at"`
	RequestedReviewers []userJSON `json:"requested_reviewers"`
	Head               branchJSON `json:"head"`
	Base               branchJSON `json:"base"`
	AuthorAssociation  string     `json:"author_association"`
	Draft              bool       `json:"draft"`
	Merged             bool       `json:"merged"`
	Comments           int        `json:"comments"`
	ReviewComments     int        `json:"review_comments"`
	Additions          int        `json:"additions"`
	Deletions          int        `json:"deletions"`
	ChangedFiles       int        `json:"changed_files"`
}

type reactionsJSON struct {
	URL        string `json:"url"`
	TotalCount int    `json:"total_count"`
	PlusOne    int    `json:"+1"`
	MinusOne   int    `json:"-1"`
	Laugh      int    `json:"laugh"`
	Hooray     int    `json:"hooray"`
	Confused   int    `json:"confused"`
	Heart      int    `json:"heart"`
	Rocket     int    `json:"rocket"`
	Eyes       int    `json:"eyes"`
}

type issueCommentJSON struct {
	URL               string        `json:"url"`
	HTMLURL           string        `json:"html_url"`
	IssueURL          string        `json:"issue_url"`
	ID                int64         `json:"id"`
	NodeID            string        `json:"node_id"`
	User              userJSON      `json:"user"`
	CreatedAt         string        `json:"created_at"`
	UpdatedAt         string        `json:"updated_at"`
	AuthorAssociation string        `json:"author_association"`
	Body              string        `json:"body"`
	Reactions         reactionsJSON `json:"reactions"`
}

type reviewCommentJSON struct {
	URL                 string        `json:"url"`
	PullRequestReviewID int64         `json:"pull_request_review_id"`
	ID                  int64         `json:"id"`
	NodeID              string        `json:"node_id"`
	DiffHunk            string        `json:"diff_hunk"`
	Path                string        `json:"path"`
	Position            *int          `json:"position"`
	OriginalPosition    int           `json:"original_position"`
	CommitID            string        `json:"commit_id"`
	OriginalCommitID    string        `json:"original_commit_id"`
	InReplyToID         int64         `json:"in_reply_to_id,omitempty"`
	User                userJSON      `json:"user"`
	Body                string        `json:"body"`
	CreatedAt           string        `json:"created_at"`
	UpdatedAt           string        `json:"updated_at"`
	HTMLURL             string        `json:"html_url"`
	PullRequestURL      string        `json:"pull_request_url"`
	AuthorAssociation   string        `json:"author_association"`
	Reactions           reactionsJSON `json:"reactions"`
	StartLine           *int          `json:"start_line"`
	OriginalStartLine   *int          `json:"original_start_line"`
	StartSide           *string       `json:"start_side"`
	Line                *int          `json:"line"`
	OriginalLine        int           `json:"original_line"`
	Side                string        `json:"side"`
	SubjectType         string        `json:"subject_type"`
}

type reviewJSON struct {
	ID                int64    `json:"id"`
	NodeID            string   `json:"node_id"`
	User              userJSON `json:"user"`
	Body              string   `json:"body"`
	State             string   `json:"state"`
	HTMLURL           string   `json:"html_url"`
	PullRequestURL    string   `json:"pull_request_url"`
	AuthorAssociation string   `json:"author_association"`
	SubmittedAt       *string  `json:"submitted_at,omitempty"`
	CommitID          string   `json:"commit_id"`
}

type reactionJSON struct {
	ID        int64    `json:"id"`
	NodeID    string   `json:"node_id"`
	User      userJSON `json:"user"`
	Content   string   `json:"content"`
	CreatedAt string   `json:"created_at"`
}

type statusJSON struct {
	URL         string   `json:"url"`
	AvatarURL   string   `json:"avatar_url"`
	ID          int64    `json:"id"`
	NodeID      string   `json:"node_id"`
	State       string   `json:"state"`
	Description *string  `json:"description"`
	TargetURL   *string  `json:"target_url"`
	Context     string   `json:"context"`
	CreatedAt   string   `json:"created_at"`
	UpdatedAt   string   `json:"updated_at"`
	Creator     userJSON `json:"creator"`
}

type fileJSON struct {
	SHA              string `json:"sha"`
	Filename         string `json:"filename"`
	Status           string `json:"status"`
	Additions        int    `json:"additions"`
	Deletions        int    `json:"deletions"`
	Changes          int    `json:"changes"`
	BlobURL          string `json:"blob_url"`
	RawURL           string `json:"raw_url"`
	ContentsURL      string `json:"contents_url"`
	Patch            string `json:"patch,omitempty"`
	PreviousFilename string `json:"previous_filename,omitempty"`
}

func fmtTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func intPtr(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}

// apiURL is an API URL on this server.
func (s *Server) apiURL(path string) string { return s.URL + path }

// htmlURL is a web URL. It points at this server rather than github.com so
// that nothing a client follows can reach real GitHub.
func (s *Server) htmlURL(path string) string { return s.root + path }

func (s *Server) userJSON(u *user) userJSON {
	typ := "User"
	if u.bot {
		typ = "Bot"
	}
	return userJSON{
		Login: u.login, ID: u.id, NodeID: u.nodeID(), Type: typ,
		AvatarURL: s.htmlURL("/avatars/" + u.login),
		URL:       s.apiURL("/users/" + u.login),
		HTMLURL:   s.htmlURL("/" + u.login),
	}
}

func (s *Server) repoJSON(r *repoState) *repoJSON {
	visibility := "public"
	if r.Private {
		visibility = "private"
	}
	return &repoJSON{
		ID: r.ID, NodeID: r.NodeID, Name: r.Name, FullName: r.FullName(),
		Private: r.Private, Owner: s.userJSON(s.userFor(r.Owner)),
		HTMLURL: s.htmlURL("/" + r.FullName()), URL: s.apiURL("/repos/" + r.FullName()),
		DefaultBranch: r.DefaultBranch, Visibility: visibility,
	}
}

// headRepoJSON describes a PR's head repository; for forks it is a
// repository the fake does not otherwise track.
func (s *Server) headRepoJSON(p *pullState) *repoJSON {
	if !p.pr.Fork {
		return s.repoJSON(p.repo)
	}
	owner, name, _ := cutRepo(p.pr.HeadRepo)
	return &repoJSON{
		ID: p.pr.ID + 1, NodeID: "R_fork" + strconv.FormatInt(p.pr.ID, 10), Name: name, FullName: p.pr.HeadRepo,
		Owner: s.userJSON(s.userFor(owner)), HTMLURL: s.htmlURL("/" + p.pr.HeadRepo),
		Fork: true, URL: s.apiURL("/repos/" + p.pr.HeadRepo), DefaultBranch: "main", Visibility: "public",
	}
}

func (s *Server) pullJSON(p *pullState) pullJSON {
	pr, full := p.pr, p.repo.FullName()
	n := strconv.Itoa(pr.Number)
	reviewers := []userJSON{}
	for _, login := range p.reviewers {
		reviewers = append(reviewers, s.userJSON(s.userFor(login)))
	}
	adds, dels := 0, 0
	for _, f := range p.files {
		adds += f.Additions
		dels += f.Deletions
	}
	reviewCount := 0
	for _, t := range p.threads {
		reviewCount += len(t.comments)
	}
	headOwner, _, _ := cutRepo(pr.HeadRepo)
	author := s.userFor(pr.Author)
	j := pullJSON{
		URL: s.apiURL("/repos/" + full + "/pulls/" + n), ID: pr.ID, NodeID: pr.NodeID,
		HTMLURL: s.htmlURL("/" + full + "/pull/" + n), DiffURL: s.htmlURL("/" + full + "/pull/" + n + ".diff"),
		PatchURL: s.htmlURL("/" + full + "/pull/" + n + ".patch"), IssueURL: s.apiURL("/repos/" + full + "/issues/" + n),
		Number: pr.Number, State: pr.State, Title: pr.Title, User: s.userJSON(author), Body: strPtr(pr.Body),
		CreatedAt: fmtTime(pr.CreatedAt), UpdatedAt: fmtTime(pr.UpdatedAt), RequestedReviewers: reviewers,
		Head:              branchJSON{Label: headOwner + ":" + pr.HeadRef, Ref: pr.HeadRef, SHA: pr.HeadSHA, User: s.userJSON(s.userFor(headOwner)), Repo: s.headRepoJSON(p)},
		Base:              branchJSON{Label: p.repo.Owner + ":" + pr.BaseRef, Ref: pr.BaseRef, SHA: pr.BaseSHA, User: s.userJSON(s.userFor(p.repo.Owner)), Repo: s.repoJSON(p.repo)},
		AuthorAssociation: p.repo.association(author.login), Draft: pr.Draft, Merged: pr.Merged,
		Comments: len(p.comments), ReviewComments: reviewCount,
		Additions: adds, Deletions: dels, ChangedFiles: len(p.files),
	}
	if pr.State == "closed" {
		j.ClosedAt = strPtr(fmtTime(pr.UpdatedAt))
		if pr.Merged {
			j.MergedAt = j.ClosedAt
		}
	}
	return j
}

func (s *Server) reactionsJSON(subject int64, url string) reactionsJSON {
	j := reactionsJSON{URL: url}
	for _, r := range s.reactions[subject] {
		j.TotalCount++
		switch r.Content {
		case "+1":
			j.PlusOne++
		case "-1":
			j.MinusOne++
		case "laugh":
			j.Laugh++
		case "hooray":
			j.Hooray++
		case "confused":
			j.Confused++
		case "heart":
			j.Heart++
		case "rocket":
			j.Rocket++
		case "eyes":
			j.Eyes++
		}
	}
	return j
}

func (s *Server) issueCommentJSON(ic *issueComment) issueCommentJSON {
	c, full := ic.c, ic.pull.repo.FullName()
	id := strconv.FormatInt(c.ID, 10)
	url := s.apiURL("/repos/" + full + "/issues/comments/" + id)
	return issueCommentJSON{
		URL: url, HTMLURL: s.htmlURL("/" + full + "/pull/" + strconv.Itoa(ic.pull.pr.Number) + "#issuecomment-" + id),
		IssueURL: s.apiURL("/repos/" + full + "/issues/" + strconv.Itoa(ic.pull.pr.Number)),
		ID:       c.ID, NodeID: c.NodeID, User: s.userJSON(s.userFor(c.Author)),
		CreatedAt: fmtTime(c.CreatedAt), UpdatedAt: fmtTime(c.UpdatedAt),
		AuthorAssociation: ic.pull.repo.association(c.Author), Body: c.Body,
		Reactions: s.reactionsJSON(c.ID, url+"/reactions"),
	}
}

func (s *Server) reviewCommentJSON(rc *reviewComment) reviewCommentJSON {
	c, p := rc.c, rc.thread.pull
	full, n := p.repo.FullName(), strconv.Itoa(p.pr.Number)
	id := strconv.FormatInt(c.ID, 10)
	url := s.apiURL("/repos/" + full + "/pulls/comments/" + id)
	j := reviewCommentJSON{
		URL: url, PullRequestReviewID: c.ReviewID, ID: c.ID, NodeID: c.NodeID, DiffHunk: c.DiffHunk,
		Path: c.Path, Position: intPtr(c.Position), OriginalPosition: c.Position, CommitID: c.CommitID,
		OriginalCommitID: c.OriginalCommitID, InReplyToID: c.InReplyTo, User: s.userJSON(s.userFor(c.Author)),
		Body: c.Body, CreatedAt: fmtTime(c.CreatedAt), UpdatedAt: fmtTime(c.UpdatedAt),
		HTMLURL:        s.htmlURL("/" + full + "/pull/" + n + "#discussion_r" + id),
		PullRequestURL: s.apiURL("/repos/" + full + "/pulls/" + n), AuthorAssociation: p.repo.association(c.Author),
		Reactions: s.reactionsJSON(c.ID, url+"/reactions"), StartLine: intPtr(c.StartLine),
		OriginalStartLine: intPtr(c.OriginalStartLine), Line: intPtr(c.Line), OriginalLine: c.OriginalLine,
		Side: c.Side, SubjectType: "line",
	}
	if c.StartLine != 0 || c.OriginalStartLine != 0 {
		j.StartSide = strPtr(c.StartSide)
	}
	if rc.thread.t.Outdated {
		j.Position, j.Line, j.StartLine = nil, nil, nil
	}
	return j
}

func (s *Server) reviewJSON(rs *reviewState) reviewJSON {
	r, p := rs.r, rs.pull
	full, n := p.repo.FullName(), strconv.Itoa(p.pr.Number)
	j := reviewJSON{
		ID: r.ID, NodeID: r.NodeID, User: s.userJSON(s.userFor(r.Author)), Body: r.Body, State: r.State,
		HTMLURL:        s.htmlURL("/" + full + "/pull/" + n + "#pullrequestreview-" + strconv.FormatInt(r.ID, 10)),
		PullRequestURL: s.apiURL("/repos/" + full + "/pulls/" + n), AuthorAssociation: p.repo.association(r.Author),
		CommitID: r.CommitID,
	}
	if !r.SubmittedAt.IsZero() {
		j.SubmittedAt = strPtr(fmtTime(r.SubmittedAt))
	}
	return j
}

func (s *Server) reactionJSON(r *Reaction) reactionJSON {
	return reactionJSON{ID: r.ID, NodeID: r.NodeID, User: s.userJSON(s.userFor(r.User)), Content: r.Content, CreatedAt: fmtTime(r.CreatedAt)}
}

func (s *Server) statusJSON(r *repoState, st *Status) statusJSON {
	creator := s.userFor(st.Creator)
	return statusJSON{
		URL: s.apiURL("/repos/" + r.FullName() + "/statuses/" + st.SHA), AvatarURL: s.userJSON(creator).AvatarURL,
		ID: st.ID, NodeID: st.NodeID, State: st.State, Description: strPtr(st.Description),
		TargetURL: strPtr(st.TargetURL), Context: st.Context,
		CreatedAt: fmtTime(st.CreatedAt), UpdatedAt: fmtTime(st.UpdatedAt), Creator: s.userJSON(creator),
	}
}

func (s *Server) fileJSON(r *repoState, ref string, f File) fileJSON {
	full := r.FullName()
	return fileJSON{
		SHA: r.fileBlob(ref, f), Filename: f.Path, Status: f.Status,
		Additions: f.Additions, Deletions: f.Deletions, Changes: f.Additions + f.Deletions,
		BlobURL:     s.htmlURL("/" + full + "/blob/" + ref + "/" + f.Path),
		RawURL:      s.htmlURL("/" + full + "/raw/" + ref + "/" + f.Path),
		ContentsURL: s.apiURL("/repos/" + full + "/contents/" + f.Path + "?ref=" + ref),
		Patch:       f.Patch, PreviousFilename: f.PreviousPath,
	}
}
