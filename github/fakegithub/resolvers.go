package fakegithub

import (
	"maps"
	"strconv"
	"strings"
	"time"
)

// Small values that stand for GraphQL objects without state of their own.
type (
	commitObj struct {
		oid, url string
		r        *repoState // whose statuses Commit.status reads
	}
	refObj struct{ name string }
	// prCommitObj is one entry of PullRequest.commits.
	prCommitObj struct {
		pull   *pullState
		commit commitObj
	}
	rateObj    struct{ b bucket }
	fileObj    struct{ f File }
	requestObj struct{ u *user }
	// payload is a mutation's result: its clientMutationId and one object.
	payload struct {
		clientMutationID any
		obj              any
	}
)

// resolvers maps type name -> field name -> resolver. A field missing here
// is reported as unsupported rather than answered with null.
var resolvers = map[string]map[string]resolver{
	"Query":      queryFields(),
	"Mutation":   mutationFields(),
	"User":       userFields(false),
	"Bot":        userFields(true),
	"RateLimit":  rateLimitFields(),
	"Repository": repositoryFields(),
	"Commit": {
		"oid":            get(func(c commitObj) any { return c.oid }),
		"abbreviatedOid": get(func(c commitObj) any { return c.oid[:min(7, len(c.oid))] }),
		"url":            get(func(c commitObj) any { return c.url }),
	},
	"PullRequestCommit": {
		"commit": get(func(c prCommitObj) any { return c.commit }),
		"id":     get(func(c prCommitObj) any { return "PURC_" + c.pull.pr.NodeID + "_" + c.commit.oid }),
		"url": field(func(x *executor, c prCommitObj, _ map[string]any) (any, error) {
			return x.s.htmlURL("/" + c.pull.repo.FullName() + "/pull/" + strconv.Itoa(c.pull.pr.Number) + "/commits/" + c.commit.oid), nil
		}),
		"pullRequest": get(func(c prCommitObj) any { return c.pull }),
	},
	"Ref": {
		"name":   get(func(r refObj) any { return r.name }),
		"prefix": get(func(refObj) any { return "refs/heads/" }),
	},
	"PullRequestChangedFile":       changedFileFields(),
	"ReviewRequest":                {"requestedReviewer": get(func(r requestObj) any { return r.u })},
	"PullRequest":                  pullRequestFields(),
	"IssueComment":                 issueCommentFields(),
	"PullRequestReviewThread":      threadFields(),
	"PullRequestReviewComment":     reviewCommentFields(),
	"PullRequestReview":            reviewFields(),
	"ResolveReviewThreadPayload":   payloadFields("thread"),
	"UnresolveReviewThreadPayload": payloadFields("thread"),
	"MinimizeCommentPayload":       payloadFields("minimizedComment"),
	"UnminimizeCommentPayload":     payloadFields("unminimizedComment"),
}

func queryFields() map[string]resolver {
	return map[string]resolver{
		"viewer": field(func(x *executor, _ queryRoot, _ map[string]any) (any, error) { return x.viewer, nil }),
		"rateLimit": field(func(x *executor, _ queryRoot, _ map[string]any) (any, error) {
			return rateObj{*x.s.limits["graphql"]}, nil
		}, "dryRun"),
		"node": field(func(x *executor, _ queryRoot, args map[string]any) (any, error) {
			return x.node(argString(args, "id"))
		}, "id"),
		"nodes": field(func(x *executor, _ queryRoot, args map[string]any) (any, error) {
			ids, _ := args["ids"].([]any)
			out := make([]any, len(ids))
			for i, id := range ids {
				s, _ := id.(string)
				out[i], _ = x.node(s) // unknown ids are nulls in the list
			}
			return out, nil
		}, "ids"),
		"repository": field(func(x *executor, _ queryRoot, args map[string]any) (any, error) {
			owner, name := argString(args, "owner"), argString(args, "name")
			if r := x.s.repoByParts(owner, name); r != nil {
				return r, nil
			}
			return nil, fail("NOT_FOUND", "Could not resolve to a Repository with the name '%s/%s'.", owner, name)
		}, "owner", "name", "followRenames"),
		"user": field(func(x *executor, _ queryRoot, args map[string]any) (any, error) {
			if u := x.s.lookupUser(argString(args, "login")); u != nil && !u.bot {
				return u, nil
			}
			return nil, fail("NOT_FOUND", "Could not resolve to a User with the login of '%s'.", argString(args, "login"))
		}, "login"),
	}
}

func (x *executor) node(id string) (any, error) {
	if v, ok := x.s.nodes[id]; ok {
		return v, nil
	}
	return nil, fail("NOT_FOUND", "Could not resolve to a node with the global id of '%s'", id)
}

// userFields serves User and Bot. The only difference is login: User.login
// is the account's real login, which for a bot (seen through viewer) keeps
// "[bot]"; Bot.login drops it.
func userFields(asBot bool) map[string]resolver {
	return map[string]resolver{
		"login": get(func(u *user) any {
			if asBot {
				return u.actorLogin()
			}
			return u.login
		}),
		"id":         get(func(u *user) any { return u.nodeID() }),
		"databaseId": get(func(u *user) any { return u.id }),
		"url":        field(func(x *executor, u *user, _ map[string]any) (any, error) { return x.s.htmlURL("/" + u.login), nil }),
		"avatarUrl": field(func(x *executor, u *user, _ map[string]any) (any, error) {
			return x.s.htmlURL("/avatars/" + u.login), nil
		}, "size"),
	}
}

func rateLimitFields() map[string]resolver {
	return map[string]resolver{
		"limit":     get(func(r rateObj) any { return r.b.limit }),
		"cost":      get(func(rateObj) any { return 1 }),
		"remaining": get(func(r rateObj) any { return r.b.remaining }),
		"used":      get(func(r rateObj) any { return r.b.used }),
		"resetAt":   get(func(r rateObj) any { return r.b.reset }),
		"nodeCount": get(func(rateObj) any { return 1 }),
	}
}

func repositoryFields() map[string]resolver {
	return map[string]resolver{
		"id":            get(func(r *repoState) any { return r.NodeID }),
		"databaseId":    get(func(r *repoState) any { return r.ID }),
		"name":          get(func(r *repoState) any { return r.Name }),
		"nameWithOwner": get(func(r *repoState) any { return r.FullName() }),
		"isPrivate":     get(func(r *repoState) any { return r.Private }),
		"isFork":        get(func(r *repoState) any { return r.fork }),
		"visibility": get(func(r *repoState) any {
			if r.Private {
				return "PRIVATE"
			}
			return "PUBLIC"
		}),
		"defaultBranchRef": get(func(r *repoState) any { return refObj{r.DefaultBranch} }),
		"owner":            field(func(x *executor, r *repoState, _ map[string]any) (any, error) { return x.s.userFor(r.Owner), nil }),
		"url": field(func(x *executor, r *repoState, _ map[string]any) (any, error) {
			return x.s.htmlURL("/" + r.FullName()), nil
		}),
		"pullRequest": field(func(_ *executor, r *repoState, args map[string]any) (any, error) {
			n, _ := argInt(args, "number")
			if p := r.pulls[n]; p != nil && !p.issue {
				return p, nil
			}
			return nil, fail("NOT_FOUND", "Could not resolve to a PullRequest with the number of %d.", n)
		}, "number"),
	}
}

func changedFileFields() map[string]resolver {
	return map[string]resolver{
		"path":      get(func(f fileObj) any { return f.f.Path }),
		"additions": get(func(f fileObj) any { return f.f.Additions }),
		"deletions": get(func(f fileObj) any { return f.f.Deletions }),
		"changeType": get(func(f fileObj) any {
			switch f.f.Status {
			case "added":
				return "ADDED"
			case "removed":
				return "DELETED"
			case "renamed":
				return "RENAMED"
			case "copied":
				return "COPIED"
			}
			return "MODIFIED"
		}),
	}
}

func payloadFields(objField string) map[string]resolver {
	return map[string]resolver{
		"clientMutationId": get(func(p *payload) any { return p.clientMutationID }),
		objField:           get(func(p *payload) any { return p.obj }),
	}
}

func mutationFields() map[string]resolver {
	resolve := func(to bool) resolver {
		return field(func(x *executor, _ mutationRoot, args map[string]any) (any, error) {
			in, _ := args["input"].(map[string]any)
			id, _ := in["threadId"].(string)
			t := x.s.threadByNode(id)
			if t == nil {
				return nil, fail("NOT_FOUND", "Could not resolve to PullRequestReviewThread node with the global id of '%s'.", id)
			}
			if t.t.Resolved != to {
				x.s.tick()
				t.t.Resolved, t.t.ResolvedBy = to, ""
				verb := "unresolve"
				if to {
					t.t.ResolvedBy, verb = x.viewer.login, "resolve"
				}
				x.s.logWrite("%s:thread:%s:%s", t.pull.key(), verb, t.t.ID)
			}
			return &payload{clientMutationID: in["clientMutationId"], obj: t}, nil
		}, "input")
	}
	minimize := func(to bool) resolver {
		return field(func(x *executor, _ mutationRoot, args map[string]any) (any, error) {
			in, _ := args["input"].(map[string]any)
			id, _ := in["subjectId"].(string)
			var c *Comment
			var key string
			obj := x.s.nodes[id]
			switch v := obj.(type) {
			case *issueComment:
				c, key = &v.c, v.pull.key()
			case *reviewComment:
				c, key = &v.c.Comment, v.thread.pull.key()
			default:
				return nil, fail("NOT_FOUND", "Could not resolve to a node with the global id of '%s'", id)
			}
			if c.Minimized != to {
				x.s.tick()
				c.Minimized, c.MinimizedReason = to, ""
				verb := "unminimize"
				if to {
					classifier, _ := in["classifier"].(string)
					c.MinimizedReason, verb = strings.ToLower(strings.ReplaceAll(classifier, "_", "-")), "minimize"
				}
				x.s.logWrite("%s:comment:%s:%d", key, verb, c.ID)
			}
			return &payload{clientMutationID: in["clientMutationId"], obj: obj}, nil
		}, "input")
	}
	return map[string]resolver{
		"resolveReviewThread":   resolve(true),
		"unresolveReviewThread": resolve(false),
		"minimizeComment":       minimize(true),
		"unminimizeComment":     minimize(false),
	}
}

// commentFields are the fields issue and review comments share. get
// reaches the Comment inside T.
func commentFields[T any](get func(T) *Comment, pull func(T) *pullState, anchor func(T) string) map[string]resolver {
	self := func(fn func(x *executor, c *Comment, p *pullState, v T) any) resolver {
		return field(func(x *executor, v T, _ map[string]any) (any, error) { return fn(x, get(v), pull(v), v), nil })
	}
	return map[string]resolver{
		"id":              self(func(_ *executor, c *Comment, _ *pullState, _ T) any { return c.NodeID }),
		"databaseId":      self(func(_ *executor, c *Comment, _ *pullState, _ T) any { return c.ID }),
		"fullDatabaseId":  self(func(_ *executor, c *Comment, _ *pullState, _ T) any { return strconv.FormatInt(c.ID, 10) }),
		"body":            self(func(_ *executor, c *Comment, _ *pullState, _ T) any { return c.Body }),
		"bodyText":        self(func(_ *executor, c *Comment, _ *pullState, _ T) any { return c.Body }),
		"createdAt":       self(func(_ *executor, c *Comment, _ *pullState, _ T) any { return c.CreatedAt }),
		"publishedAt":     self(func(_ *executor, c *Comment, _ *pullState, _ T) any { return c.CreatedAt }),
		"updatedAt":       self(func(_ *executor, c *Comment, _ *pullState, _ T) any { return c.UpdatedAt }),
		"lastEditedAt":    self(func(_ *executor, c *Comment, _ *pullState, _ T) any { return timeOrNil(c.LastEditedAt) }),
		"isMinimized":     self(func(_ *executor, c *Comment, _ *pullState, _ T) any { return c.Minimized }),
		"minimizedReason": self(func(_ *executor, c *Comment, _ *pullState, _ T) any { return strPtr(c.MinimizedReason) }),
		"author":          self(func(x *executor, c *Comment, _ *pullState, _ T) any { return x.s.userFor(c.Author) }),
		"editor": self(func(x *executor, c *Comment, _ *pullState, _ T) any {
			if c.Editor == "" {
				return nil
			}
			return x.s.userFor(c.Editor)
		}),
		"viewerDidAuthor": self(func(x *executor, c *Comment, _ *pullState, _ T) any {
			return strings.EqualFold(c.Author, x.viewer.login)
		}),
		"authorAssociation": self(func(_ *executor, c *Comment, p *pullState, _ T) any { return p.repo.association(c.Author) }),
		"url": self(func(x *executor, _ *Comment, p *pullState, v T) any {
			return x.s.htmlURL("/" + p.repo.FullName() + "/pull/" + strconv.Itoa(p.pr.Number) + anchor(v))
		}),
		"pullRequest": self(func(_ *executor, _ *Comment, p *pullState, _ T) any { return p }),
		"repository":  self(func(_ *executor, _ *Comment, p *pullState, _ T) any { return p.repo }),
	}
}

func timeOrNil(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t
}

// firstTime is t, or fallback when t is unset (a pending review has no
// submission time yet).
func firstTime(t, fallback time.Time) time.Time {
	if t.IsZero() {
		return fallback
	}
	return t
}

// with adds extra fields to a base table.
func with(base map[string]resolver, extra map[string]resolver) map[string]resolver {
	out := maps.Clone(base)
	maps.Copy(out, extra)
	return out
}
