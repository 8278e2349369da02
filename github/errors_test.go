package github_test

import (
	"context"
	"errors"
	"testing"

	"github.com/review-my-code-bot/rmc/github"
	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// GitHub's refusals reach the rest of the pipeline as the domain's errors,
// read off GitHub's real answers by the fake; nothing outside this package
// reads GitHub's English.
func TestRefusalsAreTypedErrors(t *testing.T) {
	t.Parallel()
	f := fakegithub.New()
	defer f.Close()
	f.AddUser("alice", false)
	f.AddToken("pat", fakegithub.Identity{Login: "alice", Kind: fakegithub.TokenPAT})
	f.AddRepo("o/r")
	f.SetPermission("o/r", "alice", "write")
	pr := f.AddPR("o/r", fakegithub.PR{Author: "alice"})
	f.SetFiles("o/r", pr.Number, []fakegithub.File{{Path: "a.go", Status: "added", Additions: 1, Patch: "@@ -0,0 +1 @@\n+package a"}})
	repo := snapshot.Repo{Owner: "o", Name: "r"}
	c, err := github.New(github.Options{Token: "pat", APIURL: f.URL, GraphQLURL: f.GraphQLURL(), WriteInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	_, err = c.CreateReview(ctx, repo, pr.Number, snapshot.NewReview{Event: "REQUEST_CHANGES", Body: "no", CommitSHA: pr.HeadSHA})
	if !errors.Is(err, snapshot.ErrOwnPullRequest) || !errors.Is(err, snapshot.ErrRefused) || errors.Is(err, snapshot.ErrAnchorRejected) {
		t.Errorf("own PR: %v", err)
	}
	_, err = c.CreateReview(ctx, repo, pr.Number, snapshot.NewReview{Event: "COMMENT", Body: "x", CommitSHA: pr.HeadSHA,
		Comments: []snapshot.NewReviewComment{{Path: "a.go", Line: 40, Side: "RIGHT", Body: "far"}}})
	if !errors.Is(err, snapshot.ErrAnchorRejected) || errors.Is(err, snapshot.ErrOwnPullRequest) {
		t.Errorf("line outside the diff: %v", err)
	}
	if errors.Is(context.Canceled, snapshot.ErrRefused) {
		t.Error("a cancelled run is not GitHub's refusal")
	}
}

// A refusal for lack of a permission names the permission of the call, not
// a guess from its wording.
func TestPermissionNamesTheCallsScope(t *testing.T) {
	t.Parallel()
	for scope, op := range map[string]string{"issues: write": "create the learnings issue in o/r", "statuses: write": "set status rmc/merge-gate on o/r@abc"} {
		e := &github.APIError{Op: op, Status: 403, Message: "Resource not accessible by integration", Scope: scope}
		if e.Permission() != scope || !errors.Is(e, snapshot.ErrPermission) {
			t.Errorf("%s: permission %q", op, e.Permission())
		}
		e.Status = 404
		if e.Permission() != "" || errors.Is(e, snapshot.ErrPermission) {
			t.Errorf("%s: a 404 names a permission", op)
		}
	}
}
