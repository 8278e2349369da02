package jsonnum

import (
	"encoding/json"
	"errors"
	"math/big"
	"regexp"
	"strconv"
	"testing"
)

func TestInt(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		in      string
		want    int64
		unset   bool
		wantErr bool
	}{
		"integer":              {in: `12`, want: 12},
		"negative":             {in: `-12`, want: -12},
		"zero":                 {in: `0`, want: 0},
		"minus zero":           {in: `-0`, want: 0},
		"minus zero string":    {in: `"-0"`, want: 0},
		"whole float":          {in: `12.0`, want: 12},
		"whole float string":   {in: `"12.50e1"`, want: 125},
		"exponent":             {in: `1e3`, want: 1000},
		"exponent string":      {in: `"1e3"`, want: 1000},
		"capital exponent":     {in: `1E+3`, want: 1000},
		"negative exponent":    {in: `1000e-3`, want: 1},
		"fraction by exponent": {in: `1500e-3`, wantErr: true},
		"zero with exponent":   {in: `0e999999999999999999999`, want: 0},
		"zero fraction":        {in: `0.000`, want: 0},
		"numeric string":       {in: `"12"`, want: 12},
		"escaped string":       {in: `"\u0031\u0032"`, want: 12},
		"big id":               {in: `"4611686018427387904"`, want: 1 << 62},
		"max int64":            {in: `9223372036854775807`, want: 1<<63 - 1},
		"min int64":            {in: `-9223372036854775808`, want: -1 << 63},
		"exact beyond float":   {in: `9007199254740993.0`, want: 9007199254740993},
		"surrounding space":    {in: " 7 ", want: 7},
		"null":                 {in: `null`, unset: true},
		"one past max":         {in: `9223372036854775808`, wantErr: true},
		"huge":                 {in: `1e19`, wantErr: true},
		"huge string":          {in: `"123456789012345678901234567890"`, wantErr: true},
		"huge exponent":        {in: `1e999999999999999999999`, wantErr: true},
		"tiny":                 {in: `1e-400`, wantErr: true},
		"fraction":             {in: `1.5`, wantErr: true},
		"fraction string":      {in: `"1.5"`, wantErr: true},
		"hex":                  {in: `"0x10"`, wantErr: true},
		"space inside string":  {in: `" 7"`, wantErr: true},
		"empty string":         {in: `""`, wantErr: true},
		"plus":                 {in: `"+1"`, wantErr: true},
		"leading zero":         {in: `"007"`, wantErr: true},
		"dot only":             {in: `"1."`, wantErr: true},
		"no exponent digits":   {in: `"1e"`, wantErr: true},
		"infinity":             {in: `"Infinity"`, wantErr: true},
		"NaN":                  {in: `"NaN"`, wantErr: true},
		"word":                 {in: `"ten"`, wantErr: true},
		"true":                 {in: `true`, wantErr: true},
		"array":                {in: `[1]`, wantErr: true},
		"object":               {in: `{"n":1}`, wantErr: true},
		"string in a string":   {in: `"\"7\""`, wantErr: true},
		"unterminated string":  {in: `"12`, wantErr: true},
		"trailing garbage":     {in: `"12abc"`, wantErr: true},
		"digits then sentence": {in: `"12 tokens"`, wantErr: true},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			n := Int(-42) // null must leave it as it was
			err := n.UnmarshalJSON([]byte(tt.in))
			switch {
			case tt.wantErr:
				if !errors.Is(err, ErrNotInt) {
					t.Fatalf("%s: got %d, %v; want an error wrapping ErrNotInt", tt.in, n, err)
				}
				if n != -42 {
					t.Errorf("%s: a failed read changed the value to %d", tt.in, n)
				}
			case err != nil:
				t.Fatalf("%s: %v", tt.in, err)
			case tt.unset && n != -42:
				t.Errorf("%s: changed the value to %d", tt.in, n)
			case !tt.unset && int64(n) != tt.want:
				t.Errorf("%s = %d, want %d", tt.in, n, tt.want)
			}
		})
	}
}

// In a struct, through encoding/json, as every caller reads it.
func TestIntInAStruct(t *testing.T) {
	t.Parallel()
	var v struct {
		A, B, C Int
		D       []Int
	}
	v.C = 5
	if err := json.Unmarshal([]byte(`{"A":"41","B":2.0,"C":null,"D":[1,"2",3e0]}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.A != 41 || v.B != 2 || v.C != 5 || len(v.D) != 3 || v.D[2] != 3 {
		t.Errorf("got %+v", v)
	}
	if err := json.Unmarshal([]byte(`{"A":{"nested":1}}`), &v); !errors.Is(err, ErrNotInt) {
		t.Errorf("nested object: %v", err)
	}
	out, err := json.Marshal(Int(7))
	if err != nil || string(out) != "7" {
		t.Errorf("marshal = %s, %v", out, err)
	}
}

var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?([0-9]+))?$`)

// reference reads a number the slow, obvious way: JSON's grammar by a
// regular expression, the value by math/big. ok is false when Int must
// refuse it.
func reference(text string) (v int64, ok bool) {
	m := jsonNumber.FindStringSubmatch(text)
	if m == nil {
		return 0, false
	}
	if len(m[4]) > 4 {
		return 0, false // the fuzzer's exponents stay small; see the caller
	}
	r, good := new(big.Rat).SetString(text)
	if !good || !r.IsInt() || !r.Num().IsInt64() {
		return 0, false
	}
	return r.Num().Int64(), true
}

// FuzzInt checks Parse against the reference on whatever the fuzzer writes,
// bare and quoted.
func FuzzInt(f *testing.F) {
	for _, s := range []string{"12", "-0", "1e3", "1.5", "0x10", " 7", "", "null", "true", "[1]", `{"a":1}`,
		"9223372036854775807", "9223372036854775808", "1.0e1", "100e-2", "0.5e1", "1e-5", "00", "-", "1e+"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, in := range []string{s, strconv.Quote(s)} {
			v, set, err := Parse([]byte(in))
			text := s
			if in == s {
				text = string(trimSpace([]byte(s)))
				if text == "null" {
					if set || err != nil {
						t.Fatalf("%q: set %v, err %v", in, set, err)
					}
					continue
				}
				if len(text) > 0 && text[0] == '"' {
					continue // a JSON string the fuzzer wrote: its quoted form covers it
				}
			}
			if m := jsonNumber.FindStringSubmatch(text); m != nil && len(m[4]) > 4 {
				continue // math/big would build a number of that many digits
			}
			want, ok := reference(text)
			switch {
			case ok && (err != nil || !set || v != want):
				t.Fatalf("Parse(%s) = %d, %v, %v; want %d", in, v, set, err, want)
			case !ok && err == nil:
				t.Fatalf("Parse(%s) = %d, want an error", in, v)
			}
		}
	})
}
