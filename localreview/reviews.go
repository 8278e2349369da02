package localreview

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"

	"github.com/review-my-code-bot/rmc/agentmd"
	"github.com/review-my-code-bot/rmc/inbox"
)

// AppName is what /api/health reports, so a probe knows it reached this
// program and not something else on the port.
const AppName = "reviews-for-agent"

// Health is what GET /api/health answers.
type Health struct {
	App   string `json:"app"`
	Mode  string `json:"mode"`            // "start" or "serve"
	Store string `json:"store,omitempty"` // the inbox's path, when the server has one
	PID   int    `json:"pid"`
}

func (s *Server) serveHealth(w http.ResponseWriter, r *http.Request) {
	h := Health{App: AppName, Mode: s.mode, PID: os.Getpid()}
	if s.store != nil {
		h.Store = s.store.Path()
	}
	writeJSON(w, http.StatusOK, h)
}

// serveDefaultPage shows the page of the review /review means: the single
// review, or on an inbox server the newest open one, by its own address so
// that a later request cannot swap the diff under the person.
func (s *Server) serveDefaultPage(page http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.single == nil {
			if id, err := s.newestOpen(r.Context()); err == nil {
				http.Redirect(w, r, "/review/"+url.PathEscape(id), http.StatusFound)
				return
			}
		}
		page(w, r) // with nothing to show, the page says why
	}
}

// withReview finds the review a request is about: the {id} in its path,
// else the one /review shows.
func (s *Server) withReview(h func(http.ResponseWriter, *http.Request, *review)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rv, err := s.lookup(r.Context(), r.PathValue("id"))
		if err != nil {
			s.fail(w, err)
			return
		}
		h(w, r, rv)
	}
}

func (s *Server) lookup(ctx context.Context, id string) (*review, error) {
	if id == "" && s.single != nil {
		return s.single, nil
	}
	if s.single != nil && id == s.single.id {
		return s.single, nil
	}
	if s.store == nil {
		return nil, &inbox.Error{Op: "show", ID: id, Kind: inbox.ErrNotFound, Reason: "this server shows one review, at /review"}
	}
	if id == "" {
		var err error
		if id, err = s.newestOpen(ctx); err != nil {
			return nil, err
		}
	}
	s.cacheMu.Lock()
	rv, ok := s.cache[id]
	s.cacheMu.Unlock()
	if ok {
		return rv, nil
	}
	rec, err := s.store.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if rec.Request == nil {
		return nil, &inbox.Error{Op: "show", ID: id, Kind: inbox.ErrNotFound, Reason: "not a local review"}
	}
	unified, err := s.store.Diff(ctx, rec)
	if err != nil {
		return nil, err
	}
	c, err := NewChanges(rec.Request.Root, rec.Request.Base, unified)
	if err != nil {
		return nil, fmt.Errorf("read the diff of review %s: %w", id, err)
	}
	rv = &review{id: id, changes: c, message: rec.Request.Message}
	s.cacheMu.Lock()
	s.cache[id] = rv
	s.cacheMu.Unlock()
	return rv, nil
}

// newestOpen is the id of the open review requested last.
func (s *Server) newestOpen(ctx context.Context) (string, error) {
	if s.store == nil {
		return "", &inbox.Error{Op: "show", Kind: inbox.ErrNotFound, Reason: "no store"}
	}
	snap, err := s.store.Load(ctx)
	if err != nil {
		return "", err
	}
	var newest *inbox.Record
	for _, r := range snap.Records() {
		if r.Status == inbox.StatusOpen && r.Request != nil && (newest == nil || !r.CreatedAt.Before(newest.CreatedAt)) {
			newest = &r
		}
	}
	if newest == nil {
		return "", &inbox.Error{Op: "show", Kind: inbox.ErrNotFound,
			Reason: "no review is waiting: your agent asks for one with reviews-for-agent request"}
	}
	return newest.ID, nil
}

// state is a review's status and, once submitted, where its files went.
func (s *Server) state(ctx context.Context, rv *review) (string, *submitResult, error) {
	if rv.id == "" || s.store == nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.result != nil {
			return string(inbox.StatusSubmitted), s.result, nil
		}
		return string(inbox.StatusOpen), nil, nil
	}
	rec, err := s.store.Get(ctx, rv.id)
	if err != nil {
		return "", nil, err
	}
	if rec.Submission == nil {
		return string(rec.Status), nil, nil
	}
	return string(rec.Status), storeResult(rec.ID, rec.Submission.JSONPath, rec.Submission.MDPath), nil
}

func storeResult(id, jsonPath, mdPath string) *submitResult {
	w := writtenFiles{JSON: jsonPath, MD: mdPath}
	return &submitResult{JSON: jsonPath, MD: mdPath, Prompt: w.Prompt(), ID: id, Inbox: "reviews-for-agent inbox get " + id}
}

// record writes a validated, normalized submission: the two files in the
// repository, and for a review in the store its submitted record. The
// store is checked before and written after the files; should it refuse
// then (another server took a submission in between), the files go again.
func (s *Server) record(ctx context.Context, rv *review, norm agentmd.Submission) (*submitResult, error) {
	if rv.id != "" && s.store != nil {
		rec, err := s.store.Get(ctx, rv.id)
		if err != nil {
			return nil, err
		}
		if err := rec.CanSubmit(); err != nil {
			return nil, err
		}
	}
	jsonData, err := norm.MarshalIndent()
	if err != nil {
		return nil, err
	}
	md := agentmd.Markdown(norm.Review(), rv.changes.Files)
	written, err := writeSubmission(rv.changes.Root, rv.changes.Diff, jsonData, []byte(md), s.now())
	if err != nil {
		fmt.Fprintf(s.log, "Could not write the comments: %v\n", err)
		return nil, fmt.Errorf("could not write the comments: %w", err)
	}
	if rv.id == "" || s.store == nil {
		return &submitResult{JSON: written.JSON, MD: written.MD, Prompt: written.Prompt()}, nil
	}
	sub := inbox.Submission{Submission: norm, JSONPath: written.JSON, MDPath: written.MD}
	if _, err := s.store.Submit(ctx, rv.id, sub); err != nil {
		for _, rel := range []string{written.JSON, written.MD} {
			os.Remove(filepath.Join(rv.changes.Root, filepath.FromSlash(rel)))
		}
		return nil, err
	}
	return storeResult(rv.id, written.JSON, written.MD), nil
}

// fail answers an error: a refusal with its status, anything else as 500.
func (s *Server) fail(w http.ResponseWriter, err error) {
	var refusal *inbox.Error
	if errors.As(err, &refusal) {
		jsonError(w, inbox.HTTPStatus(err), refusal.Reason)
		return
	}
	jsonError(w, inbox.HTTPStatus(err), err.Error())
}
