package fakegithub

import (
	"encoding/base64"
	"net/http"
	"path"
	"sort"
	"strings"
)

// GitHub refuses to render diffs past these sizes and answers 406 instead.
const (
	maxDiffLines = 20000
	maxDiffFiles = 300
)

// GitHub's caps on file lists: the PR's files list stops at 3,000 files,
// and a comparison lists at most 300 (docs: "Responses include a maximum of
// 3000 files"; a comparison's list "includes up to 300 changed files").
const (
	maxListedFiles  = 3000
	maxCompareFiles = 300
)

// getUser serves GET /user. Integrations (installation and App tokens) are
// not users, and GitHub answers them 403.
func (s *Server) getUser(c *call) reply {
	if c.kind.isBot() {
		return forbiddenIntegration(docGetUser)
	}
	return jsonReply(http.StatusOK, s.userJSON(c.who))
}

func (s *Server) getRepo(c *call) reply {
	r := c.repoParam()
	if r == nil {
		return notFound("https://docs.github.com/rest/repos/repos#get-a-repository")
	}
	return jsonReply(http.StatusOK, s.repoJSON(r))
}

// wantsDiff reports whether the Accept header asks for the raw diff.
func wantsDiff(r *http.Request) bool {
	accept := r.Header.Get("Accept")
	return strings.Contains(accept, "application/vnd.github.diff") ||
		strings.Contains(accept, "application/vnd.github.v3.diff")
}

// getPull serves a PR as JSON, or its raw diff when the Accept header asks.
func (s *Server) getPull(c *call) reply {
	p := c.pullParam()
	if p == nil {
		return notFound(docGetPull)
	}
	if !wantsDiff(c.r) {
		return jsonReply(http.StatusOK, s.pullJSON(p))
	}
	diff := p.diff
	if diff == "" {
		diff = joinDiff(p.files)
	}
	if len(p.files) > maxDiffFiles || strings.Count(diff, "\n") > maxDiffLines {
		return errorReply(http.StatusNotAcceptable,
			"Sorry, the diff exceeded the maximum number of lines (20000)", docGetPull,
			[]fieldError{{Resource: "PullRequest", Field: "diff", Code: "too_large"}})
	}
	return reply{status: http.StatusOK, raw: []byte(diff), contentType: "text/plain; charset=utf-8"}
}

// SetFilesLimit sets where a PR's files list stops (GitHub's stops at
// 3,000 files), so tests can reach it with small PRs; the PR's
// changed_files still counts every file. Zero restores GitHub's.
func (s *Server) SetFilesLimit(files int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.filesLimit = files
}

func (s *Server) listFiles(c *call) reply {
	p := c.pullParam()
	if p == nil {
		return notFound("https://docs.github.com/rest/pulls/pulls#list-pull-requests-files")
	}
	out := []fileJSON{}
	limit := maxListedFiles
	if s.filesLimit > 0 {
		limit = min(limit, s.filesLimit)
	}
	for _, f := range paginate(c, p.files[:min(len(p.files), limit)]) {
		out = append(out, s.fileJSON(p.repo, p.pr.HeadSHA, f))
	}
	return jsonReply(http.StatusOK, out)
}

type contentJSON struct {
	Type        string  `json:"type"`
	Encoding    string  `json:"encoding,omitempty"`
	Size        int     `json:"size"`
	Name        string  `json:"name"`
	Path        string  `json:"path"`
	Content     *string `json:"content,omitempty"`
	SHA         string  `json:"sha"`
	URL         string  `json:"url"`
	HTMLURL     string  `json:"html_url"`
	DownloadURL *string `json:"download_url"`
}

// maxContentBytes is the largest file the contents API returns the
// content of in its JSON form: 1 MB.
const maxContentBytes = 1 << 20

// getContents serves a file (base64, wrapped like GitHub's) or, for a
// directory, its entries. ref defaults to the default branch.
func (s *Server) getContents(c *call) reply {
	r := c.repoParam()
	if r == nil {
		return notFound(docGetContent)
	}
	ref := orDefault(c.r.URL.Query().Get("ref"), r.DefaultBranch)
	p := strings.Trim(c.params["path"], "/")
	self := func(entry string) string {
		return s.apiURL("/repos/" + r.FullName() + "/contents/" + entry + "?ref=" + ref)
	}
	if content, ok := r.contentAt(ref, p); ok {
		enc, encoding := wrapBase64(base64.StdEncoding.EncodeToString([]byte(content))), "base64"
		if len(content) > maxContentBytes {
			// GitHub's documented answer for a file of 1 to 100 MB: no
			// content and encoding "none" (only the raw media type has it).
			enc, encoding = "", "none"
		}
		return jsonReply(http.StatusOK, contentJSON{
			Type: "file", Encoding: encoding, Size: len(content), Name: path.Base(p), Path: p,
			Content: &enc, SHA: blobSHA(content), URL: self(p),
			HTMLURL:     s.htmlURL("/" + r.FullName() + "/blob/" + ref + "/" + p),
			DownloadURL: strPtr(s.htmlURL("/" + r.FullName() + "/raw/" + ref + "/" + p)),
		})
	}
	entries := map[string]contentJSON{}
	prefix := ref + "\x00"
	if p != "" {
		prefix += p + "/"
	}
	for key, content := range r.contents {
		rest, ok := strings.CutPrefix(key, prefix)
		if !ok {
			continue
		}
		name, _, isDir := strings.Cut(rest, "/")
		full := strings.TrimPrefix(p+"/"+name, "/")
		e := contentJSON{Type: "file", Size: len(content), Name: name, Path: full, SHA: blobSHA(content), URL: self(full),
			HTMLURL: s.htmlURL("/" + r.FullName() + "/blob/" + ref + "/" + full)}
		if isDir {
			e = contentJSON{Type: "dir", Name: name, Path: full, SHA: blobSHA(full), URL: self(full),
				HTMLURL: s.htmlURL("/" + r.FullName() + "/tree/" + ref + "/" + full)}
		}
		entries[name] = e
	}
	if len(entries) == 0 {
		return notFound(docGetContent)
	}
	out := make([]contentJSON, 0, len(entries))
	for _, e := range entries {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return jsonReply(http.StatusOK, out)
}

// wrapBase64 breaks base64 text into 60-character lines, each ending in a
// newline, as the contents API does.
func wrapBase64(s string) string {
	var b strings.Builder
	for len(s) > 60 {
		b.WriteString(s[:60] + "\n")
		s = s[60:]
	}
	b.WriteString(s + "\n")
	return b.String()
}

// getPermission serves a collaborator's permission. "permission" is the
// legacy coarse value (maintain reads as write, triage as read); role_name
// is the precise one.
func (s *Server) getPermission(c *call) reply {
	r := c.repoParam()
	u := s.lookupUser(c.params["user"])
	if r == nil || u == nil {
		return notFound(docPermission)
	}
	role := r.permission(u.login)
	legacy := map[string]string{"admin": "admin", "maintain": "write", "write": "write", "triage": "read", "read": "read"}[role]
	return jsonReply(http.StatusOK, map[string]any{
		"permission": orDefault(legacy, "none"),
		"role_name":  role,
		"user":       s.userJSON(u),
	})
}

// getCompare serves what SetCompare registered for base...head.
func (s *Server) getCompare(c *call) reply {
	r := c.repoParam()
	if r == nil {
		return notFound(docCompare)
	}
	base, head, ok := strings.Cut(c.params["basehead"], "...")
	if !ok {
		return notFound(docCompare)
	}
	files, ok := r.compares[base+"..."+head]
	if !ok {
		// A PR's own base...head is its files, as on GitHub.
		files, ok = r.pullCompare(base, head)
	}
	if !ok {
		return notFound(docCompare)
	}
	if wantsDiff(c.r) {
		return reply{status: http.StatusOK, raw: []byte(joinDiff(files)), contentType: "text/plain; charset=utf-8"}
	}
	out := []fileJSON{}
	for _, f := range files[:min(len(files), maxCompareFiles)] {
		out = append(out, s.fileJSON(r, head, f))
	}
	status, ahead := "identical", 0
	if len(files) > 0 {
		status, ahead = "ahead", 1
	}
	full := r.FullName()
	return jsonReply(http.StatusOK, map[string]any{
		"url":               s.apiURL("/repos/" + full + "/compare/" + base + "..." + head),
		"html_url":          s.htmlURL("/" + full + "/compare/" + base + "..." + head),
		"base_commit":       map[string]any{"sha": commitish(base)},
		"merge_base_commit": map[string]any{"sha": commitish(base)},
		"status":            status,
		"ahead_by":          ahead,
		"behind_by":         0,
		"total_commits":     ahead,
		"commits":           []any{},
		"files":             out,
	})
}

// commitish turns a ref into a SHA-looking id: SHAs pass through, names are
// hashed so the answer is stable.
func commitish(ref string) string {
	if len(ref) == 40 && strings.Trim(ref, "0123456789abcdef") == "" {
		return ref
	}
	return fakeSHA(ref)
}

// pullCompare is the comparison of a PR's base and head: its files.
func (r *repoState) pullCompare(base, head string) ([]File, bool) {
	for _, p := range r.pulls {
		if p.pr.BaseSHA == base && p.pr.HeadSHA == head && !p.issue {
			return p.files, true
		}
	}
	return nil, false
}
