package inbox

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// localInbox is a service over a store with a review in every status.
func localInbox(t *testing.T) (*Service, map[Status]Record) {
	t.Helper()
	s := testStore(t, Options{Now: newClock().Now})
	byStatus := map[Status]Record{}
	for _, st := range []Status{StatusOpen, StatusSubmitted, StatusCancelled, StatusClaimed, StatusResolved} {
		byStatus[st] = reviewIn(t, s, st)
	}
	return &Service{Store: s}, byStatus
}

func TestServiceList(t *testing.T) {
	t.Parallel()
	svc, recs := localInbox(t)
	// A second submitted review, submitted later: it lists first.
	later := reviewIn(t, svc.Store, StatusSubmitted)
	tests := map[string]struct {
		opts     ListOptions
		want     []string
		wantKind string
	}{
		"default is submitted, newest first": {opts: ListOptions{}, want: []string{later.ID, recs[StatusSubmitted].ID}},
		"open":                               {opts: ListOptions{Status: "open"}, want: []string{recs[StatusOpen].ID}},
		"claimed":                            {opts: ListOptions{Status: "claimed"}, want: []string{recs[StatusClaimed].ID}},
		"claimed by alpha":                   {opts: ListOptions{Status: "claimed", ClaimedBy: "alpha"}, want: []string{recs[StatusClaimed].ID}},
		"claimed by someone else":            {opts: ListOptions{Status: "claimed", ClaimedBy: "beta"}, want: nil},
		"resolved":                           {opts: ListOptions{Status: "resolved"}, want: []string{recs[StatusResolved].ID}},
		// Unsubmitted reviews sort by when they were asked for: the
		// cancelled one was asked for after the first submission.
		"all": {opts: ListOptions{Status: "all"}, want: []string{later.ID, recs[StatusResolved].ID, recs[StatusClaimed].ID,
			recs[StatusCancelled].ID, recs[StatusSubmitted].ID, recs[StatusOpen].ID}},
		"bad status":                  {opts: ListOptions{Status: "done"}, wantKind: "invalid input"},
		"bad pull request":            {opts: ListOptions{PRs: []string{"nope"}}, wantKind: "invalid input"},
		"pull request without GitHub": {opts: ListOptions{PRs: []string{"o/r#1"}}, wantKind: "invalid input"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			res, err := svc.List(context.Background(), tc.opts)
			if kindOf(err) != tc.wantKind {
				t.Fatalf("err = %v, want %q", err, tc.wantKind)
			}
			var got []string
			for _, it := range res.Items {
				got = append(got, it.ID)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("listed %v, want %v", got, tc.want)
			}
		})
	}
}

func TestServiceGet(t *testing.T) {
	t.Parallel()
	svc, recs := localInbox(t)
	tests := map[string]struct {
		id          string
		wantKind    string
		wantMD      string // "" means no Markdown
		wantMessage string
	}{
		"submitted": {id: recs[StatusSubmitted].ID,
			wantMD: "# Code Review Comments\n\nReview " + recs[StatusSubmitted].ID + " from the reviews-for-agent inbox, of the uncommitted changes against HEAD (abc1234).\n" +
				"Before you work on it: `reviews-for-agent inbox claim " + recs[StatusSubmitted].ID + " --by NAME`.\n" +
				"When you have addressed it: `reviews-for-agent inbox resolve " + recs[StatusSubmitted].ID + " --by NAME --note \"what you did\"`.\n" +
				"\n```\nLooks fine otherwise.\n```\n\n## a.go\n\n### Line 2\nIn `@@ -1,3 +1,3 @@`:\n```\n  1  package a\n    -var x = 1\n> 2 +var x = 2\n  3  // end\n```\n```\nWhy 2?\n```\n"},
		"resolved keeps its comments": {id: recs[StatusResolved].ID, wantMD: "> 2 +var x = 2\n  3  // end\n```\n```\nWhy 2?\n```\n"},
		"open":                        {id: recs[StatusOpen].ID, wantMessage: "still open"},
		"cancelled":                   {id: recs[StatusCancelled].ID, wantMessage: "cancelled"},
		"unknown":                     {id: "zzzzzzzz", wantKind: "not found"},
		"not an id":                   {id: "../etc", wantKind: "invalid input"},
		"empty":                       {id: " ", wantKind: "invalid input"},
		"finding without GitHub":      {id: "gh:o/r#1:f-1", wantKind: "invalid input"},
		"malformed finding id":        {id: "gh:o/r:f-1", wantKind: "invalid input"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			d, err := svc.Get(context.Background(), tc.id)
			if kindOf(err) != tc.wantKind {
				t.Fatalf("err = %v, want %q", err, tc.wantKind)
			}
			if !strings.HasSuffix(d.Markdown, tc.wantMD) || (tc.wantMD == "" && d.Markdown != "") {
				t.Errorf("markdown =\n%s\nwant it to end with\n%s", d.Markdown, tc.wantMD)
			}
			if !strings.Contains(d.Message, tc.wantMessage) {
				t.Errorf("message = %q, want %q", d.Message, tc.wantMessage)
			}
		})
	}
}

func TestServiceOperations(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, recs := localInbox(t)
	id := recs[StatusSubmitted].ID
	it, err := svc.Claim(ctx, id, "alpha", false)
	if err != nil || it.Status != StatusClaimed || it.ClaimedBy != "alpha" {
		t.Fatalf("claim = %+v, %v", it, err)
	}
	if _, err := svc.Claim(ctx, id, "beta", false); kindOf(err) != "conflict" {
		t.Errorf("claim by another = %v", err)
	}
	if _, err := svc.Resolve(ctx, id, ResolveOptions{By: "beta", Note: "mine now"}); kindOf(err) != "conflict" {
		t.Errorf("resolve by another = %v", err)
	}
	it, err = svc.Resolve(ctx, id, ResolveOptions{By: "alpha", Note: "done in abc123"})
	if err != nil || it.Status != StatusResolved || it.Note != "done in abc123" || it.ClaimedBy != "alpha" || it.ResolvedBy != "alpha" || it.ResolvedAt == nil {
		t.Errorf("resolve = %+v, %v", it, err)
	}
	if it, err := svc.Cancel(ctx, recs[StatusOpen].ID); err != nil || it.Status != StatusCancelled {
		t.Errorf("cancel = %+v, %v", it, err)
	}
	if _, err := svc.Cancel(ctx, "gh:o/r#1:f-1"); kindOf(err) != "invalid input" {
		t.Errorf("cancel of a finding = %v", err)
	}
	if _, err := svc.Request(ctx, RequestOptions{}); err == nil {
		t.Error("a local request without a requester succeeded")
	}
}

// A name over 100 characters, or with control characters, is refused
// before anything is written: it would widen every page that shows it.
func TestServiceNameLimit(t *testing.T) {
	t.Parallel()
	for name, by := range map[string]string{
		"long":    strings.Repeat("a", MaxNameRunes+1),
		"control": "agent\x1b[2J",
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := (&Service{}).Claim(context.Background(), "abcd1234", by, false); KindName(err) != "invalid_input" {
				t.Errorf("claim by a %s name: %v", name, err)
			}
			if _, err := (&Service{}).Resolve(context.Background(), "abcd1234", ResolveOptions{By: by}); KindName(err) != "invalid_input" {
				t.Errorf("resolve by a %s name: %v", name, err)
			}
		})
	}
	if err := checkName("claim", "x", strings.Repeat("é", MaxNameRunes)); err != nil {
		t.Errorf("a name of exactly %d characters: %v", MaxNameRunes, err)
	}
}

// Resolved over another agent's claim, the review names who resolved it
// and whose claim was overridden; as JSON it carries the comments and the
// forced flag, not only Markdown.
func TestServiceForcedResolveDetail(t *testing.T) {
	t.Parallel()
	svc, recs := localInbox(t)
	id := recs[StatusClaimed].ID // claimed by alpha
	if _, err := svc.Resolve(context.Background(), id, ResolveOptions{By: "beta", Note: "taken over", Force: true}); err != nil {
		t.Fatal(err)
	}
	d, err := svc.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	WriteDetail(&b, d)
	if head, _, _ := strings.Cut(b.String(), "\n"); !strings.Contains(head, "resolved by beta over alpha's claim") {
		t.Errorf("header = %q", head)
	}
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Forced     bool              `json:"forced"`
		ResolvedBy string            `json:"resolvedBy"`
		Comments   []json.RawMessage `json:"comments"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if !got.Forced || got.ResolvedBy != "beta" || got.Comments == nil {
		t.Errorf("JSON = %s", data)
	}
}
