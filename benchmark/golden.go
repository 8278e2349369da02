// Package benchmark scores the review engine against pull requests whose real
// problems are known: it runs the same engine the action runs (its passes,
// prompts, thresholds, chunking and deduplication) on each PR of a set, and
// then follows the open Code Review Bench's offline pipeline
// (withmartian/code-review-benchmark, offline/): a judge model extracts the
// single issues from the review's comments (step 2), compares every golden
// comment with every issue at temperature 0 (step 3), and a candidate
// counts only when it raises a golden comment's best confidence. It reports
// precision, recall, F1 and F2 pooled over the PRs, and false alarms on PRs
// with no known problem.
//
// The data flows set → engine → extraction → judge → score → report.
// Scoring is pure (score.go); the judge is a small interface with a model
// behind it (judge.go) and prompts that come with the set (method.go: the
// crb set's are read from upstream's pipeline at the pinned commit); sets
// are the local one embedded here and the public one read through the
// GitHub API and cached on disk (crb.go); each PR's result is kept by PR,
// model and settings (cache.go), so a run resumes.
package benchmark

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// GoldenPR is one pull request of a golden_comments/*.json file, in the
// public set's format.
type GoldenPR struct {
	Title    string   `json:"pr_title"`
	URL      string   `json:"url"`
	Comments []Golden `json:"comments"`
	// The public set's notes: the PR it was forked from and the curators'
	// remarks. Read so that they are not refused; scoring ignores them.
	OriginalURL string `json:"original_url,omitempty"`
	Note        string `json:"az_comment,omitempty"`
}

// Golden is a problem a person verified in the PR.
type Golden struct {
	Comment  string `json:"comment"`
	Severity string `json:"severity"`
	// Category is one of Categories; the public set's older revisions have
	// none, and an uncategorized comment counts under every profile.
	Category string `json:"category,omitempty"`
}

// Severities are the public set's severity labels.
var Severities = []string{"Low", "Medium", "High", "Critical"}

// Categories are the public set's categories.
var Categories = []string{"bug", "security", "concurrency", "data", "api", "perf", "test_gap", "doc_defect", "style", "speculative"}

// ParseGolden reads one golden_comments file. It is strict about what
// scoring depends on (a PR URL, comment text, known severities and
// categories) and names the file and entry of the first problem.
func ParseGolden(name string, data []byte) ([]GoldenPR, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var prs []GoldenPR
	if err := dec.Decode(&prs); err != nil {
		return nil, fmt.Errorf("golden comments %s: %w", name, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("golden comments %s: extra data after the JSON array", name)
	}
	seen := map[string]bool{}
	for i, pr := range prs {
		where := fmt.Sprintf("golden comments %s, entry %d (%q)", name, i+1, pr.URL)
		if _, err := ParsePRURL(pr.URL); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		if seen[pr.URL] {
			return nil, fmt.Errorf("%s: the PR is listed twice", where)
		}
		seen[pr.URL] = true
		texts := map[string]bool{}
		for j, c := range pr.Comments {
			switch {
			case texts[c.Comment]:
				// Upstream keys golden comments by their text: a repeat
				// would be one comment there and two here.
				return nil, fmt.Errorf("%s, comment %d: the comment is listed twice in the PR", where, j+1)
			case strings.TrimSpace(c.Comment) == "":
				return nil, fmt.Errorf("%s, comment %d: empty comment", where, j+1)
			case !known(Severities, c.Severity):
				return nil, fmt.Errorf("%s, comment %d: severity %q is not one of %s", where, j+1, c.Severity, strings.Join(Severities, ", "))
			case c.Category != "" && !known(Categories, c.Category):
				return nil, fmt.Errorf("%s, comment %d: category %q is not one of %s", where, j+1, c.Category, strings.Join(Categories, ", "))
			}
			texts[c.Comment] = true
		}
	}
	return prs, nil
}

func known(list []string, v string) bool {
	for _, s := range list {
		if s == v {
			return true
		}
	}
	return false
}

// PRRef names a pull request: owner/name#number. The local set's owner is
// "local".
type PRRef struct {
	Owner, Name string
	Number      int
}

func (r PRRef) String() string { return fmt.Sprintf("%s/%s#%d", r.Owner, r.Name, r.Number) }

// prURL accepts GitHub's PR URLs and the local set's "local/repo/pull/N".
var prURL = regexp.MustCompile(`^(?:https://github\.com/)?([A-Za-z0-9][A-Za-z0-9-]{0,38})/([A-Za-z0-9._-]{1,100})/pull/([1-9][0-9]{0,8})$`)

// ParsePRURL reads a PR URL of a golden file.
func ParsePRURL(u string) (PRRef, error) {
	m := prURL.FindStringSubmatch(u)
	if m == nil || m[2] == "." || m[2] == ".." {
		return PRRef{}, fmt.Errorf("%q is not a pull request URL (https://github.com/OWNER/REPO/pull/N)", u)
	}
	n, _ := strconv.Atoi(m[3])
	return PRRef{Owner: m[1], Name: m[2], Number: n}, nil
}
