package reviewsforagent

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/review-my-code-bot/rmc/internal/atomicfile"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/review-my-code-bot/rmc/inbox"
)

// The server's API answers only requests that carry its token: any local
// user can connect to 127.0.0.1, but only the person the command printed
// the URL to (or their agent, which can read the token file) knows it.
// Nothing secret is ever a cookie, which a browser would also send to every
// other server on 127.0.0.1, whatever its port. The page's URL carries the
// token in its fragment (#token=…), which the browser never sends: the
// page keeps it in sessionStorage and sends it as the X-RFA-Token header,
// as programs do. The browser the start command opens is handed a one-time
// code (#code=…) instead, which the page trades for the token once
// (POST /api/session), so the token is never on a command line that other
// users of the machine can read. The page and its scripts are no secret and
// load without the token.
const (
	TokenHeader = "X-RFA-Token"
	// TokenFragment and CodeFragment are the keys of a page URL's fragment.
	TokenFragment = "token"
	CodeFragment  = "code"
)

// codeLife is how long a one-time code may wait to be traded.
const codeLife = 10 * time.Minute

// NewToken returns a fresh random token of 32 hex characters.
func NewToken() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(fmt.Sprintf("read random bytes: %v", err)) // crypto/rand does not fail on supported systems
	}
	return hex.EncodeToString(b[:])
}

// StoreToken is the token of the running inbox server of store: kept in a
// file beside the store, readable only by its owner, so that every process
// of that user (request, inbox get) can reach the server and no one else
// can. Each server writes a fresh one when it starts (RotateStoreToken), so
// a token that leaked stops working with the server that used it. When
// there is no file yet, a first one is made.
func StoreToken(store *inbox.Store) (string, error) {
	path := tokenPath(store)
	b, err := os.ReadFile(path)
	if err == nil {
		if tok := strings.TrimSpace(string(b)); len(tok) >= 32 {
			return tok, nil
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("read the server token %s: %w", path, err)
	}
	return RotateStoreToken(store)
}

// RotateStoreToken writes a fresh token for store's server and returns it;
// the file is replaced whole, so a reader sees the old token or the new.
func RotateStoreToken(store *inbox.Store) (string, error) {
	path := tokenPath(store)
	tok := NewToken()
	if err := atomicfile.Write(path, []byte(tok+"\n")); err != nil { // 0600
		return "", fmt.Errorf("write the server token %s: %w", path, err)
	}
	return tok, nil
}

func tokenPath(store *inbox.Store) string { return store.Path() + ".token" }

// WithToken adds the token to a page URL, in its fragment, for the
// person to open.
func WithToken(pageURL, token string) string {
	return withFragment(pageURL, TokenFragment, token)
}

// WithCode adds a one-time code to a page URL, for a browser to open.
func WithCode(pageURL, code string) string {
	return withFragment(pageURL, CodeFragment, code)
}

func withFragment(pageURL, key, value string) string {
	if value == "" {
		return pageURL
	}
	return pageURL + "#" + key + "=" + url.QueryEscape(value)
}

// NewCode returns a code the page may trade once for the token, within
// codeLife.
func (s *Server) NewCode() string {
	code := NewToken()
	s.codeMu.Lock()
	defer s.codeMu.Unlock()
	now := s.now()
	for c, exp := range s.codes {
		if now.After(exp) {
			delete(s.codes, c)
		}
	}
	s.codes[code] = now.Add(codeLife)
	return code
}

// tradeCode answers a good one-time code with the token, once.
func (s *Server) tradeCode(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Code string `json:"code"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<10)).Decode(&in); err != nil {
		jsonError(w, http.StatusBadRequest, "send {\"code\": \"…\"}")
		return
	}
	s.codeMu.Lock()
	exp, ok := s.codes[in.Code]
	delete(s.codes, in.Code)
	s.codeMu.Unlock()
	if !ok || s.now().After(exp) {
		fmt.Fprintln(s.log, "Refused a one-time code that is unknown, used or expired.")
		jsonError(w, http.StatusForbidden, "this link was already used or has expired: open the URL reviews-for-agent printed")
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Token string `json:"token"`
	}{s.token})
}

// public is what loads without the token: the pages and their assets,
// which hold no secret, and the trade of a one-time code.
func public(r *http.Request) bool {
	if r.Method == http.MethodPost && r.URL.Path == "/api/session" {
		return true
	}
	return (r.Method == http.MethodGet || r.Method == http.MethodHead) && r.URL.Path != "/api" && !strings.HasPrefix(r.URL.Path, "/api/")
}

// authorize checks the request's token header; it reports false, the
// response written, when it is missing or wrong.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) bool {
	if public(r) || s.tokenOK(r.Header.Get(TokenHeader)) {
		return true
	}
	s.denied(w, r)
	return false
}

func (s *Server) tokenOK(got string) bool {
	return s.token != "" && subtle.ConstantTimeCompare([]byte(got), []byte(s.token)) == 1
}

func (s *Server) denied(w http.ResponseWriter, r *http.Request) {
	fmt.Fprintf(s.log, "Refused %s %q: no valid token. Open the URL the command printed.\n", r.Method, r.URL.Path)
	jsonError(w, http.StatusForbidden, "this review server needs its token: open the URL reviews-for-agent printed (it ends in #token=…)")
}
