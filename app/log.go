package app

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/sethvargo/go-githubactions"
)

// Log is the Action logger, and the one way the action prints: every line
// goes through emit, and is either a workflow command the action issues
// itself (encoded by go-githubactions, its data escaped as GitHub's toolkit
// escapes it, so a message cannot end the line) or text made inert by
// logText (see there for how the runner reads the log). Paths, logins,
// titles, comments, model text and API errors all reach the log, and none of
// it can become a command: "::add-mask::" and "::group::" stay the action's.
//
// go-githubactions panics when GITHUB_OUTPUT or GITHUB_STEP_SUMMARY is unset
// or unwritable; outside a runner the summary is printed instead, and a file
// that cannot be written costs a warning, never the run.
type Log struct {
	// gha writes the output and summary files; it prints nothing.
	gha    *githubactions.Action
	getenv func(string) string
	out    io.Writer
	// mu keeps lines whole and warnings in order when several model calls
	// (a review's chunks side by side) report at once.
	mu sync.Mutex
	// warnings keeps every warning of the run for the job summary: a rate
	// limit or a missing permission must be seen there, not only in the log.
	warnings []string
}

func newLog(env Env) *Log {
	return &Log{gha: githubactions.New(githubactions.WithGetenv(env.Getenv), githubactions.WithWriter(io.Discard)), getenv: env.Getenv, out: env.Stdout}
}

// emit prints one line. The write's error is not acted on: there is nowhere
// left to report it.
func (l *Log) emit(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintln(l.out, line)
}

// command issues a workflow command with msg as its data.
func (l *Log) command(name, msg string) {
	l.emit((&githubactions.Command{Name: name, Message: msg}).String())
}

// Infof prints a line of text; line breaks in it are escaped.
func (l *Log) Infof(format string, args ...any) { l.emit(logText(fmt.Sprintf(format, args...))) }

// Print prints text of several lines (help, the summary outside a runner),
// each line made inert on its own.
func (l *Log) Print(text string) {
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		l.emit(logText(line))
	}
}

// Debugf prints a debug message (shown when the runner debugs the step).
func (l *Log) Debugf(format string, args ...any) { l.command("debug", fmt.Sprintf(format, args...)) }

// Noticef prints a notice annotation.
func (l *Log) Noticef(format string, args ...any) { l.command("notice", fmt.Sprintf(format, args...)) }

// Errorf prints an error annotation.
func (l *Log) Errorf(format string, args ...any) { l.command("error", fmt.Sprintf(format, args...)) }

// Warningf prints a warning annotation and keeps it for the summary.
func (l *Log) Warningf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	l.mu.Lock()
	l.warnings = append(l.warnings, msg)
	l.mu.Unlock()
	l.command("warning", msg)
}

// Group starts a collapsed group of lines, titled.
func (l *Log) Group(title string) { l.command("group", title) }

// EndGroup ends the group.
func (l *Log) EndGroup() { l.command("endgroup", "") }

// AddMask has the runner hide secret wherever it appears in the log.
func (l *Log) AddMask(secret string) { l.command("add-mask", secret) }

// Warnings returns the run's warnings so far.
func (l *Log) Warnings() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.warnings...)
}

// Summary appends markdown to the job summary.
func (l *Log) Summary(md string) {
	if l.getenv("GITHUB_STEP_SUMMARY") == "" {
		l.Print(md)
		return
	}
	l.guard("job summary", func() { l.gha.AddStepSummary(md) })
}

// Output sets an action output.
func (l *Log) Output(k, v string) {
	if l.getenv("GITHUB_OUTPUT") == "" {
		return
	}
	l.guard("output "+k, func() { l.gha.SetOutput(k, v) })
}

func (l *Log) guard(what string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			l.Warningf("could not write the %s: %v", what, r)
		}
	}()
	f()
}
