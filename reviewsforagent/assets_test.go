package reviewsforagent

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

// The vendored files must be the exact npm release bytes listed in
// web/vendor/SHA256SUMS (see web/vendor/README.md to refresh them).
func TestVendoredAssetsMatchChecksums(t *testing.T) {
	t.Parallel()
	sums, err := fs.ReadFile(webFS, "web/vendor/SHA256SUMS")
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(sums)))
	listed := map[string]bool{}
	for sc.Scan() {
		want, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("bad SHA256SUMS line %q", sc.Text())
		}
		b, err := fs.ReadFile(webFS, "web/vendor/"+name)
		if err != nil {
			t.Fatalf("vendored file %s: %v", name, err)
		}
		sum := sha256.Sum256(b)
		if got := hex.EncodeToString(sum[:]); got != want {
			t.Errorf("%s: sha256 %s, want %s", name, got, want)
		}
		listed[name] = true
	}
	// Every vendored file is pinned.
	entries, err := fs.ReadDir(webFS, "web/vendor")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if name := e.Name(); name != "SHA256SUMS" && name != "README.md" && !listed[name] {
			t.Errorf("%s is vendored but not in SHA256SUMS", name)
		}
	}
}

// The page's own files reference nothing but the local server.
func TestPageReferencesOnlyLocalAssets(t *testing.T) {
	t.Parallel()
	external := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}`)
	for _, name := range []string{"web/index.html", "web/app.js", "web/render.js", "web/app.css", "web/highlight.js", "web/highlight-worker.js"} {
		b, err := fs.ReadFile(webFS, name)
		if err != nil {
			t.Fatal(err)
		}
		if m := external.Find(b); m != nil {
			t.Errorf("%s references %q", name, m)
		}
	}
}
