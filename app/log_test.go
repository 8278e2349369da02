package app

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestLogText(t *testing.T) {
	t.Parallel()
	tests := map[string]struct{ in, want string }{
		"empty":                          {"", ""},
		"plain":                          {"task 1 [question] by @bob", "task 1 [question] by @bob"},
		"unicode kept":                   {"héllo 世界 👍 a\tb", "héllo 世界 👍 a\tb"},
		"LF":                             {"docs/a\n::error::x", "docs/a%0A::error::x"},
		"CR":                             {"a\r::stop-commands::x", "a%0D::stop-commands::x"},
		"CRLF":                           {"a\r\n::error::x", "a%0D%0A::error::x"},
		"percent":                        {"100% done %0A", "100%25 done %250A"},
		"leading ::":                     {"::error::pwned", "%3A:error::pwned"},
		"leading set-output":             {"::set-output name=x::y", "%3A:set-output name=x::y"},
		"leading spaces then ::":         {"  \t::error::x", "  \t%3A:error::x"},
		"leading NBSP then ::":           {"\u00a0::error::x", "\u00a0%3A:error::x"},
		"leading ideographic space":      {"\u3000::error::x", "\u3000%3A:error::x"},
		"leading combining mark":         {"\u0301::error::x", "\u0301%3A:error::x"},
		"single leading colon":           {":x", "%3Ax"},
		"colon later in the line":        {"a ::error::x", "a ::error::x"},
		"line separator":                 {"a\u2028::error::x", "a%E2%80%A8::error::x"},
		"leading paragraph separator":    {"\u2029::error::x", "%E2%80%A9::error::x"},
		"NEL":                            {"a\u0085::error::x", "a%C2%85::error::x"},
		"vertical tab and form feed":     {"\v\f::error::x", "%0B%0C::error::x"},
		"zero-width space between ::":    {":\u200b:error::x", "%3A\u200b:error::x"},
		"leading BOM":                    {"\ufeff::error::x", "\ufeff%3A:error::x"},
		"leading soft hyphen":            {"\u00ad::error::x", "\u00ad%3A:error::x"},
		"bidi override":                  {"a\u202eb", "a%E2%80%AEb"},
		"leading variation selector":     {"\ufe0f::x", "\ufe0f%3A:x"},
		"leading Hangul filler":          {"\u3164::x", "\u3164%3A:x"},
		"emoji kept":                     {"⚖️ dispute 👨‍👩‍👧 #1", "⚖️ dispute 👨‍👩‍👧 #1"},
		"old syntax joined":              {"#\u200d#[x", "#\u200d#%5Bx"},
		"isolate bidi control":           {"a\u2066b", "a%E2%81%A6b"},
		"NUL":                            {"\x00::error::x", "%00::error::x"},
		"ANSI escape":                    {"\x1b[8mhidden", "%1B[8mhidden"},
		"old command syntax":             {"ok ##[error]pwned", "ok ##%5Berror]pwned"},
		"old syntax behind a mark":       {"##\u0301[error]x", "##\u0301%5Berror]x"},
		"old syntax split by zero-width": {"##\u200b[error]x", "##\u200b%5Berror]x"},
		"brackets elsewhere":             {"a[0] #1 [x]", "a[0] #1 [x]"},
		"invalid UTF-8 kept":             {"\xff::x", "\xff::x"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := logText(tt.in); got != tt.want {
				t.Errorf("logText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// ignorable are the characters a culture-aware (ICU) comparison may skip.
var ignorable = []*unicode.RangeTable{unicode.Cc, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector}

// runnerCommand reports whether the runner could take line for a workflow
// command: "::" first after trimming white space, or "##[" anywhere; it
// checks both as ordinal comparisons do, and with the characters an ICU
// comparison skips removed.
func runnerCommand(line string) bool {
	skipped := strings.Map(func(r rune) rune {
		if unicode.IsOneOf(ignorable, r) && r != '\t' && r != '\v' && r != '\f' {
			return -1
		}
		return r
	}, line)
	for _, l := range []string{line, skipped} {
		if strings.HasPrefix(strings.TrimLeftFunc(l, unicode.IsSpace), "::") || strings.Contains(l, "##[") {
			return true
		}
	}
	return false
}

// checkLogText holds for every input: one line, never a command, and read
// back exactly by percent-decoding.
func checkLogText(t *testing.T, in string) {
	t.Helper()
	out := logText(in)
	if strings.ContainsAny(out, "\r\n") {
		t.Fatalf("logText(%q) = %q: more than one line", in, out)
	}
	if runnerCommand(out) {
		t.Fatalf("logText(%q) = %q: the runner could take it for a command", in, out)
	}
	if back, err := url.PathUnescape(out); err != nil || back != in {
		t.Fatalf("logText(%q) = %q reads back as %q (%v)", in, out, back, err)
	}
}

func TestLogTextIsNeverACommand(t *testing.T) {
	t.Parallel()
	seps := []string{"\n", "\r", "\r\n", "\u0085", "\u2028", "\u2029", "\v", "\f", " ", "\u00a0", "\u200b", "\ufeff", "\u0301", "\x00", ""}
	cmds := []string{"::error::pwned", "::stop-commands::tok", "::set-output name=x::y", "::add-mask::pwned", ":\u200b:error::x", "##[error]x", "#\u200d#[group]x"}
	for _, a := range seps {
		for _, b := range seps {
			for _, c := range cmds {
				checkLogText(t, a+b+c)
				checkLogText(t, "docs/a"+a+b+c+"\nb.md")
			}
		}
	}
	if !runnerCommand("\u200b::error::x") || !runnerCommand("  ::x::y") || runnerCommand("%3A:x::y") {
		t.Fatal("runnerCommand is not the runner's test")
	}
}

func FuzzLogText(f *testing.F) {
	for _, s := range []string{"", "::error::x", "a\n::x::y", "\u2028::x::", "##[error]", "%0A", "\xff\xfe::", ":\u200b:x::"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkLogText(t, s)
		if utf8.ValidString(s) != utf8.ValidString(logText(s)) {
			t.Fatalf("logText changed the validity of %q", s)
		}
	})
}

// testLog is a Log writing to a buffer, outside a runner (no files).
func testLog(t *testing.T, env map[string]string) (*Log, *strings.Builder) {
	t.Helper()
	var out strings.Builder
	return newLog(Env{Getenv: func(k string) string { return env[k] }, Stdout: &out, ReadFile: os.ReadFile}), &out
}

func TestLogLines(t *testing.T) {
	t.Parallel()
	const hostile = "docs/a\n::error::pwned\r::stop-commands::x"
	tests := map[string]struct {
		write func(l *Log)
		want  string
	}{
		"text":            {func(l *Log) { l.Infof("skip %s", hostile) }, "skip docs/a%0A::error::pwned%0D::stop-commands::x\n"},
		"text of a login": {func(l *Log) { l.Infof("%s", "::add-mask::x") }, "%3A:add-mask::x\n"},
		"several lines":   {func(l *Log) { l.Print("a\n::error::x\r\n\n100%\n") }, "a\n%3A:error::x%0D\n\n100%25\n"},
		"warning":         {func(l *Log) { l.Warningf("could not post on %s", hostile) }, "::warning::could not post on docs/a%0A::error::pwned%0D::stop-commands::x\n"},
		"error":           {func(l *Log) { l.Errorf("%s", "100%\n::x::") }, "::error::100%25%0A::x::\n"},
		"notice":          {func(l *Log) { l.Noticef("n") }, "::notice::n\n"},
		"debug":           {func(l *Log) { l.Debugf("%s", "\n::error::x") }, "::debug::%0A::error::x\n"},
		"group":           {func(l *Log) { l.Group("Task: " + hostile); l.EndGroup() }, "::group::Task: docs/a%0A::error::pwned%0D::stop-commands::x\n::endgroup::\n"},
		"mask":            {func(l *Log) { l.AddMask("s3cr%t\n") }, "::add-mask::s3cr%25t%0A\n"},
		"summary printed": {func(l *Log) { l.Summary("## t\n\n**x** " + hostile + "\n") }, "## t\n\n**x** docs/a\n%3A:error::pwned%0D::stop-commands::x\n"},
		"output skipped":  {func(l *Log) { l.Output("k", "v") }, ""},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			l, out := testLog(t, nil)
			tt.write(l)
			if out.String() != tt.want {
				t.Errorf("log:\n%q\nwant:\n%q", out.String(), tt.want)
			}
			for _, line := range strings.FieldsFunc(out.String(), func(r rune) bool { return r == '\n' || r == '\r' }) {
				if runnerCommand(line) && !strings.HasPrefix(line, "::warning::") && !strings.HasPrefix(line, "::error::") &&
					!strings.HasPrefix(line, "::notice::") && !strings.HasPrefix(line, "::debug::") && !strings.HasPrefix(line, "::group::") &&
					!strings.HasPrefix(line, "::endgroup::") && !strings.HasPrefix(line, "::add-mask::") {
					t.Errorf("a line the runner runs: %q", line)
				}
			}
		})
	}
}

// On a runner the summary and outputs go to their files, not the log.
func TestLogFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	summary, output := filepath.Join(dir, "summary"), filepath.Join(dir, "output")
	l, out := testLog(t, map[string]string{"GITHUB_STEP_SUMMARY": summary, "GITHUB_OUTPUT": output})
	l.Summary("## t\n::error::x\n")
	l.Output("review_status", "clean")
	if out.Len() != 0 {
		t.Errorf("printed %q", out.String())
	}
	if b, _ := os.ReadFile(summary); string(b) != "## t\n::error::x\n\n" {
		t.Errorf("summary file = %q", b)
	}
	if b, _ := os.ReadFile(output); !strings.Contains(string(b), "review_status<<") || !strings.Contains(string(b), "\nclean\n") {
		t.Errorf("output file = %q", b)
	}
	l.Summary("x") // the summary file's directory is gone: a warning, not a panic
	os.RemoveAll(dir)
	l.Summary("x")
	if len(l.Warnings()) != 1 || !strings.HasPrefix(out.String(), "::warning::could not write the job summary") {
		t.Errorf("warnings %q, log %q", l.Warnings(), out.String())
	}
}

// Every plan line, task title and warning passes through logText.
func BenchmarkLogText(b *testing.B) {
	for name, s := range map[string]string{
		"plan line": "task 1 [question] question-review-comment-1010: unanswered question by @alice in a review thread on internal/limiter/bucket.go:42",
		"hostile":   strings.Repeat("docs/a\n::error::pwned\r\u2028##[x] 100% \u200b", 2000),
	} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				logText(s)
			}
		})
	}
}

// The model client warns from the review's workers, side by side: every
// warning is kept and every line printed whole.
func TestLogWarningsFromWorkers(t *testing.T) {
	t.Parallel()
	l, out := testLog(t, nil)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.Warningf("warning %d", i)
			_ = l.Warnings()
		}()
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(l.Warnings()) != 8 || len(lines) != 8 {
		t.Fatalf("%d warnings kept, %d lines printed:\n%s", len(l.Warnings()), len(lines), out.String())
	}
	for _, line := range lines {
		if !strings.HasPrefix(line, "::warning::warning ") {
			t.Errorf("a broken line: %q", line)
		}
	}
}
