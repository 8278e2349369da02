package inbox

import (
	"context"
	"errors"
	"fmt"
	"github.com/review-my-code-bot/rmc/agentmd"
	"io"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/review-my-code-bot/rmc/diff"
)

// LocalRequester starts local reviews: it captures the uncommitted diff,
// records an open review in the store and makes sure a page serves it,
// without waiting for the person. Package reviewsforagent implements it.
type LocalRequester interface {
	RequestLocal(ctx context.Context, r LocalRequest) (RequestResult, error)
}

// PageServer makes sure a page server shows an open local review, starting
// one when the server it was requested on is gone, and returns the page's
// URL. A LocalRequester may implement it; Get then uses it for open
// reviews, so the URL an agent passes on works.
type PageServer interface {
	EnsurePage(ctx context.Context, r Record) (string, error)
}

// LocalRequest asks for a review of the uncommitted changes under Dir: of
// Files only, when given (paths relative to the repository root).
type LocalRequest struct {
	Dir     string
	Files   []string
	Message string
	// Diff and Rev choose other changes than the uncommitted ones: a
	// commit, a range, the work tree against a merge base (see
	// DiffSource); Stdin is where a DiffStdin diff is read from.
	Diff  DiffSource
	Rev   string
	Stdin io.Reader
}

// RequestResult is what a request answers at once.
type RequestResult struct {
	ID       string   `json:"id"`
	Source   string   `json:"source"`
	Status   Status   `json:"status"`
	URL      string   `json:"url"`
	Files    []string `json:"files,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	Hint     string   `json:"hint"`
}

// RequestOptions are a request of either source: PR set asks the review
// bot on GitHub, else the person reviews the local changes.
type RequestOptions struct {
	LocalRequest
	PR string // owner/repo#N
}

// DefaultHandle is how a GitHub review request addresses the bot.
const DefaultHandle = "@rmc-bot"

// Service runs the inbox's operations over the store and, when configured,
// GitHub. The command line and the MCP server both call it.
type Service struct {
	Store *Store
	// GitHub connects to GitHub when an operation needs it; nil when no
	// token is configured. It is called at most once per operation.
	GitHub func() (GitHub, error)
	// BotLogin is the review bot's login. When "", a token of a bot or an
	// app is taken for the bot, as the action does, but a token of a
	// person is not: the bot is then github-actions[bot], and Warn says so.
	BotLogin string
	// Warn, when set, is told what an operation could not do as asked
	// and what it did instead; each message once.
	Warn   func(msg string)
	warned sync.Map
	Handle string // DefaultHandle when ""
	Local  LocalRequester
}

// ListOptions filter a listing.
type ListOptions struct {
	Status    string   // one of ListStatuses; "" means submitted
	ClaimedBy string   // only items claimed by this agent
	PRs       []string // also list the findings of these pull requests
}

// ListResult is a listing and what it could not include.
type ListResult struct {
	Items    []Item   `json:"items"`
	Warnings []string `json:"warnings,omitempty"`
}

// List returns the items that pass the filter, newest submission first.
func (s *Service) List(ctx context.Context, o ListOptions) (ListResult, error) {
	if o.Status == "" {
		o.Status = string(StatusSubmitted)
	}
	if !slices.Contains(ListStatuses, o.Status) {
		return ListResult{}, fail("list", "", ErrInvalidInput, fmt.Sprintf("status %q is not one of %s", o.Status, strings.Join(ListStatuses, ", ")))
	}
	prs := make([]PRRef, 0, len(o.PRs))
	for _, p := range o.PRs {
		ref, err := ParsePR(p)
		if err != nil {
			return ListResult{}, err
		}
		prs = append(prs, ref)
	}
	snap, err := s.Store.Load(ctx)
	if err != nil {
		return ListResult{}, err
	}
	res := ListResult{Items: []Item{}}
	if snap.Torn {
		res.Warnings = append(res.Warnings, "the store ends in a partial line (an interrupted write); it was ignored")
	}
	for _, m := range snap.Malformed {
		res.Warnings = append(res.Warnings, fmt.Sprintf("skipped %s of %s", m.Error(), s.Store.Path()))
	}
	listed := map[string]bool{}
	for _, ref := range prs {
		items, err := s.findingItems(ctx, ref, snap)
		if err != nil {
			return ListResult{}, err
		}
		for _, it := range items {
			listed[it.ID] = true
			if o.matches(it) {
				res.Items = append(res.Items, it)
			}
		}
	}
	for _, id := range snap.order {
		r := snap.byID[id].rec
		var it Item
		switch {
		case listed[id]:
			continue
		case r.kind() == KindReview:
			it = s.localItem(r)
		case r.kind() == KindGitHubClaim:
			it = githubClaimItem(r)
		default:
			continue
		}
		if o.matches(it) {
			res.Items = append(res.Items, it)
		}
	}
	sortItems(res.Items)
	return res, nil
}

// Detail is one item with its comments for the agent.
type Detail struct {
	Item
	// Markdown is the comments in the agent format of package agentmd,
	// with the diff lines they are about; "" while nothing is submitted.
	Markdown string `json:"markdown"`
	// GlobalComment and Comments are the submission as data, for programs;
	// Comments is [] while nothing is submitted.
	GlobalComment *string                    `json:"globalComment,omitempty"`
	Comments      []agentmd.SubmittedComment `json:"comments"`
	// Message says what the agent should know beyond the comments, such
	// as a review still waiting for the person.
	Message string `json:"message,omitempty"`
}

// Get returns an item with its comments as agent-ready Markdown.
func (s *Service) Get(ctx context.Context, id string) (Detail, error) {
	if IsFindingID(id) {
		return s.getFinding(ctx, id)
	}
	r, err := s.local(ctx, "get", id)
	if err != nil {
		return Detail{}, err
	}
	d := Detail{Item: s.localItem(r), Comments: []agentmd.SubmittedComment{}}
	if r.Submission != nil {
		d.GlobalComment = r.Submission.GlobalComment
		if r.Submission.Comments != nil {
			d.Comments = r.Submission.Comments
		}
	}
	switch r.Status {
	case StatusOpen:
		d.Message = "The review is still open: nobody has submitted it yet."
		if ps, ok := s.Local.(PageServer); ok {
			if u, err := ps.EnsurePage(ctx, r); err != nil {
				d.Message += fmt.Sprintf(" No server shows its page, and none could be started: %v.", err)
			} else {
				d.URL = u
			}
		}
		if d.URL != "" {
			d.Message += " It is waiting at " + d.URL + "."
		}
		return d, nil
	case StatusCancelled:
		d.Message = "The review was cancelled before anyone submitted it."
		return d, nil
	case StatusSubmitted, StatusClaimed, StatusResolved:
		// Its comments, below.
	}
	if r.Submission == nil {
		return Detail{}, fmt.Errorf("get %s: the %s review holds no submission", id, r.Status)
	}
	var files []diff.File
	if unified, err := s.Store.Diff(ctx, r); err != nil {
		d.Message = fmt.Sprintf("The comments are shown without the diff lines they quote: %v.", err)
	} else if files, err = diff.Parse(unified); err != nil {
		d.Message = fmt.Sprintf("The comments are shown without the diff lines they quote: %v.", err)
	}
	d.Markdown = ReviewMarkdown(r, files)
	return d, nil
}

// Claim marks an item as taken by agent by.
func (s *Service) Claim(ctx context.Context, id, by string, force bool) (Item, error) {
	if err := checkName("claim", id, by); err != nil {
		return Item{}, err
	}
	if IsFindingID(id) {
		return s.claimFinding(ctx, id, by, force)
	}
	if _, err := s.local(ctx, "claim", id); err != nil {
		return Item{}, err
	}
	r, err := s.Store.Claim(ctx, id, by, force)
	if err != nil {
		return Item{}, err
	}
	return s.localItem(r), nil
}

// Resolve closes an item; on GitHub it replies on the finding's thread and
// resolves the thread.
func (s *Service) Resolve(ctx context.Context, id string, o ResolveOptions) (Item, error) {
	if err := checkName("resolve", id, o.By); err != nil {
		return Item{}, err
	}
	if IsFindingID(id) {
		return s.resolveFinding(ctx, id, o)
	}
	if _, err := s.local(ctx, "resolve", id); err != nil {
		return Item{}, err
	}
	r, err := s.Store.Resolve(ctx, id, o)
	if err != nil {
		return Item{}, err
	}
	return s.localItem(r), nil
}

// Cancel withdraws an open local review.
func (s *Service) Cancel(ctx context.Context, id string) (Item, error) {
	if IsFindingID(id) {
		return Item{}, fail("cancel", id, ErrInvalidInput, "GitHub findings cannot be cancelled; resolve them")
	}
	if _, err := s.local(ctx, "cancel", id); err != nil {
		return Item{}, err
	}
	r, err := s.Store.Cancel(ctx, id)
	if err != nil {
		return Item{}, err
	}
	return s.localItem(r), nil
}

// local reads a local review, checking the id first.
func (s *Service) local(ctx context.Context, op, id string) (Record, error) {
	id = strings.TrimSpace(id)
	if id == "" {
		return Record{}, fail(op, "", ErrInvalidInput, "give the id of a review (see inbox list)")
	}
	if !validLocalID(id) {
		return Record{}, fail(op, id, ErrInvalidInput, "not a review id: local reviews have ids like k3x9p2ma, GitHub findings gh:owner/repo#12:f-abc")
	}
	r, err := s.Store.Get(ctx, id)
	if ie := (*Error)(nil); errors.As(err, &ie) && ie.Kind == ErrExpired {
		return Record{}, fail(op, id, ErrExpired, ie.Reason)
	}
	if errors.Is(err, ErrNotFound) || (err == nil && r.kind() != KindReview) {
		return Record{}, fail(op, id, ErrNotFound, "no such review in "+s.Store.Path())
	}
	return r, err
}

// Request asks for a review and returns at once: of the local changes, or
// by the review bot on a pull request.
func (s *Service) Request(ctx context.Context, o RequestOptions) (RequestResult, error) {
	if strings.TrimSpace(o.PR) != "" {
		if len(o.Files) > 0 {
			return RequestResult{}, fail("request", "", ErrInvalidInput, "files apply to local reviews; the bot reviews the whole pull request")
		}
		return s.requestPR(ctx, o.PR, o.Message)
	}
	if s.Local == nil {
		return RequestResult{}, fmt.Errorf("request: local reviews are not available here")
	}
	return s.Local.RequestLocal(ctx, o.LocalRequest)
}

func (s *Service) warnOnce(msg string) {
	if _, dup := s.warned.LoadOrStore(msg, true); !dup && s.Warn != nil {
		s.Warn(msg)
	}
}

// localItem describes a local review, with when its claim runs out.
func (s *Service) localItem(r Record) Item {
	it := localItem(r)
	if it.Status == StatusClaimed && it.ClaimedAt != nil {
		exp := it.ClaimedAt.Add(s.Store.ClaimLease())
		it.ClaimExpires = &exp
	}
	return it
}

// Hint is what a request tells the agent to do next.
func Hint(id string) string {
	return fmt.Sprintf("Do not wait for it. Later, run `reviews-for-agent inbox list` (or the review_inbox tool with action list) "+
		"and `reviews-for-agent inbox get %s` (action get) to read the comments.", id)
}

// MaxNameRunes caps an agent's name (--by): it is shown in listings and
// page headers, where a name of thousands of characters would push
// everything else off the screen.
const MaxNameRunes = 100

func checkName(op, id, by string) error {
	by = strings.TrimSpace(by)
	if n := utf8.RuneCountInString(by); n > MaxNameRunes {
		return fail(op, id, ErrInvalidInput, fmt.Sprintf("the name after --by is %d characters long; at most %d", n, MaxNameRunes))
	}
	if strings.ContainsFunc(by, unicode.IsControl) {
		return fail(op, id, ErrInvalidInput, "the name after --by holds control characters")
	}
	return nil
}
