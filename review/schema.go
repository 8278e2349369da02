package review

import (
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/llm"
)

// passAnswer is the structured answer of a pass. Its schema (strict: every
// property required, optional ones empty) comes from the types below.
type passAnswer struct {
	Findings findingList `json:"findings"`
}

func (passAnswer) SchemaName() string { return "findings" }

// notedAnswer is the answer of the first pass over a chunk when the
// walkthrough is on: the findings, and a line per file of the chunk.
type notedAnswer struct {
	Findings findingList  `json:"findings"`
	Files    fileNoteList `json:"files"`
}

func (notedAnswer) SchemaName() string { return "findings_and_files" }

type fileNoteList []FileNote

func (fileNoteList) JSONSchema() *jsonschema.Schema { return llm.ArrayOf[FileNote]() }

// FileNote is what the review's reading says changed in one file: a line
// the model wrote, for the walkthrough. It is model text: relay it as such.
type FileNote struct {
	Path   string `json:"path" jsonschema:"file path as in the diff header"`
	Change string `json:"change" jsonschema:"one short line: what changed in the file"`
}

// findingList is an array, never null.
type findingList []answerFinding

func (findingList) JSONSchema() *jsonschema.Schema { return llm.ArrayOf[answerFinding]() }

// answerFinding is a finding as the model reports it.
type answerFinding struct {
	Path        string   `json:"path" jsonschema:"file path as in the diff header"`
	Line        int      `json:"line" jsonschema:"line number (R… for the new side, L… for the old)"`
	StartLine   int      `json:"start_line" jsonschema:"first line of a range in the same hunk, or 0"`
	Side        side     `json:"side"`
	Title       string   `json:"title" jsonschema:"one line: what is wrong"`
	Explanation string   `json:"explanation" jsonschema:"why it is wrong and what to do, in markdown"`
	Score       score    `json:"score"`
	Category    category `json:"category"`
	Suggestion  string   `json:"suggestion" jsonschema:"replacement code for the anchored lines, or empty"`
}

func (a answerFinding) finding() Finding {
	return Finding{Path: a.Path, Line: a.Line, StartLine: a.StartLine, Side: diff.Side(a.Side), Title: a.Title,
		Explanation: a.Explanation, Score: int(a.Score), Category: string(a.Category), Suggestion: a.Suggestion}
}

// score is a finding's impact from 1 to 10.
type score int

func (score) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "integer", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(10.0)}
}

// side is the diff side a finding sits on.
type side string

func (side) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Enum: []any{string(diff.Right), string(diff.Left)}}
}

// category is what kind of problem a finding is.
type category string

func (category) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Enum: []any{"bug", "security", "performance", "contract", "maintainability", "testing", "style"}}
}
