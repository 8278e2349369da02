package state_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// ledger writes a PR's state ledger as the bot does: each block names the
// one before it (the first, the genesis), and head writes the newest into
// a review's body.
type ledger struct {
	*pr
	latest *rmcoc.Link
}

func newLedger() *ledger { return &ledger{pr: newPR()} }

// add writes a ledger block in a holder of kind with id (in thread tid for
// a reply) and returns its link.
func (l *ledger) add(kind rmcoc.Holder, id int64, tid string, b rmcoc.Block) rmcoc.Link {
	prev := rmcoc.Genesis()
	if l.latest != nil {
		prev = l.latest
	}
	return l.addAfter(kind, id, tid, b, prev)
}

// addAfter writes a ledger block naming prev (nil: none, as before links).
func (l *ledger) addAfter(kind rmcoc.Holder, id int64, tid string, b rmcoc.Block, prev *rmcoc.Link) rmcoc.Link {
	b = rmcoc.WithPrev(b, prev)
	switch kind {
	case rmcoc.HolderReview:
		l.review(id, botAuthor, with("Review.", b))
	case rmcoc.HolderReviewComment:
		l.reply(tid, id, botAuthor, with("Reply.", b))
	case rmcoc.HolderComment:
		l.comment(id, botAuthor, with("Comment.", b))
	}
	self := rmcoc.Link{Holder: kind, CommentID: rmcoc.ID(id), Digest: rmcoc.Digest(b)}
	if d, ok := b.(rmcoc.DisputeResolution); ok {
		self.FindingID, self.ReplyTo = d.FindingID, d.ReplyToCommentID
	}
	l.latest = &self
	return self
}

// head writes the ledger's head into review id's body, as the bot edits it.
func (l *ledger) head(id int64, tips ...rmcoc.Link) {
	for i := range l.snap.Reviews {
		if r := &l.snap.Reviews[i]; r.ID == id {
			r.Body, r.Editor = rmcoc.Reanchor(r.Body, rmcoc.LedgerHead{Tips: tips, At: t0}), &botAuthor
		}
	}
}

// deleteComment deletes a reply or a conversation comment.
func (l *ledger) deleteComment(id int64) {
	for i := range l.snap.Threads {
		l.snap.Threads[i].Comments = slices.DeleteFunc(l.snap.Threads[i].Comments, func(c snapshot.ReviewComment) bool { return c.ID == id })
	}
	l.snap.IssueComments = slices.DeleteFunc(l.snap.IssueComments, func(c snapshot.Comment) bool { return c.ID == id })
}

// editComment edits a reply as someone else would.
func (l *ledger) editReply(id int64, by snapshot.Actor, body func(string) string) {
	for i := range l.snap.Threads {
		for j := range l.snap.Threads[i].Comments {
			if c := &l.snap.Threads[i].Comments[j]; c.ID == id {
				c.Body, c.Editor = body(c.Body), &by
			}
		}
	}
}

// base writes a review with a blocking finding f-1 in thread T1 (root 301)
// and alice's reply 302 on it.
func (l *ledger) base() rmcoc.Link {
	r := l.add(rmcoc.HolderReview, 201, "", rmcoc.ReviewRun{HeadSHA: shaA, Mode: rmcoc.ModeAuto, Findings: 1, Blocking: 1, CompletedAt: t0,
		Posted: []rmcoc.PostedFinding{{ID: "f-1", Blocking: true}}})
	l.finding("T1", 301, rmcoc.Finding{ID: "f-1", Title: "nil map write", Score: 9, Blocking: true, Status: rmcoc.FindingOpen, CreatedAt: t0})
	l.pr.reply("T1", 302, alice, "It is guarded.")
	return r
}

func verdict(reply int64, status rmcoc.FindingStatus, res rmcoc.Resolution) rmcoc.DisputeResolution {
	return rmcoc.DisputeResolution{ReplyToCommentID: rmcoc.ID(reply), FindingID: "f-1", ThreadID: "T1", Status: status, Resolution: res, ResolvedAt: t0}
}

// chainLines states what the ledger check found, one fact a line.
func chainLines(st state.State) []string {
	var out []string
	for _, c := range st.Chain.Cuts {
		line := "cut: " + c.Why
		if !c.Noticed.IsZero() {
			line += " (noticed)"
		}
		if c.ClearedBy != "" {
			line += " cleared by @" + c.ClearedBy
		}
		out = append(out, line)
	}
	for _, t := range st.Chain.Tips {
		out = append(out, "tip "+t.Key()[:strings.Index(t.Key(), "@")])
	}
	if st.Chain.Unanchored {
		out = append(out, "unanchored")
	}
	for _, f := range st.Findings {
		if len(f.PendingReplies) > 0 {
			out = append(out, fmt.Sprintf("finding %s has %d reply(ies) to judge", f.Block.ID, len(f.PendingReplies)))
		}
		if st.Touched(f.Block.ID) {
			out = append(out, fmt.Sprintf("finding %s touched", f.Block.ID))
		}
	}
	return out
}

func TestLedgerChain(t *testing.T) {
	t.Parallel()
	maintained := verdict(302, rmcoc.FindingDisputed, rmcoc.ResolutionMaintained)
	tests := map[string]struct {
		build func(l *ledger)
		want  []string
	}{
		"a plain history: the review, a verdict, the head naming it": {
			build: func(l *ledger) {
				l.base()
				d := l.add(rmcoc.HolderReviewComment, 303, "T1", maintained)
				l.head(201, d)
			},
			want: []string{"tip review-comment/303"},
		},
		"a verdict the head does not name yet (a run killed before it wrote the head)": {
			build: func(l *ledger) {
				l.base()
				l.add(rmcoc.HolderReviewComment, 303, "T1", maintained)
			},
			want: []string{"tip review-comment/303", "unanchored"},
		},
		"the tail verdict deleted: the head names it": {
			build: func(l *ledger) {
				l.base()
				d := l.add(rmcoc.HolderReviewComment, 303, "T1", maintained)
				l.head(201, d)
				l.deleteComment(303)
			},
			// Alice's reply was judged: it is not asked about again.
			want: []string{"cut: the bot's reply 303 on finding f-1 was deleted", "tip review-comment/303", "finding f-1 touched"},
		},
		"a middle verdict deleted: the next one names it": {
			build: func(l *ledger) {
				l.base()
				l.add(rmcoc.HolderReviewComment, 303, "T1", maintained)
				l.pr.reply("T1", 304, alice, "Look again.")
				d := l.add(rmcoc.HolderReviewComment, 305, "T1", verdict(304, rmcoc.FindingDisputed, rmcoc.ResolutionMaintained))
				l.head(201, d)
				l.deleteComment(303)
			},
			want: []string{"cut: the bot's reply 303 on finding f-1 was deleted", "tip review-comment/305", "tip review-comment/303", "unanchored", "finding f-1 touched"},
		},
		"the regressed reply deleted": {
			build: func(l *ledger) {
				l.base()
				l.add(rmcoc.HolderReviewComment, 303, "T1", verdict(302, rmcoc.FindingResolved, rmcoc.ResolutionFixed))
				d := l.add(rmcoc.HolderReviewComment, 304, "T1", rmcoc.DisputeResolution{FindingID: "f-1", ThreadID: "T1", Status: rmcoc.FindingOpen, Resolution: rmcoc.ResolutionRegressed, ResolvedAt: t0})
				l.head(201, d)
				l.deleteComment(304)
			},
			want: []string{"cut: the bot's reply 304 on finding f-1 was deleted", "tip review-comment/303", "tip review-comment/304", "unanchored", "finding f-1 touched"},
		},
		"a bot reply edited by someone else": {
			build: func(l *ledger) {
				l.base()
				d := l.add(rmcoc.HolderReviewComment, 303, "T1", maintained)
				l.head(201, d)
				l.editReply(303, maria, func(s string) string { return s + "\n" })
			},
			want: []string{"cut: the bot's reply 303 on finding f-1 was edited by @maria", "tip review-comment/303", "finding f-1 touched"},
		},
		"a block changed under the bot's name (the digest no longer matches)": {
			build: func(l *ledger) {
				r := l.base()
				d := l.add(rmcoc.HolderReviewComment, 303, "T1", maintained)
				l.head(201, d)
				l.editReply(303, botAuthor, func(string) string {
					return with("Reply.", rmcoc.WithPrev(verdict(302, rmcoc.FindingResolved, rmcoc.ResolutionConcession), &r))
				})
			},
			// The reply holds another block now: a tip, beside the cut one.
			want: []string{"cut: the bot's reply 303 on finding f-1 no longer holds the block the ledger names", "tip review-comment/303", "tip review-comment/303", "unanchored", "finding f-1 touched"},
		},
		"two runs that overlapped fork the ledger: no cut": {
			build: func(l *ledger) {
				r := l.base()
				l.pr.reply("T1", 304, bob, "And this?")
				a := l.addAfter(rmcoc.HolderReviewComment, 303, "T1", maintained, &r)
				b := l.addAfter(rmcoc.HolderReviewComment, 305, "T1", verdict(304, rmcoc.FindingDisputed, rmcoc.ResolutionAnswered), &r)
				l.head(201, a, b)
			},
			want: []string{"tip review-comment/303", "tip review-comment/305"},
		},
		"a bot review edited by someone else once the ledger began": {
			build: func(l *ledger) {
				l.base()
				l.snap.Reviews[0].Editor = &maria
			},
			want: []string{"cut: the bot's review 201 was edited by @maria", "tip review/201", "unanchored", "finding f-1 has 1 reply(ies) to judge", "finding f-1 touched"},
		},
		"blocks written before links (an older version) are the ledger's start": {
			build: func(l *ledger) {
				l.addAfter(rmcoc.HolderReview, 201, "", rmcoc.ReviewRun{HeadSHA: shaA, Mode: rmcoc.ModeAuto, CompletedAt: t0}, nil)
				l.finding("T1", 301, rmcoc.Finding{ID: "f-1", Title: "nil map write", Score: 9, Blocking: true, Status: rmcoc.FindingOpen, CreatedAt: t0})
				l.pr.reply("T1", 302, alice, "It is guarded.")
				l.addAfter(rmcoc.HolderReviewComment, 303, "T1", maintained, nil)
				d := l.add(rmcoc.HolderReviewComment, 305, "T1", verdict(302, rmcoc.FindingDisputed, rmcoc.ResolutionAnswered))
				l.head(201, d)
			},
			want: []string{"tip review-comment/305"},
		},
		"an old PR edited before any link: no cut, its blocks count for nothing": {
			build: func(l *ledger) {
				l.addAfter(rmcoc.HolderReview, 201, "", rmcoc.ReviewRun{HeadSHA: shaA, Mode: rmcoc.ModeAuto, CompletedAt: t0}, nil)
				l.snap.Reviews[0].Editor = &maria
			},
		},
		"a block without a link written after the ledger began": {
			build: func(l *ledger) {
				l.base()
				d := l.add(rmcoc.HolderReviewComment, 303, "T1", maintained)
				l.head(201, d)
				l.addAfter(rmcoc.HolderComment, 401, "", rmcoc.CommandAnswer{CommandCommentID: 400, Command: "resolve", By: "maria", Result: rmcoc.CommandDone, At: t0}, nil)
			},
			want: []string{"cut: the bot's comment 401 holds a ledger block written without a link after the ledger began", "tip review-comment/303", "tip comment/401", "unanchored", "finding f-1 touched"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			l := newLedger()
			tc.build(l)
			if got := chainLines(derive(l.pr, bot)); !slices.Equal(got, tc.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// A cut is told once, kept by its notice after the head moves on, and
// cleared only by a maintainer's command given after the notice.
func TestLedgerCutNoticeAndClear(t *testing.T) {
	t.Parallel()
	cut := func(l *ledger) rmcoc.Link {
		l.base()
		d := l.add(rmcoc.HolderReviewComment, 303, "T1", verdict(302, rmcoc.FindingDisputed, rmcoc.ResolutionMaintained))
		l.head(201, d)
		l.deleteComment(303)
		return d
	}
	notice := func(l *ledger, d rmcoc.Link) {
		n := l.add(rmcoc.HolderComment, 501, "", rmcoc.LedgerCut{Cuts: []rmcoc.Link{d}, At: t0})
		l.head(201, d, n) // the head keeps naming what is cut
	}
	const why = "cut: the bot's reply 303 on finding f-1 was deleted"
	tests := map[string]struct {
		build func(l *ledger)
		want  []string
	}{
		"told": {
			build: func(l *ledger) { notice(l, cut(l)) },
			want:  []string{why + " (noticed)", "tip comment/501", "tip review-comment/303", "finding f-1 touched"},
		},
		"the notice deleted: a cut of its own": {
			build: func(l *ledger) {
				notice(l, cut(l))
				l.deleteComment(501)
			},
			want: []string{"cut: the bot's reply 303 on finding f-1 was deleted", "cut: the bot's comment 501 was deleted", "tip review-comment/303", "tip comment/501", "finding f-1 touched"},
		},
		"cleared by a maintainer after the notice": {
			build: func(l *ledger) {
				notice(l, cut(l))
				l.comment(601, maria, "@rmc-bot clear-ledger")
			},
			want: []string{why + " (noticed) cleared by @maria", "tip comment/501", "tip review-comment/303"},
		},
		"the PR's author cannot clear it": {
			build: func(l *ledger) {
				notice(l, cut(l))
				l.comment(601, alice, "@rmc-bot clear-ledger")
			},
			want: []string{why + " (noticed)", "tip comment/501", "tip review-comment/303", "finding f-1 touched"},
		},
		"a clear given before the notice clears nothing": {
			build: func(l *ledger) {
				d := cut(l)
				l.comment(601, maria, "@rmc-bot clear-ledger")
				notice(l, d)
			},
			want: []string{why + " (noticed)", "tip comment/501", "tip review-comment/303", "finding f-1 touched"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			l := newLedger()
			tc.build(l)
			if got := chainLines(derive(l.pr, bot)); !slices.Equal(got, tc.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
