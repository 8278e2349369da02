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
	for i, s := range stages(gh, r, t, pr) {
		if err := s.play(ctx, i+1, gh, r, t, opts); err != nil {
			return err
		}
	}
	return nil
}

// stage is one workflow run of the demo.
type stage struct {
	what string
	// act is what the developer does; it returns the event GitHub sends.
	act      func() (string, map[string]any)
	wantCode int
	// elsewhere is set for a run that writes outside the pull request (the
	// outcome ledger in the learnings issue): the transcript shows none of it.
	elsewhere bool
}

// stages are the demo's runs: the pull request opened, a question, a
// dispute of the blocking finding, the pull request merged (its outcome
// recorded) and the stats asked for.
func stages(gh *fakegithub.Server, r *runner, t *transcript, pr int) []stage {
	return []stage{{
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
	}, {
		what: "@alice merges the pull request",
		act: func() (string, map[string]any) {
			gh.UpdatePR(repoName, pr, func(p *fakegithub.PR) { p.State, p.Merged = "closed", true })
			return r.closed()
		},
		elsewhere: true,
	}, {
		what: "@alice asks how the bot's findings fared",
		act: func() (string, map[string]any) {
			c := gh.AddIssueComment(repoName, pr, author, "@rmc-bot stats")
			t.comment(c)
			return r.commented(c)
		},
	}}
}

// play acts out stage n, runs the job on the event it brings and shows
// what the job did, failing when the job did not do what the stage is for.
func (s stage) play(ctx context.Context, n int, gh *fakegithub.Server, r *runner, t *transcript, opts options) error {
	t.step(n, s.what)
	name, payload := s.act()
	t.mark()
	if name == "" {
		return fmt.Errorf("run %d: the review posted no finding on %s:%d to dispute", n, filePath, findings[0].Line)
	}
	j, err := r.run(ctx, name, payload)
	if err != nil {
		return fmt.Errorf("run %d: %w", n, err)
	}
	if ctx.Err() != nil {
		return fmt.Errorf("interrupted during run %d", n)
	}
	if j.code != s.wantCode || len(gh.Unhandled()) > 0 || len(gh.GraphQLErrors()) > 0 {
		return fmt.Errorf("run %d (%s) exited %d, want %d; unhandled requests: %v; GraphQL errors: %v; its log:\n%s",
			n, name, j.code, s.wantCode, gh.Unhandled(), gh.GraphQLErrors(), strings.Join(plainLog(j.log), "\n"))
	}
	if t.run(fmt.Sprintf("%s.%s", name, payload["action"]), j) == 0 && !s.elsewhere {
		return fmt.Errorf("run %d (%s) posted nothing; its log:\n%s", n, name, strings.Join(plainLog(j.log), "\n"))
	}
	t.summary(j)
	if opts.log {
		t.log(j)
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
