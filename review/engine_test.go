package review

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"sync"
	"testing"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/llm"
)

// scripted answers each pass with the findings listed for it. It is safe
// for the review's concurrent workers.
type scripted struct {
	byPass  map[int][]Finding
	mu      sync.Mutex
	blocks  []string // the chunks passed to Sub, in order
	prompts []string
	labels  []llm.Label
}

// Sub records the chunk; the passes over it are asked of s itself.
func (s *scripted) Sub(block string) llm.JSONAsker {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.blocks = append(s.blocks, block)
	return s
}

func (s *scripted) AskSchema(_ context.Context, label llm.Label, prompt string, _ *llm.Schema) (llm.Reply, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.prompts = append(s.prompts, prompt)
	s.labels = append(s.labels, label)
	var n int
	fmt.Sscanf(label.Step, "pass %d", &n)
	b, err := json.Marshal(map[string]any{"findings": s.byPass[n]})
	return llm.Reply{Text: string(b)}, err
}

const goDiff = `diff --git a/svc/cache.go b/svc/cache.go
--- a/svc/cache.go
+++ b/svc/cache.go
@@ -10,6 +10,8 @@ func Get(k string) string {
 	mu.Lock()
 	defer mu.Unlock()
-	return m[k]
+	v := m[k]
+	log.Printf("get %s", k)
+	return v
 }
 
 func Put(k, v string) {
diff --git a/assets/logo.png b/assets/logo.png
Binary files a/assets/logo.png and b/assets/logo.png differ
diff --git a/vendor/x/x.go b/vendor/x/x.go
--- a/vendor/x/x.go
+++ b/vendor/x/x.go
@@ -1 +1 @@
-a
+b
diff --git a/gen/api.pb.go b/gen/api.pb.go
--- a/gen/api.pb.go
+++ b/gen/api.pb.go
@@ -1 +1 @@
-a
+b
diff --git a/docs/notes.md b/docs/notes.md
--- a/docs/notes.md
+++ b/docs/notes.md
@@ -1 +1 @@
-a
+b
`

func files(t *testing.T) []diff.File {
	t.Helper()
	fs, err := diff.Parse(goDiff)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

func f(line int, title string, score int) Finding {
	return Finding{Path: "svc/cache.go", Line: line, Side: diff.Right, Title: title, Explanation: "Because.", Score: score, Category: "bug"}
}

// settings are the default settings, changed by edit (when not nil).
func settings(edit func(*Settings)) Settings {
	s := DefaultSettings()
	if edit != nil {
		edit(&s)
	}
	return s
}

// options are a review's Options with settings(edit).
func options(edit func(*Settings)) Options { return Options{Settings: settings(edit)} }

func TestRun(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		byPass map[int][]Finding
		opt    Options
		known  func(fs []diff.File) map[string]bool
		review func(fs []diff.File) []diff.File
		check  func(t *testing.T, r Result)
	}{
		"thresholds: dropped below problem, blocking at blocking": {
			byPass: map[int][]Finding{1: {f(12, "logs the key", 4), f(13, "logs a secret key", 6), f(14, "returns stale value", 9)}},
			opt:    options(func(s *Settings) { s.ProblemThreshold, s.BlockingThreshold = 5, 8 }),
			check: func(t *testing.T, r Result) {
				if len(r.Findings) != 2 || r.Dropped != 1 || r.Blocking() != 1 || r.Findings[0].Score != 9 || !r.Findings[0].Blocking || r.Findings[1].Blocking {
					t.Errorf("got %+v dropped %d", r.Findings, r.Dropped)
				}
			},
		},
		"thresholds: a score equal to a threshold meets it": {
			byPass: map[int][]Finding{1: {f(12, "one under the problem threshold", 4), f(13, "at the problem threshold", 5), f(14, "one under the blocking threshold", 7), f(15, "at the blocking threshold", 8)}},
			opt:    options(func(s *Settings) { s.ProblemThreshold, s.BlockingThreshold = 5, 8 }),
			check: func(t *testing.T, r Result) {
				got := map[string]bool{} // title -> blocking
				for _, g := range r.Findings {
					got[g.Title] = g.Blocking
				}
				want := map[string]bool{"at the problem threshold": false, "one under the blocking threshold": false, "at the blocking threshold": true}
				if !maps.Equal(got, want) || r.Dropped != 1 || r.Blocking() != 1 {
					t.Errorf("kept (title: blocking) %v dropped %d, want %v dropped 1", got, r.Dropped, want)
				}
			},
		},
		"findings that think aloud are rejected": {
			byPass: map[int][]Finding{1: {
				f(12, "Wait, let me check whether m is guarded", 7),
				{Path: "svc/cache.go", Line: 13, Side: diff.Right, Title: "Possible race", Explanation: "Hmm, actually this is fine since mu is held.", Score: 7},
				f(14, "Key logged in plain text", 7),
			}},
			check: func(t *testing.T, r Result) {
				if len(r.Findings) != 1 || r.Findings[0].Title != "Key logged in plain text" {
					t.Errorf("got %+v", r.Findings)
				}
			},
		},
		"the same finding from two passes is reported once": {
			byPass: map[int][]Finding{1: {f(13, "Key logged", 7)}, 3: {f(13, "key  LOGGED ", 8)}},
			check: func(t *testing.T, r Result) {
				if len(r.Findings) != 1 || r.Dropped != 1 {
					t.Errorf("got %+v dropped %d", r.Findings, r.Dropped)
				}
			},
		},
		"a finding already on the PR is not posted again, even on a shifted line": {
			byPass: map[int][]Finding{2: {f(13, "Key logged", 7)}},
			known: func(fs []diff.File) map[string]bool {
				return map[string]bool{fingerprint(f(13, "Key logged", 7), &fs[0]): true}
			},
			check: func(t *testing.T, r Result) {
				if len(r.Findings) != 0 {
					t.Errorf("got %+v", r.Findings)
				}
			},
		},
		"a line outside the diff moves to the nearest line in it": {
			byPass: map[int][]Finding{1: {f(40, "Put has no lock", 7)}},
			check: func(t *testing.T, r Result) {
				g := r.Findings[0]
				if !g.Inline || g.Moved != 40 || g.Line != 17 {
					t.Errorf("got %+v", g)
				}
			},
		},
		"a file not in the diff goes in the body, and cannot block": {
			byPass: map[int][]Finding{1: {{Path: "svc/other.go", Line: 3, Title: "Caller not updated", Explanation: "x", Score: 9}}},
			check: func(t *testing.T, r Result) {
				if len(r.Findings) != 1 || r.Findings[0].Inline || r.Findings[0].Blocking || !r.Findings[0].Demoted || r.Blocking() != 0 {
					t.Errorf("got %+v", r.Findings)
				}
			},
		},
		"a range across hunks loses its start": {
			byPass: map[int][]Finding{1: {{Path: "svc/cache.go", StartLine: 2, Line: 13, Side: diff.Right, Title: "x y", Explanation: "z", Score: 7}}},
			check: func(t *testing.T, r Result) {
				if g := r.Findings[0]; g.StartLine != 0 || !g.Inline {
					t.Errorf("got %+v", g)
				}
			},
		},
		"80 findings: the 30 most severe inline, the rest in the body": {
			byPass: map[int][]Finding{1: eighty()},
			check: func(t *testing.T, r Result) {
				inline := 0
				for _, g := range r.Findings {
					if g.Inline {
						inline++
						if g.Score < 8 {
							t.Errorf("a score-%d finding went inline before more severe ones", g.Score)
						}
					}
				}
				if len(r.Findings) != 80 || inline != 30 {
					t.Errorf("%d findings, %d inline", len(r.Findings), inline)
				}
			},
		},
		"binary, generated and ignored files are skipped with reasons from the base; names alone skip nothing": {
			opt: Options{Settings: settings(func(s *Settings) { s.IgnorePaths = []string{"docs/**"} }), Generated: Generated{Attributes: "# generated code\ngen/** linguist-generated\n*.md -linguist-generated\n"}},
			check: func(t *testing.T, r Result) {
				want := map[string]string{"assets/logo.png": "binary file", "gen/api.pb.go": "marked linguist-generated or linguist-vendored in the base branch's .gitattributes", "docs/notes.md": "matches ignore_paths in the base branch's configuration"}
				for _, s := range r.Skipped {
					if want[s.Path] != s.Why {
						t.Errorf("skip %s: %q, want %q", s.Path, s.Why, want[s.Path])
					}
					delete(want, s.Path)
				}
				if len(want) > 0 || strings.Join(r.Reviewed, ",") != "svc/cache.go,vendor/x/x.go" {
					t.Errorf("not skipped: %v; reviewed %v", want, r.Reviewed)
				}
			},
		},
		"incremental: findings outside the changed files are dropped": {
			byPass: map[int][]Finding{1: {f(13, "Key logged", 7)}},
			review: func(fs []diff.File) []diff.File { return fs[4:] }, // only docs/notes.md changed
			check: func(t *testing.T, r Result) {
				if len(r.Findings) != 0 {
					t.Errorf("got %+v", r.Findings)
				}
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fs := files(t)
			var known map[string]bool
			if tc.known != nil {
				known = tc.known(fs)
			}
			s := &scripted{byPass: tc.byPass}
			in := Input{Anchor: fs}
			if tc.review != nil {
				in.Review = tc.review(fs)
			}
			opt := tc.opt
			if opt.Settings.ProblemThreshold == 0 {
				opt = options(nil)
			}
			r, err := Run(context.Background(), s, in, opt, known)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.prompts) != 3 {
				t.Errorf("%d requests, want one per pass", len(s.prompts))
			}
			if len(s.blocks) != 1 || !strings.Contains(s.blocks[0], `source="pull request diff"`) || strings.Contains(strings.Join(s.prompts, ""), `source="pull request diff"`) {
				t.Errorf("the diff must be the one shared chunk, and no pass prompt may repeat it: %d chunks", len(s.blocks))
			}
			tc.check(t, r)
		})
	}
}

func eighty() []Finding {
	var out []Finding
	for i := range 80 {
		out = append(out, f(12+i%3, fmt.Sprintf("problem %d", i), 5+i%5))
	}
	return out
}

func TestChunkSplitsLargeDiffs(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "diff --git a/f%d.go b/f%d.go\n--- a/f%d.go\n+++ b/f%d.go\n@@ -1,1 +1,200 @@\n-x\n", i, i, i, i)
		for j := range 200 {
			fmt.Fprintf(&b, "+line %d of file %d\n", j, i)
		}
	}
	fs, err := diff.Parse(b.String())
	if err != nil {
		t.Fatal(err)
	}
	us := units(fs, 50_000)
	ids := make([]int, len(us))
	for i := range ids {
		ids[i] = i
	}
	var chunks []string
	for _, c := range pack(us, ids, 50_000) {
		chunks = append(chunks, c.text(us))
	}
	total := 0
	for _, c := range chunks {
		if len(c) > 50_000 {
			t.Errorf("chunk of %d chars exceeds the budget", len(c))
		}
		total += strings.Count(c, "+line ")
	}
	if len(chunks) < 4 || total != 8000 {
		t.Errorf("%d chunks holding %d lines, want every one of 8000 lines across several chunks", len(chunks), total)
	}
}

// flaky fails the first n requests.
type flaky struct {
	scripted
	fail int
}

func (f *flaky) Sub(block string) llm.JSONAsker { f.scripted.Sub(block); return f }

func (f *flaky) AskSchema(ctx context.Context, label llm.Label, prompt string, schema *llm.Schema) (llm.Reply, error) {
	f.mu.Lock()
	failing := f.fail > 0
	f.fail--
	f.mu.Unlock()
	if failing {
		return llm.Reply{}, fmt.Errorf("pass failed")
	}
	return f.scripted.AskSchema(ctx, label, prompt, schema)
}

func TestRetries(t *testing.T) {
	t.Parallel()
	for retries, wantErr := range map[int]bool{0: true, 1: false} {
		s := &flaky{scripted: scripted{byPass: map[int][]Finding{1: {f(13, "Key logged", 7)}}}, fail: 1}
		_, err := Run(context.Background(), s, Input{Anchor: files(t)}, options(func(s *Settings) { s.Retries = retries }), nil)
		if (err != nil) != wantErr {
			t.Errorf("retries %d: err = %v, want error %v", retries, err, wantErr)
		}
	}
}
