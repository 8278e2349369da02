// Package prompts holds the model's instructions as embedded templates and
// the one way untrusted text (PR bodies, comments, code) enters a prompt:
// fenced as data, labelled with where it came from, never spliced into
// instructions.
package prompts

import (
	"bytes"
	"embed"
	"fmt"
	"strings"
	"text/template"
)

//go:embed templates/*.tmpl
var files embed.FS

var tmpl = template.Must(template.New("").Funcs(template.FuncMap{
	"data": Data,
}).ParseFS(files, "templates/*.tmpl"))

// Render executes the named template (file name without .tmpl).
func Render(name string, v any) (string, error) {
	var b bytes.Buffer
	if err := tmpl.ExecuteTemplate(&b, name+".tmpl", v); err != nil {
		return "", fmt.Errorf("prompt %s: %w", name, err)
	}
	return strings.TrimSpace(b.String()) + "\n", nil
}

// MustRender is Render for templates whose data cannot fail (tests prove it).
func MustRender(name string, v any) string {
	s, err := Render(name, v)
	if err != nil {
		panic(err)
	}
	return s
}

// Data fences untrusted text as data. The fence is an XML-like element whose
// closing tag cannot appear inside: any "</untrusted" in the text is broken up,
// so text cannot close its fence early and speak as instructions.
func Data(source, text string) string {
	text = strings.ReplaceAll(text, "</untrusted", "<\u200b/untrusted")
	text = strings.ReplaceAll(text, "<untrusted", "<\u200buntrusted")
	return fmt.Sprintf("<untrusted source=%q>\n%s\n</untrusted>", escapeAttr(source), text)
}

func escapeAttr(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	return strings.ReplaceAll(s, `"`, "'")
}
