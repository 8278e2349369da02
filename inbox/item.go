package inbox

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Sources of items.
const (
	SourceLocal  = "local"
	SourceGitHub = "github"
)

// Item is one entry of the inbox, local review or GitHub finding alike, as
// listings show it.
type Item struct {
	ID           string     `json:"id"`
	Source       string     `json:"source"`
	Status       Status     `json:"status"`
	Summary      string     `json:"summary"`
	CreatedAt    time.Time  `json:"createdAt"`
	UpdatedAt    time.Time  `json:"updatedAt"`
	SubmittedAt  *time.Time `json:"submittedAt,omitempty"`
	ResolvedAt   *time.Time `json:"resolvedAt,omitempty"`
	Files        []string   `json:"files,omitempty"`
	CommentCount int        `json:"commentCount"`
	ClaimedBy    string     `json:"claimedBy,omitempty"`
	ClaimedAt    *time.Time `json:"claimedAt,omitempty"`
	ClaimExpires *time.Time `json:"claimExpiresAt,omitempty"`
	Note         string     `json:"note,omitempty"` // the resolution note
	ResolvedBy   string     `json:"resolvedBy,omitempty"`
	// Forced is set when ResolvedBy resolved it over ClaimedBy's claim.
	Forced   bool   `json:"forced,omitempty"`
	URL      string `json:"url,omitempty"`
	Root     string `json:"root,omitempty"` // local: the repository
	Branch   string `json:"branch,omitempty"`
	Commit   string `json:"commit,omitempty"`
	PR       string `json:"pr,omitempty"` // GitHub: owner/repo#N
	Blocking bool   `json:"blocking,omitempty"`
	Score    int    `json:"score,omitempty"`
}

// localItem describes a local review.
func localItem(r Record) Item {
	it := Item{ID: r.ID, Source: SourceLocal, Status: r.Status, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		SubmittedAt: r.SubmittedAt, ResolvedAt: r.ResolvedAt}
	if q := r.Request; q != nil {
		it.Files, it.Root, it.Branch, it.Commit = q.Files, q.Root, q.Branch, q.Commit
		if q.Server != "" {
			it.URL = PageURL(q.Server, r.ID, q.Token)
		}
		it.Summary = fmt.Sprintf("%d %s", len(q.Files), plural(len(q.Files), "file", "files"))
		if q.Root != "" {
			it.Summary += " in " + q.Root
		}
		if m := oneLine(q.Message); m != "" {
			it.Summary += ": " + m
		}
	}
	if r.ResultSummary != nil {
		it.CommentCount = r.ResultSummary.CommentCount
	}
	claimOf(&it, r)
	return it
}

// PageURL is where the page server at base shows the review with id; the
// server's token, when given, lets the person in. It rides in the URL's
// fragment, which the browser keeps to the page and never sends.
func PageURL(base, id, token string) string {
	u := strings.TrimSuffix(base, "/") + "/review/" + id
	if token != "" {
		u += "#token=" + url.QueryEscape(token)
	}
	return u
}

func claimOf(it *Item, r Record) {
	if r.Claim != nil && (r.Status == StatusClaimed || r.Status == StatusResolved) {
		at := r.Claim.ClaimedAt
		it.ClaimedBy, it.ClaimedAt = r.Claim.ClaimedBy, &at
	}
	if r.Resolution != nil {
		it.Note, it.ResolvedBy, it.Forced = r.Resolution.Note, r.Resolution.ResolvedBy, r.Resolution.Forced
	}
}

// githubClaimItem describes a claimed GitHub finding from its local claim
// record alone, for listings that do not ask GitHub.
func githubClaimItem(r Record) Item {
	it := Item{ID: r.ID, Source: SourceGitHub, Status: r.Status, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		SubmittedAt: &r.CreatedAt, ResolvedAt: r.ResolvedAt, CommentCount: 1}
	if g := r.GitHub; g != nil {
		it.PR = fmt.Sprintf("%s#%d", g.Repo, g.Number)
		it.Summary = findingSummary(g.Title, g.Path, g.Line)
		if g.Path != "" {
			it.Files = []string{g.Path}
		}
	}
	claimOf(&it, r)
	return it
}

func findingSummary(title, path string, line int) string {
	s := oneLine(title)
	if path != "" {
		where := path
		if line > 0 {
			where = fmt.Sprintf("%s:%d", path, line)
		}
		s = strings.TrimSpace(s + " (" + where + ")")
	}
	return s
}

// sortItems puts the newest submission first; items not yet submitted
// sort by when they were asked for.
func sortItems(items []Item) {
	when := func(it Item) time.Time {
		if it.SubmittedAt != nil {
			return *it.SubmittedAt
		}
		return it.CreatedAt
	}
	slices.SortStableFunc(items, func(a, b Item) int {
		if c := when(b).Compare(when(a)); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
}

// ListStatuses are the values ListOptions.Status takes.
var ListStatuses = []string{"open", "submitted", "claimed", "resolved", "cancelled", "all"}

// matches reports whether it passes the filter.
func (o ListOptions) matches(it Item) bool {
	if o.Status != "all" && string(it.Status) != o.Status {
		return false
	}
	return o.ClaimedBy == "" || it.ClaimedBy == o.ClaimedBy
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
