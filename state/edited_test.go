package state_test

import (
	"testing"

	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// edit has by edit the root comment of thread tid, at the next minute, or
// undated as GitHub may leave it (an editor, no lastEditedAt): the text
// then describes other code than the finding was raised on.
func (p *pr) edit(tid string, by snapshot.Actor, dated bool) {
	root := &p.find(tid).Comments[0]
	at := p.tick()
	root.Editor, root.Body = &by, "the race is in util.go, not here\n\n"+root.Body[len("Race"):]
	if dated {
		root.EditedAt = at
	}
}

// A maintainer's decision settles an edited finding only when it was
// given after the finding's comment was last edited: one from before
// judged other text, and one GitHub does not date (a thread's resolution,
// anything after an undated edit) cannot be shown to follow it. Such a
// finding holds the gate, named, until a resolve command after the edit.
func TestDecisionsBeforeAnEditDoNotSettleIt(t *testing.T) {
	t.Parallel()
	fixed := rmcoc.DisputeResolution{FindingID: "f-1", Status: rmcoc.FindingResolved, Resolution: rmcoc.ResolutionFixed, HeadSHA: shaA, ResolvedAt: t0}
	for name, tc := range map[string]struct {
		setup   func(p *pr)
		blocks  bool
		waiver  string // who the waiver that counts is by
		unknown string // why the decision that closed it does not count
	}{
		"not edited: a resolve settles it": {setup: func(p *pr) { p.comment(1, maria, "@rmc-bot resolve") }, waiver: "maria"},
		"edited by the bot itself": {setup: func(p *pr) {
			p.comment(1, maria, "@rmc-bot resolve")
			p.edit("T1", botAuthor, true)
		}, waiver: "maria"},
		"edited, no decision: it blocks": {setup: func(p *pr) { p.edit("T1", bob, true) }, blocks: true},
		"a resolve before the edit": {setup: func(p *pr) {
			p.comment(1, maria, "@rmc-bot resolve")
			p.edit("T1", bob, true)
		}, unknown: "finding in comment 10 edited after @maria's resolve"},
		"a resolve answered, its thread resolved by the bot, then the edit": {setup: func(p *pr) {
			p.comment(1, maria, "@rmc-bot resolve")
			p.comment(2, botAuthor, with("resolved", rmcoc.CommandAnswer{CommandCommentID: 1, Command: "resolve", By: "maria", Result: rmcoc.CommandDone, FindingIDs: []string{"f-1"}, At: t0}))
			p.resolveAs("T1", botAuthor)
			p.edit("T1", bob, true)
		}, unknown: "finding in comment 10 edited after @maria's resolve"},
		"a resolve after the edit": {setup: func(p *pr) {
			p.edit("T1", bob, true)
			p.comment(1, maria, "@rmc-bot resolve")
		}, waiver: "maria"},
		"a resolve in the very second of the edit": {setup: func(p *pr) {
			p.comment(1, maria, "@rmc-bot resolve")
			p.find("T1").Comments[0].Editor = &bob
			p.find("T1").Comments[0].EditedAt = p.snap.IssueComments[0].CreatedAt
		}, unknown: "finding in comment 10 edited after @maria's resolve"},
		"a resolve before the edit, another after": {setup: func(p *pr) {
			p.comment(1, maria, "@rmc-bot resolve")
			p.edit("T1", bob, true)
			p.comment(2, maria, "@rmc-bot resolve")
		}, waiver: "maria"},
		"an undated edit: no resolve follows it": {setup: func(p *pr) {
			p.edit("T1", bob, false)
			p.comment(1, maria, "@rmc-bot resolve")
		}, unknown: "finding in comment 10 edited at a time GitHub does not give"},
		"the thread resolved by a maintainer: undated": {setup: func(p *pr) {
			p.edit("T1", bob, true)
			p.resolve("T1")
		}, unknown: "finding in comment 10 edited; resolution undated"},
		"the thread resolved, then a resolve after the edit": {setup: func(p *pr) {
			p.resolve("T1")
			p.edit("T1", bob, true)
			p.comment(1, maria, "@rmc-bot resolve")
		}, waiver: "maria"},
		"a fix verified before the edit": {setup: func(p *pr) {
			p.snap.PR.Commits, p.snap.PR.CommitsTotal = []string{shaA}, 1
			p.reply("T1", 11, botAuthor, with("fixed", fixed))
			p.resolveAs("T1", botAuthor)
			p.edit("T1", bob, true)
		}, unknown: "finding in comment 10 edited after its fix was verified"},
		"a concession before the edit": {setup: func(p *pr) {
			p.reply("T1", 11, alice, "mu guards it")
			p.reply("T1", 12, botAuthor, with("conceded", rmcoc.DisputeResolution{FindingID: "f-1", ReplyToCommentID: 11, Status: rmcoc.FindingResolved, Resolution: rmcoc.ResolutionConcession, ResolvedAt: t0}))
			p.resolveAs("T1", botAuthor)
			p.edit("T1", bob, true)
		}, unknown: "finding in comment 10 edited after its concession"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := newPR()
			p.finding("T1", 10, rmcoc.Finding{ID: "f-1", Title: "Race", Score: 8, Blocking: true, Status: rmcoc.FindingOpen})
			tc.setup(p)
			st := derive(p, bot)
			f := st.Findings[0]
			d, decided := f.Decision()
			if f.Blocks() != tc.blocks || f.WaivedBy != tc.waiver || d.Unknown != tc.unknown {
				t.Errorf("blocks %v, waived by %q, decision %+v (%v); want blocks %v, waived by %q, unknown %q",
					f.Blocks(), f.WaivedBy, d, decided, tc.blocks, tc.waiver, tc.unknown)
			}
			if held := tc.blocks || tc.unknown != ""; held == (decided && d.Unknown == "") {
				t.Errorf("decision %+v (%v): the finding held %v", d, decided, held)
			}
			if tc.waiver != "" && d.Kind != gate.Waived {
				t.Errorf("decision %+v, want the waiver", d)
			}
			if tc.unknown != "" && (len(st.OpenBlocking()) != 0 || len(st.Decisions()) != 1 || len(st.Reopens()) != 0) {
				t.Errorf("%d blocking, decisions %+v, %d to reopen: want the finding held by its decision alone, its thread left as it is",
					len(st.OpenBlocking()), st.Decisions(), len(st.Reopens()))
			}
		})
	}
}

// A dispute is judged once per content: the contents a verdict kept the
// finding open on stay judged through the answers after it (each says the
// question is settled on this code), until the finding regresses.
func TestJudgedContentsOutliveLaterAnswers(t *testing.T) {
	t.Parallel()
	verdict := func(r rmcoc.Resolution, blob string) string {
		return with("reply", rmcoc.DisputeResolution{FindingID: "f-1", Status: rmcoc.FindingDisputed, Resolution: r, Blob: blob, ResolvedAt: t0})
	}
	p := newPR()
	p.finding("T1", 10, rmcoc.Finding{ID: "f-1", Title: "Race", Score: 8, Blocking: true, Status: rmcoc.FindingOpen})
	p.reply("T1", 11, alice, "mu guards it")
	p.reply("T1", 12, botAuthor, verdict(rmcoc.ResolutionMaintained, "blob-a"))
	p.reply("T1", 13, alice, "look again")
	p.reply("T1", 14, botAuthor, verdict(rmcoc.ResolutionAnswered, "blob-a"))
	p.reply("T1", 15, alice, "and again")
	p.reply("T1", 16, botAuthor, verdict(rmcoc.ResolutionEscalated, "blob-b"))
	p.reply("T1", 17, alice, "once more")
	p.reply("T1", 18, botAuthor, verdict(rmcoc.ResolutionAnswered, "blob-b"))
	f := derive(p, bot).Findings[0]
	if !f.JudgedOn("blob-a") || !f.JudgedOn("blob-b") || f.JudgedOn("blob-c") || f.JudgedOn("") {
		t.Errorf("judged %v: want blob-a and blob-b, through the answers after them", f.Judged)
	}
	p.reply("T1", 19, botAuthor, verdict(rmcoc.ResolutionRegressed, "blob-a"))
	if f := derive(p, bot).Findings[0]; len(f.Judged) != 0 {
		t.Errorf("after the regression judged %v, want none", f.Judged)
	}
}
