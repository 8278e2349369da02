package state_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// roles is a permission reader that records who it was asked about.
type roles struct {
	of    map[string]snapshot.Role
	fail  map[string]bool
	asked []string
}

func (r *roles) Permission(_ context.Context, _ snapshot.Repo, login string) (snapshot.Role, error) {
	r.asked = append(r.asked, login)
	if r.fail[login] {
		return "", errors.New("HTTP 502")
	}
	return r.of[login], nil
}

// The state asks for a permission only when a resolution or a maintainers'
// command depends on it, once per login per run (failures included), and
// derives again with the answers.
func TestPermissionsDerive(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		by     snapshot.Actor
		role   snapshot.Role
		fail   bool
		asked  []string
		waived bool
		warned int
	}{
		"a maintainer's resolve counts":  {by: maria, role: snapshot.RoleMaintain, asked: []string{"maria"}, waived: true},
		"a reader's resolve does not":    {by: bob, role: snapshot.RoleRead, asked: []string{"bob"}},
		"an unreadable role counts none": {by: maria, fail: true, asked: []string{"maria"}, warned: 2},    // once per derive, asked once
		"the PR's author is not asked":   {by: alice, role: snapshot.RoleAdmin, asked: []string{"alice"}}, // only by the explicit lookup
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := newPR()
			p.finding("T1", 10, rmcoc.Finding{ID: "f-111111", Title: "Race", Score: 9, Blocking: true, Status: rmcoc.FindingOpen})
			p.comment(1, tc.by, "@rmc-bot resolve")
			gh := &roles{of: map[string]snapshot.Role{tc.by.Login: tc.role}, fail: map[string]bool{tc.by.Login: tc.fail}}
			warned := 0
			perms := state.NewPermissions(gh, state.Options{Bot: bot, Handles: []string{"@rmc-bot"}}, func(string, ...any) { warned++ })
			st := perms.Derive(context.Background(), p.snap)
			if got := st.Findings[0].WaivedBy != ""; got != tc.waived {
				t.Errorf("waived %v, want %v", got, tc.waived)
			}
			// The rest of the run asks the same lookup: GitHub is not asked again.
			perms.Permission(context.Background(), p.snap.Repo, tc.by.Login)
			perms.Derive(context.Background(), p.snap)
			if !slices.Equal(gh.asked, tc.asked) {
				t.Errorf("asked about %v, want %v", gh.asked, tc.asked)
			}
			if warned != tc.warned {
				t.Errorf("%d warnings, want %d", warned, tc.warned)
			}
		})
	}
}
