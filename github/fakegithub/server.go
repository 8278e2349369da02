package fakegithub

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Server is a running fake GitHub. All methods are safe for concurrent use.
type Server struct {
	// URL is the REST base URL (GITHUB_API_URL); GraphQL is at GraphQLURL.
	URL string

	hs        *httptest.Server
	done      chan struct{}
	closeOnce sync.Once
	routes    []route

	root string // scheme://host; web URLs live here
	// enterprise serves REST under /api/v3 and GraphQL at /api/graphql, as
	// GitHub Enterprise Server does; nothing else answers.
	enterprise bool

	mu             sync.Mutex
	treeLimit      int // entries per tree answer; 0 is GitHub's
	filesLimit     int // files a PR's files list holds; 0 is GitHub's
	nextID         int64
	now            time.Time
	users          map[string]*user // lower-case REST login
	tokens         map[string]Identity
	repos          map[string]*repoState // lower-case owner/name
	comments       map[int64]*issueComment
	reviewComments map[int64]*reviewComment
	reviews        map[int64]*reviewState
	reactions      map[int64][]*Reaction // by subject comment id
	nodes          map[string]any        // GraphQL node id -> state object
	limits         map[string]*bucket
	faults         []*faultState
	onWrite        func(n int) bool
	writeSeq       int
	reqSeq         int
	requests       []Request
	writes         []string
	unhandled      []string
	gqlErrors      []string
}

var _ http.Handler = (*Server)(nil)

// New starts a fake GitHub on a local port. Close it when done.
func New() *Server {
	s := &Server{
		done:           make(chan struct{}),
		nextID:         firstID,
		now:            epoch,
		users:          map[string]*user{},
		tokens:         map[string]Identity{},
		repos:          map[string]*repoState{},
		comments:       map[int64]*issueComment{},
		reviewComments: map[int64]*reviewComment{},
		reviews:        map[int64]*reviewState{},
		reactions:      map[int64][]*Reaction{},
		nodes:          map[string]any{},
	}
	s.limits = defaultLimits(s.now)
	s.routes = restRoutes(s)
	s.hs = httptest.NewServer(s)
	s.URL, s.root = s.hs.URL, s.hs.URL
	return s
}

// NewEnterprise starts a fake GitHub Enterprise Server: REST under /api/v3
// (URL ends in it), GraphQL at /api/graphql. Any other path, /api/v3/graphql
// included, is a 404 as on a real server.
func NewEnterprise() *Server {
	s := New()
	s.enterprise = true
	s.URL = s.root + "/api/v3"
	return s
}

// GraphQLURL is the GraphQL endpoint (GITHUB_GRAPHQL_URL).
func (s *Server) GraphQLURL() string {
	if s.enterprise {
		return s.root + "/api/graphql"
	}
	return s.URL + "/graphql"
}

// enterprisePath maps a GitHub Enterprise Server path to the one the
// handlers know; ok is false for a path the server does not serve.
func enterprisePath(p string) (string, bool) {
	if p == "/api/graphql" {
		return "/graphql", true
	}
	rest, ok := strings.CutPrefix(p, "/api/v3/")
	if !ok || rest == "graphql" {
		return "", false
	}
	return "/" + rest, true
}

// Env is the environment that points the action's binary at this server.
func (s *Server) Env() []string {
	return []string{"GITHUB_API_URL=" + s.URL, "GITHUB_GRAPHQL_URL=" + s.GraphQLURL()}
}

// Client is an HTTP client suited to the server (no proxy, shared transport).
func (s *Server) Client() *http.Client { return s.hs.Client() }

// Close stops the server. Requests sleeping in an injected Delay are cut
// short so Close never waits for them.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.done)
		s.hs.Close()
	})
}

// call is one request on its way through the pipeline.
type call struct {
	s        *Server
	r        *http.Request
	body     []byte
	params   map[string]string
	handler  handler
	who      *user
	kind     TokenKind
	reqID    string
	resource string // rate-limit bucket: core or graphql
	gql      *gqlRequest
	header   http.Header // extra response headers such as Link
	index    int         // position in s.requests
	rate     bucket      // snapshot reported in the response headers
	write    bool
}

// reply is what a handler answers; the pipeline writes it, or swaps it for
// an injected fault's answer.
type reply struct {
	status      int
	json        any
	raw         []byte
	contentType string
	header      http.Header
}

func jsonReply(status int, v any) reply { return reply{status: status, json: v} }

// ServeHTTP runs every request through the same pipeline GitHub's edge
// applies: authentication, primary rate limit, then the handler. Injected
// faults and the write hook sit between the rate limit and the handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, fmt.Sprintf("fakegithub: reading body of %s %s: %v", r.Method, r.URL.Path, err), http.StatusBadRequest)
		return
	}
	if s.enterprise {
		p, ok := enterprisePath(r.URL.Path)
		if !ok {
			s.mu.Lock()
			s.unhandled = append(s.unhandled, r.Method+" "+r.URL.Path)
			s.mu.Unlock()
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"message":"Not Found","documentation_url":"https://docs.github.com/enterprise-server/rest"}`)
			return
		}
		r.URL.Path, r.URL.RawPath = p, ""
	}
	c := &call{s: s, r: r, body: body, header: http.Header{}, resource: "core"}

	s.mu.Lock()
	early, fault := s.admit(c)
	s.mu.Unlock()
	if early != nil {
		s.send(w, c, *early, false)
		return
	}
	if fault != nil && fault.Delay > 0 && !s.sleep(fault.Delay) {
		s.finish(c, 0, 0, true)
		panic(http.ErrAbortHandler) // closing: drop the connection like a dying server
	}
	if fault != nil && fault.Status != 0 && !fault.ApplyThenFail {
		s.send(w, c, fault.reply(c.reqID), true)
		return
	}
	if c.write && !s.allowWrite() {
		s.finish(c, 0, 0, fault != nil)
		panic(http.ErrAbortHandler) // the world stopped: the client sees a dead connection
	}

	s.mu.Lock()
	rep := c.handler(c)
	s.mu.Unlock()

	if fault != nil && fault.Status != 0 {
		// ApplyThenFail: the write landed but its answer is lost.
		s.send(w, c, fault.reply(c.reqID), true)
		return
	}
	s.send(w, c, rep, fault != nil)
}

// admit authenticates, applies the primary rate limit and picks a fault. It
// returns an early reply when the request must not reach a handler.
func (s *Server) admit(c *call) (*reply, *Fault) {
	s.reqSeq++
	c.reqID = fmt.Sprintf("F4CE:%04X:%06X:%06X:%08X", s.reqSeq, s.reqSeq*7919, s.reqSeq*104729, uint32(s.now.Unix()))
	c.index = len(s.requests)
	rec := Request{ID: c.reqID, Method: c.r.Method, Path: c.r.URL.Path, Query: c.r.URL.RawQuery}
	if c.r.URL.Path == "/graphql" && c.r.Method == http.MethodPost {
		c.resource = "graphql"
		c.gql = parseGraphQLRequest(c.body)
		c.handler = s.serveGraphQL
		rec.Operation = c.gql.operation
		c.write = c.gql.mutation
	} else {
		c.handler, c.params = s.match(c.r)
		c.write = c.r.Method != http.MethodGet && c.r.Method != http.MethodHead
	}
	rec.Write = c.write
	if id, ok := s.tokens[bearer(c.r)]; ok {
		c.who, c.kind = s.userFor(id.Login), id.Kind
		rec.Login = c.who.login
	}
	s.requests = append(s.requests, rec)

	b := s.limits[c.resource]
	c.rate = *b
	if c.who == nil {
		rep := badCredentials(c.resource)
		return &rep, nil
	}
	if c.r.URL.Path == "/rate_limit" {
		return nil, nil // GitHub does not count this endpoint against the limit
	}
	if b.remaining <= 0 {
		rep := rateLimited(c)
		return &rep, nil
	}
	b.remaining--
	b.used++
	c.rate = *b
	return nil, s.takeFault(c)
}

// sleep waits d unless the server is closing first.
func (s *Server) sleep(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-s.done:
		return false
	}
}

// allowWrite counts a write about to be applied and asks the OnWrite hook
// whether the world still turns. The hook runs without the lock so it may
// inspect the server.
func (s *Server) allowWrite() bool {
	s.mu.Lock()
	s.writeSeq++
	n, hook := s.writeSeq, s.onWrite
	s.mu.Unlock()
	return hook == nil || hook(n)
}

// send writes rep with the headers every GitHub response carries.
func (s *Server) send(w http.ResponseWriter, c *call, rep reply, faulted bool) {
	h := w.Header()
	c.rate.setHeaders(h, c.resource)
	h.Set("X-GitHub-Request-Id", c.reqID)
	h.Set("X-GitHub-Media-Type", "github.v3; format=json")
	s.mu.Lock()
	h.Set("Date", s.now.Format(http.TimeFormat)) // the server's clock, as GitHub sends it
	s.mu.Unlock()
	for k, vs := range c.header {
		h[k] = vs
	}
	for k, vs := range rep.header {
		h[k] = vs
	}
	var payload []byte
	switch {
	case rep.json != nil:
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false) // GitHub sends "<" and ">" verbatim in bodies
		if err := enc.Encode(rep.json); err != nil {
			rep.status = http.StatusInternalServerError
			buf.Reset()
			fmt.Fprintf(&buf, `{"message":"fakegithub: encoding %s %s: %v"}`, c.r.Method, c.r.URL.Path, strings.ReplaceAll(err.Error(), `"`, `'`))
		}
		payload = bytes.TrimRight(buf.Bytes(), "\n")
		h.Set("Content-Type", "application/json; charset=utf-8")
	case rep.raw != nil:
		payload = rep.raw
		h.Set("Content-Type", rep.contentType)
	}
	sent := 0
	if c.r.Method != http.MethodHead {
		sent = len(payload)
	}
	// Logged before it is sent: a client that reads the answer and looks
	// at the log at once sees the request whole.
	s.finish(c, rep.status, sent, faulted)
	w.WriteHeader(rep.status)
	if c.r.Method != http.MethodHead && len(payload) > 0 {
		_, _ = w.Write(payload)
	}
}

// finish records the outcome of a request in the log.
func (s *Server) finish(c *call, status, sent int, faulted bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.index < len(s.requests) && s.requests[c.index].ID == c.reqID {
		s.requests[c.index].Status = status
		s.requests[c.index].Fault = faulted
		s.requests[c.index].Bytes = sent
	}
}

// bearer extracts the token from "Authorization: Bearer t" or "token t",
// the two schemes GitHub accepts for tokens.
func bearer(r *http.Request) string {
	scheme, tok, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	if !ok {
		return ""
	}
	switch strings.ToLower(scheme) {
	case "bearer", "token":
		return strings.TrimSpace(tok)
	}
	return ""
}
