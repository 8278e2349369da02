package github_test

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/review-my-code-bot/rmc/github"
	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/internal/inproc"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// Writes past the burst are spaced by the interval; reads are not paced.
// The client runs in a synctest bubble against the fake in process, so the
// pacing is measured on a fake clock: exactly, however loaded the machine.
func TestWritesArePaced(t *testing.T) {
	t.Parallel()
	f := fakegithub.New() // outside the bubble: its listener is real, and unused
	defer f.Close()
	f.AddToken("tok", fakegithub.Identity{Login: "github-actions[bot]", Kind: fakegithub.TokenInstallation})
	pr := f.AddPR("o/r", fakegithub.PR{})
	repo := snapshot.Repo{Owner: "o", Name: "r"}
	synctest.Test(t, func(t *testing.T) {
		c, err := github.New(github.Options{Token: "tok", APIURL: f.URL, GraphQLURL: f.GraphQLURL(), Transport: inproc.Transport{Handler: f},
			WriteInterval: 100 * time.Millisecond, WriteBurst: 2})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		for range 5 {
			if _, err := c.Files(t.Context(), repo, pr.Number); err != nil {
				t.Fatal(err)
			}
		}
		if d := time.Since(start); d != 0 {
			t.Errorf("5 reads took %s: reads must not be paced", d)
		}
		var at []time.Duration
		for i := range 5 {
			if _, err := c.CreateComment(t.Context(), repo, pr.Number, "x"+string(rune('a'+i))); err != nil {
				t.Fatal(err)
			}
			at = append(at, time.Since(start).Round(time.Millisecond))
		}
		// 2 at once, then 3 spaced by 100ms.
		want := []time.Duration{0, 0, 100 * time.Millisecond, 200 * time.Millisecond, 300 * time.Millisecond}
		if !equal(at, want) {
			t.Errorf("writes done at %v, want %v", at, want)
		}
		if n := len(f.IssueComments("o/r", pr.Number)); n != 5 {
			t.Errorf("%d comments stored, want 5", n)
		}
	})
}

// A write waiting for its turn gives up with its caller.
func TestPacedWriteHonoursTheCaller(t *testing.T) {
	t.Parallel()
	f := fakegithub.New()
	defer f.Close()
	f.AddToken("tok", fakegithub.Identity{Login: "github-actions[bot]", Kind: fakegithub.TokenInstallation})
	pr := f.AddPR("o/r", fakegithub.PR{})
	repo := snapshot.Repo{Owner: "o", Name: "r"}
	synctest.Test(t, func(t *testing.T) {
		c, err := github.New(github.Options{Token: "tok", APIURL: f.URL, GraphQLURL: f.GraphQLURL(), Transport: inproc.Transport{Handler: f},
			WriteInterval: time.Minute, WriteBurst: 1})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.CreateComment(t.Context(), repo, pr.Number, "first"); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		start := time.Now()
		if _, err := c.CreateComment(ctx, repo, pr.Number, "second"); err == nil || !strings.Contains(err.Error(), "waiting to pace writes") {
			t.Fatalf("a write a minute away, within a 10s deadline: err = %v, want it refused by the pacing", err)
		}
		// rate.Limiter refuses at once a wait that would pass the deadline.
		if d := time.Since(start); d != 0 {
			t.Errorf("the refused write waited %s", d)
		}
		if n := len(f.IssueComments("o/r", pr.Number)); n != 1 {
			t.Errorf("%d comments stored, want 1", n)
		}
	})
}

func equal(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// The pacing on the real clock, over loopback: about WriteInterval per
// write once the burst is spent.
func BenchmarkPacedWrites(b *testing.B) {
	f := fakegithub.New()
	defer f.Close()
	f.AddToken("tok", fakegithub.Identity{Login: "github-actions[bot]", Kind: fakegithub.TokenInstallation})
	pr := f.AddPR("o/r", fakegithub.PR{})
	repo := snapshot.Repo{Owner: "o", Name: "r"}
	c, err := github.New(github.Options{Token: "tok", APIURL: f.URL, GraphQLURL: f.GraphQLURL(), WriteInterval: 10 * time.Millisecond, WriteBurst: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := c.CreateComment(context.Background(), repo, pr.Number, "x"+string(rune('a'+i%26))); err != nil {
			b.Fatal(err)
		}
	}
}
