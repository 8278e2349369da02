// Package precision measures how often the bot's findings are acted on in a
// repository: it derives each finding's final fate when its pull request
// closes, keeps the fates in an append-only, tamper-evident ledger in the
// learnings issue, and reads precision statistics and calibration advice
// from it. It is pure: values in, values out.
package precision

import (
	"path"
	"strings"
	"time"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/state"
)

// Categories is the fixed category set a finding's category is counted in:
// the model's categories and the failing-check findings' "check". Anything
// else (an older block, a tampered one) counts as CategoryOther, so the
// ledger's roll-up keys stay a small fixed set.
var Categories = []string{"bug", "security", "performance", "contract", "maintainability", "testing", "style", "check"}

// CategoryOther is where a category outside Categories is counted.
const CategoryOther = "other"

// Category returns c if it is one of Categories, else CategoryOther.
func Category(c string) string {
	for _, k := range Categories {
		if c == k {
			return c
		}
	}
	return CategoryOther
}

// FateOf is what became of f by the time its pull request closed: fixed
// when a fix was verified and still holds; accepted when the developer
// acknowledged it or deferred it, or the PR's author resolved a finding
// that does not block; rejected when the bot conceded it or a maintainer
// waived it or resolved it by hand; ignored when it was left open.
func FateOf(f state.Finding, prAuthor string) rmcoc.Fate {
	if f.Fixed() {
		return rmcoc.FateFixed
	}
	if f.WaivedBy != "" || f.ResolvedBy != nil {
		return rmcoc.FateRejected
	}
	if r := f.LastResolution; r != nil && !f.FixLost {
		switch r.Resolution {
		case rmcoc.ResolutionConcession:
			return rmcoc.FateRejected
		case rmcoc.ResolutionAcknowledged, rmcoc.ResolutionDeferred:
			return rmcoc.FateAccepted
		case rmcoc.ResolutionMaintained, rmcoc.ResolutionEscalated, rmcoc.ResolutionAnswered,
			rmcoc.ResolutionFixed, rmcoc.ResolutionReopened, rmcoc.ResolutionRegressed, rmcoc.ResolutionAccepted:
			// Fixed here is a fix that no longer holds; the others leave
			// the finding as open as it was.
		}
	}
	if f.Open() {
		return rmcoc.FateIgnored
	}
	// A thread resolved by hand with no word from the bot: the PR's author
	// resolving their own finding took it; anyone else set it aside.
	if by := f.Thread.ResolvedBy; by != nil && strings.EqualFold(by.Login, prAuthor) {
		return rmcoc.FateAccepted
	}
	return rmcoc.FateRejected
}

// KindOf is the kind of file at p (a path someone wrote: only its shape is
// read).
func KindOf(p string) rmcoc.FileKind {
	lower := strings.ToLower(p)
	base := path.Base(lower)
	switch {
	case strings.Contains(base, "_test.") || strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") ||
		strings.HasPrefix(base, "test_") || hasDir(lower, "test", "tests", "testdata", "__tests__"):
		return rmcoc.FileTest
	case hasDir(lower, "docs", "doc") || strings.HasSuffix(base, ".md") || strings.HasSuffix(base, ".rst") || strings.HasSuffix(base, ".txt"):
		return rmcoc.FileDocs
	}
	switch path.Ext(base) {
	case ".yml", ".yaml", ".json", ".toml", ".ini", ".cfg", ".conf", ".xml", ".lock", ".mod", ".sum":
		return rmcoc.FileConfig
	}
	if base == "dockerfile" || base == "makefile" {
		return rmcoc.FileConfig
	}
	return rmcoc.FileCode
}

func hasDir(p string, names ...string) bool {
	parts := strings.Split(p, "/")
	for _, d := range parts[:len(parts)-1] {
		for _, n := range names {
			if d == n {
				return true
			}
		}
	}
	return false
}

// PR is what an outcome entry needs of a closed pull request besides its
// findings.
type PR struct {
	Number   int
	Author   string
	Merged   bool
	Lines    int // changed lines: additions plus deletions
	ClosedAt time.Time
}

// Entry is the ledger entry of a closed pull request: every finding's fate
// in thread order. A finding whose block someone edited is left out: its
// score and category cannot be believed (Skipped counts them).
func Entry(pr PR, findings []state.Finding) (e rmcoc.PROutcome, skipped int) {
	e = rmcoc.PROutcome{PR: pr.Number, Merged: pr.Merged, Lines: max(0, pr.Lines), ClosedAt: pr.ClosedAt.UTC()}
	for _, f := range findings {
		if f.Tampered {
			skipped++
			continue
		}
		rec := rmcoc.FateRecord{Fate: FateOf(f, pr.Author), Score: min(10, max(0, f.Block.Score)), Pass: max(0, f.Block.Pass),
			Category: Category(f.Block.Category), Kind: KindOf(f.Block.Path), Blocking: f.Block.Blocking,
			Loop: f.Block.OnFix != "", OwnSuggestion: f.Block.OnFix != "" && f.Block.OnSuggestion}
		if rec.Fate == rmcoc.FateFixed && !f.Block.CreatedAt.IsZero() {
			rec.FixMinutes = max(0, int(f.LastResolution.ResolvedAt.Sub(f.Block.CreatedAt)/time.Minute))
		}
		e.Findings = append(e.Findings, rec)
	}
	return e, skipped
}
