package localreview

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/review-my-code-bot/rmc/inbox"
)

// The server answers only requests that carry its token: any local user
// can connect to 127.0.0.1, but only the person the command printed the
// URL to (or their agent, which can read the token file) knows the token.
// The page's URL carries it once as ?token=; the server then sets it as a
// same-site cookie and redirects to the address without it, so it stays out
// of the history and of links. Programs send it as the X-RFA-Token header.
const (
	TokenParam  = "token"
	TokenHeader = "X-RFA-Token"
)

// NewToken returns a fresh random token of 32 hex characters.
func NewToken() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(fmt.Sprintf("read random bytes: %v", err)) // crypto/rand does not fail on supported systems
	}
	return hex.EncodeToString(b[:])
}

// StoreToken is the token of the inbox server of store: kept in a file
// beside the store, readable only by its owner, so that every process of
// that user (the server, request, inbox get) agrees on it and no one else
// learns it. The first caller creates it.
func StoreToken(store *inbox.Store) (string, error) {
	path := store.Path() + ".token"
	for range 3 {
		b, err := os.ReadFile(path)
		if err == nil {
			if tok := strings.TrimSpace(string(b)); len(tok) >= 32 {
				return tok, nil
			}
			// Short or empty: a writer died half-way. Replace it.
			os.Remove(path)
			continue
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("read the server token %s: %w", path, err)
		}
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue // another process made it first: read theirs
		}
		if err != nil {
			return "", fmt.Errorf("create the server token %s: %w", path, err)
		}
		tok := NewToken()
		_, err = f.WriteString(tok + "\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(path)
			return "", fmt.Errorf("write the server token %s: %w", path, err)
		}
		return tok, nil
	}
	return "", fmt.Errorf("read the server token %s: it keeps changing", path)
}

// WithToken adds the token to a page URL, for the person to open.
func WithToken(pageURL, token string) string {
	if token == "" {
		return pageURL
	}
	sep := "?"
	if strings.Contains(pageURL, "?") {
		sep = "&"
	}
	return pageURL + sep + TokenParam + "=" + url.QueryEscape(token)
}

// cookieName is per port: browsers share cookies between the ports of one
// host, and two servers must not overwrite each other's.
func cookieName(port string) string { return "rfa_token_" + port }

// authorize checks the request's token. A page address carrying a good
// token gets the cookie and a redirect to the address without it; it
// reports false then, the response being written.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request, port string) bool {
	if q := r.URL.Query(); q.Has(TokenParam) {
		if !s.tokenOK(q.Get(TokenParam)) {
			s.denied(w, r)
			return false
		}
		http.SetCookie(w, &http.Cookie{Name: cookieName(port), Value: s.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		if r.Method == http.MethodGet && !strings.HasPrefix(r.URL.Path, "/api/") {
			q.Del(TokenParam)
			// Only ever a path on this server: "//host/x" would send the
			// browser, cookie set, to another host.
			loc := "/" + strings.TrimLeft(r.URL.EscapedPath(), "/")
			if len(q) > 0 {
				loc += "?" + q.Encode()
			}
			http.Redirect(w, r, loc, http.StatusFound)
			return false
		}
		return true
	}
	if h := r.Header.Get(TokenHeader); h != "" {
		if s.tokenOK(h) {
			return true
		}
	} else if c, err := r.Cookie(cookieName(port)); err == nil && s.tokenOK(c.Value) {
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
	jsonError(w, http.StatusForbidden, "this review server needs its token: open the URL reviews-for-agent printed (it ends in ?token=…)")
}
