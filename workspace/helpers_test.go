package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTree creates files under dir; a value starting with "->" makes a
// symlink with the rest as its target.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatalf("mkdir for %s: %v", name, err)
		}
		if target, ok := strings.CutPrefix(content, "->"); ok {
			if err := os.Symlink(target, p); err != nil {
				t.Fatalf("symlink %s -> %s: %v", name, target, err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatalf("write %s: %v", name, err)
		}
	}
}

// bigSize is the size of the fixture's large file: bigger than every cap.
const bigSize = 10 << 20

// fixture builds a repository tree with every kind of file the sandbox must
// serve or refuse, next to an "outside" directory that must stay out of
// reach, and opens it. Every refused file holds "SECRET"; nothing served may.
// big adds big.txt, larger than every cap.
func fixture(t testing.TB, big bool) *FS {
	t.Helper()
	tmp := t.TempDir()
	root := filepath.Join(tmp, "repo")
	writeTree(t, tmp, map[string]string{
		"outside/secret.txt": "SECRET outside\n",
	})
	writeTree(t, root, map[string]string{
		"README.md":                  "# Demo\nhello world\n",
		"src/main.go":                "package main\n\nfunc main() {\n\tprintln(\"Hello\")\n}\n",
		"src/util/helper.go":         "package util\n\n// Hello says hello.\nfunc Hello() string { return \"hello\" }\n",
		"crlf.txt":                   "one\r\ntwo\r\n",
		"empty.txt":                  "",
		"latin1.txt":                 "caf\xe9 au lait, cr\xe8me br\xfbl\xe9e and plenty of plain ascii text around it\n",
		"bin.dat":                    "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
		"noise.bin":                  "\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7",
		".git/config":                "[core]\n\tSECRET = 1\n",
		".git/HEAD":                  "ref: refs/heads/main\n",
		"vendor/mod/.git":            "gitdir: ../../.git/modules/mod\n",
		".env":                       "SECRET=1\n",
		".env.local":                 "SECRET=2\n",
		"config/.env.production":     "SECRET=3\n",
		".envrc":                     "export SECRET=4\n",
		"config/prod.env":            "SECRET=5\n",
		"certs/server.pem":           "SECRET pem\n",
		"deploy.KEY":                 "SECRET key\n",
		"id_rsa":                     "SECRET rsa\n",
		"id_ed25519.pub":             "SECRET pub\n",
		"store.p12":                  "SECRET p12\n",
		"store.pfx":                  "SECRET pfx\n",
		".npmrc":                     "SECRET npm\n",
		".netrc":                     "SECRET netrc\n",
		".pypirc":                    "SECRET pypi\n",
		"aws/credentials":            "SECRET aws\n",
		"credentials.json":           "SECRET json\n",
		"pkg/credentials/store.go":   "package credentials\n",
		"link-main":                  "->src/main.go",
		"link-src":                   "->src",
		"link-out":                   "->../outside",
		"link-out-file":              "->../outside/secret.txt",
		"link-abs":                   "->" + filepath.Join(tmp, "outside", "secret.txt"),
		"link-env":                   "->.env",
		"link-git":                   "->.git",
		"link-git-config":            "->.git/config",
		"link-loop":                  "->link-loop",
		"link-broken":                "->nowhere.txt",
		"src/util/link-up":           "->../../README.md",
		"src/util/link-escape":       "->../../../outside/secret.txt",
		"src/util/link-parent-chain": "->../../link-out",
	})
	if big {
		writeTree(t, root, map[string]string{"big.txt": strings.Repeat(strings.Repeat("x", 99)+"\n", bigSize/100)})
	}
	w, err := Open(root)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}
