package fakegithub

import (
	"net/http"
	"sort"
	"strings"
)

const docGetTree = "https://docs.github.com/rest/git/trees#get-a-tree"

type treeEntryJSON struct {
	Path string `json:"path"`
	Mode string `json:"mode"`
	Type string `json:"type"` // blob or tree
	SHA  string `json:"sha"`
	Size *int   `json:"size,omitempty"` // blobs only
	URL  string `json:"url"`
}

// getTree serves GET /repos/{o}/{r}/git/trees/{sha}: the files stored with
// SetContents under that ref (a SHA or branch name). Without ?recursive=1
// only the top level is listed, with directories as "tree" entries, as on
// GitHub.
func (s *Server) getTree(c *call) reply {
	r := c.repoParam()
	if r == nil {
		return notFound(docGetTree)
	}
	ref := c.params["sha"]
	recursive := c.r.URL.Query().Get("recursive") != ""
	prefix := ref + "\x00"
	seen := map[string]bool{}
	var entries []treeEntryJSON
	for key, content := range r.contents {
		p, ok := strings.CutPrefix(key, prefix)
		if !ok {
			continue
		}
		if !recursive {
			if dir, _, isDir := strings.Cut(p, "/"); isDir {
				if !seen[dir] {
					seen[dir] = true
					entries = append(entries, treeEntryJSON{Path: dir, Mode: "040000", Type: "tree", SHA: blobSHA(dir)})
				}
				continue
			}
		} else {
			// GitHub lists every directory on the way too.
			parts := strings.Split(p, "/")
			for i := 1; i < len(parts); i++ {
				dir := strings.Join(parts[:i], "/")
				if !seen[dir] {
					seen[dir] = true
					entries = append(entries, treeEntryJSON{Path: dir, Mode: "040000", Type: "tree", SHA: blobSHA(dir)})
				}
			}
		}
		size := len(content)
		entries = append(entries, treeEntryJSON{Path: p, Mode: "100644", Type: "blob", SHA: blobSHA(content), Size: &size})
	}
	if len(entries) == 0 {
		return notFound(docGetTree)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Path < entries[j].Path })
	for i := range entries {
		entries[i].URL = s.apiURL("/repos/" + r.FullName() + "/git/" + entries[i].Type + "s/" + entries[i].SHA)
	}
	return jsonReply(http.StatusOK, map[string]any{"sha": ref, "url": s.apiURL("/repos/" + r.FullName() + "/git/trees/" + ref), "tree": entries, "truncated": false})
}
