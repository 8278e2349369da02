package review

import "github.com/review-my-code-bot/rmc/diff"

type passPrompt struct {
	Pass              Pass
	Chunk, Chunks     int
	Diff              string
	SameDiff          bool // the diff is the one shown in pass 1
	Problem, Blocking int
}

// findingsSchema is the structured answer of a pass (strict JSON schema:
// every property required, optional ones nullable or empty).
var findingsSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"findings": map[string]any{
			"type": "array",
			"items": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"path":        map[string]any{"type": "string", "description": "file path as in the diff header"},
					"line":        map[string]any{"type": "integer", "description": "line number (R… for the new side, L… for the old)"},
					"start_line":  map[string]any{"type": "integer", "description": "first line of a range in the same hunk, or 0"},
					"side":        map[string]any{"type": "string", "enum": []any{string(diff.Right), string(diff.Left)}},
					"title":       map[string]any{"type": "string", "description": "one line: what is wrong"},
					"explanation": map[string]any{"type": "string", "description": "why it is wrong and what to do, in markdown"},
					"score":       map[string]any{"type": "integer", "minimum": 1, "maximum": 10},
					"category":    map[string]any{"type": "string", "enum": []any{"bug", "security", "performance", "contract", "maintainability", "testing", "style"}},
					"suggestion":  map[string]any{"type": "string", "description": "replacement code for the anchored lines, or empty"},
				},
				"required":             []any{"path", "line", "start_line", "side", "title", "explanation", "score", "category", "suggestion"},
				"additionalProperties": false,
			},
		},
	},
	"required":             []any{"findings"},
	"additionalProperties": false,
}
