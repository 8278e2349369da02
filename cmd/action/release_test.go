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

// A workflow that uses the action from a branch (`@main`) runs that
// branch's code: the runner builds the image from the Dockerfile. Only a
// release commit names a published image (TestReleasePinScript).
func TestReleaseBranchBuildsFromSource(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(`(?m)^runs:\n  using: docker\n  image: Dockerfile\n?\z`)
	if yml := readFile(t, "../../action.yml"); !re.MatchString(yml) {
		t.Errorf("action.yml on a branch must end with runs: using docker, image Dockerfile:\n%s", yml[strings.LastIndex(yml, "runs:"):])
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
	from := regexp.MustCompile(`(?m)^FROM (?:--platform=\S+ )?golang:(\d+\.\d+\.\d+)-\w+(?:@sha256:[0-9a-f]{64})? AS build$`).FindStringSubmatch(readFile(t, "../../Dockerfile"))
	if from == nil || from[1] != toolchain[1] {
		t.Errorf("Dockerfile builds with golang:%v, go.mod's toolchain is go%s", from, toolchain[1])
	}
}

// GHCR links an image to its repository through the OCI source label, and
// shows its description and licence.
func TestReleaseImageLabels(t *testing.T) {
	t.Parallel()
	df := readFile(t, "../../Dockerfile")
	for _, label := range []string{"org.opencontainers.image.source=", "org.opencontainers.image.description=", `org.opencontainers.image.licenses="Apache-2.0"`} {
		if !strings.Contains(df, label) {
			t.Errorf("Dockerfile lacks the label %s", label)
		}
	}
	if lic := readFile(t, "../../LICENSE"); !strings.Contains(lic, "Apache License\n                           Version 2.0, January 2004") {
		t.Error("LICENSE is not the Apache License 2.0 the image label names")
	}
	rel := readFile(t, "../../.github/workflows/release.yml")
	for _, want := range []string{"platforms: linux/amd64,linux/arm64", `scripts/pin-image.sh "$IMAGE" "$DIGEST"`, "DIGEST: ${{ steps.build.outputs.digest }}",
		"SOURCE=${{ github.server_url }}/${{ github.repository }}",
		"scripts/pin-builder.sh"} {
		if !strings.Contains(rel, want) {
			t.Errorf("release workflow lacks %q", want)
		}
	}
}

// The release workflow rewrites action.yml's image line to the pushed
// image's digest, and only that line; anything else is refused.
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
	digest := "sha256:" + strings.Repeat("0123456789abcdef", 4)
	out, err := exec.Command("bash", script, "ghcr.io/some-fork/rmc", digest, file).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got := readFile(t, file)
	want := strings.Replace(orig, "\n  image: Dockerfile\n", "\n  image: docker://ghcr.io/some-fork/rmc@"+digest+"\n", 1)
	if got != want || want == orig {
		t.Errorf("pinned action.yml:\n%s", got[strings.LastIndex(got, "runs:"):])
	}
	for name, bad := range map[string][]string{
		"a tag, not a digest":  {"ghcr.io/o/r", "1.4.2"},
		"short digest":         {"ghcr.io/o/r", "sha256:0123"},
		"upper-case digest":    {"ghcr.io/o/r", "sha256:" + strings.Repeat("0123456789ABCDEF", 4)},
		"other algorithm":      {"ghcr.io/o/r", "sha512:" + strings.Repeat("0123456789abcdef", 4)},
		"upper-case image":     {"ghcr.io/O/R", digest},
		"shell in the image":   {"ghcr.io/o/r;rm -rf /", digest},
		"sed syntax in digest": {"ghcr.io/o/r", digest + "#"},
	} {
		if out, err := exec.Command("bash", script, bad[0], bad[1], file).CombinedOutput(); err == nil {
			t.Errorf("%s: pin-image.sh accepted %q %q:\n%s", name, bad[0], bad[1], out)
		}
	}
}

// The Go builder is pinned by digest with scripts/pin-builder.sh: it
// rewrites the build stage's FROM line, and only that line, to the tag
// plus the digest, replaces an earlier digest, and refuses anything else.
func TestReleasePinBuilderScript(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	orig := readFile(t, "../../Dockerfile")
	from := regexp.MustCompile(`(?m)^FROM --platform=\$BUILDPLATFORM (golang:\S+?)(?:@sha256:[0-9a-f]{64})? AS build$`)
	m := from.FindStringSubmatch(orig)
	if m == nil {
		t.Fatal("the Dockerfile has no build stage FROM golang:… AS build")
	}
	file := filepath.Join(t.TempDir(), "Dockerfile")
	if err := os.WriteFile(file, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	script, _ := filepath.Abs("../../scripts/pin-builder.sh")
	for _, digest := range []string{"sha256:" + strings.Repeat("0123456789abcdef", 4), "sha256:" + strings.Repeat("fedcba9876543210", 4)} {
		if out, err := exec.Command("bash", script, digest, file).CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		want := from.ReplaceAllString(orig, "FROM --platform=$$BUILDPLATFORM "+m[1]+"@"+digest+" AS build")
		if got := readFile(t, file); got != want || want == orig {
			t.Errorf("pinned with %s, the Dockerfile's build stage is:\n%s", digest, from.FindString(got))
		}
	}
	for name, bad := range map[string]string{
		"a tag, not a digest":  "1.26.8",
		"short digest":         "sha256:0123",
		"upper-case digest":    "sha256:" + strings.Repeat("0123456789ABCDEF", 4),
		"sed syntax in digest": "sha256:" + strings.Repeat("0123456789abcdef", 4) + "#",
	} {
		if err := os.WriteFile(file, []byte(orig), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("bash", script, bad, file).CombinedOutput(); err == nil {
			t.Errorf("%s: pin-builder.sh accepted %q:\n%s", name, bad, out)
		}
		if readFile(t, file) != orig {
			t.Errorf("%s: pin-builder.sh refused %q but changed the Dockerfile", name, bad)
		}
	}
}
