// Package inboxmcp offers the agent inbox's operations as an MCP server:
// the tools review_request and review_inbox, over any transport of the
// official Go SDK (stdio for "reviews-for-agent mcp").
package inboxmcp

import (
	"context"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/review-my-code-bot/rmc/inbox"
)

// MCP tool names.
const (
	ToolRequest = "review_request"
	ToolInbox   = "review_inbox"
)

// RequestInput are the arguments of review_request.
type RequestInput struct {
	Files   []string `json:"files,omitempty" jsonschema:"paths to review, relative to the repository root; every uncommitted change when omitted"`
	Message string   `json:"message,omitempty" jsonschema:"a note for the reviewer: what to look at, what you are unsure of"`
	PR      string   `json:"pr,omitempty" jsonschema:"owner/repo#N: ask the review bot on this GitHub pull request instead of a person"`
	Dir     string   `json:"dir,omitempty" jsonschema:"a directory inside the git repository; the server's working directory when omitted"`
	Source  string   `json:"source,omitempty" jsonschema:"which changes to review: uncommitted (the default: staged, unstaged and new files against HEAD), commit (one commit against its parent), range (rev FROM..TO, or FROM...TO against their merge base), base (the work tree, new files too, against its merge base with the branch rev), staged, or unstaged (new files too)"`
	Rev     string   `json:"rev,omitempty" jsonschema:"commit: the commit (a hash, a branch, HEAD~2); range: FROM..TO or FROM...TO; base: the branch; not given for the other sources"`
}

// requestSources are the sources review_request offers, in its schema's
// order: every inbox.DiffSource but stdin, which an MCP client has no way
// to give.
var requestSources = []inbox.DiffSource{inbox.DiffUncommitted, inbox.DiffCommit, inbox.DiffRange, inbox.DiffBase, inbox.DiffStaged, inbox.DiffUnstaged}

// requestSchema is RequestInput's schema, with the sources listed.
func requestSchema() *jsonschema.Schema {
	s, err := jsonschema.For[RequestInput](nil)
	if err != nil {
		panic("review_request's schema: " + err.Error()) // a struct of strings always has one
	}
	for _, k := range requestSources {
		s.Properties["source"].Enum = append(s.Properties["source"].Enum, string(k))
	}
	return s
}

// diffOf is the source and revision in names, checked: a revision is given
// for commit, range and base, and for no other source.
func diffOf(in RequestInput) (inbox.DiffSource, string, error) {
	kind := inbox.DiffSource(strings.TrimSpace(in.Source))
	rev := strings.TrimSpace(in.Rev)
	bad := func(reason string) (inbox.DiffSource, string, error) {
		return "", "", &inbox.Error{Op: ToolRequest, Kind: inbox.ErrInvalidInput, Reason: reason}
	}
	switch kind {
	case "", inbox.DiffUncommitted, inbox.DiffStaged, inbox.DiffUnstaged:
		if rev != "" {
			return bad("rev names a commit, a range or a branch: source " + quote(string(kind)) + " takes none")
		}
	case inbox.DiffCommit, inbox.DiffRange, inbox.DiffBase:
		if rev == "" {
			return bad("source " + quote(string(kind)) + " needs rev")
		}
	case inbox.DiffStdin:
		return bad("source \"stdin\" is for the command line: give one of uncommitted, commit, range, base, staged, unstaged")
	default:
		return bad("source " + quote(string(kind)) + " is not one of uncommitted, commit, range, base, staged, unstaged")
	}
	if kind != "" && strings.TrimSpace(in.PR) != "" {
		return bad("source is for local changes: a pull request (pr) is reviewed as GitHub has it")
	}
	return kind, rev, nil
}

// InboxInput are the arguments of review_inbox.
type InboxInput struct {
	Action string `json:"action" jsonschema:"list, get, claim or resolve"`
	ID     string `json:"id,omitempty" jsonschema:"the review's id (get, claim, resolve), as list shows it"`
	Status string `json:"status,omitempty" jsonschema:"list: open, submitted (the default), claimed, resolved, cancelled or all"`
	By     string `json:"by,omitempty" jsonschema:"claim and resolve: who claims or resolves it, such as your agent's name; list: only items claimed by this name"`
	Note   string `json:"note,omitempty" jsonschema:"resolve: what was done about the comments"`
	Force  bool   `json:"force,omitempty" jsonschema:"claim: take over a claim another agent holds; resolve: resolve a review another agent claimed"`
	PR     string `json:"pr,omitempty" jsonschema:"list: also list the review bot's findings on this pull request (owner/repo#N)"`
}

const mcpInstructions = `Code review without waiting. review_request asks for a review and returns at once with an id:
a person reviews local changes in their browser, or the review bot reviews a GitHub pull request.
Keep working; later call review_inbox with action list to see submitted reviews, get to read one
(Markdown with the diff lines each comment is about), claim before you work on it, and resolve with
a note when you are done.`

// NewServer offers the inbox's operations as MCP tools: review_request
// and review_inbox. Results are text; get answers Markdown. Refusals come
// back as tool errors whose text starts with the operation and the kind of
// refusal ("claim k3x9p2ma: conflict: ...").
func NewServer(svc *inbox.Service, version string) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "reviews-for-agent", Version: version},
		&mcp.ServerOptions{Instructions: mcpInstructions})
	mcp.AddTool(srv, &mcp.Tool{
		Name: ToolRequest,
		Description: "Ask for a code review and return at once, without waiting for it. Locally, a person reviews " +
			"the uncommitted changes (or the given files) in their browser at the returned URL; source and rev choose " +
			"other changes you made: a commit, a range, the work tree against a branch's merge base, the staged or the " +
			"unstaged changes. With pr, the review bot reviews a GitHub pull request. Check the result later with review_inbox.",
		InputSchema: requestSchema(),
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in RequestInput) (*mcp.CallToolResult, any, error) {
		kind, rev, err := diffOf(in)
		if err != nil {
			return nil, nil, err
		}
		res, err := svc.Request(ctx, inbox.RequestOptions{PR: in.PR,
			LocalRequest: inbox.LocalRequest{Dir: in.Dir, Files: in.Files, Message: in.Message, Diff: kind, Rev: rev}})
		if err != nil {
			return nil, nil, err
		}
		var b strings.Builder
		inbox.WriteRequest(&b, res)
		return text(b.String()), nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{
		Name: ToolInbox,
		Description: "The review inbox. action list shows reviews (default: submitted ones, newest first); get returns " +
			"one review's comments as Markdown; claim marks it as yours (by) so no other agent takes it; resolve closes " +
			"it with a note (on GitHub: replies on the finding's thread and resolves it); only the agent that claimed a review " +
			"resolves it (give the same by), unless force; claims lapse after a lease (30 minutes by default) unless renewed by claiming again. " +
			"The review bot's findings on a pull request: list with pr (owner/repo#N), then get and claim them by their gh: ids; " +
			"leave a blocking one to the bot, which resolves it once it has verified the fix on a push.",
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in InboxInput) (*mcp.CallToolResult, any, error) {
		out, err := inboxAction(ctx, svc, in)
		if err != nil {
			return nil, nil, err
		}
		return text(out), nil, nil
	})
	return srv
}

func inboxAction(ctx context.Context, svc *inbox.Service, in InboxInput) (string, error) {
	var b strings.Builder
	switch strings.TrimSpace(in.Action) {
	case "list":
		o := inbox.ListOptions{Status: in.Status, ClaimedBy: in.By}
		if o.Status == "" && o.ClaimedBy != "" {
			o.Status = string(inbox.StatusClaimed)
		}
		if in.PR != "" {
			o.PRs = []string{in.PR}
		}
		res, err := svc.List(ctx, o)
		if err != nil {
			return "", err
		}
		inbox.WriteList(&b, res, o.Status)
	case "get":
		d, err := svc.Get(ctx, in.ID)
		if err != nil {
			return "", err
		}
		inbox.WriteDetail(&b, d)
	case "claim":
		it, err := svc.Claim(ctx, in.ID, in.By, in.Force)
		if err != nil {
			return "", err
		}
		inbox.WriteItem(&b, "Claimed", it)
	case "resolve":
		it, err := svc.Resolve(ctx, in.ID, inbox.ResolveOptions{By: in.By, Note: in.Note, Force: in.Force})
		if err != nil {
			return "", err
		}
		inbox.WriteItem(&b, "Resolved", it)
	default:
		return "", &inbox.Error{Op: ToolInbox, Kind: inbox.ErrInvalidInput, Reason: "action " + quote(in.Action) + " is not one of list, get, claim, resolve"}
	}
	return b.String(), nil
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func quote(s string) string { return "\"" + s + "\"" }
