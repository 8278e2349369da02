package app

import (
	"context"

	"github.com/review-my-code-bot/rmc/event"
	"github.com/review-my-code-bot/rmc/execution"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
	"github.com/review-my-code-bot/rmc/workspace"
)

// GitHub is what a run asks of GitHub: the union of the narrow interfaces
// the pipeline's pieces declare where they use them, and of what the tasks
// write. cmd/action passes the real client (package github); tests pass an
// in-memory fake.
type GitHub interface {
	prReader
	headPulls                 // app.go: the PRs that share a head's status
	state.PermissionReader    // whose resolution of a finding, or maintainers' command, counts
	gatePublisher             // gate.go: the merge gate
	contentsReader            // gate.go: the rules files, when the snapshot did not read them
	sourceOpener              // session.go: the PR's head through the API
	changeReader              // reads.go: what the PR changes
	treeReader                // changeset.go: the head's change set, for the gate
	execution.GitHub          // what the tasks post
	execution.LearningsGitHub // the learnings issue
}

// prReader reads the pull request: once at the start of a run with the
// config file, and again, in part, when the run's writes may have changed
// its findings.
type prReader interface {
	SnapshotWithConfig(ctx context.Context, repo snapshot.Repo, number int, base, head string) (snapshot.Snapshot, error)
	SnapshotSince(ctx context.Context, start snapshot.Snapshot) (snapshot.Snapshot, error)
	// Counts are the requests sent so far, for the job summary.
	Counts() snapshot.Counts
}

// headPulls lists the open pull requests whose head is a commit.
type headPulls interface {
	OpenPullsWithHead(ctx context.Context, repo snapshot.Repo, sha string) ([]int, error)
}

// changeReader reads what a pull request changes.
type changeReader interface {
	Files(ctx context.Context, repo snapshot.Repo, number int) ([]snapshot.ChangedFile, error)
	Compare(ctx context.Context, repo snapshot.Repo, base, head string) (snapshot.Comparison, error)
	Diff(ctx context.Context, repo snapshot.Repo, number int) (string, error)
}

// sourceOpener reads a repository at one commit through the API: the model
// reads the PR's head that way when the workspace does not hold it.
type sourceOpener interface {
	Source(repo snapshot.Repo, sha string) workspace.Source
}

// Connector is how the action reaches GitHub. Only cmd/action builds the
// real one, from package github; the demo and the tests build theirs.
type Connector struct {
	// ParseEvent decodes the webhook payload at GITHUB_EVENT_PATH for the
	// event GITHUB_EVENT_NAME names. An event the action does not handle
	// is an error wrapping event.ErrUnsupported.
	ParseEvent func(name string, payload []byte) (event.Event, error)
	// Connect builds the client a run uses.
	Connect func(Connection) (GitHub, error)
}

// Connection is what a client is built from.
type Connection struct {
	// Token is the github_token input, else GITHUB_TOKEN.
	Token string
	// Getenv reads the runner's variables (GITHUB_API_URL,
	// GITHUB_GRAPHQL_URL, RMC_WRITE_INTERVAL).
	Getenv func(string) string
	// Warn logs one line per retry or rate-limit wait.
	Warn func(msg string)
}
