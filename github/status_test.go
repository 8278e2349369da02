package github

import (
	"context"
	"fmt"
	"testing"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// Status finds a context wherever the combined status lists it: GitHub
// pages it (newest context first), so the gate of a commit with more than
// a page of other contexts is on a later page, and reading only the first
// would post the gate again.
func TestStatusReadsEveryPage(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		others    int
		gateFirst bool // the gate is the oldest status, so listed last
		reads     int
		found     bool
	}{
		"one page":                {others: 10, gateFirst: true, reads: 1, found: true},
		"gate on the second page": {others: 100, gateFirst: true, reads: 2, found: true},
		"gate on the third page":  {others: 230, gateFirst: true, reads: 3, found: true},
		"gate on the first page":  {others: 230, reads: 1, found: true},
		"no gate":                 {others: 150, reads: 2},
		"no status at all":        {reads: 1},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f, pr, repo := commitWorld(t)
			gate := fakegithub.Status{Context: "rmc/merge-gate", State: "failure", Description: "1 open"}
			if tc.gateFirst {
				f.AddStatus("o/r", pr.HeadSHA, "github-actions[bot]", gate)
			}
			for i := range tc.others {
				f.AddStatus("o/r", pr.HeadSHA, "ci", fakegithub.Status{Context: fmt.Sprint("ci/", i), State: "success"})
			}
			if !tc.gateFirst && tc.found {
				f.AddStatus("o/r", pr.HeadSHA, "github-actions[bot]", gate)
			}
			c := client(t, f, nil)
			st, found, err := c.Status(context.Background(), repo, pr.HeadSHA, "rmc/merge-gate")
			if err != nil {
				t.Fatal(err)
			}
			want := snapshot.Status{}
			if tc.found {
				want = snapshot.Status{Context: gate.Context, State: gate.State, Description: gate.Description}
			}
			if tc.found && st.ID == 0 {
				t.Errorf("Status carries no id: %+v", st)
			}
			st.ID = 0
			if found != tc.found || st != want {
				t.Errorf("Status = %+v, %v; want %+v, %v", st, found, want, tc.found)
			}
			if reads := int(c.Counts().Reads); reads != tc.reads {
				t.Errorf("%d read requests, want %d", reads, tc.reads)
			}
		})
	}
}

// StatusesSince lists one context's statuses newer than a status id,
// newest first, and stops at the page that reaches it.
func TestStatusesSince(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		before, after int // other contexts' statuses around the gate's first write
		reads         int
		want          []string
		incomplete    bool
	}{
		"two writes since, one page":                {before: 3, after: 5, reads: 1, want: []string{"pending", "failure"}},
		"the read stops at the page it reaches":     {before: 150, after: 120, reads: 2, want: []string{"pending", "failure"}},
		"more than three pages since: not complete": {before: 0, after: 400, reads: 3, want: []string{"pending"}, incomplete: true},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f, pr, repo := commitWorld(t)
			c := client(t, f, nil)
			ctx := context.Background()
			others := func(n int) {
				for i := range n {
					f.AddStatus("o/r", pr.HeadSHA, "ci", fakegithub.Status{Context: fmt.Sprint("ci/", i), State: "success"})
				}
			}
			others(tc.before)
			if err := c.SetStatus(ctx, repo, pr.HeadSHA, snapshot.Status{Context: "rmc/merge-gate", State: "success"}); err != nil {
				t.Fatal(err)
			}
			read, _, err := c.Status(ctx, repo, pr.HeadSHA, "rmc/merge-gate")
			if err != nil {
				t.Fatal(err)
			}
			if err := c.SetStatus(ctx, repo, pr.HeadSHA, snapshot.Status{Context: "rmc/merge-gate", State: "failure"}); err != nil {
				t.Fatal(err)
			}
			others(tc.after)
			if err := c.SetStatus(ctx, repo, pr.HeadSHA, snapshot.Status{Context: "rmc/merge-gate", State: "pending"}); err != nil {
				t.Fatal(err)
			}
			reads := c.Counts().Reads
			got, complete, err := c.StatusesSince(ctx, repo, pr.HeadSHA, "rmc/merge-gate", read.ID)
			if err != nil || complete == tc.incomplete {
				t.Fatalf("complete %v, err %v; want complete %v", complete, err, !tc.incomplete)
			}
			var states []string
			for _, s := range got {
				states = append(states, s.State)
			}
			if fmt.Sprint(states) != fmt.Sprint(tc.want) {
				t.Errorf("StatusesSince = %v, want %v", states, tc.want)
			}
			if n := int(c.Counts().Reads - reads); n != tc.reads {
				t.Errorf("%d read requests, want %d", n, tc.reads)
			}
		})
	}
}
