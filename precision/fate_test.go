package precision

import (
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

func TestFateOf(t *testing.T) {
	t.Parallel()
	res := func(r rmcoc.Resolution, st rmcoc.FindingStatus) *rmcoc.DisputeResolution {
		return &rmcoc.DisputeResolution{Resolution: r, Status: st, ResolvedAt: t0.Add(90 * time.Minute)}
	}
	maint, author := &snapshot.Actor{Login: "maint"}, &snapshot.Actor{Login: "Dev"}
	tests := map[string]struct {
		f    state.Finding
		want rmcoc.Fate
	}{
		"fixed and verified":     {state.Finding{Status: rmcoc.FindingResolved, LastResolution: res(rmcoc.ResolutionFixed, rmcoc.FindingResolved)}, rmcoc.FateFixed},
		"fix lost by force-push": {state.Finding{Status: rmcoc.FindingResolved, FixLost: true, LastResolution: res(rmcoc.ResolutionFixed, rmcoc.FindingResolved)}, rmcoc.FateIgnored},
		"conceded":               {state.Finding{Status: rmcoc.FindingResolved, LastResolution: res(rmcoc.ResolutionConcession, rmcoc.FindingResolved)}, rmcoc.FateRejected},
		"acknowledged":           {state.Finding{Status: rmcoc.FindingAcknowledged, LastResolution: res(rmcoc.ResolutionAcknowledged, rmcoc.FindingAcknowledged)}, rmcoc.FateAccepted},
		"deferred":               {state.Finding{Status: rmcoc.FindingResolved, LastResolution: res(rmcoc.ResolutionDeferred, rmcoc.FindingResolved)}, rmcoc.FateAccepted},
		"waived":                 {state.Finding{Status: rmcoc.FindingOpen, WaivedBy: "maint"}, rmcoc.FateRejected},
		"resolved by a maintainer": {state.Finding{Status: rmcoc.FindingResolved, ResolvedBy: maint, Thread: snapshot.Thread{IsResolved: true, ResolvedBy: maint}},
			rmcoc.FateRejected},
		"non-blocking resolved by its author": {state.Finding{Status: rmcoc.FindingResolved, Thread: snapshot.Thread{IsResolved: true, ResolvedBy: author}}, rmcoc.FateAccepted},
		"non-blocking resolved by another":    {state.Finding{Status: rmcoc.FindingResolved, Thread: snapshot.Thread{IsResolved: true, ResolvedBy: maint}}, rmcoc.FateRejected},
		"maintained, open at close":           {state.Finding{Status: rmcoc.FindingDisputed, LastResolution: res(rmcoc.ResolutionMaintained, rmcoc.FindingDisputed)}, rmcoc.FateIgnored},
		"escalated, open at close":            {state.Finding{Status: rmcoc.FindingEscalated, LastResolution: res(rmcoc.ResolutionEscalated, rmcoc.FindingEscalated)}, rmcoc.FateIgnored},
		"never answered":                      {state.Finding{Status: rmcoc.FindingOpen}, rmcoc.FateIgnored},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := FateOf(tc.f, "dev"); got != tc.want {
				t.Fatalf("fate %s, want %s", got, tc.want)
			}
		})
	}
}

func TestEntry(t *testing.T) {
	t.Parallel()
	fixed := state.Finding{Block: rmcoc.Finding{Path: "a/b.go", Score: 8, Pass: 2, Category: "bug", Blocking: true, CreatedAt: t0},
		Status: rmcoc.FindingResolved, LastResolution: &rmcoc.DisputeResolution{Resolution: rmcoc.ResolutionFixed, ResolvedAt: t0.Add(95 * time.Minute)}}
	odd := state.Finding{Block: rmcoc.Finding{Path: "docs/x.md", Score: 14, Category: "<img src=x>"}, Status: rmcoc.FindingOpen}
	edited := state.Finding{Block: rmcoc.Finding{Path: "a.go", Score: 9, Category: "bug"}, Tampered: true}
	e, skipped := Entry(PR{Number: 4, Author: "dev", Lines: 120, ClosedAt: t0}, []state.Finding{fixed, odd, edited})
	want := []rmcoc.FateRecord{
		{Fate: rmcoc.FateFixed, Score: 8, Pass: 2, Category: "bug", Kind: rmcoc.FileCode, Blocking: true, FixMinutes: 95},
		{Fate: rmcoc.FateIgnored, Score: 10, Category: CategoryOther, Kind: rmcoc.FileDocs},
	}
	if skipped != 1 || len(e.Findings) != len(want) {
		t.Fatalf("entry %+v skipped %d, want %+v and 1 skipped", e.Findings, skipped, want)
	}
	for i := range want {
		if e.Findings[i] != want[i] {
			t.Errorf("finding %d: %+v, want %+v", i, e.Findings[i], want[i])
		}
	}
}

func TestKindOf(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]rmcoc.FileKind{
		"app/main.go": rmcoc.FileCode, "app/main_test.go": rmcoc.FileTest, "web/a.spec.ts": rmcoc.FileTest, "tests/x.py": rmcoc.FileTest,
		"docs/a.go": rmcoc.FileDocs, "README.md": rmcoc.FileDocs, ".github/workflows/ci.yml": rmcoc.FileConfig, "Dockerfile": rmcoc.FileConfig,
		"go.sum": rmcoc.FileConfig, "src/testing.go": rmcoc.FileCode,
	} {
		if got := KindOf(p); got != want {
			t.Errorf("KindOf(%q) = %s, want %s", p, got, want)
		}
	}
}
