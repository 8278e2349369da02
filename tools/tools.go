// Package tools defines the tools the reviewing model can call: reading the
// repository ([Workspace]), reading the PR's diff ([Diff]) and, when the
// action's enable_web input is on, fetching public web pages ([Web]).
//
// Every tool answers in plain text written for the model, capped in size,
// with a bracketed note whenever something was cut and how to get the rest.
// Failures (a refused path, a bad regexp, a missing file, a blocked URL,
// malformed arguments) are returned as errors whose text is written for the
// model: package llm shows a tool's error to the model as its result, so it
// can correct the call.
//
// Every tool is made with llm.MustTool from the struct its arguments decode
// into: the JSON Schema the model is offered, and the check a call's
// arguments pass before the tool runs, both come from that struct (field
// tags for descriptions, [positive] for a minimum).
package tools

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// maxOutput caps the text a tool returns, whatever the underlying cap: about
// 25k tokens, so that a few calls cannot crowd the review out of the
// model's context.
const maxOutput = 100_000

// positive is a count or a line number the model gives: a whole number,
// at least 1. llm.MustTool reads it by jsonnum's rule ("10", 10.0) and takes
// "" or null as left out, which leaves it 0: the tool's default.
type positive int

func (positive) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "integer", Minimum: jsonschema.Ptr(1.0)}
}

// lineCapper builds tool output line by line within maxOutput.
type lineCapper struct {
	b    strings.Builder
	full bool
}

// noteRoom is kept free under maxOutput for a heading and notes.
const noteRoom = 1000

// add appends line and a newline, or reports false (and stops adding) when
// that would leave too little room for notes under the cap.
func (c *lineCapper) add(line string) bool {
	if c.full || c.b.Len()+len(line)+1 > maxOutput-noteRoom {
		c.full = true
		return false
	}
	c.b.WriteString(line)
	c.b.WriteByte('\n')
	return true
}

// addCut appends as much of line as the room left allows, at a rune
// boundary, then marker and a newline.
func (c *lineCapper) addCut(line, marker string) {
	room := maxOutput - noteRoom - c.b.Len() - len(marker) - 1
	if room < 0 {
		room = 0
	}
	c.b.WriteString(cutText(line, room))
	c.b.WriteString(marker)
	c.b.WriteByte('\n')
	c.full = true
}

// note appends a bracketed note; notes are short and always fit.
func (c *lineCapper) note(format string, args ...any) {
	fmt.Fprintf(&c.b, "["+format+"]\n", args...)
}

func (c *lineCapper) String() string { return c.b.String() }

// cutText cuts s to at most n bytes, at a line end when there is one in the
// last quarter, else at a rune boundary.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	if i := strings.LastIndexByte(s, '\n'); i >= n*3/4 {
		return s[:i+1]
	}
	for i := 0; i < utf8.UTFMax && len(s) > 0; i++ {
		if r, size := utf8.DecodeLastRuneInString(s); r != utf8.RuneError || size > 1 {
			break
		}
		s = s[:len(s)-1] // part of a rune the cut split
	}
	return s
}

// sizeText renders a byte count for people and models alike.
func sizeText(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
