package sanitize

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxBody is the longest comment, review or reply body GitHub accepts, in
// characters.
const MaxBody = 65536

// Comment is the usual path for one body: Redact, then Fit to MaxBody.
func Comment(body string, secrets ...string) string {
	return Fit(Redact(body, secrets...), MaxBody)
}

// truncation notes, longest first; Fit uses the first that fits.
var notes = []func(omitted int) string{
	func(n int) string {
		return fmt.Sprintf("\n\n_… truncated: %d characters omitted (GitHub's comment limit)._", n)
	},
	func(n int) string { return fmt.Sprintf("\n\n_… %d characters truncated._", n) },
	func(int) string { return "…" },
	func(int) string { return "" },
}

// Fit returns body if it has at most max characters (runes). Otherwise it
// keeps the longest prefix that, with a closing fence (or " -->") for
// whatever the prefix leaves open and a truncation note, fits in max:
//
//   - the cut falls after the last line break of the window if that keeps at
//     least half of it, else after the last space in that half, else at a
//     character boundary — never inside a UTF-8 sequence;
//   - trailing whitespace of the prefix is dropped;
//   - the note is "\n\n_… truncated: N characters omitted (GitHub's comment
//     limit)._", N counting every character of body not kept; for a tiny max
//     shorter notes are tried, down to none.
//
// max < 1 gives "". Invalid UTF-8 is not repaired (Redact does that); each
// invalid byte counts as one character.
func Fit(body string, max int) string {
	if max < 1 {
		return ""
	}
	prefix, closing, note := fit(body, max)
	return prefix + closing + note
}

// fit returns the three pieces of Fit's result.
func fit(body string, max int) (prefix, closing, note string) {
	total := runes(body)
	if total <= max {
		return body, "", ""
	}
	for _, mk := range notes {
		// The note for all total characters omitted is at least as long as
		// the real one, so reserving it is safe.
		budget := max - runes(mk(total))
		fallback, ok := "", false
		for range 8 {
			if budget < 0 {
				break
			}
			p := trimEnd(body[:cut(body, 0, budget)])
			st := mdState{}.after(p)
			if st.fence != "" && st.start+len(st.fence) >= len(p) {
				// Nothing of the block would be kept: drop its opener too.
				p = trimEnd(p[:st.start])
				st = mdState{}.after(p)
			}
			c, n := st.closer(), mk(total-runes(p))
			over := runes(p) + runes(c) + runes(n) - max
			if over <= 0 {
				return p, c, n
			}
			// Cuts snap to line breaks, so shrink from what was kept, not
			// from the budget: every round keeps strictly less.
			budget = runes(p) - over
			// Cutting before what is open needs no closer; keep it in
			// case the closer never fits (a huge fence, a tiny max).
			if st.start >= 0 && !ok {
				p2 := trimEnd(p[:st.start])
				if !(mdState{}).after(p2).open() && runes(p2)+runes(mk(total-runes(p2))) <= max {
					fallback, ok = p2, true
				}
			}
		}
		if ok {
			return fallback, "", mk(total - runes(fallback))
		}
	}
	return "", "", ""
}

func trimEnd(s string) string { return strings.TrimRight(s, " \t\r\n") }

// cut returns a byte offset in s after from, at most n runes on, preferring
// a line break, then a space, in the second half of the window.
func cut(s string, from, n int) int {
	end := advance(s, from, n)
	if end == len(s) {
		return end
	}
	half := from + (end-from)/2
	win := s[from : end+1] // a break right after the window is a break too
	if i := strings.LastIndexByte(win, '\n'); i > 0 && from+i >= half {
		return from + i
	}
	if i := strings.LastIndexByte(win, ' '); i > 0 && from+i >= half {
		return from + i
	}
	return end
}

// Split returns body as one part if it has at most max characters (runes).
// Otherwise it cuts body into parts of at most max characters each:
//
//   - a part ends at a paragraph break ("\n\n") outside fenced code if there
//     is one in the second half of the room left, else at a line break
//     outside code there, else at any line break there, else at any line
//     break at all, else at a space in the second half, else at a character
//     boundary; line breaks at the cut are dropped;
//   - a fenced block (or HTML comment) still open at a cut is closed at the
//     end of the part and reopened, with its original opening line, at the
//     top of the next, so every part renders on its own; cutting outside
//     code keeps small blocks — such as rmcoc state — whole;
//   - every part ends with "\n\n_(part i/n)_".
//
// When max is too small for labels they are left out, and when it is too
// small to reopen a fence the parts are cut without reopening. max < 1
// gives nil unless body is empty.
func Split(body string, max int) []string {
	if runes(body) <= max {
		return []string{body}
	}
	if max < 1 {
		return nil
	}
	ps, labelled := pieces(body, max)
	out := make([]string, len(ps))
	n := strconv.Itoa(len(ps))
	for i, p := range ps {
		out[i] = p.text()
		if labelled {
			out[i] += label(strconv.Itoa(i+1), n)
		}
	}
	return out
}

// pieces cuts body for Split and reports whether the pieces leave room for
// labels. The label's length depends on the number of parts, so the room
// is reserved for one digit, then two, and so on.
func pieces(body string, max int) ([]piece, bool) {
	for digits := 1; digits <= 10; digits++ {
		d := strings.Repeat("9", digits)
		room := max - runes(label(d, d))
		if room < 1 {
			break
		}
		if ps := split(body, room); len(strconv.Itoa(len(ps))) <= digits {
			return ps, true
		}
	}
	return split(body, max), false
}

func label(i, n string) string { return "\n\n_(part " + i + "/" + n + ")_" }

// piece is one part before labelling: a chunk of the body, plus what reopens
// and closes a construct left open across the cut.
type piece struct {
	reopen, chunk, close string
	plain                bool // cut without reopening or closing: no room
}

func (p piece) text() string { return p.reopen + p.chunk + p.close }

// split cuts body greedily into pieces of at most room runes each.
func split(body string, room int) []piece {
	var out []piece
	st := mdState{}
	pos := 0
	for {
		for pos < len(body) && (body[pos] == '\n' || body[pos] == '\r') {
			pos++
		}
		if pos >= len(body) {
			return out
		}
		p, next, ok := fencedPiece(body, pos, room, st)
		if !ok {
			// No room to reopen and close: cut plainly; the part starts
			// outside any construct, as GitHub will read it.
			end := cut(body, pos, room)
			chunk := strings.TrimRight(body[pos:end], "\r\n") // body[pos] is not a line break
			p, next = piece{chunk: chunk, plain: true}, mdState{}.after(chunk)
			pos = end
		} else {
			pos += len(p.chunk)
		}
		out = append(out, p)
		st = next
	}
}

// fencedPiece builds the piece starting at pos in state st, or reports that
// no such piece fits in room.
func fencedPiece(body string, pos, room int, st mdState) (piece, mdState, bool) {
	reopen := st.reopener()
	avail := room - runes(reopen)
	for range 8 {
		if avail < 1 {
			return piece{}, mdState{}, false
		}
		end := splitPoint(body, pos, avail, st)
		chunk := strings.TrimRight(body[pos:end], "\r\n")
		if chunk == "" {
			return piece{}, mdState{}, false
		}
		next := st.after(chunk)
		p := piece{reopen: reopen, chunk: chunk, close: next.closer()}
		over := runes(p.text()) - room
		if over <= 0 {
			return p, next, true
		}
		avail -= over
	}
	return piece{}, mdState{}, false
}

// splitPoint picks where a piece starting at pos in state st ends, at most
// n runes on; see Split for the order of preference.
func splitPoint(body string, pos, n int, st mdState) int {
	end := advance(body, pos, n)
	if end == len(body) {
		return end
	}
	half := pos + (end-pos)/2
	var paraOut, lineOut, lineAny, lineEarly int
	for ls := pos; ls <= end; {
		le := strings.IndexByte(body[ls:end+1], '\n') // a break right after the window counts
		if le < 0 {
			break
		}
		le += ls
		st = st.after(body[ls:le])
		if le > pos {
			outside := !st.open()
			blank := le+1 < len(body) && body[le+1] == '\n'
			switch {
			case le < half:
				lineEarly = le
			case outside && blank:
				paraOut = le
			case outside:
				lineOut = le
			default:
				lineAny = le
			}
		}
		ls = le + 1
	}
	for _, c := range []int{paraOut, lineOut, lineAny, lineEarly} {
		if c > pos {
			return c
		}
	}
	if i := strings.LastIndexByte(body[half:end+1], ' '); i > 0 {
		return half + i
	}
	return end
}
