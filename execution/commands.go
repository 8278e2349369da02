package execution

import (
	"context"
	"fmt"
	"time"

	"github.com/review-my-code-bot/rmc/precision"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
	"github.com/review-my-code-bot/rmc/settings"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// commandLease is how long a claim on a command holds: answering one
// takes no model call, so a run that claimed it and did not answer within
// this is dead, and the next run answers it.
const commandLease = 2 * time.Minute

// answerCommand answers a command once, as its registered spec says: the
// reply holds the block that says it was answered. What the command did (a
// pause, a resolve's waivers) the state already says, from the command's
// own comment; the answer only reports it. Someone its Who does not allow
// gets the spec's refusal, and an edited command does not count.
func (r *run) answerCommand(ctx context.Context, m state.Mention) error {
	spec, ok := state.LookupCommand(m.Command)
	if !ok {
		return fmt.Errorf("answer command %q of comment %d: no such command", m.Command, m.Ref.ID)
	}
	// The claim (the bot's 👀 on the command) acknowledges it at once, and
	// keeps two overlapping runs from answering it twice.
	if held, why := r.claim(ctx, r.GitHub, commandLease, snapshot.Subject{ID: m.Ref.ID}); held {
		r.Log.Infof("@%s's %s command: %s", m.Author.Login, m.Command, why)
		return nil
	}
	by := "@" + sanitize.Name(m.Author.Login)
	var a state.Answer
	switch {
	case m.Edited:
		a = state.Answer{Result: rmcoc.CommandNotAllowed,
			Text: fmt.Sprintf("🔒 %s: someone else edited this command's comment, so it does not count. Post it again as a new comment.", by)}
	case !m.Allowed:
		a = spec.Refusal(by)
	default:
		a = spec.Answer(state.Answering{Mention: m, By: by, State: r.State, HeadSHA: r.Snap.PR.HeadSHA, Settings: r.Options.Settings, ModelLine: r.fromModelLine, Stats: StatsTable(r.Options.Learnings, r.Options.Run)})
	}
	var block rmcoc.Block = rmcoc.CommandAnswer{CommandCommentID: rmcoc.ID(m.Ref.ID), Command: string(m.Command), By: m.Author.Login, Result: a.Result, FindingIDs: a.FindingIDs, Cuts: a.Cuts, At: r.now()}
	if spec.Record != nil {
		block = spec.Record(m, a, r.now())
	}
	body := r.compose(a.Text, r.ledger.link(block))
	posted, err := r.GitHub.CreateComment(ctx, r.repo(), r.number(), body)
	if err != nil {
		return fmt.Errorf("answer @%s's %s command (comment %d): %w", m.Author.Login, m.Command, m.Ref.ID, err)
	}
	r.ledger.wrote(rmcoc.HolderComment, posted.ID, body)
	return nil
}

// StatsWindow is how many of the latest closed pull requests the stats
// show beside all time.
const StatsWindow = 20

// StatsTable is the precision table of the outcome ledger in ls, with what
// its chain check found and, unless calibration is off, the thresholds the
// evidence supports; "" when there is no ledger to read.
func StatsTable(ls state.Learnings, run settings.Run) string {
	if ls.Issue == 0 || ls.Off {
		return ""
	}
	l := precision.Read(ls.Outcomes)
	stats := precision.Compute(l.View(), StatsWindow)
	text := precision.Table(stats)
	for _, p := range l.Problems {
		text += "\n⚠️ " + p
	}
	if run.Calibrate == settings.CalibrateOff {
		return text
	}
	p := calibrationPolicy(run.Review)
	if s := precision.SuggestText(precision.Suggest(stats.AllTime, p)); s != "" {
		text += fmt.Sprintf("\n**Calibration** (`calibrate: %s`): thresholds the evidence supports, from all time\n\n%s", run.Calibrate, s)
	}
	if raised := precision.Apply(stats.AllTime, p); run.Calibrate == settings.CalibrateApply && len(raised) > 0 {
		text += "\n" + precision.AppliedText(raised, p) + "\n"
	}
	return text
}

// Calibration's floor and evidence: a category's problem threshold is
// raised when under CalibrationFloor percent of at least
// CalibrationMinCount of its findings (acted on or rejected) were acted on.
const (
	CalibrationFloor    = 30
	CalibrationMinCount = 20
)

func calibrationPolicy(s review.Settings) precision.Policy {
	return precision.Policy{Problem: s.ProblemThreshold, Blocking: s.BlockingThreshold, Floor: CalibrationFloor, MinCount: CalibrationMinCount}
}

// Calibration is, with calibrate: apply, the problem thresholds the
// outcome ledger's all-time stats raise and what a review body says of
// them; nil and "" otherwise.
func Calibration(ls state.Learnings, run settings.Run) (map[string]int, string) {
	if run.Calibrate != settings.CalibrateApply || ls.Issue == 0 || ls.Off {
		return nil, ""
	}
	l := precision.Read(ls.Outcomes)
	p := calibrationPolicy(run.Review)
	raised := precision.Apply(precision.Compute(l.View(), StatsWindow).AllTime, p)
	return raised, precision.AppliedText(raised, p)
}
