package inbox

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestFold(t *testing.T) {
	t.Parallel()
	created := `{"v":1,"id":"aaaaaaaa","kind":"review","status":"open","createdAt":"2025-06-01T12:00:00Z","updatedAt":"2025-06-01T12:00:00Z","request":{"files":["a.go"],"cwd":"/r","root":"/r","diffSha256":"x","diffBytes":1}}`
	submitted := `{"v":1,"id":"aaaaaaaa","status":"submitted","updatedAt":"2025-06-01T12:01:00Z","submission":{"globalComment":"ok","comments":[]},"resultSummary":{"commentCount":1,"global":true}}`
	other := `{"v":1,"id":"bbbbbbbb","status":"open","createdAt":"2025-06-01T12:02:00Z"}`
	tests := map[string]struct {
		data          string
		wantStatus    map[string]Status
		wantTorn      bool
		wantMalformed []int
		wantNeedsNL   bool
	}{
		"empty store": {data: "", wantStatus: map[string]Status{}},
		"later fields win, earlier ones stay": {data: created + "\n" + submitted + "\n",
			wantStatus: map[string]Status{"aaaaaaaa": StatusSubmitted}},
		"torn last line is ignored": {data: created + "\n" + submitted + "\n" + other[:40],
			wantStatus: map[string]Status{"aaaaaaaa": StatusSubmitted}, wantTorn: true},
		"whole record without its newline counts": {data: created + "\n" + other,
			wantStatus: map[string]Status{"aaaaaaaa": StatusOpen, "bbbbbbbb": StatusOpen}, wantNeedsNL: true},
		"malformed lines are reported, the rest kept": {data: created + "\n{not json\n" + `{"v":1,"status":"open"}` + "\n" +
			`{"v":1,"id":"cccccccc","status":"lost"}` + "\n" + `{"v":9,"id":"dddddddd"}` + "\n" + other + "\n",
			wantStatus: map[string]Status{"aaaaaaaa": StatusOpen, "bbbbbbbb": StatusOpen}, wantMalformed: []int{2, 3, 4, 5}},
		"blank lines are skipped": {data: "\n" + created + "\n\n" + submitted + "\n",
			wantStatus: map[string]Status{"aaaaaaaa": StatusSubmitted}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			snap := fold([]byte(tc.data))
			if snap.Len() != len(tc.wantStatus) {
				t.Errorf("%d records, want %d", snap.Len(), len(tc.wantStatus))
			}
			for id, want := range tc.wantStatus {
				r, ok := snap.Get(id)
				if !ok || r.Status != want {
					t.Errorf("record %s = %v (found %v), want status %s", id, r.Status, ok, want)
				}
			}
			if snap.Torn != tc.wantTorn || snap.needsNL != tc.wantNeedsNL {
				t.Errorf("torn %v needsNL %v, want %v %v", snap.Torn, snap.needsNL, tc.wantTorn, tc.wantNeedsNL)
			}
			var got []int
			for _, m := range snap.Malformed {
				got = append(got, m.Line)
			}
			if !slices.Equal(got, tc.wantMalformed) {
				t.Errorf("malformed lines %v, want %v", got, tc.wantMalformed)
			}
		})
	}
	// The created line's request survives the submitted line's patch.
	r, _ := fold([]byte(created + "\n" + submitted + "\n")).Get("aaaaaaaa")
	if r.Request == nil || r.Request.Files[0] != "a.go" || r.Submission == nil || *r.Submission.GlobalComment != "ok" || r.CreatedAt.IsZero() {
		t.Errorf("folded record lost fields: %+v", r)
	}
}

// A process killed in the middle of an append leaves a partial line. The
// next process (a restart) reads everything before it, and its first write
// cuts the fragment off instead of gluing its own line to it.
func TestRestartAfterTornWrite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "reviews.jsonl")
	before, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	kept := reviewIn(t, before, StatusSubmitted)
	open := reviewIn(t, before, StatusOpen)

	// The crash: half of the line that would have resolved kept.
	line, err := encodeLine(Record{V: FormatVersion, ID: kept.ID, Status: StatusResolved, UpdatedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(line[:len(line)/2])
	f.Close()

	after, err := Open(path, Options{}) // the restarted process
	if err != nil {
		t.Fatal(err)
	}
	snap, err := after.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !snap.Torn || len(snap.Malformed) != 0 || snap.Len() != 2 {
		t.Fatalf("after the crash: torn %v, malformed %v, %d records", snap.Torn, snap.Malformed, snap.Len())
	}
	if r, _ := snap.Get(kept.ID); r.Status != StatusSubmitted || r.Submission == nil {
		t.Fatalf("the submitted review reads as %+v", r)
	}
	// The open review can still be submitted, and the file is whole again.
	if _, err := after.Submit(ctx, open.ID, testSubmission()); err != nil {
		t.Fatalf("submit after restart: %v", err)
	}
	if _, err := after.Claim(ctx, kept.ID, "alpha", false); err != nil {
		t.Fatalf("claim after restart: %v", err)
	}
	snap, _ = after.Load(ctx)
	if snap.Torn || len(snap.Malformed) != 0 {
		t.Fatalf("after the next writes: torn %v, malformed %v\n%s", snap.Torn, snap.Malformed, readStore(t, after))
	}
	for id, want := range map[string]Status{kept.ID: StatusClaimed, open.ID: StatusSubmitted} {
		if r, _ := snap.Get(id); r.Status != want {
			t.Errorf("%s is %s, want %s", id, r.Status, want)
		}
	}
	if diff, err := after.Diff(context.Background(), mustGet(t, after, open.ID)); err != nil || diff != testDiff {
		t.Errorf("diff after restart = %q, %v", diff, err)
	}
}

func mustGet(t *testing.T, s *Store, id string) Record {
	t.Helper()
	r, err := s.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestDiffIsChecked(t *testing.T) {
	t.Parallel()
	s := testStore(t, Options{})
	r := reviewIn(t, s, StatusOpen)
	if err := os.WriteFile(s.diffPath(r.ID), []byte("something else"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Diff(context.Background(), r); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Errorf("Diff of a changed file = %v", err)
	}
	if _, err := s.Diff(context.Background(), Record{ID: "../../etc/passwd", Request: &Request{}}); kindOf(err) != "invalid input" {
		t.Errorf("Diff of a bad id = %v", err)
	}
}

func TestCompact(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s := testStore(t, Options{Now: clk.Now, Retention: 30 * 24 * time.Hour})
	oldResolved := reviewIn(t, s, StatusResolved)
	oldCancelled := reviewIn(t, s, StatusCancelled)
	oldSubmitted := reviewIn(t, s, StatusSubmitted)
	clk.Advance(31 * 24 * time.Hour)
	newResolved := reviewIn(t, s, StatusResolved)
	open := reviewIn(t, s, StatusOpen)
	f, _ := os.OpenFile(s.Path(), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("{\"broken\n")
	f.Close()
	before := readStore(t, s)

	res, err := s.Compact(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Kept != 3 || res.Dropped != 2 || res.SetAside != 1 || res.BytesAfter >= res.BytesBefore || res.BytesBefore != int64(len(before)) {
		t.Errorf("compact = %+v", res)
	}
	after := readStore(t, s)
	if lines(after) != 3 {
		t.Errorf("compacted store has %d lines, want one per kept record:\n%s", lines(after), after)
	}
	for _, gone := range []Record{oldResolved, oldCancelled} {
		if _, err := s.Get(ctx, gone.ID); kindOf(err) != "not found" {
			t.Errorf("%s (%s) is still there: %v", gone.ID, gone.Status, err)
		}
		if _, err := os.Stat(s.diffPath(gone.ID)); !os.IsNotExist(err) {
			t.Errorf("the diff of %s is still there", gone.ID)
		}
	}
	for _, kept := range []Record{oldSubmitted, newResolved, open} {
		r := mustGet(t, s, kept.ID)
		if r.Status != kept.Status || r.Request == nil || (kept.Status != StatusOpen && (r.Submission == nil || r.Submission.MDPath == "")) {
			t.Errorf("%s after compaction = %+v", kept.ID, r)
		}
		if _, err := s.Diff(ctx, r); err != nil {
			t.Errorf("diff of %s: %v", kept.ID, err)
		}
	}
	aside, err := os.ReadFile(s.Path() + ".malformed")
	if err != nil || !strings.Contains(string(aside), "{\"broken") {
		t.Errorf("malformed line not set aside: %q, %v", aside, err)
	}
	// Compacting again changes nothing but the byte count.
	if res, err := s.Compact(ctx); err != nil || res.Kept != 3 || res.Dropped != 0 || res.SetAside != 0 {
		t.Errorf("second compact = %+v, %v", res, err)
	}
}

// Past CompactAbove, a write compacts when a quarter of the lines or more
// would go: superseded patches and expired records.
func TestCompactOnWrite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s := testStore(t, Options{Now: clk.Now, CompactAbove: 1})
	old := reviewIn(t, s, StatusResolved) // create, submit, resolve: folded as it goes
	if got := readStore(t, s); lines(got) != 1 {
		t.Fatalf("store of one record with its patches superseded:\n%s", got)
	}
	clk.Advance(DefaultRetention + time.Hour)
	fresh, err := s.Create(ctx, testRequest(), testDiff)
	if err != nil {
		t.Fatal(err)
	}
	if got := readStore(t, s); lines(got) != 1 || !strings.Contains(got, fresh.ID) || strings.Contains(got, old.ID) {
		t.Errorf("store after a write once the old review expired:\n%s", got)
	}
	// Only live records, one line each: nothing to gain, no rewrite.
	for range 2 {
		if _, err := s.Create(ctx, testRequest(), testDiff); err != nil {
			t.Fatal(err)
		}
	}
	if lines(readStore(t, s)) != 3 {
		t.Errorf("a store of live records was compacted:\n%s", readStore(t, s))
	}
}

func TestDefaultPath(t *testing.T) {
	t.Parallel()
	env := map[string]string{StoreEnv: "/tmp/x.jsonl"}
	if p, err := DefaultPath(func(k string) string { return env[k] }); err != nil || p != "/tmp/x.jsonl" {
		t.Errorf("with %s: %q, %v", StoreEnv, p, err)
	}
	p, err := DefaultPath(func(string) string { return "" })
	if err == nil && !strings.HasSuffix(p, filepath.Join("reviews-for-agent", "reviews.jsonl")) {
		t.Errorf("default path %q", p)
	}
}

// The fast decoder reads every line exactly as encoding/json does.
func TestDecodeLineMatchesStdlib(t *testing.T) {
	t.Parallel()
	corpus := strings.Split(string(bulkRecords(10, time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))), "\n")
	corpus = append(corpus, `{not json`, `{"v":1,"id":"a","status":"open","createdAt":"yesterday"}`, `{"v":1,"id":"a","submission":{"comments":[{"startLine":"1"}]}}`,
		`{"v":1,"id":"a","status":"open","extra":{"x":[1,2]}}`, `{"v":1,"id":"a"} trailing`, `{"v":1,"id":"a\u0041\"b","status":"open"}`, `[]`, `null`)
	for i, line := range corpus {
		if line == "" {
			continue
		}
		got, gotSub, gotErr := decodeLine([]byte(line))
		var w wireRecord
		stdErr := json.Unmarshal([]byte(line), &w)
		refused := w.ID == "" || w.V > FormatVersion || (w.Status != "" && !w.Status.Valid())
		switch {
		case stdErr != nil && gotErr == nil:
			t.Errorf("line %d %.60q: fast decoder accepted what encoding/json refuses (%v)", i, line, stdErr)
		case stdErr == nil && !refused && gotErr != nil:
			t.Errorf("line %d %.60q: fast decoder refused what encoding/json reads: %v", i, line, gotErr)
		case gotErr == nil && (!reflect.DeepEqual(got, w.Record) || string(gotSub) != string(w.Submission)):
			t.Errorf("line %d: fast decoder read\n%+v\nencoding/json read\n%+v", i, got, w.Record)
		}
	}
}
