package workspace

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestCleanPath(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		in      string
		want    string
		refused bool
	}{
		"empty is the root":       {in: "", want: "."},
		"dot is the root":         {in: ".", want: "."},
		"plain":                   {in: "src/main.go", want: "src/main.go"},
		"dots and slashes":        {in: "./src//util/./", want: "src/util"},
		"dotfiles are fine":       {in: ".github/workflows/ci.yml", want: ".github/workflows/ci.yml"},
		"gitignore is fine":       {in: ".gitignore", want: ".gitignore"},
		"absolute":                {in: "/etc/passwd", refused: true},
		"backslash absolute":      {in: `\etc\passwd`, refused: true},
		"climbing out":            {in: "../../etc/passwd", refused: true},
		"dotdot inside":           {in: "src/../README.md", refused: true},
		"trailing dotdot":         {in: "src/..", refused: true},
		"git dir":                 {in: ".git/config", refused: true},
		"git dir alone":           {in: ".git", refused: true},
		"nested git dir":          {in: "vendor/mod/.git/HEAD", refused: true},
		"git dir case":            {in: "a/.GIT/config", refused: true},
		"NUL byte":                {in: "README.md\x00.png", refused: true},
		"dotdot as part of names": {in: "a..b/..c", want: "a..b/..c"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := cleanPath(tt.in)
			if tt.refused {
				if !errors.Is(err, ErrRefused) {
					t.Fatalf("cleanPath(%q) = %q, %v; want a refusal", tt.in, got, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("cleanPath(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestRefusedFile(t *testing.T) {
	t.Parallel()
	tests := map[string]bool{
		".env": true, ".env.local": true, ".ENV.production": true, "server.pem": true,
		"tls.key": true, "id_rsa": true, "id_rsa.pub": true, "id_ed25519": true,
		"id_ecdsa": true, "cert.p12": true, "cert.pfx": true, ".npmrc": true,
		".netrc": true, ".pypirc": true, "credentials": true, "credentials.json": true,
		".git-credentials": true, ".git": true,
		".envrc": true, ".ENVRC": true, ".envrc.local": true, "prod.env": true, "app.ENV": true, "docker.env": true,
		"main.go": false, "env.go": false, "keys.go": false, "env": false, "environment.go": false, ".envoy.yaml": false, "dev.envsubst": false,
		"monkey.go": false, "README.md": false, ".gitignore": false,
		"credentials_test.go": false, "pem.go": false,
	}
	for name, want := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := refusedFile(name) != ""; got != want {
				t.Fatalf("refusedFile(%q) refused=%v, want %v", name, got, want)
			}
		})
	}
}

// FuzzCleanPath checks that whatever a model sends, an accepted path is
// local, clean, free of ".." and .git, and stable under cleaning again.
func FuzzCleanPath(f *testing.F) {
	for _, s := range []string{"", ".", "src/main.go", "../x", "/etc/passwd", "a/.git/b", "a//b/./c/", `..\..\x`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := cleanPath(in)
		if err != nil {
			if !errors.Is(err, ErrRefused) {
				t.Fatalf("cleanPath(%q) error %v is not a refusal", in, err)
			}
			return
		}
		if got != "." && !filepath.IsLocal(got) {
			t.Fatalf("cleanPath(%q) = %q, not local", in, got)
		}
		for _, c := range strings.Split(got, "/") {
			if c == "" || c == ".." || (c == "." && got != ".") || isGitDir(c) {
				t.Fatalf("cleanPath(%q) = %q has component %q", in, got, c)
			}
		}
		if strings.ContainsRune(got, 0) {
			t.Fatalf("cleanPath(%q) = %q has a NUL byte", in, got)
		}
		again, err := cleanPath(got)
		if err != nil || again != got {
			t.Fatalf("cleanPath(%q) = %q, but cleaning that gives %q, %v", in, got, again, err)
		}
	})
}

// TestResolveLinkToADirectoryItIsIn: a link whose target ends on "." or ".."
// names the directory reached, not the repository root.
func TestResolveLinkToADirectoryItIsIn(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"src/a.go":       "package a\n",
		"src/sub/b.go":   "package b\n",
		"src/here":       "->.",
		"src/sub/parent": "->..",
		"src/subup":      "->sub/..",
		"top":            "->src/..",
	})
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	tests := map[string]string{
		"src/here":         "src",
		"src/here/a.go":    "src/a.go",
		"src/sub/parent":   "src",
		"src/subup":        "src",
		"src/subup/sub":    "src/sub",
		"src/here/here":    "src",
		"top":              ".",
		"top/src/sub/b.go": "src/sub/b.go",
	}
	for in, want := range tests {
		t.Run(in, func(t *testing.T) {
			t.Parallel()
			real, _, err := w.resolve(in)
			if err != nil || real != want {
				t.Errorf("resolve(%q) = %q, %v; want %q", in, real, err, want)
			}
		})
	}
	l, err := w.List(t.Context(), "src/here", 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range l.Entries {
		got = append(got, e.Path)
	}
	if !slices.Contains(got, "src/here/a.go") || slices.Contains(got, "src/here/src") {
		t.Errorf("List(src/here) = %q, want src's entries", got)
	}
}
