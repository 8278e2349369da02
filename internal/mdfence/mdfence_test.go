package mdfence

import "testing"

func TestOpen(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		mode Mode
		want Fence
		ok   bool
	}{
		{"```", Strict, Fence{'`', 3, ""}, true},
		{"~~~~ go ", Strict, Fence{'~', 4, "go"}, true},
		{"   ```go", Strict, Fence{'`', 3, "go"}, true},
		{"    ```", Strict, Fence{}, false},
		{"\t```", Strict, Fence{}, false},
		{"``", Strict, Fence{}, false},
		{"```a`b", Strict, Fence{}, false},
		{"~~~a`b", Strict, Fence{'~', 3, "a`b"}, true},
		{"x```", Strict, Fence{}, false},
		{"        ```rmcoc", Lenient, Fence{'`', 3, "rmcoc"}, true},
		{"\u00a0\t~~~rmcoc\r", Lenient, Fence{'~', 3, "rmcoc"}, true},
		{"```a`b", Lenient, Fence{}, false},
	}
	for _, tc := range tests {
		got, ok := Open(tc.line, tc.mode)
		if ok != tc.ok || got != tc.want {
			t.Errorf("Open(%q, %v) = %+v, %v; want %+v, %v", tc.line, tc.mode, got, ok, tc.want, tc.ok)
		}
	}
}

func TestCloses(t *testing.T) {
	t.Parallel()
	bt := Fence{Char: '`', Len: 4}
	tests := []struct {
		f    Fence
		line string
		mode Mode
		want bool
	}{
		{bt, "````", Strict, true},
		{bt, "`````  \r", Strict, true},
		{bt, "   ````", Strict, true},
		{bt, "```", Strict, false},
		{bt, "    ````", Strict, false},
		{bt, "~~~~", Strict, false},
		{bt, "```` x", Strict, false},
		{bt, "          ````  ", Lenient, true},
		{bt, "````x", Lenient, false},
		{bt, "```", Lenient, false},
		{Fence{}, "", Strict, false},
	}
	for _, tc := range tests {
		if got := tc.f.Closes(tc.line, tc.mode); got != tc.want {
			t.Errorf("%+v.Closes(%q, %v) = %v, want %v", tc.f, tc.line, tc.mode, got, tc.want)
		}
	}
	if got := bt.Closer(); got != "````" {
		t.Errorf("Closer() = %q", got)
	}
}

func TestIndent(t *testing.T) {
	t.Parallel()
	for line, want := range map[string]int{"": 0, "x": 0, "  x": 2, "\tx": 4, " \t x": 6, "   ": 3} {
		if got := Indent(line); got != want {
			t.Errorf("Indent(%q) = %d, want %d", line, got, want)
		}
	}
}

func TestLonger(t *testing.T) {
	for _, tc := range []struct {
		text string
		min  int
		want string
	}{
		{"plain", 3, "```"},
		{"a ``` b", 3, "````"},
		{"````\n`", 3, "`````"},
		{"x`y", 1, "``"},
		{"", 1, "`"},
	} {
		if got := Longer(tc.text, '`', tc.min); got != tc.want {
			t.Errorf("Longer(%q, %d) = %q, want %q", tc.text, tc.min, got, tc.want)
		}
	}
}
