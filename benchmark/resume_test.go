package benchmark

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// togglingSet fails to load one PR while fail is set.
type togglingSet struct {
	Set
	pr   string
	fail *atomic.Bool
}

func (s togglingSet) Load(ctx context.Context, c Case) (*Material, error) {
	if c.Ref.String() == s.pr && s.fail.Load() {
		return nil, context.DeadlineExceeded
	}
	return s.Set.Load(ctx, c)
}

// calls counts, since the mark, the review passes begun (one per PR
// reviewed) and the judge's match questions.
func calls(model *fakellm.Server, mark int) (reviews, judged int) {
	for _, r := range model.Requests()[mark:] {
		switch {
		case r.Model == "model-under-test" && strings.Contains(r.LastUser(), "review pass 1 of 3") && r.LastRole() == "user":
			reviews++
		case r.Model == "judge-model" && strings.Contains(r.LastUser(), "a known issue"):
			judged++
		}
	}
	return reviews, judged
}

// TestResumeRedoesExactlyTheFailures: a run with a failed review and
// failed judge calls keeps them; a plain rerun reuses them as they are;
// --resume reviews again only the failed PR and asks again only the failed
// judge calls, and then scores what a run without failures scores.
func TestResumeRedoesExactlyTheFailures(t *testing.T) {
	t.Parallel()
	local := NewLocal()
	cases, _ := local.Cases(context.Background())
	var failing atomic.Bool
	failing.Store(true)
	set := togglingSet{Set: local, pr: cases[0].Ref.String(), fail: &failing}
	rateLimited := cases[1].Golden[0].Comment
	model := scriptedModel(t, set, behaviour{oracle: true, invent: 1, judgeFails: func(g string) bool { return failing.Load() && g == rateLimited }})
	cache := &ResultCache{Dir: t.TempDir()}
	edit := func(resume bool) func(*Options) {
		return func(o *Options) { o.Cache, o.Limit, o.Resume, o.Concurrency = cache, 3, resume, 1 }
	}
	first := runSet(t, set, model, edit(false))
	failedCalls := len(first.PRs[1].Candidates) // golden 0 against every candidate
	if first.FailedReviews != 1 || first.FailedCalls != failedCalls || first.Failed != 0 {
		t.Fatalf("first run: %d failed reviews, %d failed calls (want 1, %d), %d not scored", first.FailedReviews, first.FailedCalls, failedCalls, first.Failed)
	}
	failing.Store(false)

	mark := len(model.Requests())
	plain := runSet(t, set, model, edit(false))
	if r, j := calls(model, mark); r != 0 || j != 0 || plain.Cached != 3 || plain.FailedCalls != failedCalls {
		t.Fatalf("a plain rerun made %d reviews and %d judge calls, reused %d; want the failures kept as they are", r, j, plain.Cached)
	}

	mark = len(model.Requests())
	resumed := runSet(t, set, model, edit(true))
	reviews, judged := calls(model, mark)
	pr0 := resumed.PRs[0]
	want := len(pr0.Golden) * len(pr0.Candidates) // the re-reviewed PR is judged whole
	if reviews != 1 || judged != want+failedCalls {
		t.Errorf("--resume made %d reviews and %d judge calls; want 1 and %d + %d", reviews, judged, want, failedCalls)
	}
	if resumed.FailedReviews != 0 || resumed.FailedCalls != 0 || resumed.Redone != 2 || resumed.Cached != 2 {
		t.Errorf("after --resume: %d failed reviews, %d failed calls, %d redone, %d reused; want 0, 0, 2, 2", resumed.FailedReviews, resumed.FailedCalls, resumed.Redone, resumed.Cached)
	}
	clean := runSet(t, set, scriptedModel(t, set, behaviour{oracle: true, invent: 1}), func(o *Options) { o.Limit = 3 })
	if resumed.Summary.Overall != clean.Summary.Overall {
		t.Errorf("resumed %+v, a run without failures %+v", resumed.Summary.Overall, clean.Summary.Overall)
	}

	mark = len(model.Requests())
	again := runSet(t, set, model, edit(true))
	if r, j := calls(model, mark); r != 0 || j != 0 || again.Cached != 3 || again.Redone != 0 {
		t.Errorf("resuming a run without failures made %d reviews and %d judge calls", r, j)
	}
}

// TestAnotherEndpointIsNeverServedFromTheCache: two servers answer for
// the same model and judge names; a run against each makes its own
// requests, and only a run against the first again reuses its results.
func TestAnotherEndpointIsNeverServedFromTheCache(t *testing.T) {
	t.Parallel()
	set := NewLocal()
	a, b := scriptedModel(t, set, behaviour{oracle: true}), scriptedModel(t, set, behaviour{oracle: true})
	cache := &ResultCache{Dir: t.TempDir()}
	limit := func(o *Options) { o.Cache, o.Limit = cache, 3 }
	first := runSet(t, set, a, limit)
	atA := len(a.Requests())
	second := runSet(t, set, b, limit)
	if atB := len(b.Requests()); atB == 0 || second.Cached != 0 {
		t.Fatalf("the second endpoint got %d requests and %d results were reused", atB, second.Cached)
	}
	if first.Model != second.Model || first.JudgeModel != second.JudgeModel {
		t.Fatalf("the runs should share model names: %s/%s, %s/%s", first.Model, first.JudgeModel, second.Model, second.JudgeModel)
	}
	third := runSet(t, set, a, limit)
	if len(a.Requests()) != atA || third.Cached != 3 {
		t.Errorf("back at the first endpoint: %d new requests, %d reused; want 0 and 3", len(a.Requests())-atA, third.Cached)
	}
	var table strings.Builder
	third.Table(&table)
	if !strings.Contains(table.String(), "3 result(s) reused from an earlier run with the same endpoints and settings") {
		t.Errorf("the table does not say how many results were reused:\n%s", table.String())
	}
}
