package gate

import (
	"strings"
	"testing"
)

// IsBinary is git's rule, bounded where git bounds it: a NUL byte in the
// first 8,000 bytes, and nowhere else, makes a blob binary.
func TestBinary(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		content string
		binary  bool
	}{
		"empty":                        {"", false},
		"text":                         {"package x\n", false},
		"UTF-8 text with high bytes":   {"// ünïcødé ✓\n", false},
		"a NUL first":                  {"\x00PNG", true},
		"a NUL at byte 8,000 (last)":   {strings.Repeat("a", 7999) + "\x00", true},
		"a NUL at byte 8,001 (past)":   {strings.Repeat("a", 8000) + "\x00", false},
		"a short file ending in a NUL": {"abc\x00", true},
	} {
		if got := IsBinary(tc.content); got != tc.binary {
			t.Errorf("%s: IsBinary = %v, want %v", name, got, tc.binary)
		}
	}
}
