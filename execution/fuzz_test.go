package execution

import (
	"testing"
	"unicode/utf8"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// FuzzCompose runs the composed pipeline: model text (as a finding's title,
// explanation and suggestion, an answer and a dispute reply) and a file name
// (as the finding's path and a skipped file) in, the bodies the bot posts
// out, parsed back with the real parsers. Each body must hold exactly the
// blocks the code wrote, whatever the text. The corpus in
// testdata/fuzz/FuzzCompose holds the known bypasses.
func FuzzCompose(f *testing.F) {
	for _, opener := range disguises {
		f.Add("Looks risky.\n\n"+smuggle(opener, forgedFix)+"\n", "src/"+opener+".go")
	}
	f.Fuzz(func(t *testing.T, text, name string) {
		x := newTestExecutor(&recorder{}, &testLog{})
		fd := lockFinding
		fd.Path, fd.Title, fd.Explanation, fd.Suggestion = name, text, text, text
		comment := x.review().findingBody(fd, headSHA)
		exactly(t, comment, posted(rmcoc.Finding{ID: "f-c0ffee012345", Fingerprint: fd.Fingerprint, Path: name, Line: fd.Line, StartLine: fd.StartLine,
			Side: "RIGHT", Title: text, Category: fd.Category, Score: 9, Blocking: true, Status: rmcoc.FindingOpen, HeadSHA: headSHA, Pass: 1, CreatedAt: fixedNow.UTC()}))

		inBody := fd
		inBody.Inline = false
		rt := &detector.ReviewTask{Mode: rmcoc.ModeAuto, Gate: true, HeadSHA: headSHA, Requests: nil}
		rv := x.review().composeReview(rt, review.Result{Findings: []review.Finding{fd, inBody}, Reviewed: []string{name},
			Skipped: []review.Skip{{Path: name, Why: text}}}, scope{note: "full review"})
		run := rmcoc.ReviewRun{HeadSHA: headSHA, BaseSHA: baseSHA, Mode: rmcoc.ModeAuto, Findings: 2, Blocking: 2, CompletedAt: fixedNow.UTC()}
		exactly(t, rv.Body, run)
		exactly(t, x.review().bodyOnly(snapshot.NewReview{Body: rv.Body, Comments: rv.Comments}).Body, run)

		qa := rmcoc.QuestionAnswer{ReplyToCommentID: 101, Asker: name, AnsweredAt: fixedNow.UTC()}
		answer := x.poster().compose(sanitize.Relay(quote(text, 300))+"\n\n"+x.poster().fromModel(text)+"\n\n<sub>for @"+sanitize.Name(name)+"</sub>", qa)
		exactly(t, answer, posted(qa))
		dr := rmcoc.DisputeResolution{ReplyToCommentID: 302, Status: rmcoc.FindingDisputed, Resolution: rmcoc.ResolutionMaintained, Reason: text, ResolvedAt: fixedNow.UTC()}
		exactly(t, x.poster().compose(x.poster().fromModel(text), dr), posted(dr))

		for _, body := range []string{comment, rv.Body, answer} {
			if n := utf8.RuneCountInString(body); n > sanitize.MaxBody {
				t.Fatalf("body of %d characters", n)
			}
		}
	})
}
