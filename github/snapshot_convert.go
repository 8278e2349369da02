package github

import "github.com/review-my-code-bot/rmc/snapshot"

// The conversion of the GraphQL nodes into the domain's snapshot types.

func actor(a *actorFields) snapshot.Actor {
	if a == nil {
		return snapshot.Actor{Login: "ghost"} // a deleted account
	}
	return snapshot.NewActor(a.Login, a.Typename)
}

func issueComment(n issueCommentNode) snapshot.Comment {
	c := snapshot.Comment{ID: int64(n.FullDatabaseID), NodeID: n.ID, Author: actor(n.Author), Body: n.Body, URL: n.URL,
		CreatedAt: n.CreatedAt.Time, UpdatedAt: n.UpdatedAt.Time, Association: n.AuthorAssociation}
	if n.Editor != nil {
		e := actor(n.Editor)
		c.Editor = &e
	}
	if n.LastEditedAt != nil {
		c.EditedAt = n.LastEditedAt.Time
	}
	return c
}

func reviewComment(n reviewCommentNode) snapshot.ReviewComment {
	rc := snapshot.ReviewComment{Comment: issueComment(issueCommentNode{n.commentFields}), Path: n.Path}
	if n.ReplyTo != nil {
		rc.ReplyToID = int64(n.ReplyTo.FullDatabaseID)
	}
	if n.PullRequestReview != nil {
		rc.ReviewID = int64(n.PullRequestReview.FullDatabaseID)
	}
	if n.Line != nil {
		rc.Line = *n.Line
	}
	if n.Commit != nil {
		rc.CommitSHA = n.Commit.Oid
	}
	return rc
}

func thread(n threadNode) snapshot.Thread {
	t := snapshot.Thread{ID: n.ID, IsResolved: n.IsResolved, IsOutdated: n.IsOutdated, Path: n.Path, DiffSide: n.DiffSide}
	if n.Line != nil {
		t.Line = *n.Line
	}
	if n.StartLine != nil {
		t.StartLine = *n.StartLine
	}
	if n.ResolvedBy != nil {
		a := actor(n.ResolvedBy)
		t.ResolvedBy = &a
	}
	hunk := ""
	if len(n.Hunk.Nodes) > 0 {
		hunk = n.Hunk.Nodes[0].DiffHunk
	}
	for _, cm := range n.Comments.Nodes {
		t.Comments = append(t.Comments, withHunk(reviewComment(cm), hunk))
	}
	return t
}

// withHunk gives a comment its thread's diff hunk: GitHub anchors a reply
// where the thread's first comment is.
func withHunk(rc snapshot.ReviewComment, hunk string) snapshot.ReviewComment {
	rc.DiffHunk = hunk
	return rc
}

func review(n reviewNode) snapshot.Review {
	r := snapshot.Review{ID: int64(n.FullDatabaseID), NodeID: n.ID, Author: actor(n.Author), State: snapshot.ReviewState(n.State), Body: n.Body, Association: n.AuthorAssociation}
	if n.SubmittedAt != nil {
		r.SubmittedAt = n.SubmittedAt.Time
	}
	if n.Editor != nil {
		e := actor(n.Editor)
		r.Editor = &e
	}
	if n.Commit != nil {
		r.CommitSHA = n.Commit.Oid
	}
	return r
}
