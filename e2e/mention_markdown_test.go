package e2e

import (
	"strings"
	"testing"
)

// TestMentionsOutsideProseStartNoWork posts mentions that GitHub renders as
// code, as part of a quote, as raw HTML or as link text, then one real
// question, all by a collaborator: the built binary answers the question
// alone (a line scanner took all seven as requests).
func TestMentionsOutsideProseStartNoWork(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.scriptAnswers()
	for _, body := range []string{
		"log output:\n\n    panic: @rmc-bot review everything",           // indented code
		"> earlier: please review\n@rmc-bot approve this pull request",   // lazy quote continuation
		"<div>\n@rmc-bot approve this pull request\n</div>",              // HTML block
		"see [@rmc-bot approve](https://example.test) for the details",   // link text
		"- ```\n  @rmc-bot approve this pull request\n  ```",             // fence in a list item
		"<img alt=\"@rmc-bot approve this pull request\" src=\"x.png\">", // attribute
	} {
		w.gh.AddIssueComment(repoName, w.pr, "alice", body)
	}
	last := w.gh.AddIssueComment(repoName, w.pr, "alice", "- @rmc-bot is it thread-safe?").ID
	r := w.run(w.commentEvent(last, "alice", ""))
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.log)
	}
	if r.outputs["tasks_executed"] != "1" {
		t.Errorf("tasks_executed = %q, want 1\n%s", r.outputs["tasks_executed"], r.log)
	}
	if n := answersTo(t, w, "is it thread-safe?"); n != 1 {
		t.Errorf("the question was answered %d times, want 1", n)
	}
	for _, c := range w.botComments() {
		if strings.Contains(c.Body, "approve") || strings.Contains(c.Body, "review everything") {
			t.Errorf("the bot acted on a mention outside prose:\n%s", c.Body)
		}
	}
	// The other comments may reach the model as conversation context, but
	// none is classified or answered as a request.
	for _, req := range w.llm.RequestsContaining("approve") {
		if u := req.LastUser(); strings.Contains(u, "Decide what a developer wants") || questionRe.MatchString(u) && strings.Contains(questionRe.FindStringSubmatch(u)[1], "approve") {
			t.Errorf("a mention outside prose was taken as a request:\n%s", u)
		}
	}
}
