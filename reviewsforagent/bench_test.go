package reviewsforagent

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkLoadChangesLarge measures reading a 20,000-line change from git
// and parsing it: what start does before it serves the page.
func BenchmarkLoadChangesLarge(b *testing.B) {
	dir := largeRepo(b, 10, 250)
	for b.Loop() {
		if _, err := LoadChanges(context.Background(), dir); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkServeLargeDiff measures what the page fetches of a 20,000-line
// change: the diff text and the file list.
func BenchmarkServeLargeDiff(b *testing.B) {
	c, err := LoadChanges(context.Background(), largeRepo(b, 10, 250))
	if err != nil {
		b.Fatal(err)
	}
	handler := NewServer(c, Options{})
	srv := httptest.NewServer(handler)
	defer srv.Close()
	b.SetBytes(int64(len(c.Diff)))
	for b.Loop() {
		for _, path := range []string{"/api/diff", "/api/info"} {
			// Every request carries the session's token, as the page's do.
			req, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
			if err != nil {
				b.Fatal(err)
			}
			req.Header.Set(TokenHeader, handler.Token())
			resp, err := srv.Client().Do(req)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := io.Copy(io.Discard, resp.Body); err != nil {
				b.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b.Fatalf("GET %s = %d", path, resp.StatusCode)
			}
		}
	}
}

// untrackedRepo is a repository with n new files not yet added to git.
func untrackedRepo(b testing.TB, n int) string {
	dir := newRepo(b, map[string]string{"README": "r\n"})
	for i := range n {
		writeFile(b, dir, fmt.Sprintf("gen/d%02d/f%04d.txt", i%50, i), fmt.Sprintf("file %d\nline two\n", i))
	}
	return dir
}

// BenchmarkLoadChangesUntracked measures reading 3,000 untracked files:
// what request and start do first in a freshly generated project. The
// goal is under a second.
func BenchmarkLoadChangesUntracked(b *testing.B) {
	dir := untrackedRepo(b, 3000)
	for b.Loop() {
		c, err := LoadChanges(context.Background(), dir)
		if err != nil {
			b.Fatal(err)
		}
		if len(c.Files) != 3000 {
			b.Fatalf("%d files, want 3000", len(c.Files))
		}
	}
}
