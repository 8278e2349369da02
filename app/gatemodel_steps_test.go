package app

import (
	"fmt"
	"maps"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/review-my-code-bot/rmc/event"
	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/rmcoc"
)

// step applies one step and the runs it starts; it reports whether the
// gate is to be checked (a cancelled push's head has no run, and a step
// that found nothing to do did nothing).
func (m *modelWorld) step(s step) bool {
	if edit, ok := edits[s.kind]; ok {
		if !m.apply(edit, s) {
			return false
		}
		m.push()
		m.run(m.pushRun(m.prs[0], 0))
		return true
	}
	return actions[s.kind](m, s)
}

// apply changes PR 1's head as edit says; it reports whether it changed.
func (m *modelWorld) apply(edit func(*modelWorld, step), s step) bool {
	before := m.head.clone()
	edit(m, s)
	return !maps.Equal(before, m.head)
}

// actions are the steps that are not a push and its run.
var actions = map[stepKind]func(m *modelWorld, s step) bool{
	stepCapped: func(m *modelWorld, s step) bool {
		m.run(m.commentRun(m.prs[0], author, "thanks", map[string]string{"max_run_tokens": fmt.Sprint(40 + s.b%200)}))
		return true
	},
	stepComment: func(m *modelWorld, _ step) bool {
		m.run(m.commentRun(m.prs[0], author, "thanks", nil))
		return true
	},
	stepCancelled: func(m *modelWorld, s step) bool {
		if m.apply(edits[stepEdit], s) {
			m.push()
		}
		return false
	},
	stepTamper: func(m *modelWorld, _ step) bool {
		pr := m.prs[0]
		if rv := m.botReviews(pr); len(rv) > 0 {
			last := rv[len(rv)-1]
			m.gh.EditReview(last.ID, author, last.Body+"\n")
			delete(pr.reviews, last.ID)
			pr.cut = true
		}
		m.run(m.commentRun(pr, author, "thanks", nil))
		return true
	},
	stepDeleteThread: (*modelWorld).deleteThread,
	stepSecondPR:     (*modelWorld).secondPR,
	stepCloseSecond:  func(m *modelWorld, _ step) bool { return m.closeSecond() },
	stepOverlap:      func(m *modelWorld, s step) bool { m.overlap(s, false); return true },
	stepOverlapRace:  func(m *modelWorld, s step) bool { m.overlap(s, true); return true },
	stepOverlapStale: func(m *modelWorld, s step) bool { m.overlapStale(s); return true },
	stepResolveAuthor: func(m *modelWorld, _ step) bool {
		m.run(m.commentRun(m.prs[0], author, "@rmc-bot resolve", nil))
		return true
	},
	stepResolveMaint: func(m *modelWorld, _ step) bool {
		pr := m.prs[0]
		// A command applies to the findings open when it is given (an
		// edited one included); it clears no cut in the ledger.
		for _, f := range pr.findings {
			if f.open || f.held || f.superseded || f.unverified {
				pr.decideByMaintainer(f)
			}
		}
		m.run(m.commentRun(pr, maintainer, "@rmc-bot resolve", nil))
		return true
	},
	stepWaive:       func(m *modelWorld, s step) bool { m.waive(s); return true },
	stepDispute:     func(m *modelWorld, s step) bool { return m.dispute(s, false) },
	stepRedispute:   func(m *modelWorld, s step) bool { return m.dispute(s, true) },
	stepDeleteReply: (*modelWorld).deleteReply,
	stepEditFinding: (*modelWorld).editFinding,
}

// edits are the pushes: each changes PR 1's head as its step says.
var edits = map[stepKind]func(m *modelWorld, s step){
	stepEdit: func(m *modelWorld, s step) {
		if p := m.pick(s.a, isText); p != "" {
			m.head[p] = m.text()
		}
	},
	stepAdd: func(m *modelWorld, s step) {
		m.head[fmt.Sprintf("%s/n%d.go", []string{"src", "lib", "lib/deep"}[s.b%3], s.a)] = m.text()
	},
	stepDelete: func(m *modelWorld, s step) {
		if p := m.pick(s.a, nil); p != "" {
			delete(m.head, p)
		}
	},
	stepRename: func(m *modelWorld, s step) {
		// A bug keeps its path: the scripted model names it by the path it
		// was written for.
		if p := m.pick(s.a, func(_ string, c content) bool { return !c.bug() }); p != "" {
			m.head[renamedPath(p)] = m.head[p]
			delete(m.head, p)
		}
	},
	stepRevert: func(m *modelWorld, s step) {
		if back := m.reverts(); len(back) > 0 {
			maps.Copy(m.head, back[s.a%len(back)])
		}
	},
	stepForceBack: func(m *modelWorld, s step) {
		if len(m.heads) > 0 && !m.bringsBack(m.heads[s.a%len(m.heads)]) {
			m.head = m.heads[s.a%len(m.heads)].clone()
		}
	},
	stepRegress: (*modelWorld).regress,
	stepBinary: func(m *modelWorld, s step) {
		m.head[fmt.Sprintf("assets/b%d.bin", s.a%3)] = content{text: "BIN\x00" + m.text().text, binary: true}
	},
	stepTextForBin: func(m *modelWorld, s step) {
		if p := m.pick(s.a, func(_ string, c content) bool { return c.binary }); p != "" {
			m.head[p] = content{text: m.text().text, huge: true} // GitHub: "Binary files differ", no patch
		}
	},
	stepHuge: func(m *modelWorld, s step) {
		c := m.text()
		c.huge = true
		m.head[fmt.Sprintf("data/h%d.sql", s.a%3)] = c
	},
	stepBigDir: func(m *modelWorld, s step) {
		for i := range 12 {
			m.head[fmt.Sprintf("big%d/d%d/f%d.go", s.a%2, i%3, i)] = m.text()
		}
	},
	stepWideDir: func(m *modelWorld, s step) {
		for i := range 10 {
			m.head[fmt.Sprintf("wide/w%d_%d.go", s.a%2, i)] = m.text()
		}
	},
	stepWideEdit: func(m *modelWorld, s step) {
		for _, p := range m.head.paths() {
			if strings.HasPrefix(p, "pkg/") && (s.a+len(p))%5 != 0 {
				m.head[p] = m.text()
			}
		}
	},
	stepIgnored: func(m *modelWorld, s step) { m.head[fmt.Sprintf("gen/g%d.go", s.a%3)] = m.text() },
	stepBug: func(m *modelWorld, s step) {
		p := fmt.Sprintf("src/bug%d.go", s.a%2)
		c := m.text()
		c.text = strings.TrimSuffix(c.text, "\n") + " BUG in " + p + "\n"
		m.head[p] = c
	},
	stepFix: func(m *modelWorld, s step) {
		if p := m.pick(s.a, func(_ string, c content) bool { return c.bug() }); p != "" {
			m.head[p] = m.text()
		}
	},
}

func isText(_ string, c content) bool { return !c.binary }

// reverts are the files an earlier head held that the head holds no longer
// (or holds otherwise), one per path and content, less those only
// stepRegress puts back.
func (m *modelWorld) reverts() []files {
	var out []files
	seen := map[string]bool{}
	for _, h := range m.heads {
		for _, p := range h.paths() {
			c := h[p]
			if key := p + "\x00" + c.text; c != m.head[p] && !seen[key] && !m.bringsBack(files{p: c}) {
				seen[key] = true
				out = append(out, files{p: c})
			}
		}
	}
	return out
}

// bringsBack reports whether a push of these files would put back, at its
// path, a content a finding was raised on that the head no longer holds:
// only stepRegress does that.
func (m *modelWorld) bringsBack(target files) bool {
	for _, pr := range m.prs {
		for _, f := range pr.findings {
			if c, ok := target[f.path]; ok && c.mark() == f.on && m.head[f.path].mark() != f.on {
				return true
			}
		}
	}
	return false
}

// regress puts back, at its path, a content a finding of PR 1 was raised
// on and the head no longer holds (fixed, or decided and changed since).
func (m *modelWorld) regress(s step) {
	var back []files
	for _, f := range m.prs[0].findings {
		if m.head[f.path].mark() == f.on {
			continue
		}
		for _, h := range m.heads {
			if c, ok := h[f.path]; ok && c.mark() == f.on {
				back = append(back, files{f.path: c})
				break
			}
		}
	}
	if len(back) > 0 {
		maps.Copy(m.head, back[s.a%len(back)])
	}
}

// threadFinding is the oracle's finding a bot thread holds: the one raised
// on the content its line had at the commit it was posted on.
func (m *modelWorld) threadFinding(pr *prModel, th fakegithub.Thread) *finding {
	m.mu.Lock()
	at := m.bySHA[shortSHA(th.Comments[0].CommitID)]
	m.mu.Unlock()
	on := at[th.Path].mark()
	if f := pr.find(th.Path, on); f != nil {
		return f
	}
	m.t.Errorf("the bot posted a finding on %s at %s (%s) that no posted review was shown", th.Path, shortSHA(th.Comments[0].CommitID), on)
	pr.raise(th.Path, on)
	return pr.find(th.Path, on)
}

func shortSHA(sha string) string { return sha[:min(7, len(sha))] }

// deleteThread deletes a finding's comment: the finding blocks until a
// maintainer waives it.
func (m *modelWorld) deleteThread(s step) bool {
	pr := m.prs[0]
	roots := m.findingRoots(pr, false)
	if len(roots) == 0 {
		return false
	}
	th := roots[s.a%len(roots)]
	f := m.threadFinding(pr, th)
	// A finding a maintainer's command closed stays closed: its waiver
	// holds whatever becomes of its thread, unless an edit of the finding
	// superseded it (the edit outlives the comment).
	if blocks := rmcoc.All[rmcoc.Finding](th.Comments[0].Body); len(blocks) > 0 && (f == nil || !f.maint || f.open || f.superseded) {
		pr.gone[blocks[0].ID] = f
	}
	m.gh.DeleteReviewComment(th.Comments[0].ID)
	m.run(m.commentRun(pr, author, "thanks", nil))
	return true
}

// waive is "@rmc-bot waive <id>" of a deleted finding (or of none), by a
// maintainer or by the author, who may not.
func (m *modelWorld) waive(s step) {
	pr := m.prs[0]
	ids := sortedKeys(pr.gone)
	id := "f-000000000000"
	if len(ids) > 0 {
		id = ids[s.a%len(ids)]
	}
	who := maintainer
	if s.b%2 == 1 {
		who = author
	}
	if f := pr.gone[id]; f != nil && who == maintainer {
		delete(pr.gone, id)
		pr.decideByMaintainer(f)
	}
	m.run(m.commentRun(pr, who, "@rmc-bot waive "+id, nil))
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// dispute is the author's reply to a finding open on the head's content;
// the model concedes when the reply says CONCEDE (b even). again disputes
// a content a dispute was maintained on (maintained first when none was),
// the bot's verdict deleted first when b is odd, and the reply concedes.
func (m *modelWorld) dispute(s step, again bool) bool {
	pr := m.prs[0]
	var ts []disputed
	for _, th := range m.findingRoots(pr, true) {
		if f := m.threadFinding(pr, th); f.open && !f.cut && !f.held && pr.head[f.path].mark() == f.on && (again || !pr.judged[f.on]) {
			ts = append(ts, disputed{th.ID, th.Comments[0].ID, f})
		}
	}
	if len(ts) == 0 {
		return false
	}
	t := ts[s.a%len(ts)]
	if !again {
		m.reply(t, s.b%2 == 0)
		return true
	}
	if !pr.judged[t.f.on] {
		m.reply(t, false)
	}
	if s.b%2 == 1 {
		for _, th := range m.findingRoots(pr, false) {
			if th.ID == t.thread && th.Comments[len(th.Comments)-1].Author == botLogin {
				m.gh.DeleteReviewComment(th.Comments[len(th.Comments)-1].ID)
				t.f.cut = true
			}
		}
	}
	m.reply(t, true)
	return true
}

const botLogin = "github-actions[bot]"

// disputed is a finding's thread and root, and the oracle's finding.
type disputed struct {
	thread string
	root   int64
	f      *finding
}

// reply is the author's reply in the thread and its run; a concession
// closes the finding unless a dispute was judged on its content before.
func (m *modelWorld) reply(t disputed, concede bool) {
	pr := m.prs[0]
	body := "the caller checks it"
	if concede {
		body = "CONCEDE: " + body
	}
	id := m.gh.AddReply(modelRepo, pr.num, t.root, author, body)
	m.run(runOf{pr: pr, ev: event.Event{Name: event.PullRequestReviewComment, Action: "created", Sender: author,
		Comment: &event.Comment{ID: id, Body: body, Author: author, InReplyTo: t.root, IsReview: true}}})
	switch {
	case !concede:
		pr.judged[t.f.on] = true
	case !pr.judged[t.f.on]: // a dispute is judged once per content
		pr.decide(t.f)
	}
}

// botReplies are the bot's replies in the PR's finding threads, each with
// its thread.
func (m *modelWorld) botReplies(pr *prModel) (replies []fakegithub.ReviewComment, threads []fakegithub.Thread) {
	for _, th := range m.findingRoots(pr, false) {
		for _, c := range th.Comments[1:] {
			if c.Author == botLogin {
				replies, threads = append(replies, c), append(threads, th)
			}
		}
	}
	return replies, threads
}

// deleteReply deletes one of the bot's replies in a finding's thread (a
// verdict, a fix): a cut in the ledger, blocking the finding until a
// maintainer clears it.
func (m *modelWorld) deleteReply(s step) bool {
	pr := m.prs[0]
	replies, threads := m.botReplies(pr)
	if len(replies) == 0 {
		return false
	}
	i := s.a % len(replies)
	m.threadFinding(pr, threads[i]).cut = true
	m.gh.DeleteReviewComment(replies[i].ID)
	m.run(m.commentRun(pr, author, "thanks", nil))
	return true
}

// editFinding is a person (the author or a maintainer) editing a bot
// finding's comment: the finding is held until a maintainer settles it
// after the edit.
func (m *modelWorld) editFinding(s step) bool {
	pr := m.prs[0]
	roots := m.findingRoots(pr, false)
	if len(roots) == 0 {
		return false
	}
	th := roots[s.a%len(roots)]
	who := author
	if s.b%2 == 1 {
		who = maintainer
	}
	// An edit holds a finding no decision closed yet (a fix no review has
	// read is none); one a decision closed loses it (the decision judged
	// another text): pending until a maintainer resolves it after the edit.
	switch f := m.threadFinding(pr, th); {
	case f.open || f.held || f.unverified:
		f.held = true
	default:
		f.superseded = true
	}
	m.gh.EditComment(th.Comments[0].ID, who, th.Comments[0].Body+"\n\nedited")
	m.run(m.commentRun(pr, author, "thanks", nil))
	return true
}

// secondPR opens a second PR whose head is PR 1's, into main from an
// earlier head of PR 1 (its diff a part of PR 1's), or moves the open one
// to PR 1's head; then runs it.
func (m *modelWorld) secondPR(s step) bool {
	first := m.prs[0]
	if last := m.prs[len(m.prs)-1]; len(m.prs) > 1 && last.open {
		if last.headSHA == first.headSHA {
			return false
		}
		m.gh.UpdatePR(modelRepo, last.num, func(p *fakegithub.PR) { p.HeadSHA = first.headSHA })
		m.gh.SetFiles(modelRepo, last.num, filesList(last.base, m.head))
		last.moved(first.headSHA, m.head)
		m.outdate(last)
		m.run(m.pushRun(last, 0))
		return true
	}
	base := m.base
	if len(m.heads) > 0 {
		base = m.heads[s.a%len(m.heads)]
	}
	sha := fmt.Sprintf("c%07x%032x", len(m.prs), 0)
	m.store(sha, base)
	p := m.gh.AddPR(modelRepo, fakegithub.PR{Author: author, Title: "Second", HeadSHA: first.headSHA, BaseSHA: sha,
		HeadRef: fmt.Sprintf("feature-%d", len(m.prs)+1), BaseRef: "main"})
	m.gh.SetFiles(modelRepo, p.Number, filesList(base, m.head))
	pr := newPRModel(p.Number, sha, base.clone(), m.head, first.headSHA, m.limit)
	m.prs = append(m.prs, pr)
	r := m.pushRun(pr, 0)
	r.ev.Action = "opened"
	m.run(r)
	return true
}

// closeSecond closes the open second PR; a comment run on PR 1 follows.
func (m *modelWorld) closeSecond() bool {
	last := m.prs[len(m.prs)-1]
	if len(m.prs) == 1 || !last.open {
		return false
	}
	m.gh.UpdatePR(modelRepo, last.num, func(p *fakegithub.PR) { p.State = "closed" })
	last.open = false
	m.run(m.commentRun(m.prs[0], author, "thanks", nil))
	return true
}

// overlap is a push (an edit, or a bug when b is odd) and two runs on its
// snapshot (the push's and a comment's, no concurrency:): the push's run,
// started first, claims the review and is held at its next write (its
// review) until the comment's run, which leaves the review to it, finished.
// race holds a run where a status read and its write, or a claim and the
// review after it, race another run (GitHub has no compare-and-set; the
// gate re-reads after a relaxing write, a review reads the reviews posted
// since before it posts): the comment's run at its first write, the gate's
// status, after its read of the status, while the push's run finishes (a
// even); or the push's run at its claim, while the comment's run reviews
// the head, which the push's run then reviews again (a odd).
func (m *modelWorld) overlap(s step, race bool) {
	pr := m.prs[0]
	push := edits[stepEdit]
	if s.b%2 == 1 {
		push = edits[stepBug]
	}
	if m.apply(push, step{a: s.b}) {
		m.push()
	}
	switch {
	case race && s.a%2 == 0:
		first := m.commentRun(pr, author, "thanks", nil)
		first.model = 1
		m.held(first, 1, func() map[int64]bool { return m.run(m.pushRun(pr, 0)) })
	default:
		k := 2
		if race {
			k = 1
		}
		second := m.commentRun(pr, author, "thanks", nil)
		m.held(m.pushRun(pr, 1), k, func() map[int64]bool { return m.run(second) })
	}
}

// overlapStale is a push whose run never started, then a comment's run
// (reviewing what is owed) held at one of its first writes while another
// push lands and its run finishes: the older run finishes last.
func (m *modelWorld) overlapStale(s step) {
	pr := m.prs[0]
	if m.apply(edits[stepEdit], step{a: s.a / 3}) {
		m.push()
	}
	older := m.commentRun(pr, author, "thanks", nil)
	older.model = 1
	m.held(older, 1+s.a%3, func() map[int64]bool {
		if !m.apply(edits[stepEdit], step{a: s.b}) {
			return nil
		}
		m.push()
		return m.run(m.pushRun(pr, 0))
	})
}

// held runs r, holding its k-th write to GitHub while during runs; a run
// that finishes before its k-th write is followed by during.
func (m *modelWorld) held(r runOf, k int, during func() map[int64]bool) {
	arrived, hold := make(chan struct{}), make(chan struct{})
	var n atomic.Int32
	m.gh.OnWrite(func(int) bool {
		if n.Add(1) == int32(k) {
			close(arrived)
			<-hold
		}
		return true
	})
	defer m.gh.OnWrite(nil)
	w := m.watch(r)
	done := make(chan struct{})
	go func() {
		defer close(done)
		m.exec(r)
	}()
	select {
	case <-arrived:
		m.overlapped++
		theirs := during()
		close(hold)
		<-done
		w.done(theirs)
	case <-done:
		m.gh.OnWrite(nil)
		close(hold)
		w.done(nil)
		during()
	}
}
