package github

import (
	"errors"
	"github.com/review-my-code-bot/rmc/event"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func payload(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "webhooks", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseEventRealPayloads(t *testing.T) {
	t.Parallel()
	const head = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
	tests := map[string]struct {
		event, file     string
		wantPR          int
		wantAction      string
		wantHead        string
		wantComment     int64
		wantUnsupported string // substring of the unsupported reason
	}{
		"pull_request opened":       {event: "pull_request", file: "pull_request/opened.payload.json", wantPR: 2, wantAction: "opened", wantHead: head},
		"pull_request synchronize":  {event: "pull_request", file: "pull_request/synchronize.payload.json", wantPR: 2, wantAction: "synchronize", wantHead: head},
		"pull_request reopened":     {event: "pull_request", file: "pull_request/reopened.payload.json", wantPR: 2, wantAction: "reopened", wantHead: head},
		"pull_request ready":        {event: "pull_request", file: "pull_request/ready_for_review.payload.json", wantPR: 2, wantAction: "ready_for_review", wantHead: head},
		"pull_request_target":       {event: "pull_request_target", file: "pull_request/opened.payload.json", wantPR: 2, wantAction: "opened", wantHead: head},
		"pull_request labeled":      {event: "pull_request", file: "pull_request/labeled.payload.json", wantUnsupported: `action "labeled"`},
		"pull_request closed":       {event: "pull_request", file: "pull_request/closed.payload.json", wantPR: 2, wantAction: "closed", wantHead: head}, // its outcome is recorded
		"comment on a PR":           {event: "issue_comment", file: "issue_comment/created.on-pull-request.json", wantPR: 1, wantAction: "created", wantComment: 492700400},
		"comment on a plain issue":  {event: "issue_comment", file: "issue_comment/created.payload.json", wantUnsupported: "not a pull request"},
		"deleted comment":           {event: "issue_comment", file: "issue_comment/deleted.payload.json", wantUnsupported: "not a pull request"},
		"review comment created":    {event: "pull_request_review_comment", file: "pull_request_review_comment/created.payload.json", wantPR: 2, wantAction: "created", wantHead: head, wantComment: 284312630},
		"review comment edited":     {event: "pull_request_review_comment", file: "pull_request_review_comment/edited.payload.json", wantUnsupported: `action "edited"`},
		"review submitted":          {event: "pull_request_review", file: "pull_request_review/submitted.payload.json", wantPR: 2, wantAction: "submitted", wantHead: head},
		"review dismissed":          {event: "pull_request_review", file: "pull_request_review/dismissed.payload.json", wantUnsupported: `action "dismissed"`},
		"review thread resolved":    {event: "pull_request_review_thread", file: "pull_request_review_thread/resolved.payload.json", wantUnsupported: `"pull_request_review_thread"`},
		"an event the action skips": {event: "push", file: "pull_request/opened.payload.json", wantUnsupported: `"push"`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ev, err := ParseEvent(tc.event, payload(t, tc.file))
			if tc.wantUnsupported != "" {
				if !errors.Is(err, event.ErrUnsupported) || !strings.Contains(err.Error(), tc.wantUnsupported) {
					t.Fatalf("err = %v, want unsupported containing %q", err, tc.wantUnsupported)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ev.PRNumber != tc.wantPR || ev.Action != tc.wantAction || ev.HeadSHA != tc.wantHead || ev.Repo != "Codertocat/Hello-World" {
				t.Errorf("got %+v", ev)
			}
			if tc.wantHead != "" && ev.BaseSHA != "f95f852bd8fca8fcc58a9a2d6c842781e32a215e" {
				t.Errorf("base = %q, want the payload's base sha", ev.BaseSHA)
			}
			if tc.wantComment != 0 && (ev.Comment == nil || ev.Comment.ID != tc.wantComment) {
				t.Errorf("comment = %+v, want id %d", ev.Comment, tc.wantComment)
			}
		})
	}
}

func TestParseEventBadInput(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		event, payload, want string
	}{
		"not JSON":               {"pull_request", "<html>", "not JSON"},
		"empty object":           {"pull_request", "{}", "unsupported event"},
		"no repository":          {"issue_comment", `{"action":"created","issue":{"number":3,"pull_request":{"url":"x"}},"comment":{"id":1}}`, "no repository"},
		"wrong types":            {"pull_request", `{"action":5}`, "decode pull_request payload"},
		"dispatch without a PR":  {"workflow_dispatch", `{"inputs":{},"repository":{"full_name":"o/r"}}`, `declare an input "pr"`},
		"dispatch with a bad PR": {"workflow_dispatch", `{"inputs":{"pr":"abc"},"repository":{"full_name":"o/r"}}`, "not a pull request number"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := ParseEvent(tc.event, []byte(tc.payload))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestParseDispatch(t *testing.T) {
	t.Parallel()
	ev, err := ParseEvent("workflow_dispatch", []byte(`{"inputs":{"pr":"#42"},"ref":"refs/heads/main","repository":{"full_name":"o/r"},"sender":{"login":"alice"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if ev.PRNumber != 42 || ev.Repo != "o/r" || ev.Sender != "alice" {
		t.Errorf("got %+v", ev)
	}
}

// GitHub's workflow_dispatch example carries an input the action does not
// know; with the example workflow's "pr" input it names the pull request.
func TestParseDispatchRealPayload(t *testing.T) {
	t.Parallel()
	raw := payload(t, "workflow_dispatch/payload.json")
	if _, err := ParseEvent("workflow_dispatch", raw); err == nil || !strings.Contains(err.Error(), `declare an input "pr"`) {
		t.Errorf("without a pr input: %v", err)
	}
	withPR := strings.Replace(string(raw), `"inputs": { "name": "Mona the Octocat" }`, `"inputs": { "pr": "17" }`, 1)
	ev, err := ParseEvent("workflow_dispatch", []byte(withPR))
	if err != nil {
		t.Fatal(err)
	}
	if ev.PRNumber != 17 || ev.Repo != "octo-org/octo-repo" || ev.Sender != "Codertocat" || ev.Name != "workflow_dispatch" {
		t.Errorf("got %+v", ev)
	}
}
