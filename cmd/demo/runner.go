package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/review-my-code-bot/rmc/app"
	"github.com/review-my-code-bot/rmc/config"
	"github.com/review-my-code-bot/rmc/github"
	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// runner runs the action the way a GitHub runner does: INPUT_* variables
// with action.yml's defaults, an event file, GITHUB_OUTPUT and
// GITHUB_STEP_SUMMARY files, and a checkout of the PR's head in
// GITHUB_WORKSPACE, with the API and model URLs pointing at the fakes.
type runner struct {
	gh    *fakegithub.Server
	model *fakellm.Server
	pr    int
	dir   string // the runner's temporary directory
}

// job is what one workflow run left behind.
type job struct {
	code    int
	log     string // the action's stdout, workflow commands and all
	summary string // the job summary (markdown)
}

func newRunner(gh *fakegithub.Server, model *fakellm.Server, pr int) (*runner, error) {
	dir, err := os.MkdirTemp("", "rmc-demo-")
	if err != nil {
		return nil, fmt.Errorf("create a directory for the runner: %w", err)
	}
	r := &runner{gh: gh, model: model, pr: pr, dir: dir}
	// The checkout actions/checkout leaves: the PR's head, detached.
	ws := filepath.Join(dir, "workspace")
	for path, content := range map[string]string{".git/HEAD": headSHA + "\n", filePath: bucketGo} {
		full := filepath.Join(ws, filepath.FromSlash(path))
		err := os.MkdirAll(filepath.Dir(full), 0o755)
		if err == nil {
			err = os.WriteFile(full, []byte(content), 0o644)
		}
		if err != nil {
			r.close()
			return nil, fmt.Errorf("check out the sample: %w", err)
		}
	}
	return r, nil
}

func (r *runner) close() { os.RemoveAll(r.dir) }

// run is one workflow run of the action for an event.
func (r *runner) run(ctx context.Context, eventName string, payload any) (job, error) {
	raw, err := json.Marshal(payload)
	if err != nil {
		return job{}, err
	}
	files := map[string]string{"event": filepath.Join(r.dir, "event.json"), "output": filepath.Join(r.dir, "output"),
		"summary": filepath.Join(r.dir, "summary.md")}
	for _, f := range files {
		if err := os.WriteFile(f, nil, 0o600); err != nil {
			return job{}, fmt.Errorf("prepare the runner's files: %w", err)
		}
	}
	if err := os.WriteFile(files["event"], raw, 0o600); err != nil {
		return job{}, fmt.Errorf("write the event: %w", err)
	}
	env := map[string]string{
		"GITHUB_ACTIONS": "true", "CI": "true",
		"GITHUB_EVENT_NAME": eventName, "GITHUB_EVENT_PATH": files["event"],
		"GITHUB_REPOSITORY": repoName, "GITHUB_WORKSPACE": filepath.Join(r.dir, "workspace"),
		"GITHUB_OUTPUT": files["output"], "GITHUB_STEP_SUMMARY": files["summary"],
		"GITHUB_API_URL": r.gh.URL, "GITHUB_GRAPHQL_URL": r.gh.GraphQLURL(),
	}
	inputs := config.Defaults()
	inputs["github_token"] = ghToken // the runner evaluates ${{ github.token }}
	inputs["llm_base_url"] = r.model.BaseURL()
	inputs["llm_api_key"] = llmKey
	inputs["model"] = model
	for k, v := range inputs {
		env["INPUT_"+strings.ToUpper(k)] = v
	}
	var log bytes.Buffer
	code := app.Run(ctx, app.Env{Getenv: func(k string) string { return env[k] }, Stdout: &log, ReadFile: os.ReadFile}, gitHub)
	summary, err := os.ReadFile(files["summary"])
	if err != nil {
		return job{}, fmt.Errorf("read the job summary: %w", err)
	}
	return job{code: code, log: log.String(), summary: string(summary)}, nil
}

// gitHub is the real GitHub client and webhook parser, as the action uses
// them, pointed at the fake through the runner's URLs.
var gitHub = app.Connector{ParseEvent: github.ParseEvent, Connect: func(c app.Connection) (app.GitHub, error) {
	opts, err := github.RunnerOptions(c.Token, c.Getenv, c.Warn)
	if err != nil {
		return nil, err
	}
	opts.WriteInterval = -1 // the fake has no secondary rate limit to pace writes for
	client, err := github.New(opts)
	if err != nil {
		return nil, err
	}
	return client, nil
}}

// The event payloads carry the fields of GitHub's webhooks that the action
// reads; a runner hands the action the whole payload in GITHUB_EVENT_PATH.

type user struct {
	Login string `json:"login"`
	Type  string `json:"type"`
}

type repository struct {
	FullName string `json:"full_name"`
	Name     string `json:"name"`
	Owner    user   `json:"owner"`
}

func (r *runner) repo() repository {
	owner, name, _ := strings.Cut(repoName, "/")
	return repository{FullName: repoName, Name: name, Owner: user{Login: owner, Type: "Organization"}}
}

func (r *runner) pull() map[string]any {
	pr, _ := r.gh.PR(repoName, r.pr)
	return map[string]any{"number": r.pr, "title": pr.Title, "draft": pr.Draft, "state": pr.State,
		"user": user{Login: pr.Author, Type: "User"},
		"head": map[string]any{"sha": pr.HeadSHA, "ref": pr.HeadRef, "repo": r.repo()},
		"base": map[string]any{"sha": pr.BaseSHA, "ref": pr.BaseRef, "repo": r.repo()}}
}

// opened is the pull_request event of a new PR.
func (r *runner) opened() (string, map[string]any) {
	return "pull_request", map[string]any{"action": "opened", "number": r.pr, "pull_request": r.pull(),
		"repository": r.repo(), "sender": user{Login: author, Type: "User"}}
}

// closed is the pull_request event of the PR closing.
func (r *runner) closed() (string, map[string]any) {
	return "pull_request", map[string]any{"action": "closed", "number": r.pr, "pull_request": r.pull(),
		"repository": r.repo(), "sender": user{Login: author, Type: "User"}}
}

// commented is the issue_comment event of a comment in the conversation.
func (r *runner) commented(c fakegithub.Comment) (string, map[string]any) {
	return "issue_comment", map[string]any{"action": "created",
		"issue":      map[string]any{"number": r.pr, "pull_request": map[string]any{"url": r.gh.URL + "/repos/" + repoName + "/pulls/" + fmt.Sprint(r.pr)}},
		"comment":    map[string]any{"id": c.ID, "body": c.Body, "user": user{Login: c.Author, Type: "User"}},
		"repository": r.repo(), "sender": user{Login: c.Author, Type: "User"}}
}

// replied is the pull_request_review_comment event of a reply in a thread.
func (r *runner) replied(id, inReplyTo int64, body string) (string, map[string]any) {
	return "pull_request_review_comment", map[string]any{"action": "created", "pull_request": r.pull(),
		"comment":    map[string]any{"id": id, "in_reply_to_id": inReplyTo, "body": body, "user": user{Login: author, Type: "User"}},
		"repository": r.repo(), "sender": user{Login: author, Type: "User"}}
}
