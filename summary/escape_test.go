package summary

import "testing"

// A CR ends a markdown line too: a title must not break the summary's row.
func TestMdEscapeLineEndings(t *testing.T) {
	t.Parallel()
	if got := mdEscape("a\rb\r\nc\nd|<e"); got != `a b c d\|&lt;e` {
		t.Errorf("mdEscape = %q", got)
	}
}
