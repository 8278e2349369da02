package review

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/glob"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/prompts"
)

// CheckMode says what a failing check does.
type CheckMode string

const (
	// CheckError: a failing check holds the merge gate like a blocking
	// finding, in a thread of its own.
	CheckError CheckMode = "error"
	// CheckWarning: a failing check is reported and holds nothing.
	CheckWarning CheckMode = "warning"
)

// Check is a check a repository writes in plain language (checks in
// .github/rmc.yml on the base branch): every automatic review evaluates it
// against the pull request's diff.
type Check struct {
	Name         string
	Instructions string
	Mode         CheckMode
	// Paths limits the check to the changed files matching one of these
	// globs (ignore_paths' rules); empty means every file.
	Paths []string
}

// Verdict is a check's result.
type Verdict string

const (
	CheckPass         Verdict = "pass"
	CheckFail         Verdict = "fail"
	CheckInconclusive Verdict = "inconclusive"
)

// Location is a place a check result points at.
type Location struct {
	Path string `json:"path" jsonschema:"file path as in the diff header"`
	Line int    `json:"line" jsonschema:"line number on the new side (R…), or 0 for the whole file"`
}

// CheckResult is one check's evaluation.
type CheckResult struct {
	Check     Check
	Verdict   Verdict
	Reason    string
	Locations []Location
	// Finding is, for a failing error check, the blocking finding that
	// carries it: anchored in the diff, fingerprinted by the check's name.
	Finding *Finding
}

// CheckFingerprint is the stable fingerprint of a check's finding: the
// same check failing on a later push is the same finding.
func CheckFingerprint(name string) string {
	h := sha256.Sum256([]byte("check\x00" + normalize(name)))
	return hex.EncodeToString(h[:])[:16]
}

// checksAnswer is the model's evaluation of the checks.
type checksAnswer struct {
	Results checkAnswerList `json:"results"`
}

func (checksAnswer) SchemaName() string { return "check_results" }

type checkAnswerList []checkAnswer

func (checkAnswerList) JSONSchema() *jsonschema.Schema { return llm.ArrayOf[checkAnswer]() }

type checkAnswer struct {
	Name      string       `json:"name" jsonschema:"the check's name, as given"`
	Result    verdict      `json:"result"`
	Reason    string       `json:"reason" jsonschema:"one or two sentences a developer can verify"`
	Locations locationList `json:"locations"`
}

type verdict string

func (verdict) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Enum: []any{string(CheckPass), string(CheckFail), string(CheckInconclusive)}}
}

type locationList []Location

func (locationList) JSONSchema() *jsonschema.Schema { return llm.ArrayOf[Location]() }

// CheckOptions tune an evaluation.
type CheckOptions struct {
	Task      string // the plan task's key, for the usage
	DiffChars int    // bound on the diff the prompt carries; 0 = 60,000
}

// EvaluateChecks evaluates the checks against the diff in one model call.
// A check whose paths match no changed file passes without one; a check
// the model gives no verdict on is inconclusive. A failing error check
// gets its blocking finding.
func EvaluateChecks(ctx context.Context, s llm.JSONAsker, checks []Check, files []diff.File, opt CheckOptions) ([]CheckResult, error) {
	out := make([]CheckResult, len(checks))
	var ask []prompts.CheckPrompt
	applies := map[string]bool{}
	for i, c := range checks {
		out[i] = CheckResult{Check: c, Verdict: CheckPass, Reason: "no changed file matches its paths"}
		matched := matching(c, files)
		if len(matched) == 0 {
			continue
		}
		out[i].Verdict, out[i].Reason = CheckInconclusive, "the model gave no verdict"
		ask = append(ask, prompts.CheckPrompt{Name: c.Name, Instructions: c.Instructions, Files: paths(matched)})
		for _, f := range matched {
			applies[f.Path()] = true
		}
	}
	if len(ask) == 0 {
		return out, nil
	}
	text, truncated := checkDiff(files, applies, opt.DiffChars)
	prompt, err := prompts.Checks(prompts.ChecksData{Checks: ask, Diff: text, Truncated: truncated})
	if err != nil {
		return nil, err
	}
	ans, _, err := llm.AskJSON[checksAnswer](ctx, s, llm.Label{Task: opt.Task, Step: "checks"}, prompt)
	if err != nil {
		return nil, fmt.Errorf("evaluate the checks: %w", err)
	}
	byPath := map[string]*diff.File{}
	for i := range files {
		byPath[files[i].Path()] = &files[i]
	}
	for i := range out {
		if !slices.ContainsFunc(ask, func(p prompts.CheckPrompt) bool { return p.Name == out[i].Check.Name }) {
			continue
		}
		for _, a := range ans.Results {
			if strings.EqualFold(strings.TrimSpace(a.Name), out[i].Check.Name) {
				out[i].Verdict, out[i].Reason, out[i].Locations = Verdict(a.Result), strings.TrimSpace(a.Reason), inDiff(a.Locations, byPath)
				break
			}
		}
		if out[i].Verdict == CheckFail && out[i].Check.Mode == CheckError {
			out[i].Finding = checkFinding(out[i], matching(out[i].Check, files), byPath)
		}
	}
	return out, nil
}

// matching are the changed files a check applies to.
func matching(c Check, files []diff.File) []diff.File {
	if len(c.Paths) == 0 {
		return files
	}
	set, err := glob.CompileAll(c.Paths)
	if err != nil {
		return nil // the config reported it and stopped the run
	}
	var out []diff.File
	for _, f := range files {
		if set.Match(f.Path()) {
			out = append(out, f)
		}
	}
	return out
}

func paths(files []diff.File) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Path()
	}
	return out
}

// checkDiff renders the files some check applies to, numbered as the
// review's chunks are, up to max characters.
func checkDiff(files []diff.File, applies map[string]bool, max int) (string, bool) {
	if max <= 0 {
		max = 60000
	}
	var b bytes.Buffer
	truncated := false
	for i := range files {
		f := &files[i]
		if !applies[f.Path()] {
			continue
		}
		var one bytes.Buffer
		render(&one, f, f.Hunks)
		if b.Len()+one.Len() > max {
			truncated = true
			continue
		}
		b.Write(one.Bytes())
	}
	return b.String(), truncated
}

// checkFinding is the blocking finding of a failing error check, on the
// first location the model named that the diff holds, else on the first
// line the check's files add or change.
func checkFinding(r CheckResult, files []diff.File, byPath map[string]*diff.File) *Finding {
	f := Finding{Title: "Check failed: " + r.Check.Name, Explanation: checkExplanation(r), Score: 10, Category: "check",
		Blocking: true, Side: diff.Right, Fingerprint: CheckFingerprint(r.Check.Name)}
	for _, l := range r.Locations {
		if file := byPath[l.Path]; file != nil && l.Line > 0 {
			f.Path, f.Line = l.Path, l.Line
			break
		}
	}
	for _, side := range []diff.Side{diff.Right, diff.Left} {
		for _, file := range files {
			if f.Path != "" {
				break
			}
			if n, ok := file.Nearest(side, 1); ok {
				f.Path, f.Line, f.Side = file.Path(), n, side
			}
		}
	}
	fs := []Finding{f}
	anchor(fs, byPath, 1)
	return &fs[0]
}

func checkExplanation(r CheckResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\nThis is the repository's `%s` check (mode `error`): it holds the merge gate until a push makes it pass. Reply here to dispute it; a maintainer can resolve it.", r.Reason, r.Check.Name)
	if len(r.Locations) > 0 {
		b.WriteString("\n\nWhere:")
		for _, l := range r.Locations {
			fmt.Fprintf(&b, "\n- %s", l)
		}
	}
	return b.String()
}

// String is "path:line", or the path for a whole file.
func (l Location) String() string {
	if l.Line > 0 {
		return fmt.Sprintf("%s:%d", l.Path, l.Line)
	}
	return l.Path
}

// inDiff keeps the locations in the pull request's changed files: a path
// the model made up is not shown.
func inDiff(ls []Location, byPath map[string]*diff.File) []Location {
	var out []Location
	for _, l := range ls {
		if byPath[l.Path] != nil && l.Line >= 0 {
			out = append(out, l)
		}
	}
	return out
}
