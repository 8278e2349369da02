package state_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// Commands are read by rules: the whole request is the command's word,
// and its argument.
func TestParseCommand(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]struct {
		c   state.Command
		arg string
	}{
		"pause":                {c: state.CommandPause},
		"  Pause. ":            {c: state.CommandPause},
		"RESUME!":              {c: state.CommandResume},
		"summary":              {c: state.CommandSummary},
		"resolve":              {c: state.CommandResolve},
		"configuration":        {c: state.CommandConfiguration},
		"config":               {c: state.CommandConfiguration},
		"help":                 {c: state.CommandHelp},
		"waive f-abcdef12":     {c: state.CommandWaive, arg: "f-abcdef12"},
		"Waive F-ABCDEF12.":    {c: state.CommandWaive, arg: "f-abcdef12"},
		"waive":                {},
		"waive f-12345":        {}, // too short an id
		"waive f-abcdef12 now": {},
		"help me with this":    {},
		"pause?":               {},
		"please pause":         {},
		"resolve f-123456":     {},
		"why did you pause":    {},
		"pause\nand then why":  {},
		"":                     {},
		"full review":          {}, // a review request, not a command
	} {
		got, arg, ok := state.ParseCommand(text)
		if got != want.c || arg != want.arg || ok != (want.c != "") {
			t.Errorf("ParseCommand(%q) = %q, %q, %v; want %q, %q", text, got, arg, ok, want.c, want.arg)
		}
	}
}

// A command counts from its own comment, by someone who may ask for work,
// unedited; the latest pause or resume wins; resolve waives the findings
// open when it was given (once answered, those its answer recorded), and
// only a maintainer's.
func TestCommands(t *testing.T) {
	t.Parallel()
	mallory := snapshot.NewActor("mallory", "User")
	blocking := func(id string) rmcoc.Finding {
		return rmcoc.Finding{ID: id, Title: "Race " + id, Score: 9, Blocking: true, Status: rmcoc.FindingOpen}
	}
	for name, tc := range map[string]struct {
		setup  func(p *pr)
		pause  string // Pause.Why(), "" for none
		waived []string
		owed   []string // logins whose permission decides (Waivers)
	}{
		"pause by a collaborator": {setup: func(p *pr) { p.comment(1, bob, "@rmc-bot pause") }, pause: "automatic reviews paused by @bob"},
		"pause by the PR's author": {setup: func(p *pr) { p.comment(1, alice, "@rmc-bot pause") },
			pause: "automatic reviews paused by @alice"},
		"pause by an outsider does nothing": {setup: func(p *pr) { p.comment(1, mallory, "@rmc-bot pause") }},
		"pause then resume": {setup: func(p *pr) {
			p.comment(1, bob, "@rmc-bot pause")
			p.comment(2, bob, "@rmc-bot resume")
		}},
		"resume then pause": {setup: func(p *pr) {
			p.comment(1, bob, "@rmc-bot resume")
			p.comment(2, maria, "@rmc-bot pause")
		}, pause: "automatic reviews paused by @maria"},
		"an outsider cannot resume": {setup: func(p *pr) {
			p.comment(1, bob, "@rmc-bot pause")
			p.comment(2, mallory, "@rmc-bot resume")
		}, pause: "automatic reviews paused by @bob"},
		"a quoted pause is not a command":  {setup: func(p *pr) { p.comment(1, bob, "> @rmc-bot pause\n\nno") }},
		"a pause in code is not a command": {setup: func(p *pr) { p.comment(1, bob, "```\n@rmc-bot pause\n```") }},
		"a pause someone else edited does not count": {setup: func(p *pr) {
			p.comment(1, bob, "@rmc-bot pause")
			p.snap.IssueComments[0].Editor = &maria
		}},
		"ignore in the description": {setup: func(p *pr) { p.snap.PR.Body = "@rmc-bot ignore\n\nA small fix." },
			pause: "automatic reviews off (the description says ignore)"},
		"ignore in a quote of the description": {setup: func(p *pr) { p.snap.PR.Body = "> @rmc-bot ignore\n\nA small fix." }},
		"ignore is not undone by resume": {setup: func(p *pr) {
			p.snap.PR.Body = "@rmc-bot ignore"
			p.comment(1, bob, "@rmc-bot resume")
		}, pause: "automatic reviews off (the description says ignore)"},
		"resolve by a maintainer waives what was open before it": {setup: func(p *pr) {
			p.finding("T1", 10, blocking("f-111111"))
			p.finding("T2", 11, blocking("f-222222"))
			p.resolve("T2")
			p.comment(1, maria, "@rmc-bot resolve")
			p.finding("T3", 12, blocking("f-333333"))
		}, waived: []string{"f-111111"}},
		"resolve does not waive a finding reopened as a regression after it": {setup: func(p *pr) {
			p.finding("T1", 10, blocking("f-111111"))
			fixed(p, "T1", 20)
			p.comment(1, maria, "@rmc-bot resolve")
			regressed(p, "T1", 21)
		}},
		"an answered resolve waives what its answer recorded": {setup: func(p *pr) {
			p.finding("T1", 10, blocking("f-111111"))
			p.finding("T2", 11, blocking("f-222222"))
			p.comment(1, maria, "@rmc-bot resolve")
			p.comment(2, botAuthor, with("resolved", rmcoc.CommandAnswer{CommandCommentID: 1, Command: "resolve", By: "maria", Result: rmcoc.CommandDone, FindingIDs: []string{"f-222222"}, At: t0}))
		}, waived: []string{"f-222222"}},
		"an answered resolve that found nothing open waives nothing later": {setup: func(p *pr) {
			p.finding("T1", 10, blocking("f-111111"))
			fixed(p, "T1", 20)
			p.comment(1, maria, "@rmc-bot resolve")
			p.comment(2, botAuthor, with("none open", rmcoc.CommandAnswer{CommandCommentID: 1, Command: "resolve", By: "maria", Result: rmcoc.CommandDone, At: t0}))
			regressed(p, "T1", 21)
		}},
		"resolve waives a fix that cannot be checked": {setup: func(p *pr) {
			p.snap.PR.Commits, p.snap.PR.CommitsTotal = []string{shaA}, 300
			p.finding("T1", 10, blocking("f-111111"))
			fixed(p, "T1", 20)
			p.comment(1, maria, "@rmc-bot resolve")
		}, waived: []string{"f-111111"}},
		"resolve by the PR's author waives nothing": {setup: func(p *pr) {
			p.finding("T1", 10, blocking("f-111111"))
			p.comment(1, alice, "@rmc-bot resolve")
		}},
		"resolve by a collaborator without write access waives nothing": {setup: func(p *pr) {
			p.finding("T1", 10, blocking("f-111111"))
			p.comment(1, bob, "@rmc-bot resolve")
		}},
		"resolve by someone whose permission is unknown is looked up": {setup: func(p *pr) {
			p.finding("T1", 10, blocking("f-111111"))
			p.comment(1, snapshot.NewActor("carol", "User"), "@rmc-bot resolve")
		}, owed: []string{"carol"}},
	} {
		p := newPR()
		tc.setup(p)
		st := derive(p, bot)
		why := ""
		if st.Pause != nil {
			why = st.Pause.Why()
		}
		if why != tc.pause {
			t.Errorf("%s: pause %q, want %q", name, why, tc.pause)
		}
		var waived []string
		for _, f := range st.Findings {
			if f.WaivedBy != "" {
				waived = append(waived, f.Block.ID)
				if f.Blocks() || f.Reopen != nil {
					t.Errorf("%s: waived finding %s still blocks or is reopened", name, f.Block.ID)
				}
			}
		}
		if !slices.Equal(waived, tc.waived) {
			t.Errorf("%s: waived %v, want %v", name, waived, tc.waived)
		}
		if got := st.Waivers(); !slices.Equal(got, tc.owed) {
			t.Errorf("%s: permissions to look up %v, want %v", name, got, tc.owed)
		}
	}
}

// fixed records the bot's verified fix of the finding in thread tid, on
// shaB, and resolves the thread.
func fixed(p *pr, tid string, id int64) {
	p.reply(tid, id, botAuthor, with("✅ Fixed", rmcoc.DisputeResolution{FindingID: "f", Status: rmcoc.FindingResolved, Resolution: rmcoc.ResolutionFixed, HeadSHA: shaB, ResolvedAt: t0}))
	p.resolveAs(tid, botAuthor)
}

// regressed records the bot's reply reopening the finding in thread tid
// as a regression, and reopens the thread.
func regressed(p *pr, tid string, id int64) {
	p.reply(tid, id, botAuthor, with("🔁 back", rmcoc.DisputeResolution{FindingID: "f", Status: rmcoc.FindingOpen, Resolution: rmcoc.ResolutionRegressed, ResolvedAt: t0}))
	p.find(tid).IsResolved, p.find(tid).ResolvedBy = false, nil
}

// A command answered is not pending; the bot's resolving of a waived
// finding's thread does not reopen it.
func TestCommandAnswered(t *testing.T) {
	t.Parallel()
	p := newPR()
	p.finding("T1", 10, rmcoc.Finding{ID: "f-111111", Title: "Race", Score: 9, Blocking: true, Status: rmcoc.FindingOpen})
	p.comment(1, maria, "@rmc-bot resolve")
	p.comment(2, botAuthor, with("resolved", rmcoc.CommandAnswer{CommandCommentID: 1, Command: "resolve", By: "maria", Result: rmcoc.CommandDone, FindingIDs: []string{"f-111111"}, At: t0}))
	p.resolveAs("T1", botAuthor)
	st := derive(p, bot)
	if n := len(st.Pending()); n != 0 {
		t.Errorf("%d pending mention(s) after the answer", n)
	}
	if len(st.OpenBlocking()) != 0 || st.Findings[0].Reopen != nil {
		t.Errorf("the waived finding blocks or is to be reopened: %+v", st.Findings[0])
	}
	if ids := st.ResolvedBy(state.Ref{Source: state.SourceIssueComment, ID: 1}); !slices.Equal(ids, []string{"f-111111"}) {
		t.Errorf("ResolvedBy = %v", ids)
	}
}

// ParseCommand never panics, and what it accepts is a command alone.
func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"pause", "Resume!", "help me", "config", "resolve f-123456", "\u200bpause", "pause\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c, arg, ok := state.ParseCommand(text)
		_, registered := state.LookupCommand(c)
		if ok != registered || (ok && len(strings.Fields(strings.TrimRight(strings.TrimSpace(text), ".!"))) != 1+len(strings.Fields(arg))) {
			t.Errorf("ParseCommand(%q) = %q, %v", text, c, ok)
		}
	})
}

// A waive applies to the finding whose thread was gone when it was given:
// unanswered, it waives; answered as waived, it keeps waiving; answered
// "no such finding" (the thread was there), it waives nothing when the
// thread is deleted later.
func TestWaiveAppliesToWhatWasGone(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		answer string // the recorded Waiver result, "" for none yet
		waived bool
	}{
		"not answered yet":           {"", true},
		"answered as waived":         {rmcoc.WaiverDone, true},
		"answered: nothing to waive": {rmcoc.WaiverUnknown, false},
		"answered: not allowed":      {rmcoc.WaiverRefused, false},
	} {
		p := newPR()
		r := run(shaA, "", "main", rmcoc.ModeAuto)
		r.Posted = []rmcoc.PostedFinding{{ID: "f-123456", Blocking: true}}
		p.review(1, botAuthor, with("review", r))
		p.comment(2, maria, "@rmc-bot waive f-123456")
		if tc.answer != "" {
			p.comment(3, botAuthor, with("answer", rmcoc.Waiver{CommandCommentID: 2, FindingID: "f-123456", By: "maria", Result: tc.answer, At: t0}))
		}
		st := derive(p, bot)
		if st.Waived["f-123456"] != tc.waived || (len(st.Missing()) == 0) != tc.waived {
			t.Errorf("%s: waived %v, missing %v; want waived %v", name, st.Waived["f-123456"], st.Missing(), tc.waived)
		}
	}
}

// A maintainer's resolve keeps waiving the findings its answer named when
// their thread is deleted afterwards: the decision was the maintainer's,
// whatever becomes of the thread. A finding it did not name, a resolve not
// answered yet (what was open then is unknown), or one by someone who may
// not give it, waives nothing that is gone.
func TestResolveWaiverOutlivesItsThread(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		by       snapshot.Actor
		answered bool
		named    []string
		missing  bool
	}{
		"named in the answer":             {maria, true, []string{"f-111111"}, false},
		"another finding named":           {maria, true, []string{"f-222222"}, true},
		"not answered yet":                {maria, false, nil, true},
		"given by someone who may not":    {bob, true, []string{"f-111111"}, true},
		"named, and others still present": {maria, true, []string{"f-111111", "f-333333"}, false},
	} {
		p := newPR()
		r := run(shaA, "", "main", rmcoc.ModeAuto)
		r.Posted = []rmcoc.PostedFinding{{ID: "f-111111", Blocking: true}, {ID: "f-333333", Blocking: true}}
		p.review(1, botAuthor, with("review", r))
		p.finding("T3", 10, rmcoc.Finding{ID: "f-333333", Title: "Race", Score: 9, Blocking: true, Status: rmcoc.FindingOpen})
		p.comment(2, tc.by, "@rmc-bot resolve")
		if tc.answered {
			p.comment(3, botAuthor, with("resolved", rmcoc.CommandAnswer{CommandCommentID: 2, Command: "resolve", By: tc.by.Login, Result: rmcoc.CommandDone, FindingIDs: tc.named, At: t0}))
		}
		st := derive(p, bot)
		if missing := slices.ContainsFunc(st.Missing(), func(f rmcoc.PostedFinding) bool { return f.ID == "f-111111" }); missing != tc.missing || len(st.Gone()) != 1 {
			t.Errorf("%s: the deleted finding missing %v (gone %v), want %v", name, missing, st.Gone(), tc.missing)
		}
		if ids := st.ResolvedBy(state.Ref{Source: state.SourceIssueComment, ID: 2}); slices.Contains(ids, "f-111111") {
			t.Errorf("%s: the answer lists a finding without a thread: %v", name, ids)
		}
	}
}

// A resolve named a finding whose comment someone edited after it, and
// whose thread was then deleted: the edit is gone with the comment, but a
// run recorded it in the ledger head of the bot's review. The resolve judged
// another text, so the deleted finding blocks until a maintainer waives
// it; an edit recorded before the resolve changes nothing. A finding this
// read sees edited is handed to the run for its head when no head records
// that edit yet.
func TestRecordedEditOutlivesTheFindingsComment(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		edited  time.Duration // when the recorded edit was, from the resolve; 0 for none
		missing bool
	}{
		"no edit recorded":        {0, false},
		"an edit recorded before": {-time.Minute, false},
		"an edit recorded after":  {time.Minute, true},
	} {
		p := newPR()
		r := run(shaA, "", "main", rmcoc.ModeAuto)
		r.Posted = []rmcoc.PostedFinding{{ID: "f-111111", Blocking: true}}
		p.comment(2, maria, "@rmc-bot resolve")
		resolvedAt := p.now
		p.comment(3, botAuthor, with("resolved", rmcoc.CommandAnswer{CommandCommentID: 2, Command: "resolve", By: "maria", Result: rmcoc.CommandDone, FindingIDs: []string{"f-111111"}, At: t0}))
		head := rmcoc.LedgerHead{At: p.now}
		if tc.edited != 0 {
			head.Edited = []rmcoc.EditedFinding{{FindingID: "f-111111", At: resolvedAt.Add(tc.edited)}}
		}
		p.review(1, botAuthor, with("review", r, head))
		st := derive(p, bot)
		if missing := slices.ContainsFunc(st.Missing(), func(f rmcoc.PostedFinding) bool { return f.ID == "f-111111" }); missing != tc.missing {
			t.Errorf("%s: the deleted finding missing %v, want %v", name, missing, tc.missing)
		}
		if got := st.Chain.Edited(); len(got) != len(head.Edited) || st.Chain.Unanchored {
			t.Errorf("%s: the chain's edits %+v (unanchored %v), want the head's %+v", name, got, st.Chain.Unanchored, head.Edited)
		}
	}

	p := newPR()
	p.finding("T1", 10, rmcoc.Finding{ID: "f-1", Title: "Race", Score: 8, Blocking: true, Status: rmcoc.FindingOpen})
	p.edit("T1", bob, true)
	at := p.now
	st := derive(p, bot)
	if got := st.Chain.Edited(); len(got) != 1 || got[0].FindingID != "f-1" || !got[0].At.Equal(at) || !st.Chain.Unanchored {
		t.Errorf("an edit seen now: the chain's edits %+v (unanchored %v), want f-1 at %v for the head", got, st.Chain.Unanchored, at)
	}
}
