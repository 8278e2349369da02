// Package fakellm is a scripted, in-process server that speaks the OpenAI
// Chat Completions wire format, for tests and offline demos.
//
// It is written from the API's documentation with net/http and
// encoding/json only, so that a client tested against it is checked
// against the documented behaviour and not against one SDK's types. It
// checks requests the way the real API does (tool messages must answer
// tool calls, and so on), answers by rules (as server-sent events when the
// request streams), injects failures, records every request, and reports
// token usage with OpenAI-like prefix caching.
package fakellm

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Config tunes the server. The zero value is usable.
type Config struct {
	APIKey string // required bearer token; "test-key" when empty

	CharsPerToken int // token estimate; 4 when zero
	// CacheMinTokens is the shortest prefix that is served from the cache
	// (OpenAI: 1024); CacheBlockTokens the granularity of cache hits
	// (OpenAI: 128). Zero means the OpenAI value; small tests set small
	// numbers.
	CacheMinTokens   int
	CacheBlockTokens int
	// ContextTokens is the model's window: a request whose prompt is
	// longer is refused with OpenAI's documented 400
	// (code "context_length_exceeded"). Zero means no limit. With Provider
	// Ollama it is the window longer prompts are cut to, silently (4096
	// when zero).
	ContextTokens int
	// Provider makes the server behave like that provider (see Provider).
	Provider Provider
	// Latency holds every answer back this long, as a model takes time to
	// answer, so a test can measure what calls side by side save.
	Latency time.Duration
}

// Server is a running fake. Create it with New and Close it when done.
type Server struct {
	// URL is the server's root, e.g. "http://127.0.0.1:1234". The endpoint
	// is served at /chat/completions, /v1/chat/completions and
	// /api/v1/chat/completions, so URL, URL+"/v1" and URL+"/api/v1" all
	// work as a client's base URL.
	URL string

	srv *httptest.Server
	cfg Config

	mu     sync.Mutex
	rules  []*ruleState
	def    *Reply
	faults []*faultState
	reqs   []Request
	cache  map[[32]byte]struct{}
	tokens map[string]bool // thought signatures and reasoning details issued
	seq    int
	// inflight and mostInFlight count the requests being answered now and
	// the most at any one time.
	inflight, mostInFlight int
}

var _ http.Handler = (*Server)(nil)

// New starts a server on a loopback port.
func New(cfg Config) *Server {
	if cfg.APIKey == "" {
		cfg.APIKey = "test-key"
	}
	if cfg.CharsPerToken <= 0 {
		cfg.CharsPerToken = 4
	}
	if cfg.CacheMinTokens <= 0 {
		cfg.CacheMinTokens = 1024
	}
	if cfg.CacheBlockTokens <= 0 {
		cfg.CacheBlockTokens = 128
	}
	if cfg.Provider == Ollama && cfg.ContextTokens <= 0 {
		cfg.ContextTokens = 4096
	}
	s := &Server{cfg: cfg, cache: map[[32]byte]struct{}{}, tokens: map[string]bool{}}
	s.srv = httptest.NewServer(s)
	s.URL = s.srv.URL
	return s
}

// BaseURL is URL+"/v1", the usual OpenAI-style base URL.
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// APIKey is the bearer token the server accepts.
func (s *Server) APIKey() string { return s.cfg.APIKey }

// Close shuts the server down.
func (s *Server) Close() { s.srv.Close() }

// AddRule appends a rule.
func (s *Server) AddRule(r Rule) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rules = append(s.rules, &ruleState{rule: r})
}

// SetDefault sets the reply for requests no rule matches. Without one such
// requests get a 400 naming the problem.
func (s *Server) SetDefault(r Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.def = &r
}

// InjectNext makes the next n requests fail as f says. Faults queue up in
// the order they were injected.
func (s *Server) InjectNext(n int, f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n > 0 {
		s.faults = append(s.faults, &faultState{fault: f, left: n})
	}
}

// FailNext makes the next n requests fail with status.
func (s *Server) FailNext(n, status int) { s.InjectNext(n, Fault{Status: status}) }

// DelayNext holds the next n requests for d before answering them.
func (s *Server) DelayNext(n int, d time.Duration) { s.InjectNext(n, Fault{Delay: d}) }

// Requests returns a copy of every request received, in order of arrival.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// LastRequest returns the latest request received.
func (s *Server) LastRequest() (Request, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.reqs) == 0 {
		return Request{}, false
	}
	return s.reqs[len(s.reqs)-1], true
}

// RequestsContaining returns the requests in which some message or
// tool-call arguments contain text.
func (s *Server) RequestsContaining(text string) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Contains(text) {
			out = append(out, r)
		}
	}
	return out
}

var endpoints = map[string]bool{
	"/chat/completions":        true,
	"/v1/chat/completions":     true,
	"/api/v1/chat/completions": true,
	// Alibaba Cloud Model Studio's OpenAI-compatible mode.
	"/compatible-mode/v1/chat/completions": true,
}

// ServeHTTP implements the endpoint.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := Request{Time: time.Now(), Path: r.URL.Path, Header: r.Header.Clone()}
	// Record on arrival, so a test sees a request even while it is held by
	// an injected delay, and fill in the details when it is answered.
	s.mu.Lock()
	idx := len(s.reqs)
	s.reqs = append(s.reqs, rec)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.reqs[idx] = rec
		s.mu.Unlock()
	}()
	if !endpoints[r.URL.Path] && s.cfg.Provider != Azure {
		rec.Status = writeError(w, APIError{Status: http.StatusNotFound, Message: fmt.Sprintf("Invalid URL (%s %s)", r.Method, r.URL.Path)}, nil)
		return
	}
	if r.Method != http.MethodPost {
		rec.Status = writeError(w, APIError{Status: http.StatusMethodNotAllowed, Message: "Only POST is allowed"}, nil)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		rec.Status = writeError(w, APIError{Status: http.StatusBadRequest, Message: "reading body: " + err.Error()}, nil)
		return
	}
	rec.Body = body
	check := s.checkAuth
	if s.cfg.Provider == Azure {
		check = s.checkAzure
	}
	if status, ok := check(w, r); !ok {
		rec.Status = status
		return
	}
	defer s.enter()()
	var pace Fault
	if f := s.nextFault(); f != nil {
		if status, done := s.applyFault(w, r, *f); done {
			rec.Status = status
			return
		}
		pace = *f
	}
	if s.cfg.Latency > 0 {
		if f := (Fault{Delay: s.cfg.Latency}); !s.wait(r, f) {
			return
		}
	}
	if err := decodeRequest(body, &rec); err != nil {
		rec.Status = writeError(w, APIError{Status: http.StatusBadRequest, Message: err.Error()}, nil)
		return
	}
	if err := ValidateRequest(body); err != nil {
		rec.Status = writeError(w, APIError{Status: http.StatusBadRequest, Message: "fakellm: not a chat completions request as OpenAI documents it: " + err.Error()}, nil)
		return
	}
	rec.Status = s.answer(w, r, &rec, pace)
}

func (s *Server) checkAuth(w http.ResponseWriter, r *http.Request) (int, bool) {
	auth := r.Header.Get("Authorization")
	if auth == "" {
		return writeError(w, APIError{Status: http.StatusUnauthorized, Message: "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."}, nil), false
	}
	key, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok || key != s.cfg.APIKey {
		// Like OpenAI, show only the ends of the key that was sent.
		return writeError(w, APIError{Status: http.StatusUnauthorized, Message: "Incorrect API key provided: " + mask(key) + ".", Code: "invalid_api_key"}, nil), false
	}
	return 0, true
}

func mask(key string) string {
	if len(key) <= 8 {
		return strings.Repeat("*", len(key))
	}
	return key[:3] + strings.Repeat("*", len(key)-7) + key[len(key)-4:]
}

func (s *Server) nextFault() *Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.faults) == 0 {
		return nil
	}
	f := s.faults[0]
	f.left--
	if f.left <= 0 {
		s.faults = s.faults[1:]
	}
	fault := f.fault
	return &fault
}

// applyFault carries out f and reports whether it answered the request.
func (s *Server) applyFault(w http.ResponseWriter, r *http.Request, f Fault) (int, bool) {
	if !s.wait(r, f) {
		return 0, true // the client gave up; nobody reads an answer
	}
	if f.Body == "" && f.Status == 0 {
		return 0, false
	}
	h := http.Header{}
	if f.RetryAfter != "" {
		h.Set("Retry-After", f.RetryAfter)
	}
	if f.RetryAfterMS != "" {
		h.Set("retry-after-ms", f.RetryAfterMS)
	}
	for k, v := range f.Header {
		h.Set(k, v)
	}
	if f.Body != "" {
		for k, vs := range h {
			w.Header()[k] = vs
		}
		return rawError(w, max(f.Status, http.StatusOK), f.Body), true
	}
	msg := f.Message
	if msg == "" {
		msg = defaultMessage(f.Status)
	}
	code := ""
	if f.Status == http.StatusTooManyRequests {
		code = "rate_limit_exceeded"
	}
	return writeError(w, APIError{Status: f.Status, Message: msg, Code: code}, h), true
}

// pick chooses the reply for rec. Call with s.mu held.
func (s *Server) pick(rec Request) (*Rule, bool) {
	for _, st := range s.rules {
		if st.rule.Times > 0 && st.hits >= st.rule.Times {
			continue
		}
		if st.rule.matches(rec) {
			st.hits++
			return &st.rule, true
		}
	}
	return nil, false
}

func (s *Server) answer(w http.ResponseWriter, r *http.Request, rec *Request, pace Fault) int {
	if status, done := s.refuse(w, rec); done {
		return status
	}
	s.mu.Lock()
	if n := s.cfg.ContextTokens; n > 0 && s.cfg.Provider != Ollama {
		if prompt, _, _, _ := s.usageFor(rec); prompt > n {
			s.mu.Unlock()
			rec.Usage = Usage{PromptTokens: prompt}
			return writeError(w, APIError{Status: http.StatusBadRequest, Code: "context_length_exceeded", Message: fmt.Sprintf(
				"This model's maximum context length is %d tokens. However, your messages resulted in %d tokens. Please reduce the length of the messages.", n, prompt)}, nil)
		}
	}
	rule, ok := s.pick(*rec)
	def := s.def
	s.mu.Unlock()

	var reply Reply
	switch {
	case ok && rule.Respond != nil:
		reply = rule.Respond(*rec) // outside the lock: it may call back into s
	case ok:
		reply = rule.Reply
	case def != nil:
		reply = *def
	default:
		return writeError(w, APIError{Status: http.StatusBadRequest, Message: fmt.Sprintf("fakellm: no rule matched the request (last user message %.80q)", rec.LastUser())}, nil)
	}
	if reply.Error != nil {
		return writeError(w, *reply.Error, nil)
	}

	content := reply.Text
	if reply.JSON != nil {
		b, err := json.Marshal(reply.JSON)
		if err != nil {
			return writeError(w, APIError{Status: http.StatusInternalServerError, Message: fmt.Sprintf("fakellm: marshal reply JSON %T: %v", reply.JSON, err)}, nil)
		}
		content = string(b)
	}

	s.mu.Lock()
	s.seq++
	id := s.seq
	calls := append([]ToolCall(nil), reply.ToolCalls...)
	for i := range calls {
		if calls[i].ID == "" {
			calls[i].ID = fmt.Sprintf("call_%d_%d", id, i)
		}
	}
	prompt, cached, written, hashes := s.usageFor(rec)
	s.remember(hashes)
	s.mu.Unlock()
	if s.cfg.Provider == Ollama && prompt > s.cfg.ContextTokens {
		// Ollama keeps the end of a long prompt and drops the rest, and
		// counts what it kept.
		prompt, cached = s.cfg.ContextTokens, 0
	}

	completionChars := len(content) + len(reply.Refusal)
	for _, c := range calls {
		completionChars += len(c.Name) + len(c.Arguments)
	}
	completion := max(1, s.estimate(completionChars))
	rec.Usage = Usage{PromptTokens: prompt, CachedTokens: cached, CompletionTokens: completion}

	msg := wireResponseMessage{Role: "assistant", ToolCalls: toolCallsToWire(calls)}
	if content != "" || len(calls) == 0 {
		msg.Content = &content
	}
	if reply.Refusal != "" {
		msg.Refusal = &reply.Refusal
	}
	s.decorate(&msg, id)
	finish := "stop"
	if len(calls) > 0 {
		finish = "tool_calls"
	}
	resp := wireResponse{
		ID:      fmt.Sprintf("chatcmpl-fake%d", id),
		Object:  "chat.completion",
		Created: time.Now().Unix(),
		Model:   rec.Model,
		Choices: []wireChoice{{Index: 0, Message: msg, FinishReason: finish}},
		Usage:   s.usageShape(prompt, cached, written, completion),
	}
	if rec.Stream {
		return s.writeStream(w, r, resp, rec.StreamUsage, pace)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_ = json.NewEncoder(w).Encode(resp)
	return http.StatusOK
}

// writeError answers with e in OpenAI's error shape and returns the status.
func writeError(w http.ResponseWriter, e APIError, h http.Header) int {
	status := e.Status
	if status == 0 {
		status = http.StatusBadRequest
	}
	var body wireError
	body.Error.Message = e.Message
	body.Error.Type = e.Type
	if body.Error.Type == "" {
		body.Error.Type = errorType(status)
	}
	if e.Code != "" {
		body.Error.Code = &e.Code
	}
	for k, vs := range h {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
	return status
}

// wait holds the request for f.Delay; false when the client gave up first.
func (s *Server) wait(r *http.Request, f Fault) bool { return hold(r, f.Delay) }

// hold holds a request for d; false when the client gave up first.
func hold(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

// enter counts a request in flight until the function it returns is called.
func (s *Server) enter() func() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inflight++
	s.mostInFlight = max(s.mostInFlight, s.inflight)
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.inflight--
	}
}

// MostInFlight is the most requests the server was answering at one time.
func (s *Server) MostInFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mostInFlight
}
