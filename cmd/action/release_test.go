package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Pinning the action pins the code: action.yml names one exact image
// version, never a tag that moves (":v1", ":latest").
func TestReleaseActionPinsAnExactImage(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(`(?m)^runs:\n  using: docker\n  image: docker://ghcr\.io/review-my-code-bot/rmc:\d+\.\d+\.\d+\n?\z`)
	if yml := readFile(t, "../../action.yml"); !re.MatchString(yml) {
		t.Errorf("action.yml must end with runs: using docker, image docker://ghcr.io/review-my-code-bot/rmc:MAJOR.MINOR.PATCH:\n%s", yml[strings.LastIndex(yml, "runs:"):])
	}
}

// CI (setup-go reads go.mod) and the image build with one Go: the Dockerfile
// pins the Go image to go.mod's toolchain version.
func TestReleaseOneGoVersion(t *testing.T) {
	t.Parallel()
	toolchain := regexp.MustCompile(`(?m)^toolchain go(\d+\.\d+\.\d+)$`).FindStringSubmatch(readFile(t, "../../go.mod"))
	if toolchain == nil {
		t.Fatal("go.mod has no toolchain line (toolchain goX.Y.Z)")
	}
	from := regexp.MustCompile(`(?m)^FROM (?:--platform=\S+ )?golang:(\S+?)(?:-\w+)?(?: AS \w+)?$`).FindStringSubmatch(readFile(t, "../../Dockerfile"))
	if from == nil || from[1] != toolchain[1] {
		t.Errorf("Dockerfile builds with golang:%v, go.mod's toolchain is go%s", from, toolchain[1])
	}
}

// GHCR links an image to its repository through the OCI source label, and
// shows its description and licence.
func TestReleaseImageLabels(t *testing.T) {
	t.Parallel()
	df := readFile(t, "../../Dockerfile")
	for _, label := range []string{"org.opencontainers.image.source=", "org.opencontainers.image.description=", "org.opencontainers.image.licenses="} {
		if !strings.Contains(df, label) {
			t.Errorf("Dockerfile lacks the label %s", label)
		}
	}
	rel := readFile(t, "../../.github/workflows/release.yml")
	for _, want := range []string{"platforms: linux/amd64,linux/arm64", "scripts/pin-image.sh", "SOURCE=${{ github.server_url }}/${{ github.repository }}"} {
		if !strings.Contains(rel, want) {
			t.Errorf("release workflow lacks %q", want)
		}
	}
}

// The release workflow rewrites action.yml's image line, and only it.
func TestReleasePinScript(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	orig := readFile(t, "../../action.yml")
	dir := t.TempDir()
	file := filepath.Join(dir, "action.yml")
	if err := os.WriteFile(file, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	script, _ := filepath.Abs("../../scripts/pin-image.sh")
	out, err := exec.Command("bash", script, "ghcr.io/some-fork/rmc", "2.10.3", file).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got := readFile(t, file)
	want := regexp.MustCompile(`(?m)^  image: .*$`).ReplaceAllString(orig, "  image: docker://ghcr.io/some-fork/rmc:2.10.3")
	if got != want {
		t.Errorf("pinned action.yml:\n%s", got[strings.LastIndex(got, "runs:"):])
	}
	for _, bad := range [][]string{{"ghcr.io/o/r", "v2.10.3"}, {"ghcr.io/o/r", "2.10"}, {"ghcr.io/O/R", "2.10.3"}, {"ghcr.io/o/r;rm -rf /", "1.0.0"}} {
		if out, err := exec.Command("bash", script, bad[0], bad[1], file).CombinedOutput(); err == nil {
			t.Errorf("pin-image.sh accepted %q %q:\n%s", bad[0], bad[1], out)
		}
	}
}
