package inbox

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// PRRef names a pull request.
type PRRef struct {
	Repo   snapshot.Repo
	Number int
}

func (p PRRef) String() string { return p.Repo.String() + "#" + strconv.Itoa(p.Number) }

// ParsePR reads "owner/repo#12", or a pull request's URL on github.com.
func ParsePR(s string) (PRRef, error) {
	in := strings.TrimSpace(s)
	if u, err := url.Parse(in); err == nil && (u.Scheme == "https" || u.Scheme == "http") {
		parts := strings.Split(strings.Trim(u.Path, "/"), "/")
		if len(parts) >= 4 && parts[2] == "pull" {
			in = parts[0] + "/" + parts[1] + "#" + parts[3]
		}
	}
	repo, num, ok := strings.Cut(in, "#")
	r, okRepo := snapshot.ParseRepo(repo)
	n, err := strconv.Atoi(num)
	if !ok || !okRepo || err != nil || n <= 0 {
		return PRRef{}, fail("read pull request", "", ErrInvalidInput, fmt.Sprintf("%q is not a pull request: write owner/repo#123", s))
	}
	return PRRef{Repo: r, Number: n}, nil
}

// FindingPrefix starts the id of every GitHub finding in the inbox.
const FindingPrefix = "gh:"

// FindingRef names one bot finding on a pull request. Its string form,
// "gh:owner/repo#12:f-abc", is the finding's id in the inbox.
type FindingRef struct {
	PR        PRRef
	FindingID string // the id in the finding's rmcoc block
}

func (f FindingRef) String() string { return FindingPrefix + f.PR.String() + ":" + f.FindingID }

// IsFindingID reports whether id names a GitHub finding rather than a
// local review.
func IsFindingID(id string) bool { return strings.HasPrefix(id, FindingPrefix) }

// ParseFindingID reads "gh:owner/repo#12:f-abc".
func ParseFindingID(id string) (FindingRef, error) {
	rest, ok := strings.CutPrefix(id, FindingPrefix)
	pr, finding, cut := strings.Cut(rest, ":")
	if !ok || !cut || finding == "" {
		return FindingRef{}, fail("read finding id", id, ErrInvalidInput, "a GitHub finding's id looks like gh:owner/repo#12:f-abc")
	}
	ref, err := ParsePR(pr)
	if err != nil {
		return FindingRef{}, fail("read finding id", id, ErrInvalidInput, "a GitHub finding's id looks like gh:owner/repo#12:f-abc")
	}
	return FindingRef{PR: ref, FindingID: finding}, nil
}
