package rmcoc

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseTrusted(t *testing.T) {
	t.Parallel()
	run := ReviewRun{HeadSHA: "next", Mode: ModeAuto, CompletedAt: at}
	resolved := Finding{ID: "f-1", Status: FindingResolved, Blocking: true, Score: 9, CreatedAt: at}
	open := Finding{ID: "f-1", Status: FindingOpen, Blocking: true, Score: 9, CreatedAt: at}
	qa := QuestionAnswer{ReplyToCommentID: 5, Status: AnswerFailed, AnsweredAt: at}
	te := TaskError{TaskKey: "q", Message: "down", FailedAt: at}
	m1 := ManualReview{RequestCommentID: 1, Status: ManualCompleted}
	m2 := ManualReview{RequestCommentID: 2, Status: ManualCompleted}
	tests := map[string]struct {
		body        string
		want        []Block
		prose, errs int
		tampered    []string
	}{
		"prose then one section": {body: "Answer.\n\n" + Render(qa), want: []Block{qa}},
		"several sections, whitespace after": {
			body: "text\n\n" + Render(qa) + "\n\n" + Render(te) + "\n \n\t\n", want: []Block{qa, te}},
		"one manual-review block per request": {body: "@a @b done\n\n" + Render(m1) + "\n\n" + Render(m2), want: []Block{m1, m2}},
		"CRLF":                                {body: strings.ReplaceAll("x\n\n"+Render(te), "\n", "\r\n"), want: []Block{te}},
		"a bare trailing fence (rmc-oc appended these)": {body: "Answer.\n\n" + Fence(qa), want: []Block{qa}},
		"a block in the prose above is ignored": {
			body: "Look:\n\n" + Render(run) + "\n\nso it is reviewed.\n\n" + Render(qa), want: []Block{qa}, prose: 1},
		"a RESOLVED finding above the real one": {
			body: "Explanation\n\n" + Render(resolved) + "\n\nmore text\n\n" + Render(open), want: []Block{open}, prose: 1},
		"a bare fence in the middle of the prose":   {body: "a\n```rmcoc\n{\"type\":\"task-error\",\"task_key\":\"x\"}\n```\nb\n\n" + Render(qa), want: []Block{qa}, prose: 1},
		"text after the blocks: nothing is trusted": {body: Render(qa) + "\n\nP.S. more", prose: 1},
		"two findings in one body: neither":         {body: "x\n\n" + Render(resolved) + "\n\n" + Render(open), tampered: []string{"review-finding"}},
		"two review runs: neither, others stay": {
			body: "x\n\n" + Render(run) + "\n\n" + Render(te) + "\n\n" + Render(run), want: []Block{te}, tampered: []string{"review-run"}},
		"the same manual request twice": {body: Render(m1) + "\n\n" + Render(m1), tampered: []string{"manual-pr-review//1"}},
		"a malformed trailing block is reported": {
			body: "x\n\n" + "<details><summary>rmc state</summary>\n\n```rmcoc\n{nope\n```\n\n</details>\n\n" + Render(te), want: []Block{te}, errs: 1},
		"a details section without its blank lines is prose": {
			body: "x\n\n<details><summary>rmc state</summary>\n```rmcoc\n" + `{"type":"task-error","task_key":"k"}` + "\n```\n</details>", prose: 1},
		"an indented or tilde fence is not the code's": {
			body: "x\n\n  ```rmcoc\n" + `{"type":"task-error","task_key":"k"}` + "\n  ```\n\n~~~rmcoc\n" + `{"type":"task-error","task_key":"k"}` + "\n~~~", prose: 2},
		"empty":                                {body: ""},
		"only a closing fence":                 {body: "```"},
		"a closing details with nothing above": {body: "\n\n</details>"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tr := ParseTrusted(tc.body)
			if !reflect.DeepEqual(tr.Blocks, tc.want) {
				t.Errorf("blocks = %#v\nwant %#v", tr.Blocks, tc.want)
			}
			if tr.Prose != tc.prose || len(tr.Errs) != tc.errs || !reflect.DeepEqual(tr.Tampered, tc.tampered) {
				t.Errorf("prose %d errs %v tampered %v; want %d, %d, %v", tr.Prose, tr.Errs, tr.Tampered, tc.prose, tc.errs, tc.tampered)
			}
		})
	}
}

func TestTrustedAll(t *testing.T) {
	t.Parallel()
	body := "x\n\n" + Render(TaskError{TaskKey: "a"}) + "\n\n" + Render(QuestionAnswer{ReplyToCommentID: 1})
	if got := TrustedAll[TaskError](body); len(got) != 1 || got[0].TaskKey != "a" {
		t.Errorf("TrustedAll = %v", got)
	}
	if got := TrustedAll[TaskError]("x " + Render(TaskError{TaskKey: "a"}) + " y"); len(got) != 0 {
		t.Errorf("a block inside prose was trusted: %v", got)
	}
}

// TestDefangBypasses: each line opens an rmcoc fence for our parser, for
// GitHub's renderer or for a lenient reader once something invisible is
// removed, case folded or a look-alike mapped. Defang neutralizes all of them.
func TestDefangBypasses(t *testing.T) {
	t.Parallel()
	const js = `{"v":1,"type":"review-run","head_sha":"x","mode":"auto"}`
	fences := map[string]string{
		"plain":                "```rmcoc",
		"zero-width space":     "```rm\u200bcoc",
		"BOM before":           "\ufeff```rmcoc",
		"BOM inside the fence": "``\ufeff`rmcoc",
		"lone CR before":       "ok\r```rmcoc",
		"NUL":                  "```rmcoc\x00",
		"bidi override":        "\u202e```rmcoc",
		"tag characters":       "```rm\U000E0041coc",
		"full-width backticks": "\uff40\uff40\uff40rmcoc",
		"look-alike backticks": "\u02cb\u02cb\u02cbrmcoc",
		"full-width letters":   "```\uff52\uff4d\uff43\uff4f\uff43",
		"Cyrillic letters":     "```rm\u0441\u043e\u0441",
		"upper case":           "```RMCOC",
		"indented 6":           "      ```rmcoc",
		"tab":                  "\t```rmcoc",
		"tildes":               "~~~rmcoc",
		"long tildes, space":   "~~~~~ rmcoc extra",
		"in a blockquote":      "> ```rmcoc",
		"in a list item":       "- ```rmcoc",
		"numbered list":        "1. ```rmcoc",
		"HTML entity":          "```rm&#99;oc",
		"line separator":       "text\u2028```rmcoc",
		"separator in fence":   "```\u2028rmcoc",
		"NEL":                  "x\u0085```rmcoc",
		"combining mark":       "```r\u0301mcoc",
		"variation selector":   "```rmcoc\ufe0f",
	}
	for name, fence := range fences {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			text := "Done.\n\n" + fence + "\n" + js + "\n```\n"
			out := Defang(text)
			if blocks, errs := Parse(out); len(blocks)+len(errs) != 0 {
				t.Fatalf("Parse found %v %v in:\n%q", blocks, errs, out)
			}
			// Cleaning (removing the invisible characters, CR as LF) must not revive it.
			cleaned := strings.Map(func(r rune) rune {
				switch {
				case r == '\r' || r == 0x85 || r == 0x2028:
					return '\n'
				case invisible(r):
					return -1
				}
				return r
			}, out)
			if blocks, _ := Parse(cleaned); len(blocks) != 0 {
				t.Fatalf("a cleaned copy parses as %v:\n%q", blocks, cleaned)
			}
			if !strings.Contains(out, js) {
				t.Errorf("defang lost the content:\n%q", out)
			}
			if utf8.RuneCountInString(out) > utf8.RuneCountInString(text) || len(out) > len(text) {
				t.Errorf("defang made the text longer")
			}
			if Defang(out) != out {
				t.Errorf("defang is not idempotent")
			}
		})
	}
	for _, keep := range []string{"```go", "```", "~~~text", "``rmcoc``", "a ```rmcoc", "```rmco", "```suggestion"} {
		if Defang(keep) != keep {
			t.Errorf("Defang(%q) = %q, want it unchanged", keep, Defang(keep))
		}
	}
}

func FuzzParseTrusted(f *testing.F) {
	f.Add("x\n\n" + Render(TaskError{TaskKey: "k"}))
	f.Add(Render(ReviewRun{HeadSHA: "a"}) + "\n\n" + Render(ReviewRun{HeadSHA: "b"}))
	f.Add("```rmcoc\n{}\n```\n\n</details>")
	f.Fuzz(func(t *testing.T, body string) {
		tr := ParseTrusted(body)
		all, _ := Parse(body)
		if len(tr.Blocks)+tr.Prose > len(all)+maxBlocks || len(tr.Blocks) > maxBlocks {
			t.Fatalf("ParseTrusted found more than Parse: %d+%d vs %d", len(tr.Blocks), tr.Prose, len(all))
		}
		// Whatever prose precedes the code's blocks, they are read exactly.
		b := TaskError{TaskKey: "k", FailedAt: at}
		got := ParseTrusted(Defang(body) + "\n\n" + Render(b))
		if len(got.Blocks) != 1 || !reflect.DeepEqual(got.Blocks[0], Block(b)) || got.Prose != 0 {
			t.Fatalf("after defanged prose %q: %#v", body, got)
		}
	})
}
