package budget

import (
	"fmt"
	"strings"
	"testing"
)

// recordTB keeps a check's failures instead of failing the test.
type recordTB struct {
	testing.TB
	errors []string
}

func (r *recordTB) Helper()             {}
func (r *recordTB) Logf(string, ...any) {}
func (r *recordTB) Errorf(f string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(f, args...))
}

var sink []string

// The check passes linear work (a copy, a split) and fails work that
// allocates a copy of the rest of its input at every byte.
func TestLinear(t *testing.T) {
	input := func(n int) string { return strings.Repeat("ab\n", n/3) }
	tests := map[string]struct {
		work func(string)
		fail bool
	}{
		"a copy":             {work: func(s string) { sink = []string{strings.Clone(s)} }},
		"a split into lines": {work: func(s string) { sink = strings.Split(s, "\n") }},
		"nothing":            {work: func(string) {}},
		"a copy of each rest": {work: func(s string) {
			sink = sink[:0]
			for i := 0; i < len(s); i += 64 {
				sink = append(sink, strings.Clone(s[i:]))
			}
		}, fail: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			r := &recordTB{TB: t}
			Linear(r, 1<<14, input, tc.work)
			if failed := len(r.errors) > 0; failed != tc.fail {
				t.Errorf("failed = %v %q, want %v", failed, r.errors, tc.fail)
			}
		})
	}
}
