package e2e

import (
	"strings"
	"testing"
)

// language: every model call of the run is told to write in it, and the
// bot's fixed texts (the manual review's start and end comments) are in it.
func TestLanguage(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", patchV1)
	w.setConfig("language: French\n", "")
	w.scriptReview(true, bug(5, "Écriture concurrente non protégée", 9))
	w.scriptDisputes()
	_, root := w.finding(3, "Unsynchronized map", 8, true)
	w.gh.AddReply(repoName, w.pr, root, "alice", "mu guards it")
	c := w.gh.AddIssueComment(repoName, w.pr, "bob", "@rmc-bot review please")
	r := w.run(w.commentEvent(c.ID, "bob", c.Body))
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.log)
	}
	tasks := 0
	for _, req := range w.llm.Requests() {
		for _, m := range req.Messages {
			if m.Role == "system" && strings.Contains(m.Content, "# Ground rules") {
				tasks++
				if !strings.Contains(m.Content, "Write everything you return for people (findings, reviews, answers, replies) in French.") {
					t.Errorf("a model call is not told the language:\n%s", m.Content)
				}
			}
		}
	}
	if tasks < 4 { // the dispute and three review passes
		t.Errorf("%d model calls with the session's prompt, want at least 4", tasks)
	}
	var status string
	for _, c := range w.botComments() {
		if strings.Contains(c.Body, "manual-pr-review") {
			status = c.Body
		}
	}
	if !strings.Contains(status, "Revue de `1111111` terminée : 1 remarque(s), dont 1 bloquante(s).") {
		t.Errorf("the manual review's status comment is not in French:\n%s", status)
	}
	if !strings.Contains(r.summary, "| `language` | French | `.github/rmc.yml` |") {
		t.Errorf("summary:\n%s", r.summary)
	}
}

// A language without a phrasebook: the model writes in it, the fixed texts
// stay in English, and the summary says so.
func TestLanguageWithoutPhrasebook(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", patchV1)
	w.inputs["language"] = "Klingon"
	w.scriptReview(true)
	c := w.gh.AddIssueComment(repoName, w.pr, "bob", "@rmc-bot review")
	r := w.run(w.commentEvent(c.ID, "bob", c.Body))
	if !strings.Contains(w.systemPrompt(), "in Klingon.") {
		t.Errorf("prompt lacks the language")
	}
	found := false
	for _, c := range w.botComments() {
		found = found || strings.Contains(c.Body, "Review of `1111111` done")
	}
	if !found || !strings.Contains(r.summary, "fixed texts stay in English") {
		t.Errorf("fixed texts: found English status %v\n%s", found, r.summary)
	}
}
