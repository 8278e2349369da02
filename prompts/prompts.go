// Package prompts holds the model's instructions as embedded templates and
// the one way untrusted text (PR bodies, comments, code) enters a prompt:
// fenced as data, labelled with where it came from, never spliced into
// instructions.
package prompts

import (
	"bytes"
	"embed"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"text/template"
	"unicode"
)

//go:embed templates/*.tmpl
var files embed.FS

var tmpl = template.Must(template.New("").Option("missingkey=error").Funcs(template.FuncMap{
	"data":  Data,
	"path":  Path,
	"lines": func(xs []string) string { return strings.Join(xs, "\n") },
	"found": foundLines,
}).ParseFS(files, "templates/*.tmpl"))

// render executes the named template: a file name without .tmpl, or a
// template a file defines (system.tmpl's two parts). The typed renderers in
// typed.go are the only callers.
func render(name string, v any) (string, error) {
	var b bytes.Buffer
	if tmpl.Lookup(name) == nil {
		name += ".tmpl"
	}
	if err := tmpl.ExecuteTemplate(&b, name, v); err != nil {
		return "", fmt.Errorf("prompt %s: %w", strings.TrimSuffix(name, ".tmpl"), err)
	}
	return strings.TrimSpace(b.String()) + "\n", nil
}

// Data fences untrusted text as data. The fence is an XML-like element whose
// closing tag cannot appear inside: any "</untrusted" in the text is broken up,
// so text cannot close its fence early and speak as instructions.
func Data(source, text string) string {
	text = fenceTag.ReplaceAllString(text, "<\u200b$1")
	return fmt.Sprintf("<untrusted source=%q>\n%s\n</untrusted>", escapeAttr(source), text)
}

// fenceTag finds anything that could open or close a fence, in any case.
var fenceTag = regexp.MustCompile(`(?i)<(\s*/?\s*untrusted)`)

// escapeAttr keeps a label (which may hold a file path someone chose) on
// one line and unable to open or close a fence.
func escapeAttr(s string) string {
	s = strings.NewReplacer("\n", " ", "\r", " ", `"`, "'", "<", "‹", ">", "›").Replace(s)
	return s
}

// Path renders a file path for instructions. Git allows any byte but NUL in
// a path, newlines included, so a path someone chose is quoted (Go syntax)
// whenever it holds anything but plain printable characters: it can never
// add a line to the instructions.
func Path(p string) string {
	for _, r := range p {
		if r < 0x20 || r == 0x7f || r == '<' || r == '>' || r == '`' || !unicode.IsPrint(r) {
			return strconv.Quote(p)
		}
	}
	return p
}
