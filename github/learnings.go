package github

import (
	"context"
	"fmt"

	gogithub "github.com/google/go-github/v62/github"
	"github.com/shurcooL/githubv4"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// learningsObjects read the learnings issue: the oldest issue labelled
// snapshot.LearningsLabel, its comments paged with the snapshot.
type learningsObjects struct {
	Learnings struct {
		Nodes []struct {
			Number   int
			Title    string
			URL      string
			Closed   bool
			Author   *actorFields
			Comments struct {
				PageInfo pageInfo
				Nodes    []issueCommentNode
			} `graphql:"comments(first: $pageSize, after: $learningsAfter)"`
		}
	} `graphql:"learnings: issues(first: 1, labels: [\"rmc-learnings\"], states: [OPEN, CLOSED], orderBy: {field: CREATED_AT, direction: ASC}) @include(if: $withLearnings)"`
}

// readLearnings folds one page of the learnings issue into snap and says
// whether its comments go on.
func (o learningsObjects) read(snap *snapshot.Snapshot, vars map[string]any) bool {
	li := &snap.Learnings
	li.Read = true
	if len(o.Learnings.Nodes) == 0 {
		vars["withLearnings"] = githubv4.Boolean(false)
		return false
	}
	n := o.Learnings.Nodes[0]
	li.Number, li.Title, li.URL, li.Closed, li.Author = n.Number, n.Title, n.URL, n.Closed, actor(n.Author)
	for _, c := range n.Comments.Nodes {
		li.Comments = append(li.Comments, issueComment(c))
	}
	return advance(vars, "withLearnings", "learningsAfter", n.Comments.PageInfo)
}

// oldestLearningsQuery reads the oldest issue labelled
// snapshot.LearningsLabel, the one the snapshot reads (learningsObjects).
type oldestLearningsQuery struct {
	Repository struct {
		Learnings struct {
			Nodes []struct {
				Number int
				URL    string
				Author *actorFields
			}
		} `graphql:"learnings: issues(first: 1, labels: [\"rmc-learnings\"], states: [OPEN, CLOSED], orderBy: {field: CREATED_AT, direction: ASC})"`
	} `graphql:"repository(owner: $owner, name: $name)"`
}

// CreateLearningsIssue opens the learnings issue, labelled so the snapshot
// finds it, and returns the number and URL of the one to write in. Two
// runs that found none may create one each at once; each then looks for
// the oldest, which the snapshot reads, and a run whose issue is not it
// writes in the oldest instead (when the bot opened it too) and closes its
// own: the learnings never split across two issues.
func (c *Client) CreateLearningsIssue(ctx context.Context, repo snapshot.Repo, body string) (int, string, error) {
	is, _, err := c.rest.Issues.Create(ctx, repo.Owner, repo.Name, &gogithub.IssueRequest{Title: gogithub.String(snapshot.LearningsTitle), Body: &body,
		Labels: &[]string{snapshot.LearningsLabel}})
	if err != nil {
		return 0, "", wrap(scopeIssues, fmt.Sprintf("create the learnings issue in %s", repo), err)
	}
	n, url := is.GetNumber(), is.GetHTMLURL()
	var q oldestLearningsQuery
	vars := map[string]any{"owner": githubv4.String(repo.Owner), "name": githubv4.String(repo.Name)}
	if err := c.gql.Query(withOperation(ctx, gqlQuery), &q, vars); err != nil {
		return n, url, fmt.Errorf("look for an older learnings issue in %s than #%d, just created: %w", repo, n, gqlError(err))
	}
	nodes := q.Repository.Learnings.Nodes
	me := snapshot.NewActor(is.GetUser().GetLogin(), is.GetUser().GetType())
	if len(nodes) == 0 || nodes[0].Number == n || !actor(nodes[0].Author).Is(me) {
		return n, url, nil
	}
	// Closing the extra issue tidies up; it does not change which issue
	// is read (the oldest), so a failure to close it is not one to report.
	_, _, _ = c.rest.Issues.Edit(ctx, repo.Owner, repo.Name, n, &gogithub.IssueRequest{State: gogithub.String("closed"), StateReason: gogithub.String("not_planned")})
	return nodes[0].Number, nodes[0].URL, nil
}
