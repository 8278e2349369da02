package fakegithub

import (
	"slices"
	"strconv"
	"strings"
)

func pullRequestFields() map[string]resolver {
	pr := func(fn func(p *pullState) any) resolver { return get(fn) }
	withX := func(fn func(x *executor, p *pullState) any) resolver {
		return field(func(x *executor, p *pullState, _ map[string]any) (any, error) { return fn(x, p), nil })
	}
	conn := func(fn func(x *executor, p *pullState, args map[string]any) connSource, extra ...string) resolver {
		return field(func(x *executor, p *pullState, args map[string]any) (any, error) {
			return fn(x, p, args), nil
		}, append([]string{"first", "after", "last", "before"}, extra...)...)
	}
	return map[string]resolver{
		"id":                pr(func(p *pullState) any { return p.pr.NodeID }),
		"databaseId":        pr(func(p *pullState) any { return p.pr.ID }),
		"fullDatabaseId":    pr(func(p *pullState) any { return strconv.FormatInt(p.pr.ID, 10) }),
		"number":            pr(func(p *pullState) any { return p.pr.Number }),
		"title":             pr(func(p *pullState) any { return p.pr.Title }),
		"body":              pr(func(p *pullState) any { return p.pr.Body }),
		"bodyText":          pr(func(p *pullState) any { return p.pr.Body }),
		"isDraft":           pr(func(p *pullState) any { return p.pr.Draft }),
		"merged":            pr(func(p *pullState) any { return p.pr.Merged }),
		"closed":            pr(func(p *pullState) any { return p.pr.State == "closed" }),
		"createdAt":         pr(func(p *pullState) any { return p.pr.CreatedAt }),
		"updatedAt":         pr(func(p *pullState) any { return p.pr.UpdatedAt }),
		"headRefOid":        pr(func(p *pullState) any { return p.pr.HeadSHA }),
		"baseRefOid":        pr(func(p *pullState) any { return p.pr.BaseSHA }),
		"headRefName":       pr(func(p *pullState) any { return p.pr.HeadRef }),
		"baseRefName":       pr(func(p *pullState) any { return p.pr.BaseRef }),
		"isCrossRepository": pr(func(p *pullState) any { return p.pr.Fork }),
		"changedFiles":      pr(func(p *pullState) any { return len(p.files) }),
		"additions":         pr(func(p *pullState) any { return sumFiles(p.files, true) }),
		"deletions":         pr(func(p *pullState) any { return sumFiles(p.files, false) }),
		"repository":        pr(func(p *pullState) any { return p.repo }),
		"baseRepository":    pr(func(p *pullState) any { return p.repo }),
		"headRepository":    pr(headRepository),
		"state": pr(func(p *pullState) any {
			switch {
			case p.pr.Merged:
				return "MERGED"
			case p.pr.State == "closed":
				return "CLOSED"
			}
			return "OPEN"
		}),
		"url": withX(func(x *executor, p *pullState) any {
			return x.s.htmlURL("/" + p.repo.FullName() + "/pull/" + strconv.Itoa(p.pr.Number))
		}),
		"author":              withX(func(x *executor, p *pullState) any { return x.s.userFor(p.pr.Author) }),
		"headRepositoryOwner": withX(func(x *executor, p *pullState) any { owner, _, _ := cutRepo(p.pr.HeadRepo); return x.s.userFor(owner) }),
		"authorAssociation":   pr(func(p *pullState) any { return p.repo.association(p.pr.Author) }),
		"viewerDidAuthor":     withX(func(x *executor, p *pullState) any { return strings.EqualFold(p.pr.Author, x.viewer.login) }),
		"comments": conn(func(_ *executor, p *pullState, _ map[string]any) connSource {
			return toConn(p.comments)
		}),
		"reviewThreads": conn(func(_ *executor, p *pullState, _ map[string]any) connSource {
			return toConn(p.threads)
		}),
		// The issues it closes, as GitHub lists them: only those the
		// viewer can see (all, in the fake), plain issues only.
		"closingIssuesReferences": conn(func(_ *executor, p *pullState, _ map[string]any) connSource {
			return toConn(p.closes)
		}, "orderBy", "userLinkedOnly"),
		"reviews": conn(func(x *executor, p *pullState, args map[string]any) connSource {
			states, _ := args["states"].([]any)
			author := argString(args, "author")
			var out connSource
			for _, rs := range p.reviews {
				switch {
				case rs.r.State == "PENDING" && rs.r.Author != x.viewer.login: // only its author sees a pending review
				case len(states) > 0 && !slices.Contains(states, any(rs.r.State)):
				case author != "" && !strings.EqualFold(botBase(rs.r.Author), botBase(author)):
				default:
					out = append(out, rs)
				}
			}
			return out
		}, "states", "author"),
		"commits": conn(func(x *executor, p *pullState, _ map[string]any) connSource {
			out := make(connSource, len(p.commits))
			for i, oid := range p.commits {
				out[i] = prCommitObj{pull: p, commit: commitObj{oid: oid, url: x.s.htmlURL("/" + p.repo.FullName() + "/commit/" + oid), r: p.repo}}
			}
			return out
		}),
		"files": conn(func(_ *executor, p *pullState, _ map[string]any) connSource {
			out := make(connSource, len(p.files))
			for i, f := range p.files {
				out[i] = fileObj{f}
			}
			return out
		}),
		"reviewRequests": conn(func(x *executor, p *pullState, _ map[string]any) connSource {
			out := make(connSource, len(p.reviewers))
			for i, l := range p.reviewers {
				out[i] = requestObj{x.s.userFor(l)}
			}
			return out
		}),
	}
}

// headRepository is the PR's own repository, or for a fork a stand-in for
// the fork, which the fake does not otherwise track.
func headRepository(p *pullState) any {
	if !p.pr.Fork {
		return p.repo
	}
	owner, name, _ := cutRepo(p.pr.HeadRepo)
	return &repoState{fork: true, Repo: Repo{
		ID: p.pr.ID + 1, NodeID: "R_fork" + strconv.FormatInt(p.pr.ID, 10),
		Owner: owner, Name: name, DefaultBranch: "main",
	}}
}

func sumFiles(files []File, additions bool) int {
	n := 0
	for _, f := range files {
		if additions {
			n += f.Additions
		} else {
			n += f.Deletions
		}
	}
	return n
}

func toConn[T any](items []T) connSource {
	out := make(connSource, len(items))
	for i, v := range items {
		out[i] = v
	}
	return out
}

func issueCommentFields() map[string]resolver {
	return commentFields(
		func(ic *issueComment) *Comment { return &ic.c },
		func(ic *issueComment) *pullState { return ic.pull },
		func(ic *issueComment) string { return "#issuecomment-" + strconv.FormatInt(ic.c.ID, 10) },
	)
}

func threadFields() map[string]resolver {
	t := func(fn func(t *threadState) any) resolver { return get(fn) }
	root := func(t *threadState) *ReviewComment {
		if len(t.comments) == 0 {
			return &ReviewComment{}
		}
		return &t.comments[0].c
	}
	return map[string]resolver{
		"id":                 t(func(t *threadState) any { return t.t.ID }),
		"isResolved":         t(func(t *threadState) any { return t.t.Resolved }),
		"isOutdated":         t(func(t *threadState) any { return t.t.Outdated }),
		"isCollapsed":        t(func(t *threadState) any { return t.t.Resolved }),
		"path":               t(func(t *threadState) any { return t.t.Path }),
		"line":               t(func(t *threadState) any { return intPtr(t.t.Line) }),
		"startLine":          t(func(t *threadState) any { return intPtr(t.t.StartLine) }),
		"originalLine":       t(func(t *threadState) any { return intPtr(root(t).OriginalLine) }),
		"originalStartLine":  t(func(t *threadState) any { return intPtr(root(t).OriginalStartLine) }),
		"diffSide":           t(func(t *threadState) any { return t.t.Side }),
		"startDiffSide":      t(func(t *threadState) any { return strPtr(t.t.StartSide) }),
		"subjectType":        t(func(*threadState) any { return "LINE" }),
		"viewerCanResolve":   t(func(t *threadState) any { return !t.t.Resolved }),
		"viewerCanUnresolve": t(func(t *threadState) any { return t.t.Resolved }),
		"viewerCanReply":     t(func(*threadState) any { return true }),
		"pullRequest":        t(func(t *threadState) any { return t.pull }),
		"repository":         t(func(t *threadState) any { return t.pull.repo }),
		"resolvedBy": field(func(x *executor, t *threadState, _ map[string]any) (any, error) {
			if !t.t.Resolved || t.t.ResolvedBy == "" {
				return nil, nil
			}
			return x.s.userFor(t.t.ResolvedBy), nil
		}),
		"comments": field(func(_ *executor, t *threadState, _ map[string]any) (any, error) {
			return toConn(t.comments), nil
		}, "first", "after", "last", "before"),
	}
}

func reviewCommentFields() map[string]resolver {
	rc := func(fn func(rc *reviewComment) any) resolver { return get(fn) }
	withX := func(fn func(x *executor, rc *reviewComment) any) resolver {
		return field(func(x *executor, rc *reviewComment, _ map[string]any) (any, error) { return fn(x, rc), nil })
	}
	commit := func(x *executor, rc *reviewComment, oid string) any {
		return commitObj{oid: oid, url: x.s.htmlURL("/" + rc.thread.pull.repo.FullName() + "/commit/" + oid), r: rc.thread.pull.repo}
	}
	return with(commentFields(
		func(rc *reviewComment) *Comment { return &rc.c.Comment },
		func(rc *reviewComment) *pullState { return rc.thread.pull },
		func(rc *reviewComment) string { return "#discussion_r" + strconv.FormatInt(rc.c.ID, 10) },
	), map[string]resolver{
		"path":              rc(func(rc *reviewComment) any { return rc.c.Path }),
		"line":              rc(func(rc *reviewComment) any { return intPtr(rc.thread.t.Line) }),
		"startLine":         rc(func(rc *reviewComment) any { return intPtr(rc.thread.t.StartLine) }),
		"originalLine":      rc(func(rc *reviewComment) any { return intPtr(rc.c.OriginalLine) }),
		"originalStartLine": rc(func(rc *reviewComment) any { return intPtr(rc.c.OriginalStartLine) }),
		"diffHunk":          rc(func(rc *reviewComment) any { return rc.c.DiffHunk }),
		"outdated":          rc(func(rc *reviewComment) any { return rc.thread.t.Outdated }),
		"originalPosition":  rc(func(rc *reviewComment) any { return rc.c.Position }),
		"subjectType":       rc(func(*reviewComment) any { return "LINE" }),
		"position": rc(func(rc *reviewComment) any {
			if rc.thread.t.Outdated {
				return nil
			}
			return intPtr(rc.c.Position)
		}),
		"commit":         withX(func(x *executor, rc *reviewComment) any { return commit(x, rc, rc.c.CommitID) }),
		"originalCommit": withX(func(x *executor, rc *reviewComment) any { return commit(x, rc, rc.c.OriginalCommitID) }),
		"replyTo": withX(func(x *executor, rc *reviewComment) any {
			if rc.c.InReplyTo == 0 {
				return nil
			}
			return x.s.reviewComments[rc.c.InReplyTo] // nil once the parent is deleted
		}),
		"pullRequestReview": withX(func(x *executor, rc *reviewComment) any { return x.s.reviews[rc.c.ReviewID] }),
		"state": withX(func(x *executor, rc *reviewComment) any {
			if rs := x.s.reviews[rc.c.ReviewID]; rs != nil && rs.r.State == "PENDING" {
				return "PENDING"
			}
			return "SUBMITTED"
		}),
	})
}

func reviewFields() map[string]resolver {
	r := func(fn func(rs *reviewState) any) resolver { return get(fn) }
	withX := func(fn func(x *executor, rs *reviewState) any) resolver {
		return field(func(x *executor, rs *reviewState, _ map[string]any) (any, error) { return fn(x, rs), nil })
	}
	return map[string]resolver{
		"id":             r(func(rs *reviewState) any { return rs.r.NodeID }),
		"databaseId":     r(func(rs *reviewState) any { return rs.r.ID }),
		"fullDatabaseId": r(func(rs *reviewState) any { return strconv.FormatInt(rs.r.ID, 10) }),
		"state":          r(func(rs *reviewState) any { return rs.r.State }),
		"body":           r(func(rs *reviewState) any { return rs.r.Body }),
		"bodyText":       r(func(rs *reviewState) any { return rs.r.Body }),
		"submittedAt":    r(func(rs *reviewState) any { return timeOrNil(rs.r.SubmittedAt) }),
		"createdAt":      withX(func(x *executor, rs *reviewState) any { return firstTime(rs.r.SubmittedAt, x.s.now) }),
		"updatedAt":      withX(func(x *executor, rs *reviewState) any { return firstTime(rs.r.SubmittedAt, x.s.now) }),
		"lastEditedAt":   r(func(rs *reviewState) any { return timeOrNil(rs.r.LastEditedAt) }),
		"editor": withX(func(x *executor, rs *reviewState) any {
			if rs.r.Editor == "" {
				return nil
			}
			return x.s.userFor(rs.r.Editor)
		}),
		"pullRequest":       r(func(rs *reviewState) any { return rs.pull }),
		"repository":        r(func(rs *reviewState) any { return rs.pull.repo }),
		"authorAssociation": r(func(rs *reviewState) any { return rs.pull.repo.association(rs.r.Author) }),
		"author":            withX(func(x *executor, rs *reviewState) any { return x.s.userFor(rs.r.Author) }),
		"viewerDidAuthor":   withX(func(x *executor, rs *reviewState) any { return strings.EqualFold(rs.r.Author, x.viewer.login) }),
		"url": withX(func(x *executor, rs *reviewState) any {
			return x.s.htmlURL("/" + rs.pull.repo.FullName() + "/pull/" + strconv.Itoa(rs.pull.pr.Number) +
				"#pullrequestreview-" + strconv.FormatInt(rs.r.ID, 10))
		}),
		"commit": withX(func(x *executor, rs *reviewState) any {
			return commitObj{oid: rs.r.CommitID, url: x.s.htmlURL("/" + rs.pull.repo.FullName() + "/commit/" + rs.r.CommitID), r: rs.pull.repo}
		}),
		"comments": field(func(_ *executor, rs *reviewState, _ map[string]any) (any, error) {
			var out connSource
			for _, rc := range rs.pull.allReviewComments() {
				if rc.c.ReviewID == rs.r.ID {
					out = append(out, rc)
				}
			}
			return out, nil
		}, "first", "after", "last", "before"),
	}
}
