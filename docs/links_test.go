package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// pages are the documents a reader moves between: the README, the pages of
// docs/ and the policy files they link to.
func pages(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("*.md")
	if err != nil || len(docs) < 10 {
		t.Fatalf("docs/ has %d pages (%v), want the README's split into pages", len(docs), err)
	}
	return append([]string{"../README.md", "../SECURITY.md", "../CHANGELOG.md"}, docs...)
}

var (
	mdLink  = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *$`)
)

// outsideFences is text with its fenced code blocks blanked, so a link or
// a heading shown as code is not read as one.
func outsideFences(text string) string {
	var b strings.Builder
	fence := false
	for line := range strings.SplitAfterSeq(text, "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " "), "```") {
			fence = !fence
			b.WriteString("\n")
			continue
		}
		if fence {
			b.WriteString("\n")
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}

// anchor is the id GitHub gives a heading: lowercase, punctuation other
// than - and _ dropped, spaces as hyphens.
func anchor(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func anchors(t *testing.T, path string) map[string]bool {
	t.Helper()
	ids := map[string]bool{}
	for _, m := range heading.FindAllStringSubmatch(outsideFences(readFile(t, path)), -1) {
		ids[anchor(m[1])] = true
	}
	return ids
}

// Every link between the README and the pages of docs/ reaches a file that
// exists, and every #fragment a heading of that file: moving a section
// cannot leave a link behind.
func TestDocLinksResolve(t *testing.T) {
	t.Parallel()
	checked := 0
	for _, page := range pages(t) {
		for _, m := range mdLink.FindAllStringSubmatch(outsideFences(readFile(t, page)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), file)
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s links to %s, which does not exist", page, target)
				continue
			}
			if frag != "" && strings.HasSuffix(path, ".md") && !anchors(t, path)[frag] {
				t.Errorf("%s links to %s: %s has no heading #%s", page, target, path, frag)
			}
			checked++
		}
	}
	if checked < 30 {
		t.Errorf("checked %d links: the test no longer finds them", checked)
	}
}

func TestAnchor(t *testing.T) {
	t.Parallel()
	for title, want := range map[string]string{
		"Public repositories: pull requests from forks": "public-repositories-pull-requests-from-forks",
		"Configuration file (`.github/rmc.yml`)":        "configuration-file-githubrmcyml",
		"`ignore_paths` patterns":                       "ignore_paths-patterns",
		"Measure review quality: `bench`":               "measure-review-quality-bench",
	} {
		if got := anchor(title); got != want {
			t.Errorf("anchor(%q) = %q, want %q", title, got, want)
		}
	}
}
