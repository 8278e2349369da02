package main

import (
	"fmt"
	"strings"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// The sample: a small Go repository whose pull request adds a token-bucket
// rate limiter with a planted off-by-one on line 28.
const (
	repoName = "acme/gateway"
	author   = "alice"
	botLogin = "github-actions[bot]"
	ghToken  = "ghs_demo_installation_token"
	llmKey   = "sk-demo-scripted-model"
	// model is what the footers of the bot's answers name: the scripted
	// model, so that nobody mistakes the demo's answers for a real model's.
	model    = "demo/scripted-model"
	headSHA  = "1111111111111111111111111111111111111111"
	filePath = "limiter/bucket.go"
)

const bucketGo = `package limiter

import (
	"sync"
	"time"
)

// Bucket lets through up to Capacity requests at once and refills Rate
// tokens a second.
type Bucket struct {
	Capacity, Rate int

	mu     sync.Mutex
	tokens int
	last   time.Time
}

// NewBucket returns a full bucket.
func NewBucket(capacity, rate int, now time.Time) *Bucket {
	return &Bucket{Capacity: capacity, Rate: rate, tokens: capacity, last: now}
}

// Allow reports whether a request may pass at now, and takes a token if so.
func (b *Bucket) Allow(now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill(now)
	if b.tokens >= 0 {
		b.tokens--
		return true
	}
	return false
}

// refill adds the tokens earned since last.
func (b *Bucket) refill(now time.Time) {
	per := time.Second / time.Duration(b.Rate)
	if n := int(now.Sub(b.last) / per); n > 0 {
		b.tokens = min(b.Capacity, b.tokens+n)
		b.last = b.last.Add(time.Duration(n) * per)
	}
}
`

// What the developer writes.
const (
	prTitle  = "Add a token-bucket rate limiter to the API gateway"
	prBody   = "Limits each API key to 100 requests a second, with bursts up to the bucket's capacity."
	question = "@rmc-bot why refill inside Allow rather than from a ticker goroutine?"
	dispute  = "This is fine: `tokens` never goes below zero, so `>= 0` is the right check."
)

// seed creates the repository and the pull request as @alice opened it.
func seed(gh *fakegithub.Server) int {
	gh.AddToken(ghToken, fakegithub.Identity{Login: botLogin, Kind: fakegithub.TokenInstallation})
	gh.AddUser(author, false)
	gh.AddRepo(repoName)
	pr := gh.AddPR(repoName, fakegithub.PR{Title: prTitle, Body: prBody, Author: author, HeadSHA: headSHA, HeadRef: "rate-limiter"})
	gh.SetFiles(repoName, pr.Number, []fakegithub.File{{Path: filePath, Status: "added", Patch: addedPatch(bucketGo)}})
	// The repository's settings, which the pull request leaves as they are.
	gh.SetContents(repoName, pr.BaseSHA, ".github/rmc.yml", repoConfig)
	gh.SetContents(repoName, headSHA, ".github/rmc.yml", repoConfig)
	return pr.Number
}

// repoConfig is the repository's .github/rmc.yml: one check, in error
// mode (a failure would hold the merge gate), and the walkthrough's diagram.
const repoConfig = `checks:
  - name: doc comments
    mode: error
    paths: ["**/*.go"]
    instructions: Every exported type and function has a doc comment that says what it does.
walkthrough_diagram: true
`

// walkthrough is the model's walkthrough of the sample.
var walkthrough = map[string]any{
	"summary": "Adds a token-bucket rate limiter for the API gateway: each API key gets a bucket of Capacity tokens " +
		"that refills Rate tokens a second, and a request passes only when it can take a token.",
	"groups":     []map[string]any{{"purpose": "Rate limiting", "files": []string{filePath}}},
	"effort":     2,
	"effort_why": "one new file, but the token arithmetic and the locking deserve a careful read",
	"issue_fit":  "",
	"diagram":    "sequenceDiagram\nparticipant Gateway\nparticipant Bucket\nGateway->>Bucket: Allow(now)\nBucket->>Bucket: refill(now)\nBucket-->>Gateway: true, a token taken",
}

// checkResults is the model's evaluation of the repository's check.
var checkResults = []map[string]any{{"name": "doc comments", "result": "pass",
	"reason": "Bucket, NewBucket and Allow each have a doc comment that says what they do.", "locations": []any{}}}

// addedPatch is GitHub's patch of a new file.
func addedPatch(content string) string {
	lines := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
	return fmt.Sprintf("@@ -0,0 +1,%d @@\n+%s", len(lines), strings.Join(lines, "\n+"))
}

// finding is one finding as a review pass reports it (the review engine's
// JSON schema).
type finding struct {
	Path        string `json:"path"`
	Line        int    `json:"line"`
	StartLine   int    `json:"start_line"`
	Side        string `json:"side"`
	Title       string `json:"title"`
	Explanation string `json:"explanation"`
	Score       int    `json:"score"`
	Category    string `json:"category"`
	Suggestion  string `json:"suggestion"`
}

var findings = []finding{{
	Path: filePath, Line: 28, Side: "right", Score: 8, Category: "bug",
	Title: "Off-by-one: an empty bucket still lets a request through",
	Explanation: "With `b.tokens == 0` the check passes and line 29 takes the bucket to -1, so a full bucket admits " +
		"`Capacity+1` requests in a burst: one more than the limit the PR promises. Take a token only when one is left.",
	Suggestion: "\tif b.tokens > 0 {",
}}

const answer = "Refilling lazily costs nothing while a client is idle. A ticker goroutine per bucket would wake up " +
	"`Rate` times a second for every API key, busy or not, and would need a way to stop. `refill` " +
	"(limiter/bucket.go:36-42) adds the tokens earned since `b.last` under the lock `Allow` already holds, " +
	"so there is no second writer to race with."

const maintained = "I read `Allow` again (limiter/bucket.go:28-29). When `b.tokens` is `0`, `>= 0` is true and " +
	"line 29 takes it to `-1`: a full bucket admits `Capacity+1` requests in a burst, and the next refill starts " +
	"from a debt. `> 0` admits exactly `Capacity`."

// script teaches the fake model the sample's answers. Each rule matches the
// task heading of the action's own prompts, so the demo's model calls are the
// real ones; only the answers are canned.
func script(m *fakellm.Server) {
	m.AddRule(fakellm.Rule{Name: "classify", LastUser: "Decide what a developer wants",
		Reply: fakellm.Reply{JSON: map[string]string{"intent": "question"}}})
	m.AddRule(fakellm.Rule{Name: "review pass 1", LastUser: "# Task: review pass 1 of 3",
		Respond: func(r fakellm.Request) fakellm.Reply {
			a := fakellm.ReviewAnswer(r, findings)
			if m, ok := a.JSON.(map[string]any); ok && m["files"] != nil {
				m["files"] = []map[string]string{{"path": filePath, "change": "the Bucket type, NewBucket, and Allow with a lazy refill under one mutex"}}
			}
			return a
		}})
	m.AddRule(fakellm.Rule{Name: "review passes 2 and 3", Match: func(r fakellm.Request) bool {
		last := r.LastUser()
		return strings.Contains(last, "# Task: review pass 2 of 3") || strings.Contains(last, "# Task: review pass 3 of 3")
	}, Reply: fakellm.Reply{JSON: map[string]any{"findings": []finding{}}}})
	m.AddRule(fakellm.Rule{Name: "walkthrough", LastUser: "# Task: walkthrough of the pull request", Reply: fakellm.Reply{JSON: walkthrough}})
	m.AddRule(fakellm.Rule{Name: "checks", LastUser: "# Task: evaluate the repository's checks", Reply: fakellm.Reply{JSON: map[string]any{"results": checkResults}}})
	m.AddRule(fakellm.Rule{Name: "answer", LastUser: "# Task: answer a question", Reply: fakellm.Reply{Text: answer}})
	// The dispute: the model reads the code first, then answers.
	m.AddRule(fakellm.Rule{Name: "dispute: read the code", LastUser: "# Task: answer a reply on your finding", LastRole: "user",
		Reply: fakellm.Reply{ToolCalls: []fakellm.ToolCall{fakellm.Call("read_file", map[string]any{"path": filePath, "start_line": 23, "end_line": 33})}}})
	m.AddRule(fakellm.Rule{Name: "dispute: verdict", LastUser: "# Task: answer a reply on your finding", ToolResult: "b.tokens >= 0",
		Reply: fakellm.Reply{JSON: map[string]string{"kind": "dispute", "verdict": "maintain", "reply": maintained,
			"reason": "At tokens == 0 the check passes and the bucket goes negative."}}})
}
