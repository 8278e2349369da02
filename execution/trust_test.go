package execution

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/precision"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// The trust paths (what keeps a blocking finding blocking) over the
// recording fake, each compared as an effect log: one line per write, as
// "owner/repo#number:what:target:detail". A write the fake fails is logged
// all the same (it was attempted); what follows it shows how the run took
// the failure.

func (r *recorder) UnresolveThread(_ context.Context, threadID string) error {
	_, err := r.add(call{Op: "unresolve-thread", Arg: threadID})
	return err
}

// effects renders the recorded writes: a reply by the dispute-resolution
// block it carries (resolution, status, the commit a fix was verified on),
// a comment by its waiver or evidence block.
func (r *recorder) effects() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, c := range r.calls {
		e := "o/r#7:" + c.Op
		switch c.Op {
		case "reply":
			e += fmt.Sprintf(":%d", c.ID)
			for _, b := range rmcoc.All[rmcoc.DisputeResolution](c.Body) {
				e += fmt.Sprintf(":%s:%s:%s", b.FindingID, b.Resolution, b.Status)
				if b.HeadSHA != "" {
					e += "@" + short(b.HeadSHA)
				}
				if b.ReplyToCommentID != 0 {
					e += fmt.Sprintf(":to=%d", b.ReplyToCommentID)
				}
			}
		case "resolve-thread", "unresolve-thread":
			e += ":" + c.Arg
		case "create-comment":
			for _, b := range rmcoc.All[rmcoc.Waiver](c.Body) {
				e += fmt.Sprintf(":waiver:%s:%s:by=%s", b.FindingID, b.Result, b.By)
			}
			for _, b := range rmcoc.All[rmcoc.EvidenceNotice](c.Body) {
				e += ":evidence:" + strings.Join(b.FindingIDs, ",")
			}
		}
		out = append(out, e)
	}
	return out
}

func checkEffects(t *testing.T, gh *recorder, want ...string) {
	t.Helper()
	if got := gh.effects(); !slices.Equal(got, want) {
		t.Errorf("effects:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// blockingFinding is a blocking finding reported on head at 501, its
// thread PRRT_1 with one reply (502), resolved by by.
func blockingFinding(head string, by *snapshot.Actor) state.Finding {
	root := snapshot.ReviewComment{Comment: snapshot.Comment{ID: 501, Author: botAuthor, Body: "Map written without the lock"}, Path: "src/cache.go"}
	reply := snapshot.ReviewComment{Comment: snapshot.Comment{ID: 502, Author: alice, Body: "done"}, ReplyToID: 501}
	return state.Finding{
		Block:         rmcoc.Finding{ID: "f1", Path: "src/cache.go", Line: 42, Title: "Map written without the lock", Score: 9, Blocking: true, Status: rmcoc.FindingOpen, HeadSHA: head},
		Thread:        snapshot.Thread{ID: "PRRT_1", Path: "src/cache.go", Line: 42, IsResolved: by != nil, ResolvedBy: by, Comments: []snapshot.ReviewComment{root, reply}},
		RootCommentID: 501,
		Status:        rmcoc.FindingOpen,
		Reopen:        by,
	}
}

const (
	saysFixed    = `{"fixed":true,"reason":"put takes c.mu now."}`
	saysNotFixed = `{"fixed":false,"reason":"put still writes without the lock."}`
)

// trustRig is a run over the recorder with findings and a scripted model
// (nil: the run has none).
func trustRig(gh *recorder, sess *fakeSession, fs ...state.Finding) (*run, *testLog) {
	log := &testLog{}
	rig := newTestExecutor(gh, log)
	rig.State.Findings = fs
	if sess != nil {
		rig.Session = sess
	}
	return rig.run(), log
}

func TestHandleResolutions(t *testing.T) {
	t.Parallel()
	explained := blockingFinding(headSHA, &alice)
	explained.ReopenExplained = true
	outdated := blockingFinding(headSHA, &bob)
	outdated.Thread.IsOutdated = true
	unknown := blockingFinding(headSHA, &snapshot.Actor{})
	tests := map[string]struct {
		f         state.Finding
		answer    string // the model's verdict; "" for none
		modelErr  error
		fail      map[string]error
		want      []string
		asked     int
		res       Resolution // Fixed, Reopened, Replied
		errSubstr string
	}{
		"the author resolved it, the code is unchanged: one reply, then the thread reopened": {
			f: blockingFinding(headSHA, &alice), answer: saysFixed,
			want: []string{"o/r#7:reply:501:f1:reopened:PENDING", "o/r#7:unresolve-thread:PRRT_1"},
			res:  Resolution{Reopened: true, Replied: true},
		},
		"someone GitHub does not name resolved it": {
			f:    unknown,
			want: []string{"o/r#7:reply:501:f1:reopened:PENDING", "o/r#7:unresolve-thread:PRRT_1"},
			res:  Resolution{Reopened: true, Replied: true},
		},
		"the resolution was already answered: reopened without a second reply": {
			f:    explained,
			want: []string{"o/r#7:unresolve-thread:PRRT_1"},
			res:  Resolution{Reopened: true},
		},
		"a push since the finding, the fix verified: resolved as fixed on the head, not reopened": {
			f: blockingFinding(prevSHA, &alice), answer: saysFixed, asked: 1,
			want: []string{"o/r#7:reply:501:f1:fixed:RESOLVED@1234567:to=502", "o/r#7:resolve-thread:PRRT_1"},
			res:  Resolution{Fixed: true},
		},
		"an outdated thread the model says is not fixed: reopened": {
			f: outdated, answer: saysNotFixed, asked: 1,
			want: []string{"o/r#7:reply:501:f1:reopened:PENDING", "o/r#7:unresolve-thread:PRRT_1"},
			res:  Resolution{Reopened: true, Replied: true},
		},
		"the model fails: reopened, not trusted": {
			f: outdated, modelErr: errors.New("endpoint unavailable"), asked: 1,
			want: []string{"o/r#7:reply:501:f1:reopened:PENDING", "o/r#7:unresolve-thread:PRRT_1"},
			res:  Resolution{Reopened: true, Replied: true},
		},
		"reopening is refused: the reply stands and the error says the finding still blocks": {
			f: blockingFinding(headSHA, &alice), fail: map[string]error{"unresolve-thread": errors.New("403 Resource not accessible by integration")},
			want: []string{"o/r#7:reply:501:f1:reopened:PENDING", "o/r#7:unresolve-thread:PRRT_1"},
			res:  Resolution{Replied: true}, errSubstr: "the finding still blocks",
		},
		"the reply fails: the thread is not reopened without it": {
			f: blockingFinding(headSHA, &alice), fail: map[string]error{"reply": errors.New("502 Bad Gateway")},
			want: []string{"o/r#7:reply:501:f1:reopened:PENDING"},
			res:  Resolution{}, errSubstr: "502",
		},
		"resolving the fixed finding fails: reported, not reopened": {
			f: blockingFinding(prevSHA, &alice), answer: saysFixed, asked: 1, fail: map[string]error{"resolve-thread": errors.New("403")},
			want: []string{"o/r#7:reply:501:f1:fixed:RESOLVED@1234567:to=502", "o/r#7:resolve-thread:PRRT_1"},
			res:  Resolution{Fixed: true}, errSubstr: "resolving the thread failed",
		},
		"a resolution that counts is left alone": {
			f: func() state.Finding {
				f := blockingFinding(headSHA, nil)
				f.Thread.IsResolved, f.Status = true, rmcoc.FindingResolved
				return f
			}(),
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			gh := &recorder{fail: tc.fail}
			var sess *fakeSession
			if tc.answer != "" || tc.modelErr != nil {
				sess = &fakeSession{answers: []string{tc.answer}, err: tc.modelErr}
			}
			x, _ := trustRig(gh, sess, tc.f)
			got := x.handleResolutions(context.Background())
			checkEffects(t, gh, tc.want...)
			if sess != nil && len(sess.prompts) != tc.asked {
				t.Errorf("the model was asked %d time(s), want %d", len(sess.prompts), tc.asked)
			}
			if tc.f.Reopen == nil {
				if len(got) != 0 {
					t.Errorf("resolutions = %+v, want none", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("resolutions = %+v, want one", got)
			}
			r := got[0]
			if r.Fixed != tc.res.Fixed || r.Reopened != tc.res.Reopened || r.Replied != tc.res.Replied {
				t.Errorf("fixed %v reopened %v replied %v, want %v %v %v", r.Fixed, r.Reopened, r.Replied, tc.res.Fixed, tc.res.Reopened, tc.res.Replied)
			}
			if (r.Err == nil) != (tc.errSubstr == "") || (r.Err != nil && !strings.Contains(r.Err.Error(), tc.errSubstr)) {
				t.Errorf("err = %v, want %q", r.Err, tc.errSubstr)
			}
			if fixed := x.State.Findings[0].Status == rmcoc.FindingResolved; fixed != (tc.res.Fixed && tc.errSubstr == "") {
				t.Errorf("status after the run = %s", x.State.Findings[0].Status)
			}
		})
	}
}

// A finding checked for a resolution is not checked again by the review's
// own verification in the same run: one question to the model per finding.
func TestResolutionVerifiedOncePerRun(t *testing.T) {
	t.Parallel()
	f := blockingFinding(headSHA, &alice)
	f.Thread.IsOutdated = true
	gh, sess := &recorder{}, &fakeSession{answers: []string{saysNotFixed}}
	x, _ := trustRig(gh, sess, f)
	x.handleResolutions(context.Background())
	x.fixes.verifyFixes(context.Background(), "review-auto-1234567", scope{})
	if len(sess.prompts) != 1 {
		t.Errorf("the model was asked %d times, want once", len(sess.prompts))
	}
	checkEffects(t, gh, "o/r#7:reply:501:f1:reopened:PENDING", "o/r#7:unresolve-thread:PRRT_1")
}

func TestVerifyFixes(t *testing.T) {
	t.Parallel()
	open := func(id string, outdated bool) state.Finding {
		f := blockingFinding(prevSHA, nil)
		f.Block.ID, f.Thread.ID, f.Thread.IsOutdated = id, "PRRT_"+id, outdated
		return f
	}
	resolved := open("f2", true)
	resolved.Status = rmcoc.FindingResolved
	var many []state.Finding
	for i := range maxVerify + 5 {
		many = append(many, open(fmt.Sprintf("m%d", i), true))
	}
	changed := scope{from: prevSHA, review: []diff.File{{OldPath: "src/cache.go", NewPath: "src/cache.go"}}}
	other := scope{from: prevSHA, review: []diff.File{{OldPath: "src/db.go", NewPath: "src/db.go"}}}
	tests := map[string]struct {
		fs     []state.Finding
		sc     scope
		answer string
		err    error
		fail   map[string]error
		asked  int
		want   []string
		warn   bool
	}{
		"an outdated finding the push fixed: answered and resolved": {fs: []state.Finding{open("f1", true)}, answer: saysFixed, asked: 1,
			want: []string{"o/r#7:reply:501:f1:fixed:RESOLVED@1234567:to=502", "o/r#7:resolve-thread:PRRT_f1"}},
		"not fixed: stays open, nothing written": {fs: []state.Finding{open("f1", true)}, answer: saysNotFixed, asked: 1},
		"the model fails: nothing written":       {fs: []state.Finding{open("f1", true)}, err: errors.New("timeout"), asked: 1, warn: true},
		"resolving fails: a warning, the reply stands": {fs: []state.Finding{open("f1", true)}, answer: saysFixed, asked: 1, fail: map[string]error{"resolve-thread": errors.New("403")}, warn: true,
			want: []string{"o/r#7:reply:501:f1:fixed:RESOLVED@1234567:to=502", "o/r#7:resolve-thread:PRRT_f1"}},
		"a resolved finding is not checked again":   {fs: []state.Finding{resolved}, answer: saysFixed},
		"a thread on unchanged code is not checked": {fs: []state.Finding{open("f1", false)}, sc: other, answer: saysFixed},
		"an incremental review changed its file: checked although not outdated": {fs: []state.Finding{open("f1", false)}, sc: changed, answer: saysFixed, asked: 1,
			want: []string{"o/r#7:reply:501:f1:fixed:RESOLVED@1234567:to=502", "o/r#7:resolve-thread:PRRT_f1"}},
		"at most maxVerify findings a run": {fs: many, answer: saysNotFixed, asked: maxVerify},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			gh, sess := &recorder{fail: tc.fail}, &fakeSession{answers: []string{tc.answer}, err: tc.err}
			x, log := trustRig(gh, sess, tc.fs...)
			x.fixes.verifyFixes(context.Background(), "review-auto-1234567", tc.sc)
			if len(sess.prompts) != tc.asked {
				t.Errorf("the model was asked %d times, want %d", len(sess.prompts), tc.asked)
			}
			checkEffects(t, gh, tc.want...)
			if tc.warn != (len(log.warnings) > 0) {
				t.Errorf("warnings = %q", log.warnings)
			}
		})
	}
}

func TestResolveFinding(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		resolution rmcoc.Resolution
		fail       map[string]error
		want       []string
		errSubstr  string
	}{
		"fixed: the reply names the commit the fix holds on": {resolution: rmcoc.ResolutionFixed,
			want: []string{"o/r#7:reply:501:f1:fixed:RESOLVED@1234567:to=502", "o/r#7:resolve-thread:PRRT_1"}},
		"a concession names no commit": {resolution: rmcoc.ResolutionConcession,
			want: []string{"o/r#7:reply:501:f1:concession:RESOLVED:to=502", "o/r#7:resolve-thread:PRRT_1"}},
		"resolving is refused: the reply already says RESOLVED": {resolution: rmcoc.ResolutionFixed, fail: map[string]error{"resolve-thread": errors.New("403")},
			want: []string{"o/r#7:reply:501:f1:fixed:RESOLVED@1234567:to=502", "o/r#7:resolve-thread:PRRT_1"}, errSubstr: "pull-requests: write"},
		"the reply fails: the thread is not resolved": {resolution: rmcoc.ResolutionFixed, fail: map[string]error{"reply": errors.New("502")},
			want: []string{"o/r#7:reply:501:f1:fixed:RESOLVED@1234567:to=502"}, errSubstr: "502"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			gh := &recorder{fail: tc.fail}
			x, _ := trustRig(gh, nil)
			err := x.fixes.resolveFinding(context.Background(), blockingFinding(prevSHA, nil), tc.resolution, "✅ Fixed: put takes the lock.", precision.Fix{})
			checkEffects(t, gh, tc.want...)
			if (err == nil) != (tc.errSubstr == "") || (err != nil && !strings.Contains(err.Error(), tc.errSubstr)) {
				t.Errorf("err = %v, want %q", err, tc.errSubstr)
			}
		})
	}
}

func TestRegress(t *testing.T) {
	t.Parallel()
	resolved := blockingFinding(prevSHA, nil)
	resolved.Thread.IsResolved, resolved.Status = true, rmcoc.FindingResolved
	open := blockingFinding(prevSHA, nil) // the bot resolved it in its reply, the thread stayed open
	open.Status = rmcoc.FindingResolved
	tests := map[string]struct {
		f         state.Finding
		fail      map[string]error
		want      []string
		errSubstr string
	}{
		"a resolved thread: the reply reopens the finding, then the thread": {f: resolved,
			want: []string{"o/r#7:reply:501:f1:regressed:PENDING", "o/r#7:unresolve-thread:PRRT_1"}},
		"an open thread: the reply alone": {f: open,
			want: []string{"o/r#7:reply:501:f1:regressed:PENDING"}},
		"reopening the thread fails: the reply stands": {f: resolved, fail: map[string]error{"unresolve-thread": errors.New("403")},
			want: []string{"o/r#7:reply:501:f1:regressed:PENDING", "o/r#7:unresolve-thread:PRRT_1"}, errSubstr: "reopening the thread failed"},
		"the reply fails: nothing else": {f: resolved, fail: map[string]error{"reply": errors.New("502")},
			want: []string{"o/r#7:reply:501:f1:regressed:PENDING"}, errSubstr: "502"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			gh := &recorder{fail: tc.fail}
			x, _ := trustRig(gh, nil)
			err := x.fixes.regress(context.Background(), tc.f, "The fix was verified on fedcba0, which a force-push removed.")
			checkEffects(t, gh, tc.want...)
			if (err == nil) != (tc.errSubstr == "") || (err != nil && !strings.Contains(err.Error(), tc.errSubstr)) {
				t.Errorf("err = %v, want %q", err, tc.errSubstr)
			}
		})
	}
}

// goneState is a state whose review posted blocking findings f1 and f9
// (and a non-blocking n1) and whose threads are all gone.
func goneState(waived ...string) state.State {
	st := state.State{Bot: testBot, Waived: map[string]bool{}, Reviews: []state.CompletedReview{{Run: rmcoc.ReviewRun{HeadSHA: headSHA, Mode: rmcoc.ModeAuto,
		Posted: []rmcoc.PostedFinding{{ID: "f1", Blocking: true}, {ID: "n1"}, {ID: "f9", Blocking: true}}}}}}
	for _, id := range waived {
		st.Waived[id] = true
	}
	return st
}

func TestAnswerWaiver(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		st      state.State
		id      string
		allowed bool // the state found bob a maintainer
		want    string
	}{
		"a maintainer's waiver of a deleted finding counts": {st: goneState("f9"), id: "f9", allowed: true, want: "o/r#7:create-comment:waiver:f9:waived:by=bob"},
		"a waiver that does not count is refused":           {st: goneState(), id: "f9", want: "o/r#7:create-comment:waiver:f9:not-allowed:by=bob"},
		"a finding that still has its thread":               {st: goneState(), id: "f2", allowed: true, want: "o/r#7:create-comment:waiver:f2:unknown-id:by=bob"},
		"a non-blocking finding is nothing to waive":        {st: goneState(), id: "n1", allowed: true, want: "o/r#7:create-comment:waiver:n1:unknown-id:by=bob"},
		"a maintainer's waiver the state did not apply":     {st: goneState(), id: "f9", allowed: true, want: "o/r#7:create-comment:waiver:f9:not-allowed:by=bob"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			gh := &recorder{}
			rig := newTestExecutor(gh, &testLog{})
			rig.State = tc.st
			m := state.Mention{Ref: state.Ref{Source: state.SourceIssueComment, ID: 77}, Author: bob, Text: "@rmc-bot waive " + tc.id,
				Command: state.CommandWaive, Arg: tc.id, Allowed: tc.allowed}
			if err := rig.run().answerCommand(context.Background(), m); err != nil {
				t.Fatal(err)
			}
			// A waive is claimed first, as every command is.
			checkEffects(t, gh, "o/r#7:react", tc.want)
		})
	}
}

func TestReportEvidence(t *testing.T) {
	t.Parallel()
	gh := &recorder{}
	rig := newTestExecutor(gh, &testLog{})
	rig.State = goneState()
	r := rig.run()
	if err := r.reportEvidence(context.Background(), r.State.Missing()); err != nil {
		t.Fatal(err)
	}
	checkEffects(t, gh, "o/r#7:create-comment:evidence:f1,f9")
	body := gh.calls[0].Body
	for _, want := range []string{"- `f1`", "- `f9`", "`@rmc-bot waive f1`", "keep holding the merge gate"} {
		if !strings.Contains(body, want) {
			t.Errorf("the notice lacks %q:\n%s", want, body)
		}
	}
	gh.fail = map[string]error{"create-comment": errors.New("502")}
	if err := r.reportEvidence(context.Background(), r.State.Missing()); err == nil {
		t.Errorf("a failed notice reports no error")
	}
}

// claimFake answers a claim as made by this run (won) or by another run
// age ago.
type claimFake struct {
	won bool
	age time.Duration
	err error
}

func (c claimFake) Claim(context.Context, snapshot.Repo, snapshot.Subject) (snapshot.Claim, error) {
	return snapshot.Claim{Won: c.won, Age: c.age, At: fixedNow.Add(-c.age)}, c.err
}

// A claim holds for exactly its lease: from then on its run is dead.
func TestClaimLease(t *testing.T) {
	t.Parallel()
	const lease = 10 * time.Minute
	tests := map[string]struct {
		c     claimFake
		lease time.Duration
		held  bool
	}{
		"this run's own claim":                 {c: claimFake{won: true}, lease: lease},
		"another run's, a second short":        {c: claimFake{age: lease - time.Second}, lease: lease, held: true},
		"another run's, exactly the lease old": {c: claimFake{age: lease}, lease: lease},
		"another run's, older":                 {c: claimFake{age: lease + time.Second}, lease: lease},
		"no lease given: the default":          {c: claimFake{age: defaultLease - time.Second}, held: true},
		"no lease given, the default passed":   {c: claimFake{age: defaultLease}},
		"the claim cannot be written":          {c: claimFake{err: errors.New("403")}, lease: lease},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			held, why := testEnv(&testLog{}).claim(context.Background(), tc.c, tc.lease, snapshot.Subject{ID: 101})
			if held != tc.held || (why != "") != held {
				t.Errorf("held = %v (%q), want %v", held, why, tc.held)
			}
		})
	}
}

// A deleted finding a maintainer waived is known to the next review: the
// same code reported again is that finding, not a new one to post (the
// gate's model-based test found a full review posting it again).
func TestReviewKnowsWaivedDeletedFindings(t *testing.T) {
	t.Parallel()
	rig := newTestExecutor(&recorder{}, &testLog{})
	st := goneState("f9")
	st.Reviews[0].Run.Posted[0].Fingerprint, st.Reviews[0].Run.Posted[2].Fingerprint = "fp-f1", "fp-f9"
	rig.State = st
	x := newReviewRunner(rig.run())
	if !x.known["fp-f9"] {
		t.Errorf("the waived deleted finding is not known: a review would post it again")
	}
	if x.known["fp-f1"] {
		t.Errorf("a deleted finding nobody waived is known: a review would not post it again")
	}
}
