package reviewsforagent

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"

	"github.com/review-my-code-bot/rmc/inbox"
)

// The inbox's HTTP API, beside the command line's inbox commands and with
// the same rules and refusals (a refusal answers its kind's status and
// {"error", "kind"} with the command line's kind names):
//
//	GET  /api/review/submissions?status=submitted&claimedBy=NAME
//	GET  /api/review/submissions/{id}
//	POST /api/review/submissions/{id}/claim    {"by": NAME, "force": false}
//	POST /api/review/submissions/{id}/resolve  {"by": NAME, "note": TEXT, "force": false}
//
// It serves local reviews; GitHub findings need the command line, which
// holds the GitHub token.
func (s *Server) registerInboxAPI() {
	s.mux.HandleFunc("GET /api/review/submissions", s.inboxList)
	s.mux.HandleFunc("GET /api/review/submissions/{id}", s.inboxGet)
	s.mux.HandleFunc("POST /api/review/submissions/{id}/claim", s.inboxClaim)
	s.mux.HandleFunc("POST /api/review/submissions/{id}/resolve", s.inboxResolve)
	s.mux.HandleFunc("GET /inbox", func(w http.ResponseWriter, r *http.Request) { http.ServeFileFS(w, r, s.assets, "inbox.html") })
}

func (s *Server) service() (*inbox.Service, bool) {
	if s.store == nil {
		return nil, false
	}
	return &inbox.Service{Store: s.store}, true
}

func (s *Server) noStore(w http.ResponseWriter) {
	apiError(w, &inbox.Error{Op: "inbox", Kind: inbox.ErrNotFound, Reason: "this server has no inbox: the review store could not be opened"})
}

func (s *Server) inboxList(w http.ResponseWriter, r *http.Request) {
	svc, ok := s.service()
	if !ok {
		s.noStore(w)
		return
	}
	q := r.URL.Query()
	o := inbox.ListOptions{Status: q.Get("status"), ClaimedBy: q.Get("claimedBy")}
	if o.Status == "" && o.ClaimedBy != "" {
		o.Status = string(inbox.StatusClaimed) // as the command line does
	}
	res, err := svc.List(r.Context(), o)
	if err != nil {
		apiError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) inboxGet(w http.ResponseWriter, r *http.Request) {
	svc, ok := s.service()
	if !ok {
		s.noStore(w)
		return
	}
	d, err := svc.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		apiError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, d)
}

// inboxAction is the body of a claim or resolve.
type inboxAction struct {
	By    string `json:"by"`
	Note  string `json:"note"`
	Force bool   `json:"force"`
}

func (s *Server) inboxClaim(w http.ResponseWriter, r *http.Request) {
	s.inboxChange(w, r, func(svc *inbox.Service, a inboxAction) (inbox.Item, error) {
		return svc.Claim(r.Context(), r.PathValue("id"), a.By, a.Force)
	})
}

func (s *Server) inboxResolve(w http.ResponseWriter, r *http.Request) {
	s.inboxChange(w, r, func(svc *inbox.Service, a inboxAction) (inbox.Item, error) {
		return svc.Resolve(r.Context(), r.PathValue("id"), inbox.ResolveOptions{By: a.By, Note: a.Note, Force: a.Force})
	})
}

func (s *Server) inboxChange(w http.ResponseWriter, r *http.Request, op func(*inbox.Service, inboxAction) (inbox.Item, error)) {
	svc, ok := s.service()
	if !ok {
		s.noStore(w)
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		apiError(w, &inbox.Error{Op: "inbox", Kind: inbox.ErrInvalidInput, Reason: "send application/json"})
		return
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10))
	dec.DisallowUnknownFields()
	var a inboxAction
	if err := dec.Decode(&a); err != nil && !errors.Is(err, io.EOF) {
		apiError(w, &inbox.Error{Op: "inbox", Kind: inbox.ErrInvalidInput, Reason: "decode the request: " + err.Error()})
		return
	}
	it, err := op(svc, a)
	if err != nil {
		apiError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, it)
}

// apiError answers err as the inbox API does: its status, its message and
// its kind.
func apiError(w http.ResponseWriter, err error) {
	writeJSON(w, inbox.HTTPStatus(err), struct {
		Error string `json:"error"`
		Kind  string `json:"kind"`
	}{err.Error(), inbox.KindName(err)})
}
