package reviewsforagent

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/review-my-code-bot/rmc/inbox"
	"github.com/yuin/goldmark"
)

// cancelReview is the page's "Discard review": the only way a draft is
// thrown away. The review is withdrawn and its draft deleted; stopping the
// server, closing the tab or a crash keep both.
func (s *Server) cancelReview(w http.ResponseWriter, r *http.Request, rv *review) {
	if rv.id != "" && s.store != nil {
		if _, err := s.store.Cancel(r.Context(), rv.id); err != nil {
			s.fail(w, err)
			return
		}
	} else {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.result != nil {
			s.fail(w, &inbox.Error{Op: "cancel", Kind: inbox.ErrInvalidState, Reason: "the review is submitted"})
			return
		}
		s.draft = nil
		s.cancelled = true
	}
	fmt.Fprintln(s.log, "The review was discarded in the page.")
	writeJSON(w, http.StatusOK, struct {
		Status string `json:"status"`
	}{string(inbox.StatusCancelled)})
}

// maxPreviewBodies caps one Markdown request: a page asks for the comments
// it shows.
const maxPreviewBodies = 500

// renderMarkdown turns comment bodies into HTML for the page, with
// goldmark's defaults: raw HTML in a body is left out and links to
// javascript: and the like are dropped, so a body shows as formatted text
// and nothing more. The page shows a fenced suggestion block as a
// suggested change; the HTML only marks it (class language-suggestion).
func (s *Server) renderMarkdown(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Bodies []string `json:"bodies"`
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	err := dec.Decode(&in)
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		jsonError(w, http.StatusRequestEntityTooLarge, "the comments are too long to preview")
		return
	case err != nil:
		jsonError(w, http.StatusBadRequest, "send {\"bodies\": [\"…\"]}")
		return
	case len(in.Bodies) > maxPreviewBodies:
		jsonError(w, http.StatusBadRequest, fmt.Sprintf("at most %d bodies at once", maxPreviewBodies))
		return
	}
	out := make([]string, len(in.Bodies))
	for i, body := range in.Bodies {
		var b strings.Builder
		if err := markdown.Convert([]byte(body), &b); err != nil {
			s.fail(w, err)
			return
		}
		out[i] = b.String()
	}
	writeJSON(w, http.StatusOK, struct {
		HTML []string `json:"html"`
	}{out})
}

var markdown = goldmark.New()
