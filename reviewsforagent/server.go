// Package reviewsforagent serves a local web page on which a person reviews the
// uncommitted changes of a git repository, line by line as on a pull
// request, and writes their comments to files a coding agent can act on.
//
// It serves in two ways. Run is the start command's single round: one
// snapshot of the changes at /review, until the person stops it. Serve is
// the agent inbox's server: every open review in an inbox.Store, each at
// /review/<id>, recording submissions in the store; Requester records such
// reviews for an agent and starts that server when none runs.
//
// The server only listens on 127.0.0.1, and its URLs name 127.0.0.1 rather
// than localhost, which a browser may send to another program on [::1]. It
// only answers requests addressed to localhost or 127.0.0.1 at its own
// port, so a web page elsewhere cannot read the diff or post comments
// through DNS rebinding, and only requests carrying its random token, so
// other users of the machine cannot either.
package reviewsforagent

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
	"sync/atomic"
	"time"

	"github.com/review-my-code-bot/rmc/agentmd"
	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/inbox"
)

// MaxBodyBytes caps a submission: a thousand long comments fit many times.
const MaxBodyBytes = 1 << 20

//go:embed web
var webFS embed.FS

// Options tune a Server; the zero value is ready to use.
type Options struct {
	Now func() time.Time // time.Now when nil; names the written files
	Log io.Writer        // where submissions are reported; io.Discard when nil
	// Store is the inbox: when set, the server also serves the store's
	// reviews by id (/review/<id>) and records every submission there.
	Store *inbox.Store
	// ReviewID is the store's id of the review NewServer serves at
	// /review, when it was recorded there.
	ReviewID string
	// Token is what every request must carry (see authorize); a fresh
	// random one when "", which Token reports.
	Token string
}

// Server serves review pages: of one Changes snapshot at /review (the
// start command), and with a Store of any review in it at /review/<id>.
type Server struct {
	single *review // what /review shows; nil for an inbox server
	store  *inbox.Store
	mode   string // "start" or "serve", for /api/health
	token  string
	now    func() time.Time
	log    io.Writer
	mux    *http.ServeMux
	assets fs.FS

	mu     sync.Mutex    // serializes submissions
	result *submitResult // the submission of a single review outside the store
	draft  []byte        // its draft; drafts of reviews in the store are kept there
	// cancelled is set when the single review outside the store was
	// discarded in the page.
	cancelled bool

	cacheMu sync.Mutex
	cache   map[string]*review // store reviews, parsed once
	viewed  sync.Map           // ids of store reviews whose page was opened

	lastActive atomic.Int64 // unix nanoseconds of the last request

	codeMu sync.Mutex
	codes  map[string]time.Time // one-time codes for the token, to when they expire
}

var _ http.Handler = (*Server)(nil)

// Token is what every request to s must carry.
func (s *Server) Token() string { return s.token }

// review is one diff on offer: the single review, or one of the store's.
type review struct {
	id      string // "" outside the store
	changes Changes
	message string // the agent's note to the reviewer
}

// submitResult is what POST /api/comments answers, and what /api/info
// reports once a review is in, so a reloaded page shows it.
type submitResult struct {
	JSON   string `json:"json"`
	MD     string `json:"md"`
	Prompt string `json:"prompt"`
	// ID and Inbox are set for a review in the store: the agent fetches
	// it from there, no paste needed.
	ID    string `json:"id,omitempty"`
	Inbox string `json:"inbox,omitempty"`
	// Review is what was submitted, normalized, which the page shows
	// read-only from then on.
	Review *agentmd.Submission `json:"review,omitempty"`
	// Warning is set when the review is in the inbox but its files are
	// not in the repository.
	Warning string `json:"warning,omitempty"`
}

// NewServer returns a server for c, the review /review shows.
func NewServer(c Changes, opts Options) *Server {
	s := newServer(opts, "start")
	s.single = &review{id: opts.ReviewID, changes: c}
	return s
}

// NewInboxServer returns a server of the store's open reviews: /review/<id>
// shows one, /review the newest.
func NewInboxServer(store *inbox.Store, opts Options) *Server {
	opts.Store = store
	return newServer(opts, "serve")
}

func newServer(opts Options, mode string) *Server {
	s := &Server{store: opts.Store, mode: mode, token: opts.Token, now: opts.Now, log: opts.Log, mux: http.NewServeMux(), cache: map[string]*review{}, codes: map[string]time.Time{}}
	if s.token == "" {
		s.token = NewToken()
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = io.Discard
	}
	s.lastActive.Store(s.now().UnixNano())
	assets, err := fs.Sub(webFS, "web")
	if err != nil {
		panic(err) // the embed pattern above guarantees the directory
	}
	s.assets = assets
	page := func(w http.ResponseWriter, r *http.Request) { http.ServeFileFS(w, r, assets, "index.html") }
	s.mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		to := "/review"
		if s.single == nil {
			to = "/inbox"
		}
		http.Redirect(w, r, to, http.StatusFound)
	})
	s.registerInboxAPI()
	s.mux.HandleFunc("GET /review", s.serveDefaultPage(page))
	s.mux.HandleFunc("GET /review/{id}", page)
	s.mux.HandleFunc("GET "+pageScript, servePageModule)
	s.mux.Handle("GET /assets/", http.StripPrefix("/assets/", http.FileServerFS(assets)))
	s.mux.HandleFunc("GET /api/health", s.serveHealth)
	s.mux.HandleFunc("POST /api/session", s.tradeCode)
	// The review /review shows, and any review by id.
	s.mux.HandleFunc("GET /api/diff", s.withReview(s.serveDiff))
	s.mux.HandleFunc("GET /api/info", s.withReview(s.serveInfo))
	s.mux.HandleFunc("POST /api/comments", s.withReview(s.submit))
	s.mux.HandleFunc("GET /api/draft", s.withReview(s.serveDraft))
	s.mux.HandleFunc("PUT /api/draft", s.withReview(s.saveDraft))
	s.mux.HandleFunc("GET /api/reviews/{id}/draft", s.withReview(s.serveDraft))
	s.mux.HandleFunc("PUT /api/reviews/{id}/draft", s.withReview(s.saveDraft))
	s.mux.HandleFunc("GET /api/reviews/{id}/diff", s.withReview(s.serveDiff))
	s.mux.HandleFunc("GET /api/reviews/{id}/info", s.withReview(s.serveInfo))
	s.mux.HandleFunc("POST /api/reviews/{id}/comments", s.withReview(s.submit))
	s.mux.HandleFunc("GET /api/context", s.withReview(s.serveContext))
	s.mux.HandleFunc("GET /api/reviews/{id}/context", s.withReview(s.serveContext))
	s.mux.HandleFunc("POST /api/cancel", s.withReview(s.cancelReview))
	s.mux.HandleFunc("POST /api/reviews/{id}/cancel", s.withReview(s.cancelReview))
	s.mux.HandleFunc("POST /api/markdown", s.renderMarkdown)
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
	// Every method: a GET from another page's script carries an Origin
	// too, and nothing of ours is meant to be read cross-origin.
	if origin := r.Header.Get("Origin"); origin != "" && origin != "http://localhost:"+port && origin != "http://127.0.0.1:"+port {
		fmt.Fprintf(s.log, "Rejected a %s from origin %q.\n", r.Method, origin)
		jsonError(w, http.StatusForbidden, "cross-origin requests are not accepted")
		return
	}
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	if !s.authorize(w, r) {
		return
	}
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	s.lastActive.Store(s.now().UnixNano())
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

func (s *Server) serveDiff(w http.ResponseWriter, r *http.Request, rv *review) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(w, rv.changes.Diff)
}

type fileInfo struct {
	Path    string      `json:"path"`
	OldPath string      `json:"oldPath"`
	Status  diff.Status `json:"status"`
	Binary  bool        `json:"binary"`
	// Collapsed says why the page folds the file until asked ("a lock
	// file", "over 5,000 lines", ...); "" when it shows it.
	Collapsed string `json:"collapsed,omitempty"`
	// Lines, Added and Deleted count the file's diff lines, so the page
	// can lay a file out before it parses its diff.
	Lines   int `json:"lines"`
	Added   int `json:"added"`
	Deleted int `json:"deleted"`
	// Hunks and SplitRows let the page size a file it has not parsed:
	// the unified layout has Lines+Hunks rows, the split one
	// SplitRows+Hunks.
	Hunks     int `json:"hunks"`
	SplitRows int `json:"splitRows"`
	// Width is the longest line's length in characters, a tab counting
	// four, so the page sizes a file's table before it reads the lines.
	Width int `json:"width"`
}

// countFile fills in the line counts of fi from f.
func countFile(fi *fileInfo, f diff.File) {
	fi.Hunks = len(f.Hunks)
	for _, h := range f.Hunks {
		fi.Lines += len(h.Lines)
		dels, adds := 0, 0
		for _, l := range h.Lines {
			fi.Width = max(fi.Width, lineWidth(l.Text))
			switch l.Kind {
			case diff.Add:
				fi.Added++
				adds++
			case diff.Delete:
				fi.Deleted++
				if adds > 0 { // a deletion after additions starts a new change
					fi.SplitRows += max(dels, adds)
					dels, adds = 0, 0
				}
				dels++
			case diff.Context:
				fi.SplitRows += max(dels, adds) + 1
				dels, adds = 0, 0
			}
		}
		fi.SplitRows += max(dels, adds)
	}
}

// lineWidth is how many characters the page lays text out in: a tab is
// four, a character outside the Basic Multilingual Plane two, as a
// JavaScript string counts it.
func lineWidth(text string) int {
	n := 0
	for _, r := range text {
		switch {
		case r == '\t':
			n += 4
		case r > 0xFFFF:
			n += 2
		default:
			n++
		}
	}
	return n
}

func (s *Server) serveInfo(w http.ResponseWriter, r *http.Request, rv *review) {
	files := make([]fileInfo, 0, len(rv.changes.Files))
	sections := diff.SectionTexts(rv.changes.Diff)
	attrs := attributesOf(rv.changes.Root)
	for i, f := range rv.changes.Files {
		fi := fileInfo{Path: f.Path(), OldPath: f.OldPath, Status: f.Status, Binary: f.Binary}
		if i < len(sections) {
			fi.Collapsed = collapseReason(f, sections[i], attrs)
		}
		countFile(&fi, f)
		files = append(files, fi)
	}
	status, result, err := s.state(r.Context(), rv)
	if err != nil {
		s.fail(w, err)
		return
	}
	if status == string(inbox.StatusOpen) && rv.id != "" && s.store != nil {
		if _, done := s.viewed.LoadOrStore(rv.id, true); !done {
			// Opened: the review no longer expires unseen. Should the
			// write fail, the next load tries again.
			if _, err := s.store.MarkViewed(r.Context(), rv.id); err != nil {
				s.viewed.Delete(rv.id)
			}
		}
	}
	writeJSON(w, http.StatusOK, struct {
		ID        string        `json:"id,omitempty"`
		Repo      string        `json:"repo"`
		Base      string        `json:"base"`
		Message   string        `json:"message,omitempty"`
		Status    string        `json:"status"`
		Files     []fileInfo    `json:"files"`
		Submitted *submitResult `json:"submitted"`
	}{rv.id, filepath.Base(rv.changes.Root), rv.changes.Base, rv.message, status, files, result})
}

func (s *Server) submit(w http.ResponseWriter, r *http.Request, rv *review) {
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
	if err := sub.Validate(rv.changes.Files); err != nil {
		jsonError(w, http.StatusBadRequest, err.Error())
		return
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if rv.id == "" && s.cancelled {
		jsonError(w, http.StatusConflict, "this review was discarded; start a new run for a new round")
		return
	}
	if rv.id == "" && s.result != nil {
		jsonError(w, http.StatusConflict, "a review was already submitted ("+s.result.MD+"); start a new run for a new round")
		return
	}
	result, err := s.record(r.Context(), rv, sub.Normalize(rv.changes.Files))
	if err != nil {
		s.fail(w, err)
		return
	}
	if result.Warning == "" {
		fmt.Fprintf(s.log, "Wrote comments to %s and %s. Provide the MD file to your AI agent to have it address the comments.\n", result.JSON, result.MD)
	}
	if result.ID != "" {
		fmt.Fprintf(s.log, "Review %s is in the inbox: %s\n", result.ID, result.Inbox)
	}
	if rv.id == "" {
		s.result = result
	}
	writeJSON(w, http.StatusOK, result)
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
