package reviewsforagent

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"

	"github.com/review-my-code-bot/rmc/agentmd"
	"github.com/review-my-code-bot/rmc/inbox"
)

// draft is what the page saves while the person writes: the comments so
// far, the overall comment, and the form being typed in. It is checked for
// shape only; comments on lines the diff no longer shows are dropped by
// the page when it restores them, and the submission is checked in full.
type draft struct {
	GlobalComment *string                    `json:"globalComment"`
	Comments      []agentmd.SubmittedComment `json:"comments"`
	Form          *draftForm                 `json:"form"`
}

// draftForm is the open comment form; Editing is the index in Comments of
// the comment it edits, or null for a new one.
type draftForm struct {
	agentmd.SubmittedComment
	Editing *int `json:"editing"`
}

// serveDraft answers the saved draft: {} when there is none.
func (s *Server) serveDraft(w http.ResponseWriter, r *http.Request, rv *review) {
	var data []byte
	if rv.id != "" && s.store != nil {
		var err error
		if data, err = s.store.Draft(r.Context(), rv.id); err != nil {
			s.fail(w, err)
			return
		}
	} else {
		s.mu.Lock()
		data = s.draft
		s.mu.Unlock()
	}
	if len(data) == 0 {
		data = []byte("{}\n")
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(data)
}

// saveDraft replaces the draft with the request's. It is refused once the
// review is submitted, so a tab left open cannot revive it.
func (s *Server) saveDraft(w http.ResponseWriter, r *http.Request, rv *review) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		jsonError(w, http.StatusUnsupportedMediaType, "send the draft as application/json")
		return
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	dec.DisallowUnknownFields()
	var d draft
	err := dec.Decode(&d)
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		jsonError(w, http.StatusRequestEntityTooLarge, "the draft is larger than "+strconv.Itoa(MaxBodyBytes>>20)+" MiB")
		return
	case err != nil:
		jsonError(w, http.StatusBadRequest, "decode the draft: "+err.Error())
		return
	}
	if _, err := dec.Token(); err != io.EOF {
		jsonError(w, http.StatusBadRequest, "decode the draft: data after the JSON object")
		return
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d); err != nil {
		s.fail(w, err)
		return
	}
	if rv.id != "" && s.store != nil {
		if err := s.store.SaveDraft(r.Context(), rv.id, buf.Bytes()); err != nil {
			s.fail(w, err)
			return
		}
	} else {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.result != nil || s.cancelled {
			s.fail(w, &inbox.Error{Op: "save draft", Kind: inbox.ErrInvalidState, Reason: "the review is submitted or discarded: it takes no more comments"})
			return
		}
		s.draft = buf.Bytes()
	}
	writeJSON(w, http.StatusOK, struct {
		Saved bool `json:"saved"`
	}{true})
}
