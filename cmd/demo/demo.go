package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// demo runs the three workflow runs and prints the transcript to w. It
// fails when a run did not do what the sample is built for, showing that
// run's log: a demo that quietly shows less would mislead.
func demo(ctx context.Context, w io.Writer, opts options) error {
	gh := fakegithub.New()
	defer gh.Close()
	model := fakellm.New(fakellm.Config{APIKey: llmKey})
	defer model.Close()
	pr := seed(gh)
	if opts.script == nil {
		opts.script = script
	}
	opts.script(model)
	r, err := newRunner(gh, model, pr)
	if err != nil {
		return err
	}
	defer r.close()
	t := newTranscript(w, style{on: opts.color}, opts.width, gh, pr)
	t.brief = opts.brief
	t.intro()

	runs := []struct {
		what string
		// act is what the developer does; it returns the event GitHub sends.
		act      func() (string, map[string]any)
		wantCode int
	}{{
		what: "@alice opens the pull request",
		act:  r.opened,
		// An automatic review that leaves a blocking finding open fails
		// the job: that is the merge gate.
		wantCode: 1,
	}, {
		what: "@alice asks the bot a question",
		act: func() (string, map[string]any) {
			c := gh.AddIssueComment(repoName, pr, author, question)
			t.comment(c)
			return r.commented(c)
		},
	}, {
		what: "@alice disputes the blocking finding",
		act: func() (string, map[string]any) {
			th, ok := threadAt(gh, pr, findings[0].Line)
			if !ok {
				return "", nil
			}
			id := gh.AddReply(repoName, pr, th.Comments[0].ID, author, dispute)
			for _, c := range gh.ReviewComments(repoName, pr) {
				if c.ID == id {
					t.reply(th, c)
				}
			}
			return r.replied(id, th.Comments[0].ID, dispute)
		},
	}}
	for i, run := range runs {
		t.step(i+1, run.what)
		name, payload := run.act()
		t.mark()
		if name == "" {
			return fmt.Errorf("run %d: the review posted no finding on %s:%d to dispute", i+1, filePath, findings[0].Line)
		}
		j, err := r.run(ctx, name, payload)
		if err != nil {
			return fmt.Errorf("run %d: %w", i+1, err)
		}
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted during run %d", i+1)
		}
		if j.code != run.wantCode || len(gh.Unhandled()) > 0 || len(gh.GraphQLErrors()) > 0 {
			return fmt.Errorf("run %d (%s) exited %d, want %d; unhandled requests: %v; GraphQL errors: %v; its log:\n%s",
				i+1, name, j.code, run.wantCode, gh.Unhandled(), gh.GraphQLErrors(), strings.Join(plainLog(j.log), "\n"))
		}
		if t.run(fmt.Sprintf("%s.%s", name, payload["action"]), j) == 0 {
			return fmt.Errorf("run %d (%s) posted nothing; its log:\n%s", i+1, name, strings.Join(plainLog(j.log), "\n"))
		}
		t.summary(j)
		if opts.log {
			t.log(j)
		}
	}
	return nil
}

// threadAt finds the bot's finding thread on a line of the sample file.
func threadAt(gh *fakegithub.Server, pr, line int) (fakegithub.Thread, bool) {
	for _, th := range gh.Threads(repoName, pr) {
		if th.Path == filePath && th.Line == line && th.Comments[0].Author == botLogin {
			return th, true
		}
	}
	return fakegithub.Thread{}, false
}
