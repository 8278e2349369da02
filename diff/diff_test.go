package diff

import (
	"strings"
	"testing"
)

// handlerFile is server/handler.go from testdata/mixed.diff: hunks at old
// 22-27/new 22-31 and old 32-40/new 36-49.
func handlerFile(t *testing.T) File {
	t.Helper()
	f, err := ParsePatch("server/handler.go", readTestdata(t, "handler.patch"))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestContains(t *testing.T) {
	t.Parallel()
	f := handlerFile(t)
	tests := map[string]struct {
		side Side
		line int
		want bool
	}{
		"added line, right":        {side: Right, line: 25, want: true},
		"added line, left number":  {side: Left, line: 41, want: false},
		"context line, right":      {side: Right, line: 29, want: true},
		"context line, left":       {side: Left, line: 25, want: true},
		"deleted line, left":       {side: Left, line: 35, want: true},
		"deleted line only, right": {side: Right, line: 50, want: false},
		"between hunks":            {side: Right, line: 33, want: false},
		"before first hunk":        {side: Right, line: 1, want: false},
		"zero":                     {side: Right, line: 0, want: false},
		"negative":                 {side: Left, line: -3, want: false},
		"invalid side":             {side: Side("up"), line: 25, want: false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := f.Contains(tc.side, tc.line); got != tc.want {
				t.Errorf("Contains(%s, %d) = %v, want %v", tc.side, tc.line, got, tc.want)
			}
		})
	}
}

func TestInSameHunk(t *testing.T) {
	t.Parallel()
	f := handlerFile(t)
	tests := map[string]struct {
		side       Side
		start, end int
		want       bool
	}{
		"one hunk":          {side: Right, start: 25, end: 28, want: true},
		"single line":       {side: Right, start: 25, end: 25, want: true},
		"across hunks":      {side: Right, start: 25, end: 40, want: false},
		"reversed":          {side: Right, start: 28, end: 25, want: false},
		"left deleted pair": {side: Left, start: 35, end: 36, want: true},
		"end not shown":     {side: Right, start: 30, end: 33, want: false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := f.InSameHunk(tc.side, tc.start, tc.end); got != tc.want {
				t.Errorf("InSameHunk(%s, %d, %d) = %v, want %v", tc.side, tc.start, tc.end, got, tc.want)
			}
		})
	}
}

func TestNearest(t *testing.T) {
	t.Parallel()
	f := handlerFile(t)
	deleted, err := ParsePatch("gone.txt", readTestdata(t, "deleted.patch"))
	if err != nil {
		t.Fatal(err)
	}
	tie, err := ParsePatch("tie.txt", "@@ -1 +1 @@\n-a\n+b\n@@ -5 +5 @@\n-c\n+d")
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		file   File
		side   Side
		line   int
		want   int
		wantOK bool
	}{
		"shown line":          {file: f, side: Right, line: 25, want: 25, wantOK: true},
		"before the diff":     {file: f, side: Right, line: 1, want: 22, wantOK: true},
		"after the diff":      {file: f, side: Right, line: 500, want: 49, wantOK: true},
		"gap, nearer up":      {file: f, side: Right, line: 32, want: 31, wantOK: true},
		"gap, 33 nearer 31":   {file: f, side: Right, line: 33, want: 31, wantOK: true},
		"tie goes low":        {file: tie, side: Right, line: 3, want: 1, wantOK: true},
		"gap, nearer down":    {file: f, side: Right, line: 35, want: 36, wantOK: true},
		"left side":           {file: f, side: Left, line: 30, want: 32, wantOK: true},
		"deleted file, right": {file: deleted, side: Right, line: 1, wantOK: false},
		"binary":              {file: File{NewPath: "x.png", Binary: true}, side: Right, line: 1, wantOK: false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, ok := tc.file.Nearest(tc.side, tc.line)
			if got != tc.want || ok != tc.wantOK {
				t.Errorf("Nearest(%s, %d) = %d, %v; want %d, %v", tc.side, tc.line, got, ok, tc.want, tc.wantOK)
			}
		})
	}
}

func TestSnippet(t *testing.T) {
	t.Parallel()
	f := handlerFile(t)
	tests := map[string]struct {
		side       Side
		start, end int
		want       string
	}{
		"single added":   {side: Right, start: 25, end: 25, want: `+	if id == "" {`},
		"single deleted": {side: Left, start: 40, end: 40, want: `-func helper() {}`},
		// The deleted lines 35-36 sit between new lines 38 and 39: the
		// reviewer saw them inside the range, so the quote keeps them.
		"range with interleaved deletes": {side: Right, start: 38, end: 40, want: "" +
			" 	var item Item\n" +
			"-	json.NewDecoder(r.Body).Decode(&item)\n" +
			"-	h.store.Put(item)\n" +
			"+	if err := json.NewDecoder(r.Body).Decode(&item); err != nil {\n" +
			"+		http.Error(w, err.Error(), http.StatusBadRequest)"},
		"left context range": {side: Left, start: 33, end: 35, want: "" +
			" func (h *Handler) post(w http.ResponseWriter, r *http.Request) {\n" +
			" 	var item Item\n" +
			"-	json.NewDecoder(r.Body).Decode(&item)"},
		"across hunks": {side: Right, start: 25, end: 40, want: ""},
		"not shown":    {side: Right, start: 33, end: 33, want: ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var lines []string
			for _, l := range f.Snippet(tc.side, tc.start, tc.end) {
				lines = append(lines, string(l.Kind.Marker())+l.Text)
			}
			if got := strings.Join(lines, "\n"); got != tc.want {
				t.Errorf("Snippet(%s, %d, %d) =\n%s\nwant\n%s", tc.side, tc.start, tc.end, got, tc.want)
			}
		})
	}
}

// Snippet hands out a copy: callers may not reach into the parsed diff.
func TestSnippetIsACopy(t *testing.T) {
	t.Parallel()
	f := handlerFile(t)
	s := f.Snippet(Right, 25, 26)
	s[0].Text = "changed"
	if f.Hunks[0].Lines[3].Text == "changed" {
		t.Error("Snippet aliases the file's lines")
	}
}

func TestPath(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		file File
		want string
	}{
		"modified": {file: File{OldPath: "a", NewPath: "a"}, want: "a"},
		"renamed":  {file: File{OldPath: "a", NewPath: "b"}, want: "b"},
		"deleted":  {file: File{OldPath: "a"}, want: "a"},
		"added":    {file: File{NewPath: "b"}, want: "b"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := tc.file.Path(); got != tc.want {
				t.Errorf("Path() = %q, want %q", got, tc.want)
			}
		})
	}
}
