// Package settings is the run's typed settings: what config reads from the
// inputs and .github/rmc.yml, and what the packages below the wiring
// receive whole (execution.Options embeds Run), so no setting is copied by
// hand on its way down and no package below the wiring imports config.
package settings

import "github.com/review-my-code-bot/rmc/review"

// Run are the settings a run's tasks read.
type Run struct {
	// Review are the review's settings: review.DefaultSettings, under the
	// inputs and the repository's file (thresholds, ignore_paths, passes,
	// max_inline_comments, max_run_tokens, max_review_retries,
	// model_context_tokens). The review engine takes them whole, and the
	// run's other model work keeps to their token ceiling.
	Review   review.Settings
	Language string // what the bot writes in; "" = English
	// ManualStartComment and ManualEndComment reply when a manual review
	// starts and ends.
	ManualStartComment, ManualEndComment bool
	NotifyAgent                          string // the PR's coding agent, e.g. "@claude"; "" = nobody
	// EnableHumanEscalation escalates disputes the bot cannot settle to
	// HumanReviewers.
	EnableHumanEscalation bool
	HumanReviewers        []string
	// WalkthroughDiagram lets the walkthrough carry a sequence diagram.
	WalkthroughDiagram bool
	// Checks are the repository's checks (base branch), evaluated by every
	// automatic review.
	Checks []review.Check
	// Calibrate is what the outcome ledger's stats may do to the review's
	// thresholds (calibrate).
	Calibrate Calibrate
}

// Calibrate is how the bot calibrates itself from its measured precision.
type Calibrate string

// Calibration modes: off; suggest (the default) shows in the stats which
// problem threshold per category the evidence supports; apply also raises
// it, for findings that do not block, and every review says so.
const (
	CalibrateOff     Calibrate = "off"
	CalibrateSuggest Calibrate = "suggest"
	CalibrateApply   Calibrate = "apply"
)
