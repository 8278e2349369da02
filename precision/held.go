package precision

import (
	"encoding/base64"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/review-my-code-bot/rmc/rmcoc"
)

// maxPRNumber bounds the numbers a held set reads: a forged range cannot
// make a reader count or allocate without end.
const maxPRNumber = 1 << 30

// span is the pull requests lo to hi, both included.
type span struct{ lo, hi int }

// heldSet is a PRSet read: sorted, disjoint spans, no two adjacent.
type heldSet []span

// parseHeld reads s. The ledger's blocks are rebuilt from their
// predecessors before they count, but a block whose predecessor is gone
// counts as it is, so s is read as untrusted text.
func parseHeld(s rmcoc.PRSet) (heldSet, error) {
	switch {
	case s == "":
		return nil, nil
	case strings.HasPrefix(string(s), "r:"):
		return parseRanges(string(s[2:]))
	case strings.HasPrefix(string(s), "b:"):
		return parseBitmap(string(s[2:]))
	}
	return nil, fmt.Errorf("held pull requests %.40q: neither ranges nor a bitmap", s)
}

func parseRanges(s string) (heldSet, error) {
	var h heldSet
	for _, part := range strings.Split(s, ",") {
		a, b, isRange := strings.Cut(part, "-")
		lo, err := prNumber(a)
		hi := lo
		if err == nil && isRange {
			hi, err = prNumber(b)
		}
		if err != nil {
			return nil, fmt.Errorf("held pull requests, range %.40q: %w", part, err)
		}
		if hi < lo || (len(h) > 0 && lo <= h[len(h)-1].hi+1) {
			return nil, fmt.Errorf("held pull requests, range %.40q: not sorted or not apart", part)
		}
		h = append(h, span{lo, hi})
	}
	return h, nil
}

func prNumber(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > maxPRNumber || strconv.Itoa(n) != s {
		return 0, fmt.Errorf("%.20q is not a pull request number", s)
	}
	return n, nil
}

func parseBitmap(s string) (heldSet, error) {
	first, enc, ok := strings.Cut(s, ":")
	lo, err := prNumber(first)
	if !ok || err != nil {
		return nil, fmt.Errorf("held pull requests bitmap %.40q: no first number", s)
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(enc)
	if err != nil || len(raw) == 0 || raw[0]&1 == 0 || raw[len(raw)-1] == 0 || lo+8*len(raw) > maxPRNumber {
		return nil, fmt.Errorf("held pull requests bitmap from #%d: not as the bot writes one", lo)
	}
	var h heldSet
	for i, c := range raw {
		for bit := 0; c != 0; bit, c = bit+1, c>>1 {
			if c&1 == 0 {
				continue
			}
			n := lo + 8*i + bit
			if len(h) > 0 && h[len(h)-1].hi == n-1 {
				h[len(h)-1].hi = n
			} else {
				h = append(h, span{n, n})
			}
		}
	}
	return h, nil
}

// has reports whether h holds pull request n.
func (h heldSet) has(n int) bool {
	i := sort.Search(len(h), func(i int) bool { return h[i].hi >= n })
	return i < len(h) && h[i].lo <= n
}

// count is how many pull requests h holds.
func (h heldSet) count() int {
	c := 0
	for _, s := range h {
		c += s.hi - s.lo + 1
	}
	return c
}

// with is h with n added, spans merged.
func (h heldSet) with(n int) heldSet {
	i := sort.Search(len(h), func(i int) bool { return h[i].hi+1 >= n })
	switch {
	case i < len(h) && h[i].lo <= n && n <= h[i].hi:
		return h
	case i < len(h) && h[i].hi+1 == n:
		h[i].hi = n
		if i+1 < len(h) && h[i+1].lo == n+1 {
			h[i].hi = h[i+1].hi
			h = append(h[:i+1], h[i+2:]...)
		}
		return h
	case i < len(h) && h[i].lo == n+1:
		h[i].lo = n
		return h
	}
	h = append(h, span{})
	copy(h[i+1:], h[i:])
	h[i] = span{n, n}
	return h
}

// encode writes h as ranges or as a bitmap, whichever is shorter (ranges
// when equal): many pull requests in a row are a few ranges; pull requests
// between issues, whose numbers they share, are a dense bitmap.
func (h heldSet) encode() rmcoc.PRSet {
	if len(h) == 0 {
		return ""
	}
	ranges := len("r:") + len(h) - 1
	for _, s := range h {
		ranges += digits(s.lo)
		if s.hi > s.lo {
			ranges += 1 + digits(s.hi)
		}
	}
	lo, width := h[0].lo, h[len(h)-1].hi-h[0].lo+1
	bytes := (width + 7) / 8
	if len("b:")+digits(lo)+1+base64.RawURLEncoding.EncodedLen(bytes) >= ranges {
		return h.ranges(ranges)
	}
	raw := make([]byte, bytes)
	for _, s := range h {
		for n := s.lo; n <= s.hi; n++ {
			raw[(n-lo)/8] |= 1 << ((n - lo) % 8)
		}
	}
	return rmcoc.PRSet("b:" + strconv.Itoa(lo) + ":" + base64.RawURLEncoding.EncodeToString(raw))
}

// ranges writes h as sorted ranges, size bytes.
func (h heldSet) ranges(size int) rmcoc.PRSet {
	b := make([]byte, 0, size)
	b = append(b, "r:"...)
	for i, s := range h {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(s.lo), 10)
		if s.hi > s.lo {
			b = append(b, '-')
			b = strconv.AppendInt(b, int64(s.hi), 10)
		}
	}
	return rmcoc.PRSet(b)
}

// digits is how many decimal digits n > 0 takes.
func digits(n int) int {
	d := 1
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}
