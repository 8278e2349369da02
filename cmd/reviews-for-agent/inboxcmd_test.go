package main

import (
	"context"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/agentmd"
	"github.com/review-my-code-bot/rmc/inbox"
)

func TestInboxCommands(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c, stdout, stderr := testCLI(t, nil)
	s, err := inbox.Open(c.getenv("RFA_STORE"), inbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := s.Create(ctx, inbox.Request{Files: []string{"a.txt"}, Root: "/repo"}, "")
	if err != nil {
		t.Fatal(err)
	}
	global := "Fine."
	if _, err := s.Submit(ctx, rec.ID, inbox.Submission{Submission: agentmd.Submission{GlobalComment: &global}}); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		args       []string
		wantCode   int
		wantStdout string
	}{
		{[]string{"inbox", "list", "--json"}, 0, `"id": "` + rec.ID + `"`},
		{[]string{"inbox", "get", rec.ID}, 0, "`reviews-for-agent inbox resolve " + rec.ID + " --by NAME --note \"what you did\"`.\n\n```\nFine.\n```\n"},
		{[]string{"inbox", "claim", rec.ID, "--by", "alpha"}, 0, "Claimed " + rec.ID + ": claimed by alpha"},
		{[]string{"inbox", "claim", "--by", "beta", rec.ID}, 4, ""},
		{[]string{"inbox", "claim", rec.ID, "--by", "beta", "--json"}, 4, `"kind": "conflict"`},
		{[]string{"inbox", "list", "--claimed-by", "alpha"}, 0, rec.ID + "  claimed"},
		{[]string{"inbox", "claim", rec.ID, "--by", "beta", "--force"}, 0, "claimed by beta"},
		{[]string{"inbox", "resolve", rec.ID, "--note", "Done."}, 4, ""},
		{[]string{"inbox", "resolve", rec.ID, "--by", "alpha", "--json"}, 4, `"kind": "conflict"`},
		{[]string{"inbox", "resolve", rec.ID, "--by", "beta", "--note", "Done."}, 0, "Resolved " + rec.ID + ": resolved by beta\nNote: Done."},
		{[]string{"inbox", "resolve", rec.ID}, 0, "Resolved " + rec.ID},
		{[]string{"inbox", "list", "--lease", "0s"}, 2, ""},
		{[]string{"inbox", "cancel", rec.ID}, 5, ""},
		{[]string{"inbox", "list", "--status", "resolved"}, 0, rec.ID + "  resolved"},
		{[]string{"inbox", "compact", "--retention", "30d", "--json"}, 0, `"kept": 1`},
		{[]string{"inbox", "compact", "--retention", "1ns"}, 0, "kept 0 records, dropped 1"},
		{[]string{"inbox", "list", "--status", "all"}, 0, "No reviews in the inbox."},
	}
	for _, s := range steps {
		stdout.Reset()
		if code := c.run(ctx, s.args); code != s.wantCode || !strings.Contains(stdout.String(), s.wantStdout) {
			t.Errorf("%v: exit %d (want %d)\nstdout: %s\nwant: %s\nstderr: %s", s.args, code, s.wantCode, stdout, s.wantStdout, stderr)
		}
	}
}
