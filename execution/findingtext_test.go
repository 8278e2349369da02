package execution

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/rmcoc"
)

// hostile are pieces of model text that look like the parts of a finding
// comment, or like Markdown that changes what follows.
var hostile = []string{
	"", "plain words", "\n\n", "\n\n\n", "\r\n", "# Heading", "## 🔴 **Title**", "**", "** bold **", "__x__",
	"```", "```go\nx := 1\n```", "~~~\ncode\n~~~", "````suggestion\ny\n````", "```suggestion\nz\n```",
	" · score 3/10 · blocking", "correctness · score 9/10 · should fix", "🔴 **Fake**", "🟡 **", "<sub>Reply in this thread to dispute, ask, or say it is fixed; I will answer.</sub>",
	"_Reported on line 3, which is outside the diff; placed on the nearest changed line._", "> quoted\n> more", "- item\n- item",
	"<details><summary>rmc state</summary>", "```rmcoc\n{\"type\":\"review-finding\"}\n```", "@bob", "<!-- hidden -->", "ü\u200b\u202e", "    indented code",
	"<sub>", "_", "10/10", "suggestion", "_🔁 On lines the fix for finding `f-1` wrote: a finding on a fix._",
	"_🔁 On lines my own suggestion in finding `f-2` wrote, as it was committed: a finding on my own fix._", "_🔁 On lines ", "`f-3`",
}

func hostileText(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(5) {
		b.WriteString(hostile[r.IntN(len(hostile))])
		if r.IntN(2) == 0 {
			b.WriteString(" ")
		}
	}
	return b.String()
}

// randomFinding is a finding as the review engine could hand it over, with
// model text drawn from hostile.
func randomFinding(r *rand.Rand) review.Finding {
	f := review.Finding{Path: "src/a.go", Line: 1 + r.IntN(300), Side: diff.Right, Title: hostileText(r), Category: hostileText(r),
		Explanation: hostileText(r), Suggestion: hostileText(r), Score: r.IntN(11), Blocking: r.IntN(2) == 0, Fingerprint: "c0ffee0123456789", Inline: true, Pass: 1}
	if r.IntN(3) == 0 {
		f.Moved = 1 + r.IntN(500)
	}
	if r.IntN(4) == 0 {
		f.Side = diff.Left
	}
	return f
}

// endsLikeAComment reports whether an explanation ends the way Render
// continues (a moved note or a suggestion block): then it reads as those.
func endsLikeAComment(s string) bool {
	_, moved := cutMoved(s)
	_, sugg := cutSuggestion(s)
	_, loop, _ := cutLoop(s)
	return moved > 0 || sugg != "" || loop != ""
}

// positional is how the agent notice read a posted finding comment before
// FindingText: by paragraph position. It is the oracle that shows the
// notice's bytes did not change.
func positional(body string) string {
	paras := strings.Split(rmcoc.Strip(body), "\n\n")
	if len(paras) > 2 {
		paras = paras[2:]
	}
	if n := len(paras); n > 0 && strings.HasPrefix(paras[n-1], "<sub>") {
		paras = paras[:n-1]
	}
	return strings.TrimSpace(strings.Join(paras, "\n\n"))
}

// checkFindingText holds the properties of one finding's text.
func checkFindingText(t *testing.T, x *reviewRunner, f review.Finding) {
	t.Helper()
	v := x.findingText(f)
	prose := v.Render()
	got, ok := ParseFindingText(prose)
	if !ok {
		t.Fatalf("ParseFindingText cannot read what Render made:\n%s", prose)
	}
	if again := got.Render(); again != prose {
		t.Fatalf("Render(Parse(s)) != s:\n%q\n%q", again, prose)
	}
	if got.Notice() != v.Notice() {
		t.Fatalf("notice %q, want %q", got.Notice(), v.Notice())
	}
	if !endsLikeAComment(v.Explanation) && got != v {
		t.Fatalf("Parse(Render(v)) = %#v\nwant %#v", got, v)
	}
	// The notice reads what was posted as it always did: in this run
	// from the value, in a later run from the comment.
	body := x.findingBody(f, headSHA)
	if got, want := x.agentFindingOf(f, headSHA).Text, positional(body); got != want {
		t.Fatalf("same-run notice text %q, want %q", got, want)
	}
	if got, want := findingNotice(body), positional(body); got != want {
		t.Fatalf("catch-up notice text %q, want %q", got, want)
	}
}

// TestFindingTextRoundTrip: ParseFindingText is the inverse of Render over
// many findings whose model text is hostile (fences, blank lines,
// headings, **, look-alikes of the comment's own parts), and the agent
// notice quotes exactly what it quoted when it read comments by position.
func TestFindingTextRoundTrip(t *testing.T) {
	t.Parallel()
	x := newTestExecutor(&recorder{}, &testLog{}).review()
	r := rand.New(rand.NewPCG(13, 42))
	exact := 0
	for i := range 3000 {
		f := randomFinding(r)
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkFindingText(t, x, f) })
		if !endsLikeAComment(x.findingText(f).Explanation) {
			exact++
		}
	}
	if exact < 2000 {
		t.Errorf("only %d of 3000 values were checked for exact equality", exact)
	}
}

// An explanation that ends as a comment does reads as that comment: the
// rendering and the notice are the same either way.
func TestFindingTextLookAlikes(t *testing.T) {
	t.Parallel()
	x := newTestExecutor(&recorder{}, &testLog{}).review()
	for name, expl := range map[string]string{
		"moved note":       "Bad.\n\n_Reported on line 7, which is outside the diff; placed on the nearest changed line._",
		"suggestion":       "Bad.\n\n```suggestion\nfix()\n```",
		"footer":           "Bad.\n\n<sub>Reply in this thread to dispute, ask, or say it is fixed; I will answer.</sub>",
		"meta line":        "correctness · score 2/10 · should fix",
		"only a fence":     "```",
		"windows newlines": "one\r\n\r\ntwo",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := lockFinding
			f.Explanation = expl
			checkFindingText(t, x, f)
			f.Suggestion, f.Moved = "", 12
			checkFindingText(t, x, f)
		})
	}
	if _, ok := ParseFindingText("🔴 **x**\n\nc · score 9/10 · should fix\n\ny\n\n" + findingFooter); ok {
		t.Errorf("a red title with a should-fix tag parsed")
	}
	if _, ok := ParseFindingText("just a comment"); ok {
		t.Errorf("a plain comment parsed")
	}
}

// FuzzFindingText checks the same properties on any text.
func FuzzFindingText(f *testing.F) {
	for _, h := range hostile {
		f.Add(h, h, h, h, 9, 0, true)
	}
	f.Add("Race", "concurrency", "Two writers.\n\n```go\nx\n```", "lock()", 8, 40, false)
	x := newTestExecutor(&recorder{}, &testLog{}).review()
	f.Fuzz(func(t *testing.T, title, category, explanation, suggestion string, score, moved int, blocking bool) {
		fd := review.Finding{Path: "a.go", Line: 3, Side: diff.Right, Title: title, Category: category, Explanation: explanation,
			Suggestion: suggestion, Score: score, Moved: max(moved, 0), Blocking: blocking, Fingerprint: "c0ffee0123456789", Inline: true}
		checkFindingText(t, x, fd)
	})
}

// A finding on a fix says so in its comment, on the line before its
// suggestion; the comment reads back as it was written, and an id the bot
// does not write is never rendered.
func TestFindingTextOnFix(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		id   string
		own  bool
		want string
	}{
		"a fix":               {"f-0123456789ab", false, "\n\n_🔁 On lines the fix for finding `f-0123456789ab` wrote: a finding on a fix._\n\n```suggestion"},
		"my own suggestion":   {"f-0123456789ab", true, "\n\n_🔁 On lines my own suggestion in finding `f-0123456789ab` wrote, as it was committed: a finding on my own fix._\n\n```suggestion"},
		"an id with markdown": {"f-1`](x)", true, ""},
		"an id too long":      {strings.Repeat("f", 41), false, ""},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			v := FindingText{Title: "Race", Category: "bug", Score: 8, Explanation: "Two writers.", Moved: 3, Suggestion: "lock()", OnFix: tc.id, OnSuggestion: tc.own}
			prose := v.Render()
			if tc.want == "" {
				if strings.Contains(prose, "🔁") {
					t.Fatalf("rendered a note for id %q:\n%s", tc.id, prose)
				}
				return
			}
			if !strings.Contains(prose, "placed on the nearest changed line._"+tc.want) || !strings.Contains(v.Notice(), strings.TrimSuffix(tc.want, "\n\n```suggestion")) {
				t.Fatalf("no note %q in\n%s\nnotice:\n%s", tc.want, prose, v.Notice())
			}
			if got, ok := ParseFindingText(prose); !ok || got != v {
				t.Fatalf("Parse(Render(v)) = %#v, %t\nwant %#v", got, ok, v)
			}
		})
	}
}
