package execution

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// The run-level decisions over the recording fake: a maintainer's
// resolution is recorded once with the code it judged, and a decision
// made on other code reopens its finding, with one reply, when the head
// shows the code the finding was raised on again; nothing else writes.
func TestRunLevelDecisions(t *testing.T) {
	t.Parallel()
	const raised, fixedCode, other = "11111111111111111111111111111111aaaaaaaa", "22222222222222222222222222222222bbbbbbbb", "33333333333333333333333333333333cccccccc"
	closed := func(r rmcoc.Resolution, judged string, by *snapshot.Actor) state.Finding {
		f := blockingFinding(prevSHA, nil)
		f.Block.Blob, f.Status, f.Reopen = raised[:32], rmcoc.FindingResolved, nil
		f.Thread.IsResolved, f.Thread.ResolvedBy = true, &botAuthor
		if r != "" {
			f.LastResolution = &rmcoc.DisputeResolution{FindingID: "f1", Status: rmcoc.FindingResolved, Resolution: r, HeadSHA: prevSHA, Blob: judged}
		}
		if by != nil {
			f.Thread.ResolvedBy, f.ResolvedBy = by, by
		}
		return f
	}
	accepted := func(judged string) state.Finding {
		f := closed("", "", &bob)
		f.Accepted = &rmcoc.DisputeResolution{Resolution: rmcoc.ResolutionAccepted, Blob: judged}
		return f
	}
	outdated := closed("", "", &bob)
	outdated.Thread.IsOutdated = true
	for name, tc := range map[string]struct {
		f        state.Finding
		head     string // the head blob of the finding's file
		fail     map[string]error
		want     []string
		blob     string // the blob the first reply's block records
		reopened bool
	}{
		"a fix, the head still fixed": {f: closed(rmcoc.ResolutionFixed, fixedCode[:32], nil), head: fixedCode},
		"a fix, the raised code back": {f: closed(rmcoc.ResolutionFixed, fixedCode[:32], nil), head: raised,
			want: []string{"o/r#7:reply:501:f1:regressed:PENDING", "o/r#7:unresolve-thread:PRRT_1"}, reopened: true},
		"a fix, other code since":         {f: closed(rmcoc.ResolutionFixed, fixedCode[:32], nil), head: other},
		"a concession on the raised code": {f: closed(rmcoc.ResolutionConcession, raised[:32], nil), head: raised},
		"a concession on other code, the raised code back": {f: closed(rmcoc.ResolutionConcession, fixedCode[:32], nil), head: raised,
			want: []string{"o/r#7:reply:501:f1:regressed:PENDING", "o/r#7:unresolve-thread:PRRT_1"}, reopened: true},
		"a maintainer's resolution on other code, the raised code back: the thread reopened first": {f: accepted(fixedCode[:32]), head: raised,
			want: []string{"o/r#7:unresolve-thread:PRRT_1", "o/r#7:reply:501:f1:regressed:PENDING"}, reopened: true},
		"a maintainer's resolution that cannot be reopened: no reply that would let it count again": {f: accepted(fixedCode[:32]), head: raised,
			fail: map[string]error{"unresolve-thread": errors.New("403 Resource not accessible by integration")}, want: []string{"o/r#7:unresolve-thread:PRRT_1"}},
		"a maintainer's resolution on the raised code holds": {f: accepted(raised[:32]), head: raised},
		"a maintainer's resolution recorded on the raised lines": {f: closed("", "", &bob), head: other,
			want: []string{"o/r#7:reply:501:f1:accepted:RESOLVED@1234567"}, blob: raised[:32]},
		"a maintainer's resolution on an outdated thread recorded on the head's code": {f: outdated, head: other,
			want: []string{"o/r#7:reply:501:f1:accepted:RESOLVED@1234567"}, blob: other[:32]},
		"the reopening reply fails: the finding stays as it was": {f: closed(rmcoc.ResolutionFixed, fixedCode[:32], nil), head: raised,
			fail: map[string]error{"reply": errors.New("502 Bad Gateway")}, want: []string{"o/r#7:reply:501:f1:regressed:PENDING"}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			gh := &recorder{fail: tc.fail, files: []snapshot.ChangedFile{{Path: "src/cache.go", Blob: tc.head}}}
			x, _ := trustRig(gh, nil, tc.f)
			x.bindResolutions(context.Background())
			x.lapsed(context.Background())
			checkEffects(t, gh, tc.want...)
			if tc.blob != "" {
				b := rmcoc.All[rmcoc.DisputeResolution](gh.calls[0].Body)
				if len(b) != 1 || b[0].Blob != tc.blob || b[0].ResolvedBy != "bob" {
					t.Errorf("the record %+v, want the blob %s and bob", b, tc.blob)
				}
			}
			f := x.State.Findings[0]
			if f.Open() != tc.reopened || x.fixes.verified["f1"] != tc.reopened {
				t.Errorf("open %v, verified %v after the run; want %v", f.Open(), x.fixes.verified["f1"], tc.reopened)
			}
			// A second pass over what the run left writes nothing more.
			n := len(gh.effects())
			x.bindResolutions(context.Background())
			x.lapsed(context.Background())
			if tc.fail == nil && len(gh.effects()) != n {
				t.Errorf("a second pass wrote again: %v", gh.effects()[n:])
			}
		})
	}
}

// The reply reopening a finding names its file, a name the PR's author
// chose: as a code span that nothing in it can close, so it mentions
// nobody and hides nothing.
func TestLapsedReplyShowsAHostilePath(t *testing.T) {
	t.Parallel()
	const path = "src/`` @admins <!-- hidden --> ``.go"
	f := blockingFinding(prevSHA, nil)
	f.Block.Blob, f.Status, f.Reopen, f.Thread.Path = "11111111111111111111111111111111", rmcoc.FindingResolved, nil, path
	f.LastResolution = &rmcoc.DisputeResolution{Status: rmcoc.FindingResolved, Resolution: rmcoc.ResolutionFixed, Blob: "22222222222222222222222222222222"}
	gh := &recorder{files: []snapshot.ChangedFile{{Path: path, Blob: "11111111111111111111111111111111ffffffff"}}}
	x, _ := trustRig(gh, nil, f)
	x.lapsed(context.Background())
	if len(gh.calls) == 0 {
		t.Fatal("no reply")
	}
	body := gh.calls[0].Body
	if !strings.Contains(body, sanitize.Code(path)) || strings.Contains(strings.Replace(body, sanitize.Code(path), "", 1), "@admins") {
		t.Errorf("the path is not shown as one code span:\n%s", body)
	}
}
