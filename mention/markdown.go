package mention

import (
	"sort"
	"strings"
)

// span is a half-open byte range [start, end) of a normalized body.
type span struct{ start, end int }

// layout is what the scanner learns about a body: where prose is (the only
// place a mention counts) and where HTML comments are (text nobody sees on
// GitHub, kept out of Mention.Text).
type layout struct {
	prose    []span
	comments []span
}

// normalize turns CRLF and lone CR into LF, so every offset the scanner
// reports refers to one canonical string.
func normalize(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// Block states of the line scanner.
const (
	inNormal = iota
	inFence
	inHTMLBlock
)

// scan splits a normalized body into prose and non-prose the way GitHub's
// CommonMark renderer would, closely enough for mention detection:
//
//   - fenced code blocks (``` or ~~~, three or more, opener indented at most
//     three spaces; a backtick fence's info string has no backticks; the
//     closer is the same character, at least as long, with nothing but
//     spaces after it; an unterminated fence runs to the end);
//   - quoted lines (first non-blank character is '>', any indentation);
//   - HTML blocks opened by a line starting with "<!--" and running to the
//     line containing "-->" (or to the end), blank lines included;
//   - within paragraphs: code spans (a backtick run closed by the next run of
//     the same length, across lines of the same paragraph; backslash escapes
//     outside spans) and inline HTML comments closed in the same paragraph.
//
// Every step is a single forward pass or a binary search, so the scan is
// linear (up to a log factor) whatever the input.
func scan(s string) layout {
	var out layout
	state := inNormal
	var fenceChar byte
	var fenceLen int
	commentStart := 0
	para := -1 // start of the paragraph being collected, -1 when none
	paraEnd := 0
	flush := func() {
		if para >= 0 {
			inline(s, para, paraEnd, &out)
			para = -1
		}
	}
	for ls := 0; ls <= len(s); {
		le := strings.IndexByte(s[ls:], '\n')
		next := 0
		if le < 0 {
			le = len(s)
			next = len(s) + 1
		} else {
			le += ls
			next = le + 1
		}
		line := s[ls:le]
		switch state {
		case inFence:
			if closesFence(line, fenceChar, fenceLen) {
				state = inNormal
			}
		case inHTMLBlock:
			if i := strings.Index(line, "-->"); i >= 0 {
				end := ls + i + 3
				out.comments = append(out.comments, span{commentStart, end})
				state = inNormal
				// Text after the comment on its closing line is visible.
				inline(s, end, le, &out)
			}
		default:
			switch {
			case strings.TrimSpace(line) == "":
				flush()
			case isQuote(line):
				flush()
			default:
				if c, n, ok := opensFence(line); ok {
					flush()
					state, fenceChar, fenceLen = inFence, c, n
					break
				}
				if t := strings.TrimLeft(line, " \t"); indent(line) <= 3 && strings.HasPrefix(t, "<!--") {
					flush()
					commentStart = ls + len(line) - len(t)
					if i := strings.Index(t[2:], "-->"); i >= 0 {
						end := commentStart + 2 + i + 3
						out.comments = append(out.comments, span{commentStart, end})
						inline(s, end, le, &out)
					} else {
						state = inHTMLBlock
					}
					break
				}
				// List items and headings start a new block, so a stray
				// backtick in one cannot pair with one in the next.
				if startsBlock(line) {
					flush()
				}
				if para < 0 {
					para = ls
				}
				paraEnd = le
				if isHeading(line) {
					flush()
				}
			}
		}
		ls = next
	}
	flush()
	if state == inHTMLBlock {
		out.comments = append(out.comments, span{commentStart, len(s)})
	}
	// Spans come out in order already; sorting keeps that true if the
	// scanner ever changes, and callers rely on it.
	byStart := func(v []span) func(i, j int) bool {
		return func(i, j int) bool { return v[i].start < v[j].start }
	}
	sort.Slice(out.prose, byStart(out.prose))
	sort.Slice(out.comments, byStart(out.comments))
	return out
}

// inline records the prose and comment spans of one paragraph s[start:end].
func inline(s string, start, end int, out *layout) {
	if start >= end {
		return
	}
	runs := backtickRuns(s, start, end)
	proseStart := start
	emit := func(to int) {
		if to > proseStart {
			out.prose = append(out.prose, span{proseStart, to})
		}
	}
	noCommentClose := false // once "-->" is missing, it is missing for every later "<!--"
	for i := start; i < end; {
		switch c := s[i]; {
		case c == '\\' && i+1 < end && isASCIIPunct(s[i+1]):
			i += 2
		case c == '`':
			n := 1
			for i+n < end && s[i+n] == '`' {
				n++
			}
			if j, ok := closingRun(runs[n], i+n); ok {
				emit(i)
				i = j + n
				proseStart = i
			} else {
				i += n
			}
		case c == '<' && !noCommentClose && strings.HasPrefix(s[i:end], "<!--"):
			k := strings.Index(s[i+2:end], "-->")
			if k < 0 {
				noCommentClose = true
				i += 4
				break
			}
			e := i + 2 + k + 3
			emit(i)
			out.comments = append(out.comments, span{i, e})
			i = e
			proseStart = i
		default:
			i++
		}
	}
	emit(end)
}

// backtickRuns maps each run length to the sorted start offsets of the
// maximal backtick runs of that length in s[start:end].
func backtickRuns(s string, start, end int) map[int][]int {
	runs := map[int][]int{}
	for i := start; i < end; {
		if s[i] != '`' {
			i++
			continue
		}
		j := i
		for j < end && s[j] == '`' {
			j++
		}
		runs[j-i] = append(runs[j-i], i)
		i = j
	}
	return runs
}

// closingRun finds the first run in starts (sorted) that begins at or after from.
func closingRun(starts []int, from int) (int, bool) {
	k := sort.SearchInts(starts, from)
	if k == len(starts) {
		return 0, false
	}
	return starts[k], true
}

// indent counts leading spaces (tabs count as four, as in CommonMark).
func indent(line string) int {
	n := 0
	for _, c := range []byte(line) {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}

// isQuote reports a quoted line. Any indentation counts: an indented '>' is
// either a quote or code, and neither is addressed to the bot.
func isQuote(line string) bool {
	return strings.HasPrefix(strings.TrimLeft(line, " \t"), ">")
}

// opensFence recognizes a fence opener and returns its character and length.
func opensFence(line string) (byte, int, bool) {
	ind := indent(line)
	if ind > 3 {
		return 0, 0, false
	}
	t := strings.TrimLeft(line, " \t")
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return 0, 0, false
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 {
		return 0, 0, false
	}
	// "```foo`" is an inline code span, not a fence.
	if t[0] == '`' && strings.IndexByte(t[n:], '`') >= 0 {
		return 0, 0, false
	}
	return t[0], n, true
}

// closesFence reports whether line closes a fence of n c characters.
func closesFence(line string, c byte, n int) bool {
	if indent(line) > 3 {
		return false
	}
	t := strings.TrimLeft(line, " \t")
	k := 0
	for k < len(t) && t[k] == c {
		k++
	}
	return k >= n && strings.TrimRight(t[k:], " \t") == ""
}

// startsBlock reports a list item or heading line.
func startsBlock(line string) bool {
	t := strings.TrimLeft(line, " \t")
	if t == "" {
		return false
	}
	if isHeading(line) {
		return true
	}
	if strings.ContainsRune("-*+", rune(t[0])) {
		return len(t) == 1 || t[1] == ' ' || t[1] == '\t'
	}
	d := 0
	for d < len(t) && d < 9 && t[d] >= '0' && t[d] <= '9' {
		d++
	}
	if d == 0 || d >= len(t) || (t[d] != '.' && t[d] != ')') {
		return false
	}
	return d+1 == len(t) || t[d+1] == ' ' || t[d+1] == '\t'
}

// isHeading reports an ATX heading ("# Title").
func isHeading(line string) bool {
	if indent(line) > 3 {
		return false
	}
	t := strings.TrimLeft(line, " \t")
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(t) || t[n] == ' ' || t[n] == '\t')
}

func isASCIIPunct(c byte) bool {
	return c > ' ' && c < 0x7f && !(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z')
}
