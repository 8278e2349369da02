package prompts

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// full holds, per template file, its typed renderer called with a struct
// whose every field is set, and the data render gets for the same output.
var full = map[string]struct {
	typed func() (string, error)
	data  any
}{
	"classify":     {func() (string, error) { return Classify("comment") }, "comment"},
	"dispute":      {func() (string, error) { return Dispute(fullDispute) }, fullDispute},
	"local_system": {func() (string, error) { return LocalSystem(fullLocal) }, fullLocal},
	"question":     {func() (string, error) { return Question(fullQuestion) }, fullQuestion},
	"review_pass":  {func() (string, error) { return ReviewPass(fullPass) }, fullPass},
	"review_chunk": {func() (string, error) { return ReviewChunk(fullChunk) }, fullChunk},
	"verify_fix":   {func() (string, error) { return VerifyFix(fullVerify) }, fullVerify},
	"walkthrough":  {func() (string, error) { return Walkthrough(fullWalkthrough) }, fullWalkthrough},
	"checks":       {func() (string, error) { return Checks(fullChecks) }, fullChecks},
	"system": {func() (string, error) {
		s, err := System(fullSystem)
		return s.String(), err
	}, fullSystem},
}

var (
	fullDispute = DisputeData{Path: "a.go", Line: 3, Score: 9, Blocking: true, Status: "OPEN",
		Thread: []Turn{{Source: "you", Body: "finding"}}, Author: "alice", Replies: "no"}
	fullLocal    = LocalSystemData{Base: "main", Files: []string{"a.go (modified)"}, Rules: "rules"}
	fullQuestion = QuestionData{Asker: "bob", Question: "why?", Conversation: []Turn{{Source: "comment by @bob", Body: "hi"}},
		Thread: &Thread{Path: "a.go", Line: 4, DiffHunk: "@@ -1 +1 @@", Private: true}}
	fullPass = ReviewPassData{Pass: Pass{N: 2, Name: "structure", Focus: "contracts"}, Chunk: 1, Chunks: 2,
		Found: []Found{{Path: "a.go", Line: 3, Title: "nil map"}}, Problem: 5, Blocking: 8, Notes: true}
	fullChunk       = ReviewChunkData{Chunk: 1, Chunks: 2, Diff: "1+x"}
	fullVerify      = VerifyFixData{Path: "a.go", Line: 5, Body: "finding", Head: "1234567"}
	fullChecks      = ChecksData{Checks: []CheckPrompt{{Name: "auth", Instructions: "every handler checks auth", Files: []string{"a.go"}}}, Diff: "1+x", Truncated: true}
	fullWalkthrough = WalkthroughData{Files: []string{"a.go (modified, +1 -0): adds x"}, More: []string{"b/ (3 more files, +3 -0)"}, Diagram: true, Issues: true}
	fullSystem      = SystemData{Repo: "o/r", Author: "alice", HeadRef: "h", BaseRef: "main", HeadShort: "1234567", TitleAndBody: "t\n\nb",
		Number: 7, Files: []string{"a.go (modified, +1 -0)"}, FilesTruncated: true, Rules: "r", RulesSource: "AGENTS.md",
		Instructions: "i", Language: "French", Learnings: "- L-1", Issues: []Issue{{Ref: "o/r#3", State: "open", Title: "t", Body: "b"}}}
)

// TestTypedRenderersFullyPopulated renders every template from a struct
// with every field set: nothing may come out as "<no value>", and the
// struct has no field the test forgot.
func TestTypedRenderersFullyPopulated(t *testing.T) {
	t.Parallel()
	for name, tc := range full {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if path := zeroField(reflect.ValueOf(tc.data), name); path != "" {
				t.Fatalf("the test data leaves %s unset", path)
			}
			out, err := tc.typed()
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(out, "<no value>") || strings.Contains(out, "<nil>") {
				t.Errorf("a field is missing:\n%s", out)
			}
		})
	}
}

// TestEveryTemplateHasATypedRenderer: each file in templates/ is rendered
// by a typed function (the same text render gives for that file), and
// nothing else is a template.
func TestEveryTemplateHasATypedRenderer(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("templates", "*.tmpl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no templates found (%v)", err)
	}
	if len(files) != len(full) {
		t.Errorf("%d template files, %d typed renderers", len(files), len(full))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".tmpl")
		tc, ok := full[name]
		if !ok {
			t.Errorf("template %s has no typed renderer", name)
			continue
		}
		got, err := tc.typed()
		if err != nil {
			t.Fatal(err)
		}
		want, err := render(name, tc.data)
		if name == "system" { // its file only defines its two parts
			var parts [2]string
			for i, part := range []string{"system_instructions", "system_context"} {
				if parts[i], err = render(part, tc.data); err != nil {
					t.Fatal(err)
				}
			}
			want = strings.TrimSuffix(parts[0], "\n") + "\n\n" + parts[1]
		}
		if err != nil || got != want {
			t.Errorf("%s: typed renderer gives\n%s\nrender gives (%v)\n%s", name, got, err, want)
		}
	}
}

func TestRenderErrors(t *testing.T) {
	t.Parallel()
	if out, err := render("no_such_template", "x"); err == nil || out != "" || !strings.HasPrefix(err.Error(), "prompt no_such_template: ") {
		t.Errorf("render of an unknown template = %q, %v", out, err)
	}
	// A value of the wrong type fails at execution (the typed renderers
	// make this a compile error for callers).
	if out, err := render("question", struct{ Asker string }{"alice"}); err == nil || out != "" || !strings.HasPrefix(err.Error(), "prompt question: ") {
		t.Errorf("render with a wrong type = %q, %v", out, err)
	}
}

// TestSystemParts: the instructions hold no pull request data, the context
// all of it, and together they are the system message.
func TestSystemParts(t *testing.T) {
	t.Parallel()
	s, err := System(fullSystem)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(s.Instructions, "\n\n") || strings.Contains(s.Instructions, "<untrusted source=") || !strings.Contains(s.Instructions, "French") {
		t.Errorf("instructions = %q", s.Instructions)
	}
	if !strings.HasPrefix(s.Context, "# The pull request\n") || !strings.Contains(s.Context, fullSystem.TitleAndBody) {
		t.Errorf("context = %q", s.Context)
	}
	if s.String() != s.Instructions+s.Context {
		t.Errorf("String() is not the concatenation")
	}
}

// zeroField names the first zero field in v, "" when every field is set.
func zeroField(v reflect.Value, path string) string {
	// The kinds the typed prompt data is built of; every other kind is a
	// leaf, checked below.
	//exhaustive:ignore
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return path
		}
		return zeroField(v.Elem(), path)
	case reflect.Struct:
		for i := range v.NumField() {
			if p := zeroField(v.Field(i), path+"."+v.Type().Field(i).Name); p != "" {
				return p
			}
		}
		return ""
	case reflect.Slice:
		if v.Len() == 0 {
			return path
		}
		return zeroField(v.Index(0), path+"[0]")
	}
	if v.IsZero() {
		return path
	}
	return ""
}
