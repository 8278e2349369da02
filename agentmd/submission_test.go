package agentmd

import (
	"errors"
	"github.com/review-my-code-bot/rmc/internal/golden"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/diff"
)

func lines(start, end int) (*int, *int) { return &start, &end }

func str(s string) *string { return &s }

func comment(file string, start, end int, side diff.Side, body string) SubmittedComment {
	s, e := lines(start, end)
	return SubmittedComment{File: file, StartLine: s, EndLine: e, Side: side, Body: body}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	files := reviewFiles(t)
	oneStart := 42
	tests := map[string]struct {
		sub     Submission
		wantErr string // "" for valid
	}{
		"line comment":        {sub: Submission{Comments: []SubmittedComment{comment("src/api/handler.ts", 42, 42, diff.Right, "x")}}},
		"range in one hunk":   {sub: Submission{Comments: []SubmittedComment{comment("src/api/handler.ts", 78, 85, diff.Right, "x")}}},
		"left deleted line":   {sub: Submission{Comments: []SubmittedComment{comment("src/legacy.ts", 1, 2, diff.Left, "x")}}},
		"file-level, no side": {sub: Submission{Comments: []SubmittedComment{{File: "assets/logo.png", Body: "x"}}}},
		"global only":         {sub: Submission{GlobalComment: str("ok")}},
		"nothing":             {sub: Submission{}, wantErr: ErrEmpty.Error()},
		"blank global only":   {sub: Submission{GlobalComment: str("  \n")}, wantErr: ErrEmpty.Error()},
		"line not in diff": {
			sub:     Submission{Comments: []SubmittedComment{comment("src/api/handler.ts", 60, 60, diff.Right, "x")}},
			wantErr: "comment 1 (src/api/handler.ts, line 60 right): line 60 is not in the diff on the right side (nearest line there: 45)",
		},
		"range across hunks": {
			sub:     Submission{Comments: []SubmittedComment{comment("src/api/handler.ts", 42, 80, diff.Right, "x")}},
			wantErr: "lines 42-80 span more than one hunk",
		},
		// The page cannot express a range over two files; the closest a
		// client gets is a range whose end line only the other file has.
		"range into another file": {
			sub:     Submission{Comments: []SubmittedComment{comment("src/utils/parse.ts", 2, 42, diff.Right, "x")}},
			wantErr: "line 42 is not in the diff on the right side (nearest line there: 3)",
		},
		// A range from a deleted line (left) to an added line (right):
		// one of its ends is always on the wrong side.
		"range across sides": {
			sub:     Submission{Comments: []SubmittedComment{comment("src/legacy.ts", 1, 2, diff.Right, "x")}},
			wantErr: "the file shows no lines on the right side",
		},
		"unknown file": {
			sub:     Submission{Comments: []SubmittedComment{comment("nope.go", 1, 1, diff.Right, "x")}},
			wantErr: `file "nope.go" is not in the diff`,
		},
		"binary line comment": {
			sub:     Submission{Comments: []SubmittedComment{comment("assets/logo.png", 1, 1, diff.Right, "x")}},
			wantErr: "binary: comment on the whole file instead",
		},
		"blank body": {
			sub:     Submission{Comments: []SubmittedComment{comment("src/api/handler.ts", 42, 42, diff.Right, " \n ")}},
			wantErr: "body is empty",
		},
		"bad side": {
			sub:     Submission{Comments: []SubmittedComment{comment("src/api/handler.ts", 42, 42, "both", "x")}},
			wantErr: `side "both" is neither`,
		},
		"missing side": {
			sub:     Submission{Comments: []SubmittedComment{comment("src/api/handler.ts", 42, 42, "", "x")}},
			wantErr: `side "" is neither`,
		},
		"end before start": {
			sub:     Submission{Comments: []SubmittedComment{comment("src/api/handler.ts", 45, 42, diff.Right, "x")}},
			wantErr: "line range 45-42",
		},
		"zero line": {
			sub:     Submission{Comments: []SubmittedComment{comment("src/api/handler.ts", 0, 0, diff.Right, "x")}},
			wantErr: "line range 0-0",
		},
		"only start": {
			sub:     Submission{Comments: []SubmittedComment{{File: "src/api/handler.ts", StartLine: &oneStart, Side: diff.Right, Body: "x"}}},
			wantErr: "must both be set",
		},
		"no file": {
			sub:     Submission{Comments: []SubmittedComment{{Body: "x"}}},
			wantErr: "comment 1 (no file, whole file): file is missing",
		},
		"second comment named": {
			sub:     Submission{Comments: []SubmittedComment{{File: "src/legacy.ts", Body: "x"}, {File: "src/legacy.ts", Body: ""}}},
			wantErr: "comment 2 (src/legacy.ts, whole file): body is empty",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			err := tc.sub.Validate(files)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("Validate: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("Validate error = %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestValidateEmptyIsErrEmpty(t *testing.T) {
	t.Parallel()
	if err := (Submission{}).Validate(nil); !errors.Is(err, ErrEmpty) {
		t.Fatalf("Validate = %v, want ErrEmpty", err)
	}
}

func TestDecodeSubmission(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		body    string
		wantErr string
	}{
		"valid":         {body: `{"globalComment":null,"comments":[{"file":"a","startLine":1,"endLine":2,"side":"right","body":"x"}]}`},
		"file-level":    {body: `{"globalComment":"g","comments":[{"file":"a","startLine":null,"endLine":null,"side":"right","body":"x"}]}`},
		"unknown field": {body: `{"globalComment":null,"comments":[],"extra":1}`, wantErr: "unknown field"},
		"wrong type":    {body: `{"globalComment":null,"comments":[{"file":"a","startLine":"1"}]}`, wantErr: "cannot unmarshal"},
		"not json":      {body: `file=a&body=x`, wantErr: "invalid character"},
		"trailing data": {body: `{"comments":[]} {"comments":[]}`, wantErr: "data after the JSON object"},
		"empty body":    {body: ``, wantErr: "EOF"},
		"truncated":     {body: `{"comments":[{"file":"a"`, wantErr: "unexpected EOF"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := DecodeSubmission(strings.NewReader(tc.body))
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("DecodeSubmission: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("DecodeSubmission error = %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

// A submission as the page sends it, normalized and stored: the JSON and
// the Markdown file the agent gets.
func TestSubmissionGolden(t *testing.T) {
	t.Parallel()
	files := reviewFiles(t)
	sub, err := DecodeSubmission(strings.NewReader(`{
		"globalComment": "  Nearly there.\n",
		"comments": [
			{"file": "src/utils/parse.ts", "startLine": null, "endLine": null, "side": "right", "body": "Needs a test <please> & soon."},
			{"file": "src/api/handler.ts", "startLine": 78, "endLine": 80, "side": "right", "body": "Scope this.\r\n"},
			{"file": "src/legacy.ts", "startLine": 2, "endLine": 2, "side": "left", "body": "Still used?"},
			{"file": "src/api/handler.ts", "startLine": 42, "endLine": 42, "side": "right", "body": "Handle errors."}
		]
	}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := sub.Validate(files); err != nil {
		t.Fatal(err)
	}
	norm := sub.Normalize(files)
	js, err := norm.MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, "submission.json.golden", string(js))
	golden.Assert(t, "submission.md.golden", Markdown(norm.Review(), files))

	// Normalizing is idempotent: what is stored reads back the same.
	again, err := DecodeSubmission(strings.NewReader(string(js)))
	if err != nil {
		t.Fatal(err)
	}
	js2, err := again.Normalize(files).MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	if string(js2) != string(js) {
		t.Errorf("normalizing twice changed the JSON:\n%s\nthen\n%s", js, js2)
	}
}

func TestMarshalIndentEmptyComments(t *testing.T) {
	t.Parallel()
	js, err := Submission{GlobalComment: str("g")}.MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"globalComment\": \"g\",\n  \"comments\": []\n}\n"; string(js) != want {
		t.Errorf("got %q, want %q", js, want)
	}
}
