package execution

import (
	"testing"
	"unicode/utf8"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
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
		run := rmcoc.ReviewRun{HeadSHA: headSHA, BaseSHA: baseSHA, BaseRef: "main", Mode: rmcoc.ModeAuto, Findings: 2, Blocking: 2, CompletedAt: fixedNow.UTC(),
			Posted: []rmcoc.PostedFinding{{ID: "f-c0ffee012345", Fingerprint: fd.Fingerprint, Blocking: true}}, Prev: rmcoc.Genesis()}
		exactly(t, rv.Body, run)
		run.Posted = nil
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

// FuzzLearn runs what the Learner posts: model text as a conceded
// finding's title and reason, a file name as its path, and a maintainer's
// text as a remember rule and a forget argument. Each body must hold
// exactly the blocks the code wrote, and its prose, read as CommonMark,
// no raw HTML and no live mention but the maintainer it answers.
func FuzzLearn(f *testing.F) {
	f.Add(attack, hostileFile)
	f.Add("Sure: "+testInstructions, "a.go")
	for _, opener := range disguises {
		f.Add("Fine here.\n\n"+smuggle(opener, forgedFix)+"\n", "src/"+opener+".go")
	}
	f.Fuzz(func(t *testing.T, text, name string) {
		x, rec, _ := hostileLearner(t)
		fd := concededFinding("f-1", text, name, text)
		res := x.Learn(t.Context(), state.State{Findings: []state.Finding{fd}}, state.Learnings{Learned: map[string]bool{}, URLs: map[string]string{}})
		want, ok := learningFrom(fd, 7, x.now)
		if !ok {
			if len(rec.calls) != 0 {
				t.Fatalf("posted for a finding that teaches nothing: %+v", rec.calls)
			}
		} else if len(res.Recorded) != 1 || len(rec.calls) != 1 {
			t.Fatalf("recorded %+v, %d comments", res.Recorded, len(rec.calls))
		} else {
			exactly(t, rec.calls[0].Body, posted(want))
		}

		ls := state.Learnings{Issue: 9, URLs: map[string]string{}, Commands: []state.LearningCommand{
			{CommentID: 11, Author: maint, Member: true, Command: rmcoc.CommandRemember, Arg: text},
			{CommentID: 12, Author: maint, Member: true, Command: rmcoc.CommandForget, Arg: text}}}
		x.Commands(t.Context(), &ls)
		if len(ls.Active) != 1 || len(rec.calls) < 2 {
			t.Fatalf("active %+v, %d comments", ls.Active, len(rec.calls))
		}
		n := len(rec.calls)
		exactly(t, rec.calls[n-2].Body, posted(ls.Active[0]))
		exactly(t, rec.calls[n-1].Body, posted(rmcoc.LearningCommand{CommandCommentID: 12, Command: rmcoc.CommandForget,
			LearningID: text, Result: "unknown-id", By: "maint", At: fixedNow.UTC()}))
		for _, c := range rec.calls {
			if utf8.RuneCountInString(c.Body) > sanitize.MaxBody {
				t.Fatalf("body of %d characters", utf8.RuneCountInString(c.Body))
			}
			inert(t, c.Body, "maint")
		}
	})
}

// inert checks a body's prose the way GitHub reads it (CommonMark, through
// the parser Relay uses): no raw HTML, and no mention outside code but of
// the logins the bot addresses on purpose.
func inert(t *testing.T, body string, addressed ...string) {
	t.Helper()
	src := []byte(rmcoc.Strip(body))
	if sanitize.TooComplex(string(src)) {
		return // relayed as plain text, every "<" escaped and mention neutralised
	}
	doc := sanitize.Parser().Parse(text.NewReader(src))
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindRawHTML, ast.KindHTMLBlock:
			t.Fatalf("raw HTML in the posted prose:\n%s", body)
		case ast.KindCodeSpan, ast.KindCodeBlock, ast.KindFencedCodeBlock:
			return ast.WalkSkipChildren, nil
		case ast.KindText:
			seg := n.(*ast.Text).Segment
			for i := seg.Start; i < seg.Stop; i++ {
				if src[i] != '@' || i+1 >= len(src) || !wordByte(src[i+1]) || (i > 0 && (wordByte(src[i-1]) || src[i-1] == '`')) {
					continue
				}
				ok := false
				for _, login := range addressed {
					rest := src[i+1:]
					ok = ok || (len(rest) >= len(login) && string(rest[:len(login)]) == login && (len(rest) == len(login) || !wordByte(rest[len(login)]) && rest[len(login)] != '-' && rest[len(login)] != '/'))
				}
				if !ok {
					t.Fatalf("live mention at %q in:\n%s", src[i:min(len(src), i+20)], body)
				}
			}
		}
		return ast.WalkContinue, nil
	})
}

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}
