package reviewsforagent

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/review-my-code-bot/rmc/diff"
)

// maxContextLines caps one "expand context" answer.
const maxContextLines = 500

var baseCommit = regexp.MustCompile(`\(([0-9a-f]{4,64})\)$`)

// serveContext answers lines of a file's old version around its hunks,
// for the page's "expand context": ?file=<index>&from=N&to=M, old line
// numbers, inclusive. Lines outside the hunks did not change, so the old
// version (the commit the diff is against) has them whatever the work
// tree holds now. Past the end of the file the answer is shorter.
func (s *Server) serveContext(w http.ResponseWriter, r *http.Request, rv *review) {
	q := r.URL.Query()
	i, err1 := strconv.Atoi(q.Get("file"))
	from, err2 := strconv.Atoi(q.Get("from"))
	to, err3 := strconv.Atoi(q.Get("to"))
	if err1 != nil || err2 != nil || err3 != nil || i < 0 || i >= len(rv.changes.Files) || from < 1 || to < from || to-from >= maxContextLines {
		jsonError(w, http.StatusBadRequest, fmt.Sprintf("ask for ?file=<index>&from=N&to=M, at most %d lines", maxContextLines))
		return
	}
	f := rv.changes.Files[i]
	// The old side by its blob id, whatever the diff is of (a commit, a
	// range, the index); else by the commit the description names.
	var spec string
	if sections := diff.SectionTexts(rv.changes.Diff); i < len(sections) {
		if old, _ := blobIDs(sections[i]); old != "" {
			spec = old
		}
	}
	if m := baseCommit.FindStringSubmatch(rv.changes.Base); spec == "" && m != nil && f.OldPath != "" {
		spec = m[1] + ":" + f.OldPath
	}
	if f.Status == diff.Added || f.Binary || f.OldPath == "" || spec == "" {
		jsonError(w, http.StatusNotFound, "this file has no earlier version to show more of")
		return
	}
	lines, err := blobLines(r.Context(), rv.changes.Root, spec, from, to)
	if err != nil {
		jsonError(w, http.StatusNotFound, "the earlier version of "+f.OldPath+" cannot be read: "+err.Error())
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Lines []string `json:"lines"`
	}{lines})
}

// blobLines returns lines from..to of the blob spec names: its id, or
// commit:path.
func blobLines(ctx context.Context, root, spec string, from, to int) ([]string, error) {
	out, err := git(ctx, root, "cat-file", "blob", spec)
	if err != nil {
		return nil, err
	}
	all := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if out == "" {
		all = nil
	}
	if from > len(all) {
		return []string{}, nil
	}
	return all[from-1 : min(to, len(all))], nil
}
