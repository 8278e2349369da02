// Package localreview serves a local web page on which a person reviews the
// uncommitted changes of a git repository, line by line as on a pull
// request, and writes their comments to files a coding agent can act on.
//
// The server only listens on 127.0.0.1 and only answers requests addressed
// to localhost or 127.0.0.1 at its own port, so a web page elsewhere cannot
// read the diff or post comments through DNS rebinding.
package localreview

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/review-my-code-bot/rmc/agentmd"
	"github.com/review-my-code-bot/rmc/diff"
)

// MaxBodyBytes caps a submission: a thousand long comments fit many times.
const MaxBodyBytes = 1 << 20

//go:embed web
var webFS embed.FS

// Options tune a Server; the zero value is ready to use.
type Options struct {
	Now func() time.Time // time.Now when nil; names the written files
	Log io.Writer        // where submissions are reported; io.Discard when nil
}

// Server serves one review of one Changes snapshot.
type Server struct {
	changes Changes
	now     func() time.Time
	log     io.Writer
	mux     *http.ServeMux

	mu     sync.Mutex // serializes submissions
	result *submitResult
}

// submitResult is what POST /api/comments answers, and what /api/info
// reports once a review is in, so a reloaded page shows it.
type submitResult struct {
	JSON   string `json:"json"`
	MD     string `json:"md"`
	Prompt string `json:"prompt"`
}

// NewServer returns a server for c.
func NewServer(c Changes, opts Options) *Server {
	s := &Server{changes: c, now: opts.Now, log: opts.Log, mux: http.NewServeMux()}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = io.Discard
	}
	assets, err := fs.Sub(webFS, "web")
	if err != nil {
		panic(err) // the embed pattern above guarantees the directory
	}
	s.mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/review", http.StatusFound)
	})
	s.mux.HandleFunc("GET /review", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFileFS(w, r, assets, "index.html")
	})
	s.mux.Handle("GET /assets/", http.StripPrefix("/assets/", http.FileServerFS(assets)))
	s.mux.HandleFunc("GET /api/diff", s.serveDiff)
	s.mux.HandleFunc("GET /api/info", s.serveInfo)
	s.mux.HandleFunc("POST /api/comments", s.submit)
	return s
}

// csp keeps the page to its own server: no script, style, font, image or
// connection may come from anywhere else.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	port, ok := localPort(r)
	if !ok || !allowedHost(r.Host, port) {
		fmt.Fprintf(s.log, "Rejected a request for host %q: this server answers only localhost:%s and 127.0.0.1:%s.\n", r.Host, port, port)
		jsonError(w, http.StatusForbidden, "this server only answers requests for localhost or 127.0.0.1 at its own port")
		return
	}
	if origin := r.Header.Get("Origin"); r.Method != http.MethodGet && r.Method != http.MethodHead && origin != "" &&
		origin != "http://localhost:"+port && origin != "http://127.0.0.1:"+port {
		fmt.Fprintf(s.log, "Rejected a %s from origin %q.\n", r.Method, origin)
		jsonError(w, http.StatusForbidden, "cross-origin requests are not accepted")
		return
	}
	h := w.Header()
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	s.mux.ServeHTTP(w, r)
}

// localPort is the port the request came in on, from the connection itself
// rather than from anything the client says.
func localPort(r *http.Request) (string, bool) {
	addr, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return "", false
	}
	_, port, err := net.SplitHostPort(addr.String())
	return port, err == nil
}

func allowedHost(host, port string) bool {
	return host == "localhost:"+port || host == "127.0.0.1:"+port
}

func (s *Server) serveDiff(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(w, s.changes.Diff)
}

type fileInfo struct {
	Path    string      `json:"path"`
	OldPath string      `json:"oldPath"`
	Status  diff.Status `json:"status"`
	Binary  bool        `json:"binary"`
}

func (s *Server) serveInfo(w http.ResponseWriter, r *http.Request) {
	files := make([]fileInfo, 0, len(s.changes.Files))
	for _, f := range s.changes.Files {
		files = append(files, fileInfo{Path: f.Path(), OldPath: f.OldPath, Status: f.Status, Binary: f.Binary})
	}
	s.mu.Lock()
	result := s.result
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, struct {
		Repo      string        `json:"repo"`
		Base      string        `json:"base"`
		Files     []fileInfo    `json:"files"`
		Submitted *submitResult `json:"submitted"`
	}{filepath.Base(s.changes.Root), s.changes.Base, files, result})
}

func (s *Server) submit(w http.ResponseWriter, r *http.Request) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		jsonError(w, http.StatusUnsupportedMediaType, "send the review as application/json")
		return
	}
	sub, err := agentmd.DecodeSubmission(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		jsonError(w, http.StatusRequestEntityTooLarge, "the review is larger than "+strconv.Itoa(MaxBodyBytes>>20)+" MiB")
		return
	case err != nil:
		jsonError(w, http.StatusBadRequest, err.Error())
		return
	}
	if err := sub.Validate(s.changes.Files); err != nil {
		jsonError(w, http.StatusBadRequest, err.Error())
		return
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.result != nil {
		jsonError(w, http.StatusConflict, "a review was already submitted ("+s.result.MD+"); start a new run for a new round")
		return
	}
	norm := sub.Normalize(s.changes.Files)
	jsonData, err := norm.MarshalIndent()
	if err != nil {
		jsonError(w, http.StatusInternalServerError, err.Error())
		return
	}
	md := agentmd.Markdown(norm.Review(), s.changes.Files)
	written, err := writeSubmission(s.changes.Root, s.changes.Diff, jsonData, []byte(md), s.now())
	if err != nil {
		fmt.Fprintf(s.log, "Could not write the comments: %v\n", err)
		jsonError(w, http.StatusInternalServerError, "could not write the comments: "+err.Error())
		return
	}
	fmt.Fprintf(s.log, "Wrote comments to %s and %s. Provide the MD file to your AI agent to have it address the comments.\n", written.JSON, written.MD)
	s.result = &submitResult{JSON: written.JSON, MD: written.MD, Prompt: written.Prompt()}
	writeJSON(w, http.StatusOK, s.result)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v) // the status is sent; a failed write has no one to tell
}

func jsonError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, struct {
		Error string `json:"error"`
	}{msg})
}
