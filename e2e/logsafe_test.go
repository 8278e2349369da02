package e2e

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"unicode"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// Workflow commands an attacker tries to slip into the log. Each one's data
// starts with "pwned", so a line the bot issues itself (::warning:: with
// attacker text inside its data) is told apart from an injected one.
const (
	hostilePath    = "docs/a\n::error::pwned-path\n::stop-commands::x\r::set-output name=gate::pwned\n##[error]pwned-v1\nb.md"
	hostileLogin   = "eve\r::add-mask::pwned-login\n\u2028::error::pwned-ls\n\u0085 ::warning::pwned-nel\n\u200b:\u200d:error::pwned-zw"
	hostileTitle   = "Tidy\r::error::pwned-title\n  ::notice::pwned-indent ##[warning]pwned-v1"
	hostileComment = "@rmc-bot why?\n::error::pwned-comment\r\n::stop-commands::x\n::set-output name=x::pwned\n::add-mask::pwned-mask\n\u2029::error::pwned-ps"
	hostileModel   = "Fine.\n::error::pwned-model\r::stop-commands::x\n%0A::error::pwned-pct\n##[set-output name=x]pwned"
)

// ourCommands are the workflow commands the action issues itself.
var ourCommands = map[string]bool{"group": true, "endgroup": true, "add-mask": true, "warning": true, "error": true, "notice": true, "debug": true}

// injectedCommands returns the log lines the runner would run as workflow
// commands the action did not issue. The runner reads its step's output line
// by line, a line ending at LF, CR or CRLF; it runs a line as a command when,
// after its leading white space (Unicode's, NEL and the line and paragraph
// separators included) is trimmed, it starts with "::", and when it holds
// "##[" anywhere (the older syntax).
//
// Both tests compare with the current culture, which under ICU passes over
// characters that weigh nothing (format characters, most controls): each
// line is checked as it is and without them.
func injectedCommands(log string) []string {
	var bad []string
	for _, line := range strings.FieldsFunc(log, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if isCommand(line) || isCommand(strings.Map(dropIgnorable, line)) {
			bad = append(bad, line)
		}
	}
	return bad
}

func dropIgnorable(r rune) rune {
	if r != '\t' && unicode.In(r, unicode.Cc, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point) {
		return -1
	}
	return r
}

// isCommand reports a line the runner runs as a command the action did not
// issue.
func isCommand(line string) bool {
	t := strings.TrimLeftFunc(line, unicode.IsSpace)
	if strings.HasPrefix(t, "::") {
		info, data, ok := strings.Cut(t[2:], "::")
		name, _, _ := strings.Cut(info, " ")
		if ok && ourCommands[strings.ToLower(name)] {
			// The runner takes it for the action's command, whatever its
			// data holds, and looks no further.
			return strings.HasPrefix(data, "pwned")
		}
		if ok {
			return true
		}
	}
	return strings.Contains(line, "##[")
}

func TestInjectedCommandsCatchesEveryForm(t *testing.T) {
	t.Parallel()
	for _, line := range []string{"::error::pwned", "  ::error::pwned", "\u2028::error::pwned", "\u0085::warning::pwned", "::stop-commands::x",
		"::set-output name=x::y", "::add-mask::pwned", "text ##[error]x", "::ERROR::pwned", "\u200b::error::pwned", ":\u00ad:x::y", "#\u200b#[error]x"} {
		if len(injectedCommands("ok\n"+line+"\nok")) != 1 {
			t.Errorf("not caught: %q", line)
		}
	}
	for _, line := range []string{"::group::Plan", "::endgroup::", "::add-mask::secret", "::warning::could not: ::error::pwned", "text ::error::x", "%3A:error::pwned",
		"::group::Task on a##[error]x", "text ##%5Berror]x"} {
		if bad := injectedCommands(line); len(bad) != 0 {
			t.Errorf("flagged the bot's own line: %q", bad)
		}
	}
}

// checkLog fails the test for every injected command in log, and for every
// marker of attacker text that should appear in it (escaped) and does not:
// a log the attack never reached proves nothing.
func checkLog(t *testing.T, log string, reached ...string) {
	t.Helper()
	for _, line := range injectedCommands(log) {
		t.Errorf("the runner would run an attacker's workflow command: %q", line)
	}
	for _, m := range reached {
		if !strings.Contains(log, m) {
			t.Errorf("the attacker text %q never reached the log; the test proves nothing", m)
		}
	}
	if t.Failed() {
		t.Logf("log:\n%s", log)
	}
}

// Hostile file paths, logins, comments, titles and model answers reach the
// log (the plan, task groups, warnings, the console summary) and none of
// their lines becomes a workflow command; the bot's own ::group:: and
// ::add-mask:: lines are still issued.
func TestAttackerTextNeverBecomesAWorkflowCommand(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.gh.AddUser(hostileLogin, false)
	w.gh.UpdatePR(repoName, w.pr, func(p *fakegithub.PR) { p.Title = hostileTitle })
	w.push("1111111111111111111111111111111111111111", patchV1)
	files := w.gh.Files(repoName, w.pr)
	files = append(files, fakegithub.File{Path: hostilePath, Status: "added", Additions: 1, Patch: "@@ -0,0 +1 @@\n+" + hostileModel})
	w.gh.SetFiles(repoName, w.pr, files)
	w.gh.AddThread(repoName, w.pr, fakegithub.ThreadSpec{Path: hostilePath, Line: 1, Author: "bob", Body: hostileComment})
	w.gh.AddIssueComment(repoName, w.pr, hostileLogin, hostileComment)
	w.scriptReview(false, finding{Path: "limiter/bucket.go", Line: 5, Side: "right", Title: hostileModel, Explanation: hostileModel, Score: 9, Category: "bug"})
	w.llm.AddRule(fakellm.Rule{Name: "answer", LastUser: "# Task: answer a question", Reply: fakellm.Reply{Text: hostileModel}})

	// plan prints the plan and the job summary (title, notices) to stdout;
	// it writes nothing, so the run below still has the question to answer.
	t.Run("plan", func(t *testing.T) {
		cmd := exec.Command(binary, "plan", "--repo", repoName, "--pr", fmt.Sprint(w.pr))
		cmd.Env = append([]string{"GITHUB_TOKEN=" + token, "HOME=" + t.TempDir(), "PATH=/usr/bin:/bin"}, w.gh.Env()...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("plan: %v\n%s", err, out.String())
		}
		checkLog(t, out.String(), "pwned-path", "pwned-login", "pwned-title", "pwned-indent")
	})

	r := w.run(w.prEvent("opened"))
	if r.code != 0 && r.code != 1 {
		t.Fatalf("exit %d\n%s", r.code, r.log)
	}
	t.Run("run", func(t *testing.T) {
		checkLog(t, r.log, "pwned-path", "pwned-login", "pwned-ls", "pwned-nel", "pwned-zw")
		for _, own := range []string{"::group::", "::endgroup::", "::add-mask::" + token} {
			if !strings.Contains("\n"+r.log, "\n"+own) {
				t.Errorf("the bot's own %q line is missing", own)
			}
		}
		if !strings.Contains(r.summary, "pwned-title") {
			t.Errorf("the job summary lost the title")
		}
	})
}
