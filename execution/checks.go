package execution

import (
	"context"
	"fmt"
	"strings"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/precision"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
	"github.com/review-my-code-bot/rmc/state"
)

// CategoryCheck is the category of a failing error check's finding: its
// re-evaluation is the check itself, never the model's fix check.
const CategoryCheck = "check"

// checks evaluates the repository's checks for an automatic review, in the
// review's session, against the whole pull request's diff. A failing error
// check becomes a blocking finding to post, unless its finding is already
// open (or a maintainer closed it); a passing one resolves its open
// finding. The results go in the review body and the job summary.
func (x *reviewRunner) checks(ctx context.Context, key string, rt *detector.ReviewTask, sc scope, res *review.Result) error {
	if rt.Mode != rmcoc.ModeAuto || len(x.Options.Checks) == 0 || res.Partial != nil {
		return nil
	}
	// The checks read the diff the review's scope lets through, never an
	// excluded or private file's.
	files, _ := x.sendable.Split(sc.anchor)
	results, err := review.EvaluateChecks(ctx, x.Session, x.Options.Checks, files, review.CheckOptions{Task: key,
		DiffChars: review.ChunkBudget(x.Options.Review.ContextTokens, x.Options.PrefixChars)})
	if err != nil {
		return err
	}
	res.Checks = results
	for _, r := range results {
		if r.Check.Mode != review.CheckError {
			continue
		}
		open := x.checkFinding(r.Check.Name)
		switch {
		case r.Verdict == review.CheckFail && r.Finding != nil && !x.known[r.Finding.Fingerprint]:
			res.Findings = append(res.Findings, *r.Finding)
		case r.Verdict == review.CheckPass && open != nil:
			text := fmt.Sprintf("✅ The `%s` check passes on `%.7s`: %s", sanitize.Name(r.Check.Name), rt.HeadSHA, x.fromModelLine(r.Reason))
			if err := x.fixes.resolveFinding(ctx, *open, rmcoc.ResolutionFixed, text, precision.Fix{}); err != nil {
				x.Log.Warningf("could not resolve the finding of the %s check, which passes now: %v", r.Check.Name, err)
			}
		}
	}
	return nil
}

// checkFinding is the open finding of a check, or nil.
func (x *reviewRunner) checkFinding(name string) *state.Finding {
	fp := review.CheckFingerprint(name)
	for i := range x.fixes.findings {
		if f := &x.fixes.findings[i]; f.Block.Fingerprint == fp && f.Open() && f.WaivedBy == "" {
			return f
		}
	}
	return nil
}

// checksTable is the review body's table of check results.
func (x *reviewRunner) checksTable(results []review.CheckResult) string {
	if len(results) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n\n### Checks\n\n| Check | Mode | Result | Why |\n|---|---|---|---|")
	for _, r := range results {
		why := x.fromModelLine(r.Reason)
		for _, l := range r.Locations {
			why += " " + sanitize.Code(l.String())
		}
		fmt.Fprintf(&b, "\n| %s | %s | %s | %s |", sanitize.Code(r.Check.Name), r.Check.Mode, VerdictLabel(r), strings.ReplaceAll(why, "|", "\\|"))
	}
	return b.String()
}

// VerdictLabel is a check result as the tables show it.
func VerdictLabel(r review.CheckResult) string {
	switch {
	case r.Verdict == review.CheckPass:
		return "✅ pass"
	case r.Verdict == review.CheckFail && r.Check.Mode == review.CheckError:
		return "❌ fail (holds the gate)"
	case r.Verdict == review.CheckFail:
		return "⚠️ fail"
	}
	return "❔ inconclusive"
}
