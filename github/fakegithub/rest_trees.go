package fakegithub

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strings"
)

const docGetTree = "https://docs.github.com/rest/git/trees#get-a-tree"

// GitHub's limits on one tree answer: "The limit for the tree array is
// 100,000 entries with a maximum size of 7 MB when using the recursive
// parameter." Past them the answer is cut short and says truncated.
const (
	maxTreeEntries = 100_000
	maxTreeBytes   = 7 << 20
)

type treeEntryJSON struct {
	Path string `json:"path"`
	Mode string `json:"mode"`
	Type string `json:"type"` // blob, tree or commit
	SHA  string `json:"sha"`
	Size *int   `json:"size,omitempty"` // blobs only
	URL  string `json:"url"`
}

// treeNode is one stored git tree: its entries by name, each a blob (with
// its size) or a subtree. Trees are content-addressed as in git: two
// directories with the same entries are one tree, with one id.
type treeNode struct {
	id      string
	entries []treeEntryJSON // Path is the entry's name
}

// SetTreeLimit sets how many entries one tree answer may hold before it is
// truncated (GitHub's is 100,000), so tests can reach the limit with small
// trees. Zero restores GitHub's.
func (s *Server) SetTreeLimit(entries int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.treeLimit = entries
}

// getTree serves GET /repos/{o}/{r}/git/trees/{sha}. The sha names a tree
// (as an entry of another tree gives it) or a commit: a SHA or branch name
// with files stored by SetContents, or a PR's head, whose tree is its
// base's files with the PR's changed files applied (each with the blob id
// the files list reports). Without ?recursive (any value turns it on, as
// on GitHub) one level is listed, subdirectories as "tree" entries.
func (s *Server) getTree(c *call) reply {
	r := c.repoParam()
	if r == nil {
		return notFound(docGetTree)
	}
	ref := c.params["sha"]
	node := r.trees[ref]
	if node == nil {
		files := s.commitFiles(r, ref)
		if len(files) == 0 && !r.commits[ref] {
			return notFound(docGetTree)
		}
		node = r.storeTree(files)
	}
	limit := s.treeLimit
	if limit <= 0 {
		limit = maxTreeEntries
	}
	var entries []treeEntryJSON
	truncated := false
	if _, recursive := c.r.URL.Query()["recursive"]; recursive {
		entries, truncated = r.flatten(node, "", limit)
	} else {
		entries = append(entries, node.entries...)
		if len(entries) > limit {
			entries, truncated = entries[:limit], true
		}
	}
	for i := range entries {
		entries[i].URL = s.apiURL("/repos/" + r.FullName() + "/git/" + entries[i].Type + "s/" + entries[i].SHA)
	}
	return jsonReply(http.StatusOK, map[string]any{"sha": node.id, "url": s.apiURL("/repos/" + r.FullName() + "/git/trees/" + node.id),
		"tree": entries, "truncated": truncated})
}

// flatten lists a tree and everything under it, paths from its root,
// directories before what they hold; past limit entries or 7 MB it stops
// and says so.
func (r *repoState) flatten(node *treeNode, prefix string, limit int) (out []treeEntryJSON, truncated bool) {
	size := 0
	var walk func(n *treeNode, prefix string) bool
	walk = func(n *treeNode, prefix string) bool {
		for _, e := range n.entries {
			e.Path = prefix + e.Path
			size += len(e.Path) + len(e.SHA) + 160 // the entry's JSON, urls included
			if len(out) == limit || size > maxTreeBytes {
				return false
			}
			out = append(out, e)
			if e.Type == "tree" && !walk(r.trees[e.SHA], e.Path+"/") {
				return false
			}
		}
		return true
	}
	return out, !walk(node, prefix)
}

// commitFiles are the files of a commit, path → content id and size: for
// a PR's head, the base's files with the PR's changed files applied (the
// files list is what the PR changes; content stored under the head gives a
// changed file its blob id); for any other commit, those stored under it.
func (s *Server) commitFiles(r *repoState, ref string) map[string]blobRef {
	out := map[string]blobRef{}
	if p := r.headPull(ref); p != nil {
		for path, b := range s.storedFiles(r, p.pr.BaseSHA) {
			out[path] = b
		}
		for _, f := range p.files {
			if f.PreviousPath != "" {
				delete(out, f.PreviousPath)
			}
			if f.Status == "removed" {
				delete(out, f.Path)
				continue
			}
			out[f.Path] = blobRef{id: r.fileBlob(ref, f), size: len(f.Patch)}
		}
		return out
	}
	for path, b := range s.storedFiles(r, ref) {
		out[path] = b
	}
	return out
}

// headPull is the PR whose files make the tree of ref when ref is a PR's
// head: the first by number with a files list (two open PRs can share a
// head; the commit is one, so one of them decides), nil for another ref.
func (r *repoState) headPull(ref string) *pullState {
	for _, n := range slices.Sorted(maps.Keys(r.pulls)) {
		if p := r.pulls[n]; p.pr.HeadSHA == ref && len(p.files) > 0 {
			return p
		}
	}
	return nil
}

// contentAt is the content of path at ref, as a commit holds it: stored
// under ref, else, at a PR's head, the base's content of a path the PR
// leaves as it is (the head's tree holds the base's blob there, so every
// read of the commit, the contents API included, serves that one). A path
// the PR changes without stored content has none.
func (r *repoState) contentAt(ref, path string) (string, bool) {
	if content, ok := r.contents[ref+"\x00"+path]; ok {
		return content, true
	}
	p := r.headPull(ref)
	if p == nil {
		return "", false
	}
	if p.touched[path] {
		return "", false
	}
	content, ok := r.contents[p.pr.BaseSHA+"\x00"+path]
	return content, ok
}

type blobRef struct {
	id   string
	size int
}

func (s *Server) storedFiles(r *repoState, ref string) map[string]blobRef {
	out := map[string]blobRef{}
	prefix := ref + "\x00"
	for key, content := range r.contents {
		if p, ok := strings.CutPrefix(key, prefix); ok {
			out[p] = blobRef{id: blobSHA(content), size: len(content)}
		}
	}
	return out
}

// fileBlob is a changed file's blob id at ref, as the head's tree holds
// it (GitHub's files list reports the blob at the head, so a second PR on
// the same head lists the first PR's blobs): its content's there, else one
// derived from its path and the patch of the PR whose files make the tree.
func (r *repoState) fileBlob(ref string, f File) string {
	if content, ok := r.contentAt(ref, f.Path); ok {
		return blobSHA(content)
	}
	if p := r.headPull(ref); p != nil {
		if i, ok := p.changed[f.Path]; ok {
			f = p.files[i]
		}
	}
	return blobSHA(f.Path + "\x00" + f.Patch)
}

// storeTree builds the trees of a set of files, stores each by its id and
// returns the root.
func (r *repoState) storeTree(files map[string]blobRef) *treeNode {
	type dir struct {
		blobs map[string]blobRef
		dirs  map[string]*dir
	}
	newDir := func() *dir { return &dir{blobs: map[string]blobRef{}, dirs: map[string]*dir{}} }
	root := newDir()
	for p, b := range files {
		d, parts := root, strings.Split(p, "/")
		for _, name := range parts[:len(parts)-1] {
			if d.dirs[name] == nil {
				d.dirs[name] = newDir()
			}
			d = d.dirs[name]
		}
		d.blobs[parts[len(parts)-1]] = b
	}
	var build func(d *dir) *treeNode
	build = func(d *dir) *treeNode {
		n := &treeNode{}
		for name, b := range d.blobs {
			size := b.size
			n.entries = append(n.entries, treeEntryJSON{Path: name, Mode: "100644", Type: "blob", SHA: b.id, Size: &size})
		}
		for name, sub := range d.dirs {
			n.entries = append(n.entries, treeEntryJSON{Path: name, Mode: "040000", Type: "tree", SHA: build(sub).id})
		}
		sort.Slice(n.entries, func(i, j int) bool { return n.entries[i].Path < n.entries[j].Path })
		h := sha1.New()
		for _, e := range n.entries {
			fmt.Fprintf(h, "%s %s\x00%s", e.Mode, e.Path, e.SHA)
		}
		n.id = hex.EncodeToString(h.Sum(nil))
		if r.trees == nil {
			r.trees = map[string]*treeNode{}
		}
		r.trees[n.id] = n
		return n
	}
	return build(root)
}

// setFiles sets the PR's files and indexes them by path.
func (p *pullState) setFiles(files []File) {
	p.files = files
	p.changed, p.touched = map[string]int{}, map[string]bool{}
	for i, f := range files {
		p.touched[f.Path] = true
		if f.PreviousPath != "" {
			p.touched[f.PreviousPath] = true
		}
		if _, seen := p.changed[f.Path]; !seen && f.Status != "removed" {
			p.changed[f.Path] = i
		}
	}
}
