package inbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"sync"

	// A drop-in encoding/json, several times faster at decoding: every
	// command reads the whole store (see BenchmarkInboxList). Lines are
	// written with encoding/json.
	segjson "github.com/segmentio/encoding/json"
)

// LineError is a line of the store that could not be read. It is skipped;
// the rest of the store is read as usual.
type LineError struct {
	Line int    // 1-based
	Err  string // why it could not be read
	Text []byte // the line itself, kept when compaction sets it aside
}

func (e LineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Err) }

// Snapshot is the store folded at one moment.
type Snapshot struct {
	byID  map[string]*entry
	order []string // ids in the order they first appear
	// Malformed are complete lines that are not records.
	Malformed []LineError
	// Torn is set when the store ends in a partial line: a write that a
	// crash cut short. It was never acknowledged, so it is ignored, and the
	// next write cuts it off.
	Torn bool

	lines    int   // record lines read
	validEnd int64 // the offset just after the last complete line
	needsNL  bool  // the store ends in a whole record without its newline
	size     int64
}

// entry is one folded record. Its submission, the bulk of a record that
// listings never show, stays raw JSON until someone asks for it.
type entry struct {
	rec Record
	sub json.RawMessage
}

// wireRecord is a line as read: the submission left undecoded.
type wireRecord struct {
	Record
	Submission json.RawMessage `json:"submission,omitempty"`
}

// Get returns the record with id, its submission included.
func (s *Snapshot) Get(id string) (Record, bool) {
	e, ok := s.byID[id]
	if !ok {
		return Record{}, false
	}
	r := e.rec
	if r.Submission == nil && e.sub != nil {
		var sub Submission
		if json.Unmarshal(e.sub, &sub) == nil {
			r.Submission = &sub
		}
	}
	return r, true
}

// Records returns every record in the order it was created, without its
// submission (Get has that).
func (s *Snapshot) Records() []Record {
	out := make([]Record, 0, len(s.order))
	for _, id := range s.order {
		out = append(out, s.byID[id].rec)
	}
	return out
}

// Len is the number of records.
func (s *Snapshot) Len() int { return len(s.order) }

// decoded is one line's outcome.
type decoded struct {
	rec Record
	sub json.RawMessage
	err error
}

// parallelFrom is the line count from which fold decodes on every CPU.
const parallelFrom = 512

// fold reads the store's bytes: one JSON record patch per line, applied in
// order, last write winning field by field. Lines are decoded in parallel
// and applied in order.
func fold(data []byte) *Snapshot {
	s := &Snapshot{byID: map[string]*entry{}, size: int64(len(data))}
	type span struct {
		start, end int
		complete   bool
	}
	var spans []span
	for off := 0; off < len(data); {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			spans = append(spans, span{off, len(data), false})
			break
		}
		spans = append(spans, span{off, off + end, true})
		off += end + 1
	}
	out := make([]decoded, len(spans))
	workers := 1
	if len(spans) >= parallelFrom {
		workers = runtime.GOMAXPROCS(0)
	}
	per := (len(spans) + workers - 1) / max(workers, 1)
	var wg sync.WaitGroup
	for lo := 0; lo < len(spans); lo += per {
		hi := min(lo+per, len(spans))
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				out[i].rec, out[i].sub, out[i].err = decodeLine(data[spans[i].start:spans[i].end])
			}
		})
	}
	wg.Wait()
	for i, sp := range spans {
		next := sp.end
		if sp.complete {
			next++
		}
		line := data[sp.start:sp.end]
		switch d := out[i]; {
		case d.err == nil:
			s.apply(d.rec, d.sub)
			s.lines++
			s.validEnd = int64(next)
			s.needsNL = !sp.complete
		case !sp.complete:
			// A partial last line: the append it belongs to never finished.
			s.Torn = true
		case len(bytes.TrimSpace(line)) == 0:
			s.validEnd = int64(next)
		default:
			s.Malformed = append(s.Malformed, LineError{Line: i + 1, Err: d.err.Error(), Text: slices.Clone(line)})
			s.validEnd = int64(next)
		}
	}
	return s
}

func decodeLine(line []byte) (Record, json.RawMessage, error) {
	var w wireRecord
	if len(bytes.TrimSpace(line)) == 0 {
		return Record{}, nil, fmt.Errorf("empty line")
	}
	if err := segjson.Unmarshal(line, &w); err != nil {
		return Record{}, nil, err
	}
	p := w.Record
	switch {
	case p.ID == "":
		return p, nil, fmt.Errorf("record without an id")
	case p.V > FormatVersion:
		return p, nil, fmt.Errorf("record format %d is newer than this build reads (%d)", p.V, FormatVersion)
	case p.Status != "" && !p.Status.Valid():
		return p, nil, fmt.Errorf("unknown status %q", p.Status)
	}
	if len(w.Submission) == 0 || string(w.Submission) == "null" {
		w.Submission = nil
	}
	return p, w.Submission, nil
}

// apply folds one line into the snapshot: p, with its submission either
// decoded (a line this process wrote) or raw (a line it read).
func (s *Snapshot) apply(p Record, rawSub json.RawMessage) {
	e, ok := s.byID[p.ID]
	if !ok {
		e = &entry{}
		s.byID[p.ID] = e
		s.order = append(s.order, p.ID)
	}
	if rawSub != nil {
		e.sub, e.rec.Submission = rawSub, nil
	}
	if p.Submission != nil {
		e.sub = nil
	}
	e.rec.merge(p)
}

// encodeLine renders one line of the store, newline included.
func encodeLine(r Record) ([]byte, error) {
	return encodeWire(r, nil)
}

// encodeWire renders a record whose submission may still be raw.
func encodeWire(r Record, rawSub json.RawMessage) ([]byte, error) {
	var v any = r
	if rawSub != nil && r.Submission == nil {
		v = wireRecord{Record: r, Submission: rawSub}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode record %s: %w", r.ID, err)
	}
	return buf.Bytes(), nil
}
