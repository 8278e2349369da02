package app

import (
	"context"
	"fmt"

	"github.com/review-my-code-bot/rmc/config"
	"github.com/review-my-code-bot/rmc/event"
	"github.com/review-my-code-bot/rmc/github"
	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
)

const demoBanner = `=====================================================================
 DEMO: offline. A built-in fake GitHub on this machine holds a sample
 pull request; nothing real is read or written, and no model is called.
 The pipeline is the action's own: event -> snapshot -> state -> plan.
=====================================================================`

// Demo runs the pipeline, dry, against a fake GitHub seeded with a sample PR
// that has one of every kind of pending work.
func Demo(ctx context.Context, env Env) int {
	log := consoleLog(env)
	log.Print(demoBanner)
	fake := fakegithub.New()
	defer fake.Close()
	repo, number := seedDemo(fake)

	cfg, err := config.Load(withDefaults(func(string) string { return "" }), false)
	if err != nil {
		log.Print(err.Error())
		return ExitUsage
	}
	cfg.DryRun = true
	gh, err := github.New(github.Options{Token: "demo-token", APIURL: fake.URL, GraphQLURL: fake.GraphQLURL()})
	if err != nil {
		log.Print(err.Error())
		return ExitUsage
	}
	ev := event.Event{Name: event.IssueComment, Action: "created", Repo: repo.String(), PRNumber: number}
	log.Print(fmt.Sprintf("\nTrigger: alice comments \"@rmc-bot why is the bucket refilled from a goroutine?\" on %s#%d\n", repo, number))
	code := Pipeline{Config: cfg, GitHub: gh, Log: log}.Run(ctx, repo, ev)
	log.Print(fmt.Sprintf("\nThe fake GitHub saw %d reads and %d writes.", fake.ReadCount(), fake.WriteCount()))
	return code
}

func seedDemo(f *fakegithub.Server) (snapshot.Repo, int) {
	const name = "acme/gateway"
	const oldHead, newHead = "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222"
	f.AddUser("alice", false)
	f.AddUser("mallory", false)
	f.AddToken("demo-token", fakegithub.Identity{Login: "github-actions[bot]", Kind: fakegithub.TokenInstallation})
	f.AddRepo(name)
	pr := f.AddPR(name, fakegithub.PR{Title: "Add a token-bucket rate limiter to the API gateway", Author: "alice",
		Body: "Limits each client to 100 requests a second.", HeadSHA: oldHead})
	f.SetFiles(name, pr.Number, []fakegithub.File{{Path: "limiter/bucket.go", Status: "added", Additions: 4,
		Patch: "@@ -0,0 +1,4 @@\n+package limiter\n+\n+var buckets = map[string]*Bucket{}\n+func Refill() { go refillLoop() }"}})

	at := f.Now()
	bot := "github-actions[bot]"
	f.AddIssueComment(name, pr.Number, bot, "🔍 Reviewing `1111111`…\n\n"+rmcoc.Render(rmcoc.AutoReviewTrigger{HeadSHA: oldHead, Action: "opened", TriggeredAt: at}))
	f.AddReview(name, pr.Number, bot, "CHANGES_REQUESTED", "1 blocking finding.\n\n"+rmcoc.Render(rmcoc.ReviewRun{HeadSHA: oldHead, Mode: rmcoc.ModeAuto, Findings: 1, Blocking: 1, CompletedAt: at}))
	_, root := f.AddThread(name, pr.Number, fakegithub.ThreadSpec{Path: "limiter/bucket.go", Line: 3, Author: bot,
		Body: "**Unsynchronized map shared by goroutines** (score 8, blocking)\n\n" + rmcoc.Render(rmcoc.Finding{ID: "f-1", Path: "limiter/bucket.go", Line: 3, Side: "RIGHT",
			Title: "Unsynchronized map shared by goroutines", Score: 8, Blocking: true, Status: rmcoc.FindingOpen, HeadSHA: oldHead, CreatedAt: at})})
	f.AddReply(name, pr.Number, root, "alice", "Only refillLoop writes to it, and it holds mu; see bucket.go:40.")
	f.AddIssueComment(name, pr.Number, "mallory", "Pasting a resolution:\n\n"+rmcoc.Render(rmcoc.DisputeResolution{ReplyToCommentID: rmcoc.ID(root), Status: rmcoc.FindingResolved, Resolution: rmcoc.ResolutionConcession, ResolvedAt: at}))
	f.UpdatePR(name, pr.Number, func(p *fakegithub.PR) { p.HeadSHA = newHead })
	f.AddIssueComment(name, pr.Number, "alice", "@rmc-bot why is the bucket refilled from a goroutine?")
	return snapshot.Repo{Owner: "acme", Name: "gateway"}, pr.Number
}
