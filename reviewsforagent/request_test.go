package reviewsforagent

import (
	"context"
	"errors"
	"github.com/review-my-code-bot/rmc/diff"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/inbox"
)

func TestSelectFiles(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{"src/a.go": "a\n", "src/b.go": "b\n", "docs/x.md": "x\n"})
	writeFile(t, dir, "src/a.go", "A\n")
	writeFile(t, dir, "src/b.go", "B\n")
	writeFile(t, dir, "docs/x.md", "X\n")
	c, err := LoadChanges(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		dir          string
		paths        []string
		want         []string
		wantWarnings int
	}{
		"everything":              {dir: dir, want: []string{"docs/x.md", "src/a.go", "src/b.go"}},
		"one file":                {dir: dir, paths: []string{"src/a.go"}, want: []string{"src/a.go"}},
		"a directory":             {dir: dir, paths: []string{"src/"}, want: []string{"src/a.go", "src/b.go"}},
		"relative to a subdir":    {dir: filepath.Join(dir, "src"), paths: []string{"b.go"}, want: []string{"src/b.go"}},
		"absolute":                {dir: dir, paths: []string{filepath.Join(dir, "docs", "x.md")}, want: []string{"docs/x.md"}},
		"unchanged file warns":    {dir: dir, paths: []string{"src/a.go", "README.md"}, want: []string{"src/a.go"}, wantWarnings: 1},
		"nothing matches":         {dir: dir, paths: []string{"nope"}, want: nil, wantWarnings: 1},
		"dot from a subdirectory": {dir: filepath.Join(dir, "docs"), paths: []string{"."}, want: []string{"docs/x.md"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, warnings := SelectFiles(c, tc.dir, tc.paths)
			var paths []string
			for _, f := range got.Files {
				paths = append(paths, f.Path())
			}
			if !slices.Equal(paths, tc.want) || len(warnings) != tc.wantWarnings {
				t.Errorf("selected %v with warnings %v, want %v and %d warnings", paths, warnings, tc.want, tc.wantWarnings)
			}
			if n := len(diff.SectionTexts(got.Diff)); n != len(got.Files) {
				t.Errorf("diff has %d sections for %d files", n, len(got.Files))
			}
		})
	}
}

// spawner starts in-process inbox servers in place of a detached process,
// and stops them when the test ends.
type spawner struct {
	t        *testing.T
	store    *inbox.Store
	spawnCtx context.Context
	calls    atomic.Int32
	wg       sync.WaitGroup
}

func newSpawner(t *testing.T, store *inbox.Store) *spawner {
	sp := &spawner{t: t, store: store}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); sp.wg.Wait() })
	sp.spawnCtx = ctx
	return sp
}

func (sp *spawner) spawn(port int) error {
	sp.calls.Add(1)
	sp.wg.Go(func() {
		if err := Serve(sp.spawnCtx, ServeOptions{Store: sp.store, Port: port, StrictPort: true}); err != nil {
			sp.t.Errorf("spawned server: %v", err)
		}
	})
	return nil
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := Listen(0, true)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func TestRequestLocal(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	writeFile(t, dir, "a.txt", "A\n")
	writeFile(t, dir, "b.txt", "B\n")
	store, err := inbox.Open(filepath.Join(t.TempDir(), "reviews.jsonl"), inbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sp := newSpawner(t, store)
	port := freePort(t)
	q := &Requester{Store: store, Port: port, Spawn: sp.spawn, ReadyWait: 5 * time.Second}
	ctx := context.Background()

	res, err := q.RequestLocal(ctx, inbox.LocalRequest{Dir: dir, Files: []string{"a.txt", "c.txt"}, Message: " Check a. "})
	if err != nil {
		t.Fatal(err)
	}
	token, err := StoreToken(store)
	if err != nil {
		t.Fatal(err)
	}
	wantURL := "http://127.0.0.1:" + strconv.Itoa(port) + "/review/" + res.ID + "#token=" + token
	if res.URL != wantURL || !slices.Equal(res.Files, []string{"a.txt"}) || len(res.Warnings) != 1 || res.Status != inbox.StatusOpen {
		t.Errorf("result = %+v, want URL %s", res, wantURL)
	}
	rec, err := store.Get(ctx, res.ID)
	if err != nil {
		t.Fatal(err)
	}
	if q := rec.Request; q.Message != "Check a." || q.Branch != "main" || len(q.Commit) != 40 || !strings.HasPrefix(q.Base, "HEAD (") {
		t.Errorf("request = %+v", q)
	}
	if d, err := store.Diff(ctx, rec); err != nil || !strings.Contains(d, "+A") || strings.Contains(d, "b.txt") {
		t.Errorf("stored diff = %q, %v", d, err)
	}
	// The page is up: the spawned server serves the review.
	bare, _ := splitPage(t, res.URL)
	if code, body := call(t, "GET", strings.Replace(bare, "/review/", "/api/reviews/", 1)+"/info", token, ""); code != 200 {
		t.Errorf("info of the new review = %d %s", code, body)
	}

	// A second request finds the server running and starts none.
	res2, err := q.RequestLocal(ctx, inbox.LocalRequest{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if sp.calls.Load() != 1 || !slices.Equal(res2.Files, []string{"a.txt", "b.txt"}) || res2.ID == res.ID {
		t.Errorf("second request: %+v after %d spawns", res2, sp.calls.Load())
	}
}

// A port held by something else is passed over.
func TestRequestSkipsForeignServer(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{"a.txt": "a\n"})
	writeFile(t, dir, "a.txt", "A\n")
	ln, err := Listen(0, true)
	if err != nil {
		t.Fatal(err)
	}
	foreign := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"app":"something-else"}`))
	})}
	go foreign.Serve(ln)
	t.Cleanup(func() { foreign.Close() })
	port := ln.Addr().(*net.TCPAddr).Port

	store, err := inbox.Open(filepath.Join(t.TempDir(), "reviews.jsonl"), inbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var spawned []int
	q := &Requester{Store: store, Port: port, Spawn: func(p int) error { spawned = append(spawned, p); return errors.New("not here") }, ReadyWait: time.Millisecond}
	res, err := q.RequestLocal(context.Background(), inbox.LocalRequest{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(spawned) != 1 || spawned[0] == port || !strings.Contains(res.URL, ":"+strconv.Itoa(spawned[0])+"/") {
		t.Errorf("spawned on %v for %s; the foreign server holds %d", spawned, res.URL, port)
	}
	// The failed start is a warning: the review is recorded all the same.
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "could not start the review server") {
		t.Errorf("warnings = %v", res.Warnings)
	}
}

func TestRequestRefusals(t *testing.T) {
	t.Parallel()
	clean := newRepo(t, map[string]string{"a.txt": "a\n"})
	store, err := inbox.Open(filepath.Join(t.TempDir(), "reviews.jsonl"), inbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	q := &Requester{Store: store, Spawn: func(int) error { t.Error("spawned for a refused request"); return nil }}
	tests := map[string]inbox.LocalRequest{
		"no changes":       {Dir: clean},
		"not a repository": {Dir: t.TempDir()},
		"unchanged files":  {Dir: clean, Files: []string{"a.txt"}},
	}
	for name, req := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if _, err := q.RequestLocal(context.Background(), req); !errors.Is(err, inbox.ErrInvalidInput) {
				t.Errorf("err = %v, want invalid input", err)
			}
		})
	}
}

// inbox get of an open review whose server is gone starts one, so the URL
// it gives works; a second get finds that server running.
func TestEnsurePageRestartsServer(t *testing.T) {
	t.Parallel()
	store, _, _ := inboxFixture(t)
	ctx := context.Background()
	text, err := os.ReadFile(filepath.Join("testdata", "changes.diff"))
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://127.0.0.1:" + strconv.Itoa(freePort(t)) // nothing listens there
	rec, err := store.Create(ctx, inbox.Request{Root: t.TempDir(), Base: "HEAD (abc1234)", Files: []string{"x"}, Server: dead}, string(text))
	if err != nil {
		t.Fatal(err)
	}
	sp := newSpawner(t, store)
	port := freePort(t)
	svc := &inbox.Service{Store: store, Local: &Requester{Store: store, Port: port, Spawn: sp.spawn, ReadyWait: 10 * time.Second}}
	for round := range 2 {
		d, err := svc.Get(ctx, rec.ID)
		if err != nil {
			t.Fatal(err)
		}
		bare, token := splitPage(t, d.URL)
		if want := "http://127.0.0.1:" + strconv.Itoa(port) + "/review/" + rec.ID; bare != want {
			t.Fatalf("round %d: URL %s, want %s", round, d.URL, want)
		}
		if code, body := call(t, "GET", strings.Replace(bare, "/review/", "/api/reviews/", 1)+"/info", token, ""); code != 200 {
			t.Fatalf("round %d: the page's info = %d %s", round, code, body)
		}
	}
	if n := sp.calls.Load(); n != 1 {
		t.Errorf("%d servers started, want 1", n)
	}
}
