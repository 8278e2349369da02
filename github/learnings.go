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

// CreateLearningsIssue opens the learnings issue, labelled so the snapshot
// finds it. It returns the issue's number and URL.
func (c *Client) CreateLearningsIssue(ctx context.Context, repo snapshot.Repo, body string) (int, string, error) {
	is, _, err := c.rest.Issues.Create(ctx, repo.Owner, repo.Name, &gogithub.IssueRequest{Title: gogithub.String(snapshot.LearningsTitle), Body: &body,
		Labels: &[]string{snapshot.LearningsLabel}})
	if err != nil {
		return 0, "", wrap(scopeIssues, fmt.Sprintf("create the learnings issue in %s", repo), err)
	}
	return is.GetNumber(), is.GetHTMLURL(), nil
}
