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
			if found != tc.found || st != want {
				t.Errorf("Status = %+v, %v; want %+v, %v", st, found, want, tc.found)
			}
			if reads := int(c.Counts().Reads); reads != tc.reads {
				t.Errorf("%d read requests, want %d", reads, tc.reads)
			}
		})
	}
}
