// Package jsonnum reads whole numbers that other programs wrote into JSON,
// with one rule for the whole module: GitHub's GraphQL BigInt (a string), a
// model's tool arguments ("10", 10.0), a provider's token counts, the ids in
// rmcoc blocks. A place that must tolerate more, or less, says so where it
// reads the number, around Int; it does not parse numbers again.
package jsonnum

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrNotInt is the error for a value Int does not read.
var ErrNotInt = errors.New("not a whole number")

// Int is a whole number read leniently from JSON: an integer (12), a whole
// number written with a fraction or an exponent (12.0, 1.2e1, 1e3), or a
// string that holds one of those, exactly as JSON writes numbers ("12",
// "1e3"). null leaves it as it was. Anything else is an error wrapping
// ErrNotInt: a fraction (1.5), a number outside int64, a string that is not
// a JSON number ("", " 7", "0x10", "+1", "007"), true, an array or an object.
//
// The value is exact: 9007199254740993.0 reads as 9007199254740993, where a
// float64 would round it.
type Int int64

// UnmarshalJSON reads the value by the rule above.
func (n *Int) UnmarshalJSON(b []byte) error {
	v, set, err := Parse(b)
	if err != nil || !set {
		return err
	}
	*n = Int(v)
	return nil
}

// Parse reads one JSON value by Int's rule. set is false for null.
func Parse(b []byte) (v int64, set bool, err error) {
	b = trimSpace(b)
	text := string(b)
	switch {
	case text == "null":
		return 0, false, nil
	case strings.HasPrefix(text, `"`):
		if err := json.Unmarshal(b, &text); err != nil {
			return 0, false, fmt.Errorf("%w: %.40q is not a JSON string", ErrNotInt, string(b))
		}
	}
	v, err = parseNumber(text)
	if err != nil {
		return 0, false, fmt.Errorf("%w: %.40q %v", ErrNotInt, text, err)
	}
	return v, true, nil
}

// maxExp bounds the exponent the scanner carries: beyond it every nonzero
// number is out of range or not whole, and the arithmetic stays small.
const maxExp = 1 << 20

// parseNumber reads a JSON number literal exactly, in decimal: its digits
// and where the decimal point falls after the exponent. It is whole when no
// nonzero digit falls after the point.
func parseNumber(s string) (int64, error) {
	d, ok := scanDecimal(s)
	if !ok {
		return 0, errors.New("is not a number")
	}
	return d.whole()
}

// decimal is a number literal read exactly: its sign, its digits, and how
// many of them come before the decimal point once the exponent is applied
// (negative or past the digits when the exponent moves the point that far).
type decimal struct {
	neg    bool
	digits string
	point  int
}

// scanDecimal reads s as a JSON number: an optional minus, the integer part
// (no leading zeros), an optional fraction and an optional exponent, and
// nothing else.
func scanDecimal(s string) (decimal, bool) {
	var d decimal
	i := 0
	if i < len(s) && s[i] == '-' {
		d.neg = true
		i++
	}
	i, ok := d.mantissa(s, i)
	if !ok {
		return d, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		exp, end, ok := exponent(s, i+1)
		if !ok {
			return d, false
		}
		d.point += exp
		i = end
	}
	return d, i == len(s)
}

// mantissa reads the integer part and the fraction at s[i:] into d and
// returns the index after them.
func (d *decimal) mantissa(s string, i int) (int, bool) {
	start := i
	if i < len(s) && s[i] == '0' {
		i++
	} else {
		i = digits(s, i)
	}
	if i == start {
		return i, false
	}
	d.digits = s[start:i]
	d.point = len(d.digits)
	if i < len(s) && s[i] == '.' {
		end := digits(s, i+1)
		if end == i+1 {
			return end, false
		}
		d.digits += s[i+1 : end]
		i = end
	}
	return i, true
}

// exponent reads an exponent's sign and digits at s[i:] (after the "e"),
// capped at maxExp, and returns the index after them.
func exponent(s string, i int) (exp, end int, ok bool) {
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	end = digits(s, i)
	if end == i {
		return 0, end, false
	}
	for _, c := range s[i:end] {
		exp = min(exp*10+int(c-'0'), maxExp)
	}
	if neg {
		exp = -exp
	}
	return exp, end, true
}

// whole is d's value when it is a whole number within int64.
func (d decimal) whole() (int64, error) {
	trimmed := strings.TrimLeft(d.digits, "0")
	point := d.point - (len(d.digits) - len(trimmed))
	trimmed = strings.TrimRight(trimmed, "0")
	switch {
	case trimmed == "":
		return 0, nil // zero, however written: -0, 0.0, 0e9
	case point < len(trimmed):
		return 0, errors.New("has a fraction")
	case point > 19:
		return 0, errors.New("is out of range")
	}
	text := trimmed + strings.Repeat("0", point-len(trimmed))
	if d.neg {
		text = "-" + text
	}
	v, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return 0, errors.New("is out of range")
	}
	return v, nil
}

// digits returns the index after the run of ASCII digits at s[i:].
func digits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// trimSpace drops the whitespace JSON allows around a value.
func trimSpace(b []byte) []byte {
	space := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	for len(b) > 0 && space(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && space(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}
