package app

import (
	"fmt"
	"io"

	"github.com/sethvargo/go-githubactions"
)

// Log is the Action logger. go-githubactions panics when GITHUB_OUTPUT or
// GITHUB_STEP_SUMMARY is unset or unwritable; outside a runner the summary is
// printed instead, and a file that cannot be written costs a warning, never
// the run.
type Log struct {
	*githubactions.Action
	getenv func(string) string
	out    io.Writer
	// warnings keeps every warning of the run for the job summary: a rate
	// limit or a missing permission must be seen there, not only in the log.
	warnings []string
}

// Warningf logs a warning and keeps it for the summary.
func (l *Log) Warningf(format string, args ...any) {
	l.warnings = append(l.warnings, fmt.Sprintf(format, args...))
	l.Action.Warningf(format, args...)
}

// Warnings returns the run's warnings so far.
func (l *Log) Warnings() []string { return l.warnings }

func newLog(env Env) *Log {
	return &Log{Action: githubactions.New(githubactions.WithGetenv(env.Getenv), githubactions.WithWriter(env.Stdout)), getenv: env.Getenv, out: env.Stdout}
}

// Summary appends markdown to the job summary.
func (l *Log) Summary(md string) {
	if l.getenv("GITHUB_STEP_SUMMARY") == "" {
		fmt.Fprintln(l.out, md)
		return
	}
	l.guard("job summary", func() { l.AddStepSummary(md) })
}

// Output sets an action output.
func (l *Log) Output(k, v string) {
	if l.getenv("GITHUB_OUTPUT") == "" {
		return
	}
	l.guard("output "+k, func() { l.SetOutput(k, v) })
}

func (l *Log) guard(what string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			l.Warningf("could not write the %s: %v", what, r)
		}
	}()
	f()
}
