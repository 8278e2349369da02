package agentmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/review-my-code-bot/rmc/diff"
)

// Submission is the JSON a person's review is exchanged and stored as:
//
//	{"globalComment": string|null,
//	 "comments": [{"file": "src/a.go", "startLine": 42|null, "endLine": 45|null,
//	               "side": "left"|"right", "body": "..."}]}
//
// A comment with null startLine and endLine is about the whole file.
type Submission struct {
	GlobalComment *string            `json:"globalComment"`
	Comments      []SubmittedComment `json:"comments"`
}

// SubmittedComment is one comment of a Submission.
type SubmittedComment struct {
	File      string    `json:"file"`
	StartLine *int      `json:"startLine"`
	EndLine   *int      `json:"endLine"`
	Side      diff.Side `json:"side"`
	Body      string    `json:"body"`
}

// ErrEmpty is returned by Validate for a submission without any comment.
var ErrEmpty = errors.New("the review is empty: add a comment or an overall comment")

// DecodeSubmission reads one JSON Submission strictly: unknown fields,
// wrong types and trailing data are errors, because a client that sends
// them is not speaking this format and guessing would lose comments.
func DecodeSubmission(r io.Reader) (Submission, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var s Submission
	if err := dec.Decode(&s); err != nil {
		return Submission{}, fmt.Errorf("decode review submission: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Submission{}, errors.New("decode review submission: data after the JSON object")
	}
	return s, nil
}

// Validate checks s against the diff it was made on: every file is in the
// diff, every line is shown on its side, a range stays within one hunk,
// binary files get only file-level comments, and no body is blank. The
// error names the comment (counting from 1) and, where it helps, the
// nearest line that can take it.
func (s Submission) Validate(files []diff.File) error {
	if len(s.Comments) == 0 && (s.GlobalComment == nil || strings.TrimSpace(*s.GlobalComment) == "") {
		return ErrEmpty
	}
	byPath := make(map[string]diff.File, len(files))
	for _, f := range files {
		byPath[f.Path()] = f
	}
	for i, c := range s.Comments {
		if err := c.validate(byPath); err != nil {
			return fmt.Errorf("comment %d (%s): %w", i+1, c.where(), err)
		}
	}
	return nil
}

func (c SubmittedComment) where() string {
	file := c.File
	if file == "" {
		file = "no file"
	}
	switch {
	case c.StartLine == nil && c.EndLine == nil:
		return file + ", whole file"
	case c.StartLine != nil && c.EndLine != nil && *c.StartLine != *c.EndLine:
		return fmt.Sprintf("%s, lines %d-%d %s", file, *c.StartLine, *c.EndLine, c.Side)
	case c.StartLine != nil:
		return fmt.Sprintf("%s, line %d %s", file, *c.StartLine, c.Side)
	default:
		return fmt.Sprintf("%s, end line %d %s", file, *c.EndLine, c.Side)
	}
}

func (c SubmittedComment) validate(byPath map[string]diff.File) error {
	if c.File == "" {
		return errors.New("file is missing")
	}
	f, ok := byPath[c.File]
	if !ok {
		return fmt.Errorf("file %q is not in the diff", c.File)
	}
	if strings.TrimSpace(c.Body) == "" {
		return errors.New("body is empty")
	}
	if c.StartLine == nil && c.EndLine == nil {
		if c.Side != "" && !c.Side.Valid() {
			return fmt.Errorf("side %q is neither %q nor %q", c.Side, diff.Left, diff.Right)
		}
		return nil
	}
	if c.StartLine == nil || c.EndLine == nil {
		return errors.New("startLine and endLine must both be set, or both be null for a file-level comment")
	}
	if !c.Side.Valid() {
		return fmt.Errorf("side %q is neither %q nor %q", c.Side, diff.Left, diff.Right)
	}
	start, end := *c.StartLine, *c.EndLine
	if start < 1 || end < start {
		return fmt.Errorf("line range %d-%d is not 1 <= startLine <= endLine", start, end)
	}
	if f.Binary {
		return errors.New("the file is binary: comment on the whole file instead")
	}
	for _, n := range []int{start, end} {
		if f.Contains(c.Side, n) {
			continue
		}
		if near, ok := f.Nearest(c.Side, n); ok {
			return fmt.Errorf("line %d is not in the diff on the %s side (nearest line there: %d)", n, c.Side, near)
		}
		return fmt.Errorf("line %d is not in the diff: the file shows no lines on the %s side", n, c.Side)
	}
	if !f.InSameHunk(c.Side, start, end) {
		return fmt.Errorf("lines %d-%d span more than one hunk of the diff", start, end)
	}
	return nil
}

// Normalize returns s as it is stored: bodies cleaned of surrounding blank
// lines and trailing spaces, a blank overall comment as null, a file-level
// comment's missing side as right, and comments in document order (see
// Markdown). Call it on a validated submission.
func (s Submission) Normalize(files []diff.File) Submission {
	out := Submission{Comments: make([]SubmittedComment, 0, len(s.Comments))}
	if s.GlobalComment != nil {
		if g := cleanBody(*s.GlobalComment); g != "" {
			out.GlobalComment = &g
		}
	}
	r := s.Review()
	sortComments(r.Comments, files)
	for _, c := range r.Comments {
		sc := SubmittedComment{File: c.File, Side: c.side(), Body: cleanBody(c.Body)}
		if !c.fileLevel() {
			start, end := c.lines()
			sc.StartLine, sc.EndLine = &start, &end
		}
		out.Comments = append(out.Comments, sc)
	}
	return out
}

// Review converts s for Markdown.
func (s Submission) Review() Review {
	r := Review{Comments: make([]Comment, 0, len(s.Comments))}
	if s.GlobalComment != nil {
		r.Global = *s.GlobalComment
	}
	for _, c := range s.Comments {
		mc := Comment{File: c.File, Side: c.Side, Body: c.Body}
		if c.StartLine != nil {
			mc.StartLine = *c.StartLine
		}
		if c.EndLine != nil {
			mc.EndLine = *c.EndLine
		}
		r.Comments = append(r.Comments, mc)
	}
	return r
}

// MarshalIndent renders s as the stored JSON file: two-space indented, an
// empty comment list as [] rather than null, and a final newline.
func (s Submission) MarshalIndent() ([]byte, error) {
	if s.Comments == nil {
		s.Comments = []SubmittedComment{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	// Bodies hold code: "<" and "&" should read as themselves in the file.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return nil, fmt.Errorf("encode review submission: %w", err)
	}
	return buf.Bytes(), nil
}
