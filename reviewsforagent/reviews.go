package reviewsforagent

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
			to := "/inbox" // with nothing open, the inbox shows what there is
			if id, err := s.newestOpen(r.Context()); err == nil {
				to = "/review/" + url.PathEscape(id)
			}
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		page(w, r)
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
	rec, err := s.store.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if rec.Request == nil {
		return nil, &inbox.Error{Op: "show", ID: id, Kind: inbox.ErrNotFound, Reason: "not a local review"}
	}
	// Keyed by the diff's digest too: a start run again renews a review's
	// diff under the same id (Store.Renew).
	key := id + "@" + rec.Request.DiffSHA256
	s.cacheMu.Lock()
	rv, ok := s.cache[key]
	s.cacheMu.Unlock()
	if ok {
		return rv, nil
	}
	unified, err := s.store.Diff(ctx, rec)
	if err != nil {
		return nil, err
	}
	c, err := NewChanges(rec.Request.Root, rec.Request.Base, unified)
	if err != nil {
		return nil, fmt.Errorf("read the diff of review %s: %w", id, err)
	}
	if rec.Request.Reviewed != nil {
		c.Reviewed = *rec.Request.Reviewed
	}
	rv = &review{id: id, changes: c, message: rec.Request.Message}
	s.cacheMu.Lock()
	s.cache[key] = rv
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
		if s.cancelled {
			return string(inbox.StatusCancelled), nil, nil
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
	res := storeResult(rec)
	if _, err := os.Stat(filepath.Join(rv.changes.Root, filepath.FromSlash(rec.Submission.MDPath))); err != nil {
		res.Warning = filesMissing(rec.ID, err)
	}
	return string(rec.Status), res, nil
}

func storeResult(rec inbox.Record) *submitResult {
	sub := rec.Submission
	w := writtenFiles{JSON: sub.JSONPath, MD: sub.MDPath}
	review := sub.Submission
	return &submitResult{JSON: sub.JSONPath, MD: sub.MDPath, Prompt: w.Prompt(), ID: rec.ID,
		Inbox: "reviews-for-agent inbox get " + rec.ID, Review: &review}
}

// filesMissing says what the person should know when the files of a
// submission that is safe in the inbox are not in the repository.
func filesMissing(id string, err error) string {
	return fmt.Sprintf("The review is in the inbox, but its files could not be written to %s/ (%v). "+
		"Your agent reads it with reviews-for-agent inbox get %s.", OutputDir, err, id)
}

// record keeps a validated, normalized submission. A review in the store
// is recorded there first and then written to the repository's rfa/: the
// store is what the agent reads, so a repository that cannot be written
// (read-only, full, a file where rfa/ should be) loses nothing; the person
// is told the files are missing. A review outside the store only has the
// files, which must be written for the submission to count.
func (s *Server) record(ctx context.Context, rv *review, norm agentmd.Submission) (*submitResult, error) {
	jsonData, err := exportJSON(norm, rv.changes.Reviewed)
	if err != nil {
		return nil, err
	}
	planned := planFiles(rv.changes.Diff, jsonData, s.now())
	if err := excludeOutput(ctx, rv.changes.Root); err != nil {
		fmt.Fprintf(s.log, "Could not keep %s/ out of git through .git/info/exclude: %v\n", OutputDir, err)
	}
	if rv.id == "" || s.store == nil {
		md := inbox.SubmissionMarkdown(norm, rv.changes.Files) + reviewedMarkdown(rv.changes.Reviewed)
		if err := writeFiles(rv.changes.Root, planned, jsonData, []byte(md)); err != nil {
			fmt.Fprintf(s.log, "Could not write the comments: %v\n", err)
			return nil, fmt.Errorf("could not write the comments: %w", err)
		}
		return &submitResult{JSON: planned.JSON, MD: planned.MD, Prompt: planned.Prompt(), Review: &norm}, nil
	}
	rec, err := s.store.Submit(ctx, rv.id, inbox.Submission{Submission: norm, JSONPath: planned.JSON, MDPath: planned.MD})
	if err != nil {
		return nil, err
	}
	res := storeResult(rec)
	md := inbox.ReviewMarkdown(rec, rv.changes.Files)
	if err := writeFiles(rv.changes.Root, planned, jsonData, []byte(md)); err != nil {
		fmt.Fprintf(s.log, "Could not write the comments to the repository: %v\nReview %s is in the inbox all the same.\n", err, rec.ID)
		res.Warning = filesMissing(rec.ID, err)
	}
	return res, nil
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
