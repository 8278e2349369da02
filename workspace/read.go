package workspace

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// MaxReadBytes caps the text one Read returns; the Note of a capped Text
// says which line to continue from. Files of any size can be read this way,
// a slice at a time.
const MaxReadBytes = 256 << 10

// sniffLen is how much of a file the binary heuristics look at.
const sniffLen = 8 << 10

// Read returns lines from..to of the file at p: 1-based and inclusive, from=0
// meaning 1 and to=0 meaning the end of the file. A range running past the
// end is cut to the end; one starting past it is an error naming the file's
// length. Binary files are refused with [ErrBinary].
func (w *FS) Read(ctx context.Context, p string, from, to int) (Text, error) {
	t, err := w.read(ctx, p, from, to)
	if err != nil {
		return Text{}, fmt.Errorf("read %q: %w", p, err)
	}
	return t, nil
}

func (w *FS) read(ctx context.Context, p string, from, to int) (Text, error) {
	if from < 0 || to < 0 {
		return Text{}, fmt.Errorf("line numbers start at 1 (got from=%d, to=%d)", from, to)
	}
	if from == 0 {
		from = 1
	}
	if to != 0 && to < from {
		return Text{}, fmt.Errorf("the range %d-%d is empty: the end line is before the start line", from, to)
	}
	clean, real, fi, err := w.check(p)
	if err != nil {
		return Text{}, err
	}
	if fi.IsDir() {
		return Text{}, errors.New("it is a directory; list it instead")
	}
	f, info, err := w.openRegular(real)
	if err != nil {
		return Text{}, err
	}
	defer f.Close()

	br := bufio.NewReaderSize(f, 64<<10)
	head, err := br.Peek(sniffLen)
	if err != nil && err != io.EOF {
		return Text{}, fmt.Errorf("reading the start of the file: %w", unwrapPath(err))
	}
	if looksBinary(head, len(head) < sniffLen) {
		return Text{}, fmt.Errorf("%w (%d bytes): only text files can be read", ErrBinary, info.Size())
	}
	t := Text{Path: clean, From: from}
	if err := scanLines(ctx, br, from, to, &t); err != nil {
		return Text{}, err
	}
	if from > t.TotalLines && !(from == 1 && t.TotalLines == 0) {
		return Text{}, fmt.Errorf("the file has %d lines; line %d is past the end", t.TotalLines, from)
	}
	return t, nil
}

// scanLines fills t.Lines with lines from..to (to=0: to the end) within
// MaxReadBytes, and counts every line of the file into t.TotalLines. It reads
// with ReadSlice so that one enormous line (minified code) never has to be
// held whole.
func scanLines(ctx context.Context, br *bufio.Reader, from, to int, t *Text) error {
	s := lineScanner{t: t, from: from, to: to, budget: MaxReadBytes, lineNo: 1}
	for i := 0; ; i++ {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		chunk, rerr := br.ReadSlice('\n')
		if rerr != nil && rerr != io.EOF && rerr != bufio.ErrBufferFull {
			return fmt.Errorf("reading line %d: %w", s.lineNo, unwrapPath(rerr))
		}
		s.add(chunk, rerr)
		if rerr == io.EOF {
			break
		}
	}
	t.TotalLines = s.lineNo - 1
	if s.cutLine > 0 && s.cutLine < t.TotalLines {
		t.Note += fmt.Sprintf("; continue from line %d", s.cutLine+1)
	}
	return nil
}

// lineScanner is scanLines' state between the chunks ReadSlice returns.
type lineScanner struct {
	t        *Text
	from, to int
	budget   int // bytes left to return
	lineNo   int
	started  bool // bytes of line lineNo have been seen
	capped   bool // the budget ran out; only counting from here
	lineCut  bool // the current line was longer than the budget left
	cutLine  int  // the line cut to the budget, if any
	cur      []byte
}

// add takes one chunk: part of line lineNo, ending it unless ReadSlice's
// buffer filled first (rerr is ErrBufferFull).
func (s *lineScanner) add(chunk []byte, rerr error) {
	if len(chunk) > 0 {
		s.started = true
	}
	want := !s.capped && s.lineNo >= s.from && (s.to == 0 || s.lineNo <= s.to)
	if want && !s.lineCut {
		// Keep one byte more than the budget so that "fits exactly"
		// and "too long" can be told apart at the end of the line.
		room := s.budget + 1 - len(s.cur)
		if len(chunk) > room {
			s.cur = append(s.cur, chunk[:room]...)
			s.lineCut = true
		} else {
			s.cur = append(s.cur, chunk...)
		}
	}
	if rerr == bufio.ErrBufferFull {
		return
	}
	if rerr == nil || s.started {
		if want {
			s.keepLine()
		}
		s.lineNo++
		s.started = false
	}
}

// keepLine adds the wanted line just ended to t.Lines if the budget has room,
// and otherwise caps the output: a first line over the cap is cut, a later
// one ends the lines returned.
func (s *lineScanner) keepLine() {
	t := s.t
	line := bytes.TrimSuffix(bytes.TrimSuffix(s.cur, []byte("\n")), []byte("\r"))
	switch {
	case len(line)+1 <= s.budget: // +1: the line's newline
		t.Lines = append(t.Lines, printable(line))
		s.budget -= len(line) + 1
	case len(t.Lines) == 0:
		// A single line over the cap: return its start rather
		// than nothing at all.
		t.Lines = append(t.Lines, printable(line[:s.budget]))
		t.Truncated = true
		t.Note = fmt.Sprintf("line %d is longer than %d KiB and was cut", s.lineNo, MaxReadBytes>>10)
		s.capped, s.cutLine = true, s.lineNo
	default:
		t.Truncated = true
		t.Note = fmt.Sprintf("output capped at %d KiB: lines %d-%d were returned; continue from line %d", MaxReadBytes>>10, s.from, s.lineNo-1, s.lineNo)
		s.capped = true
	}
	s.cur, s.lineCut = s.cur[:0], false
}

// printable makes a line safe to show: invalid UTF-8 and NUL bytes become
// U+FFFD.
func printable(b []byte) string {
	s := strings.ToValidUTF8(string(b), "\uFFFD")
	return strings.ReplaceAll(s, "\x00", "\uFFFD")
}

// looksBinary is the binary-file heuristic: a NUL byte, or more than 10% of
// the bytes being invalid UTF-8 or control characters text does not use.
// complete says b is the whole file, so a rune cut at its end is invalid
// rather than merely cut by the sniff. A few stray Latin-1 bytes in an
// otherwise ASCII file stay readable.
func looksBinary(b []byte, complete bool) bool {
	if bytes.IndexByte(b, 0) >= 0 {
		return true
	}
	bad := 0
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			if !complete && !utf8.FullRune(b[i:]) {
				i = len(b)
				continue
			}
			bad++
		case r < 0x20 && !strings.ContainsRune("\t\n\r\f\v\b\x1b", r):
			bad++
		}
		i += n
	}
	return bad*10 > len(b)
}
