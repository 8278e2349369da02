package precision

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

var (
	bot   = snapshot.Actor{Login: "rmc-bot", IsBot: true}
	alice = snapshot.Actor{Login: "alice"}
	t0    = time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
)

// entry is pull request n with a fixed mix of fates, varied by n.
func entry(n int) rmcoc.PROutcome {
	fates := []rmcoc.Fate{rmcoc.FateFixed, rmcoc.FateAccepted, rmcoc.FateRejected, rmcoc.FateIgnored}
	e := rmcoc.PROutcome{PR: n, Merged: n%3 != 0, Lines: 40 + n%200, ClosedAt: t0.Add(time.Duration(n) * time.Hour)}
	for i := 0; i < 1+n%5; i++ {
		f := rmcoc.FateRecord{Fate: fates[(n+i)%4], Score: 4 + (n+i)%7, Pass: 1 + i%3, Category: Categories[(n*3+i)%len(Categories)], Kind: rmcoc.FileCode, Blocking: (n+i)%5 == 0}
		if f.Fate == rmcoc.FateFixed {
			f.FixMinutes = 30 + n%90
		}
		f.Loop, f.OwnSuggestion = (n+i)%6 == 1, (n+i)%12 == 1
		e.Findings = append(e.Findings, f)
	}
	return e
}

// issue is the learnings issue after n closed pull requests, one bot
// comment per ledger block, comment ids 1000+seq.
func issue(n int) snapshot.LearningsIssue {
	li := snapshot.LearningsIssue{Read: true, Number: 7, Author: bot}
	var prev *rmcoc.Outcomes
	var prevID int64
	for i := 1; i <= n; i++ {
		b := Append(prev, prevID, entry(i))
		prev, prevID = &b, int64(1000+i)
		li.Comments = append(li.Comments, snapshot.Comment{ID: prevID, Author: bot, Body: "Outcome of #" + fmt.Sprint(i) + "\n\n" + rmcoc.Render(b)})
	}
	return li
}

func read(li snapshot.LearningsIssue) (Ledger, state.Learnings) {
	l := state.DeriveLearnings(li, state.Options{Bot: bot, Handles: []string{"@rmc-bot"}})
	return Read(l.Outcomes), l
}

// TestLedgerSize appends 10,000 closed pull requests and prints the size
// of the newest block's comment: the ledger is read from it alone. Pull
// requests share their numbers with issues, so they are numbered in a
// row, one in two and one in ten: the roll-up's held set grows with the
// span of their numbers. The last two take long (every append digests a
// larger block): -short runs the first.
func TestLedgerSize(t *testing.T) {
	t.Parallel()
	for name, step := range map[string]int{"in a row": 1, "one number in two": 2, "one number in ten": 10} {
		t.Run(name, func(t *testing.T) {
			if step > 1 && testing.Short() {
				t.Skip("the sparse numberings run without -short")
			}
			t.Parallel()
			var head *rmcoc.Outcomes
			var biggest int
			for i := 1; i <= 10000; i++ {
				e := entry(i)
				e.PR = i * step
				b := Append(head, int64(i), e)
				head = &b
				if i%250 == 0 || len(b.Recent) == MaxRecent-1 {
					biggest = max(biggest, len(rmcoc.Render(b)))
				}
			}
			body := rmcoc.Render(*head)
			t.Logf("ledger of 10000 closed PRs numbered %s: newest block %d characters (largest sampled %d; held set %d), %d PRs in full, %d rolled up", name, len(body), biggest, len(head.RollUp.Held), len(head.Recent), head.RollUp.PRs)
			if biggest >= 65536 || biggest > rmcoc.MaxBlockBytes {
				t.Fatalf("a block reached %d characters: over a comment's 65,536 or the %d a block may hold", biggest, rmcoc.MaxBlockBytes)
			}
			got, errs := rmcoc.Parse(body)
			if len(errs) > 0 || len(got) != 1 {
				t.Fatalf("the newest block does not read back: %v", errs)
			}
			if n := head.RollUp.PRs + len(head.Recent); n != 10000 {
				t.Fatalf("the ledger holds %d PRs, want 10000", n)
			}
			for _, n := range []int{step, 9950 * step, 9951 * step, 3*step + 1} {
				recorded, known := Recorded(head, n, time.Time{})
				if want := n%step == 0; recorded != want || !known {
					t.Errorf("Recorded(#%d) = %t, %t; want %t, true", n, recorded, known, want)
				}
			}
			s := Compute(head, 20)
			var want rmcoc.Tally
			for i := 1; i <= 10000; i++ {
				for _, f := range entry(i).Findings {
					count(&want, f.Fate)
				}
			}
			if s.AllTime.Findings != want {
				t.Fatalf("all-time findings %+v, want %+v", s.AllTime.Findings, want)
			}
		})
	}
}

func TestLedgerRead(t *testing.T) {
	t.Parallel()
	edited := func(li snapshot.LearningsIssue, i int) snapshot.LearningsIssue {
		li.Comments[i].Editor = &alice
		return li
	}
	tests := map[string]struct {
		issue    func() snapshot.LearningsIssue
		wantSeq  int
		wantProb []string // substrings, each in some problem
		wantNote string   // a substring of a state notice
		// wantOrphans are the pull requests of the orphaned forks, in order;
		// wantPRs, when set, those the counted view holds in full.
		wantOrphans, wantPRs []int
	}{
		"intact": {issue: func() snapshot.LearningsIssue { return issue(8) }, wantSeq: 8},
		"empty":  {issue: func() snapshot.LearningsIssue { return issue(0) }},
		"a deleted block is reported, its successor counts": {
			issue: func() snapshot.LearningsIssue {
				li := issue(8)
				li.Comments = append(li.Comments[:4], li.Comments[5:]...) // block 5 gone
				return li
			},
			wantSeq: 8, wantProb: []string{"block 6 (comment 1006) follows comment 1005, which is gone"},
		},
		"an edited newest block is not counted": {
			issue:   func() snapshot.LearningsIssue { return edited(issue(8), 7) },
			wantSeq: 7, wantNote: "edited the bot's comment",
		},
		"an edited middle block breaks the link": {
			issue:   func() snapshot.LearningsIssue { return edited(issue(8), 3) },
			wantSeq: 8, wantProb: []string{"follows comment 1004, which is gone or not the bot's own"}, wantNote: "edited the bot's comment",
		},
		"a forged block in someone else's comment": {
			issue: func() snapshot.LearningsIssue {
				li := issue(3)
				forged := Append(&rmcoc.Outcomes{Seq: 3}, 1003, rmcoc.PROutcome{PR: 99, Findings: []rmcoc.FateRecord{{Fate: rmcoc.FateFixed, Score: 9, Category: "bug"}}})
				li.Comments = append(li.Comments, snapshot.Comment{ID: 2000, Author: alice, Body: rmcoc.Render(forged)})
				return li
			},
			wantSeq: 3, wantNote: "ignored 1 rmcoc block(s)",
		},
		"a changed predecessor does not match its digest": {
			issue: func() snapshot.LearningsIssue {
				li := issue(6)
				b := rmcoc.All[rmcoc.Outcomes](li.Comments[2].Body)[0]
				b.Recent[len(b.Recent)-1].Findings[0].Fate = rmcoc.FateFixed
				b.Recent[len(b.Recent)-1].Findings[0].FixMinutes = 1
				li.Comments[2].Body = rmcoc.Render(b) // no editor: GitHub did not say
				return li
			},
			wantSeq: 2, wantProb: []string{"block 3 (comment 1003) was changed after block 4 (comment 1004) named it"},
		},
		"the first block changed": {
			issue: func() snapshot.LearningsIssue {
				li := issue(2)
				b := rmcoc.All[rmcoc.Outcomes](li.Comments[0].Body)[0]
				b.Recent[0].Lines++
				li.Comments[0].Body = rmcoc.Render(b)
				return li
			},
			wantSeq: 0, wantProb: []string{"block 1 (comment 1001) was changed"},
		},
		"counts that do not follow": {
			issue: func() snapshot.LearningsIssue {
				li := issue(6)
				b := rmcoc.All[rmcoc.Outcomes](li.Comments[5].Body)[0]
				b.RollUp.Findings.Fixed += 5
				b.RollUp.Findings.Posted += 5
				li.Comments[5].Body = rmcoc.Render(b)
				return li
			},
			wantSeq: 5, wantProb: []string{"block 6 (comment 1006) holds counts that do not follow"},
		},
		"two runs appended after one block": {
			issue: func() snapshot.LearningsIssue {
				li := issue(4)
				prev := rmcoc.All[rmcoc.Outcomes](li.Comments[2].Body)[0]
				twin := Append(&prev, 1003, entry(40))
				li.Comments = append(li.Comments, snapshot.Comment{ID: 1100, Author: bot, Body: rmcoc.Render(twin)})
				return li
			},
			wantSeq: 4, wantProb: []string{"block 4 (comment 1100) was appended at the same time as another after the same block: its pull request #40 counts"}, wantOrphans: []int{40},
			wantPRs: []int{1, 2, 3, 4, 40},
		},
		"two runs recorded one pull request at once": {
			issue: func() snapshot.LearningsIssue {
				li := issue(4)
				prev := rmcoc.All[rmcoc.Outcomes](li.Comments[2].Body)[0]
				twin := Append(&prev, 1003, entry(4))
				twin.Recent[len(twin.Recent)-1].ClosedAt = twin.Recent[len(twin.Recent)-1].ClosedAt.Add(time.Minute)
				li.Comments = append(li.Comments, snapshot.Comment{ID: 1100, Author: bot, Body: rmcoc.Render(twin)})
				return li
			},
			wantSeq: 4,
		},
		"two first blocks": {
			issue: func() snapshot.LearningsIssue {
				li := issue(1)
				li.Comments = append(li.Comments, snapshot.Comment{ID: 1100, Author: bot, Body: rmcoc.Render(Append(nil, 0, entry(40)))})
				return li
			},
			wantSeq: 1, wantProb: []string{"its pull request #40 counts"}, wantOrphans: []int{40},
		},
		"a fork whose counts do not follow": {
			issue: func() snapshot.LearningsIssue {
				li := issue(4)
				prev := rmcoc.All[rmcoc.Outcomes](li.Comments[2].Body)[0]
				twin := Append(&prev, 1003, entry(40))
				twin.RollUp.Lines++
				li.Comments = append(li.Comments, snapshot.Comment{ID: 1100, Author: bot, Body: rmcoc.Render(twin)})
				return li
			},
			wantSeq: 4, wantProb: []string{"block 4 (comment 1100) is not on the counted chain: not counted"},
		},
		"the next block folds the fork in": {
			issue: func() snapshot.LearningsIssue {
				li := issue(4)
				prev := rmcoc.All[rmcoc.Outcomes](li.Comments[2].Body)[0]
				twin := Append(&prev, 1003, entry(40))
				li.Comments = append(li.Comments, snapshot.Comment{ID: 1100, Author: bot, Body: rmcoc.Render(twin)})
				four := rmcoc.All[rmcoc.Outcomes](li.Comments[3].Body)[0]
				five := AppendFolding(&four, 1004, []Fold{{Link: rmcoc.Link{CommentID: 1100, Digest: rmcoc.Digest(twin)}, Entry: entry(40)}}, entry(5))
				li.Comments = append(li.Comments, snapshot.Comment{ID: 1101, Author: bot, Body: rmcoc.Render(five)})
				return li
			},
			wantSeq: 5, wantPRs: []int{1, 2, 3, 4, 40, 5},
		},
		"a block that says it folded what it did not add": {
			issue: func() snapshot.LearningsIssue {
				li := issue(4)
				four := rmcoc.All[rmcoc.Outcomes](li.Comments[3].Body)[0]
				five := AppendFolding(&four, 1004, []Fold{{Link: rmcoc.Link{CommentID: 1100}, Entry: entry(40)}}, entry(5))
				five.Recent = slices.Delete(five.Recent, len(five.Recent)-2, len(five.Recent)-1)
				li.Comments = append(li.Comments, snapshot.Comment{ID: 1101, Author: bot, Body: rmcoc.Render(five)})
				return li
			},
			wantSeq: 4, wantProb: []string{"block 5 (comment 1101) holds counts that do not follow"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			l, st := read(tc.issue())
			seq := 0
			if l.Head != nil {
				seq = l.Head.Seq
			}
			if seq != tc.wantSeq {
				t.Errorf("head is block %d, want %d (problems %q)", seq, tc.wantSeq, l.Problems)
			}
			for _, p := range tc.wantProb {
				if !strings.Contains(strings.Join(l.Problems, "\n"), p) {
					t.Errorf("problems %q lack %q", l.Problems, p)
				}
			}
			if len(tc.wantProb) == 0 && len(l.Problems) > 0 {
				t.Errorf("unexpected problems %q", l.Problems)
			}
			if tc.wantNote != "" && !strings.Contains(strings.Join(st.Notices, "\n"), tc.wantNote) {
				t.Errorf("notices %q lack %q", st.Notices, tc.wantNote)
			}
			var orphans []int
			for _, o := range l.Orphans {
				orphans = append(orphans, o.Entry.PR)
			}
			if !slices.Equal(orphans, tc.wantOrphans) {
				t.Errorf("orphans %v, want %v", orphans, tc.wantOrphans)
			}
			if v := l.View(); v != nil && tc.wantPRs != nil {
				var prs []int
				for _, e := range v.Recent {
					prs = append(prs, e.PR)
				}
				if !slices.Equal(prs, tc.wantPRs) {
					t.Errorf("the counted view holds %v, want %v", prs, tc.wantPRs)
				}
			}
		})
	}
}

func TestHas(t *testing.T) {
	t.Parallel()
	b := Append(nil, 0, entry(5))
	if !Has(&b, 5) || Has(&b, 6) || Has(nil, 5) {
		t.Fatal("Has does not find exactly the recorded PR")
	}
}

// A ledger with no fix loops is written byte for byte as before they were
// counted: blocks written by an older version still follow from their
// predecessors when a reader rebuilds them.
func TestNoLoopsWriteNothingNew(t *testing.T) {
	t.Parallel()
	e := rmcoc.PROutcome{PR: 1, Lines: 10, Findings: []rmcoc.FateRecord{{Fate: rmcoc.FateFixed, Score: 8, Category: "bug", Kind: rmcoc.FileCode}}}
	var head *rmcoc.Outcomes
	for i := 0; i < MaxRecent+2; i++ {
		b := Append(head, int64(i), e)
		head = &b
	}
	js := rmcoc.Fence(*head)
	for _, k := range []string{`"loops"`, `"own_suggestion"`, `"l":`, `"o":`} {
		if strings.Contains(js, k) {
			t.Errorf("a ledger without fix loops writes %s:\n%.300s", k, js)
		}
	}
	e.Findings = []rmcoc.FateRecord{{Fate: rmcoc.FateFixed, Score: 8, Category: "bug", Kind: rmcoc.FileCode, Loop: true}}
	if b := Append(head, 9, e); b.RollUp.Loops.Posted != 0 || !strings.Contains(rmcoc.Fence(b), `"l":true`) {
		t.Errorf("a fix loop is not written in the newest entry: %+v", b.RollUp.Loops)
	}
}

// A pull request is known to be recorded when the recent entries or the
// roll-up's held set hold it, and known not to be when the held set names
// every pull request rolled up; with one it cannot read, known not to be
// only when nothing was rolled up or it was opened after the oldest recent
// entry was recorded.
func TestRecorded(t *testing.T) {
	t.Parallel()
	at := func(h int) time.Time { return t0.Add(time.Duration(h) * time.Hour) }
	var head *rmcoc.Outcomes
	for i := 1; i <= MaxRecent+5; i++ {
		b := Append(head, int64(i), rmcoc.PROutcome{PR: 100 + i, ClosedAt: at(i)})
		head = &b
	}
	oldest := head.Recent[0]
	young := Append(nil, 0, rmcoc.PROutcome{PR: 7, ClosedAt: at(1)})
	unread := *head
	unread.RollUp.Held = "r:101-104,x"
	short := *head
	short.RollUp.Held = "r:101-104"
	for name, tc := range map[string]struct {
		head            *rmcoc.Outcomes
		n               int
		created         time.Time
		recorded, known bool
	}{
		"no ledger":                            {nil, 1, at(0), false, true},
		"held in full":                         {head, oldest.PR, at(0), true, true},
		"nothing rolled up":                    {&young, 8, at(0), false, true},
		"rolled up: the held set names it":     {head, 101, at(0), true, true},
		"last rolled up":                       {head, 105, at(0), true, true},
		"next to the held set, not in it":      {head, 100, at(0), false, true},
		"opened before, not held":              {head, 1, at(1), false, true},
		"unread held set, opened after":        {&unread, 1, oldest.ClosedAt.Add(time.Second), false, true},
		"unread held set, opened as recorded":  {&unread, 1, oldest.ClosedAt, false, false},
		"unread held set, opened before":       {&unread, 101, at(0), false, false},
		"short held set names it":              {&short, 101, at(0), true, true},
		"short held set, one it does not name": {&short, 105, at(0), false, false},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			recorded, known := Recorded(tc.head, tc.n, tc.created)
			if recorded != tc.recorded || known != tc.known {
				t.Errorf("Recorded = %t, %t; want %t, %t", recorded, known, tc.recorded, tc.known)
			}
		})
	}
}
