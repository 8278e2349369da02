package inbox

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/review-my-code-bot/rmc/agentmd"
	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// GitHub is what the inbox asks of GitHub. The project's one adapter,
// *github.Client, provides it (the command line asserts so).
type GitHub interface {
	Snapshot(ctx context.Context, repo snapshot.Repo, number int) (snapshot.Snapshot, error)
	Files(ctx context.Context, repo snapshot.Repo, number int) ([]snapshot.ChangedFile, error)
	CreateComment(ctx context.Context, repo snapshot.Repo, number int, body string) (snapshot.Comment, error)
	Reply(ctx context.Context, repo snapshot.Repo, number int, inReplyTo int64, body string) (snapshot.ReviewComment, error)
	ResolveThread(ctx context.Context, threadID string) error
}

func (s *Service) github(op, id string) (GitHub, error) {
	if s.GitHub == nil {
		return nil, fail(op, id, ErrInvalidInput, "GitHub is not configured: set GITHUB_TOKEN (or GH_TOKEN)")
	}
	return s.GitHub()
}

// findings reads a pull request's bot findings: blocks count only in
// comments the bot wrote, as in the action itself.
func (s *Service) findings(ctx context.Context, gh GitHub, pr PRRef) ([]state.Finding, error) {
	snap, err := gh.Snapshot(ctx, pr.Repo, pr.Number)
	if err != nil {
		return nil, fmt.Errorf("read the findings on %s: %w", pr, err)
	}
	st := state.Derive(snap, state.Options{Bot: s.bot(snap.Viewer)})
	return st.Findings, nil
}

// bot is whose blocks count as the review bot's. The token here is usually
// a developer's own, not the action's: its owner is a person, whose
// comments must not pass for the bot's (anyone could then forge findings
// by pasting blocks). Without --bot-login, a token of a person means the
// bot is github-actions[bot], the action's default identity; a token of a
// bot or app is the bot itself, as in the action.
func (s *Service) bot(viewer snapshot.Actor) snapshot.Actor {
	if s.BotLogin != "" || viewer.IsBot {
		return snapshot.BotIdentity(s.BotLogin, viewer)
	}
	if viewer.Login != "" {
		s.warnOnce(fmt.Sprintf("the GitHub token belongs to %s, a user, and no --bot-login was given: taking the review bot to be %s; "+
			"pass --bot-login when the bot runs as another app or account", viewer.Login, snapshot.DefaultBot.Login))
	}
	return snapshot.DefaultBot
}

// finding looks one finding up by its inbox id.
func (s *Service) finding(ctx context.Context, op, id string) (GitHub, FindingRef, state.Finding, error) {
	ref, err := ParseFindingID(id)
	if err != nil {
		return nil, ref, state.Finding{}, err
	}
	gh, err := s.github(op, id)
	if err != nil {
		return nil, ref, state.Finding{}, err
	}
	fs, err := s.findings(ctx, gh, ref.PR)
	if err != nil {
		return nil, ref, state.Finding{}, err
	}
	for _, f := range fs {
		if f.Block.ID == ref.FindingID {
			return gh, ref, f, nil
		}
	}
	return nil, ref, state.Finding{}, fail(op, id, ErrNotFound, "the review bot has no such finding on "+ref.PR.String())
}

// findingItem describes a finding; claim is its local claim record, if any.
// An open finding is submitted (the bot has spoken, no agent has taken
// it), claimed when an agent on this machine took it; GitHub alone says
// whether it is resolved.
func findingItem(ref FindingRef, f state.Finding, claim *Record) Item {
	root := f.Thread.Root()
	it := Item{ID: ref.String(), Source: SourceGitHub, Status: StatusSubmitted, PR: ref.PR.String(),
		Summary: findingSummary(f.Block.Title, f.Block.Path, f.Block.Line), Blocking: f.Block.Blocking, Score: f.Block.Score,
		CommentCount: 1, CreatedAt: f.Block.CreatedAt, UpdatedAt: f.Block.CreatedAt}
	if root != nil {
		it.URL, it.CreatedAt, it.UpdatedAt = root.URL, root.CreatedAt, root.CreatedAt
		for _, c := range f.Thread.Comments {
			it.UpdatedAt = later(it.UpdatedAt, c.UpdatedAt)
		}
	}
	it.SubmittedAt = &it.CreatedAt
	if p := cmp.Or(f.Block.Path, f.Thread.Path); p != "" {
		it.Files = []string{p}
	}
	if claim != nil && claim.Status == StatusClaimed {
		it.Status = StatusClaimed
		claimOf(&it, *claim)
	}
	// The agent's own resolution ends its work on the finding; the bot's
	// state may still hold it open (a blocking finding closes on a verified
	// fix, not on a resolved thread).
	if !f.Open() || (claim != nil && claim.Status == StatusResolved) {
		it.Status = StatusResolved
		if claim != nil {
			claimOf(&it, *claim)
		}
	}
	return it
}

// findingItems lists a pull request's findings.
func (s *Service) findingItems(ctx context.Context, pr PRRef, snap *Snapshot) ([]Item, error) {
	gh, err := s.github("list", pr.String())
	if err != nil {
		return nil, err
	}
	fs, err := s.findings(ctx, gh, pr)
	if err != nil {
		return nil, err
	}
	items := make([]Item, 0, len(fs))
	for _, f := range fs {
		ref := FindingRef{PR: pr, FindingID: f.Block.ID}
		var claim *Record
		if r, ok := snap.Get(ref.String()); ok && r.kind() == KindGitHubClaim {
			claim = &r
		}
		items = append(items, findingItem(ref, f, claim))
	}
	return items, nil
}

func (s *Service) claimRecord(ctx context.Context, id string) (*Record, error) {
	snap, err := s.Store.Load(ctx)
	if err != nil {
		return nil, err
	}
	if r, ok := snap.Get(id); ok && r.kind() == KindGitHubClaim {
		return &r, nil
	}
	return nil, nil
}

func (s *Service) getFinding(ctx context.Context, id string) (Detail, error) {
	gh, ref, f, err := s.finding(ctx, "get", id)
	if err != nil {
		return Detail{}, err
	}
	claim, err := s.claimRecord(ctx, id)
	if err != nil {
		return Detail{}, err
	}
	d := Detail{Item: findingItem(ref, f, claim)}
	changed, err := gh.Files(ctx, ref.PR.Repo, ref.PR.Number)
	if err != nil {
		return Detail{}, fmt.Errorf("get %s: %w", id, err)
	}
	files := make([]diff.File, 0, len(changed))
	for _, c := range changed {
		df, err := diff.ParsePatch(c.Path, c.Patch)
		if err != nil {
			continue // the finding is still worth reading without its quote
		}
		switch c.Status {
		case "added":
			df.Status, df.OldPath = diff.Added, ""
		case "removed":
			df.Status, df.NewPath = diff.Deleted, ""
		case "renamed":
			df.Status, df.OldPath = diff.Renamed, c.PreviousPath
		}
		files = append(files, df)
	}
	doc := agentmd.Review{Title: fmt.Sprintf("Review finding %s on %s", f.Block.ID, ref.PR), Comments: []agentmd.Comment{findingComment(f)}}
	d.Markdown = agentmd.Markdown(doc, files)
	if d.Status == StatusResolved {
		d.Message = "The finding is resolved on GitHub."
	}
	return d, nil
}

// findingComment is a finding as the agent reads it: where, its text
// without the state block, and the conversation in its thread.
func findingComment(f state.Finding) agentmd.Comment {
	b := f.Block
	c := agentmd.Comment{File: cmp.Or(b.Path, f.Thread.Path), StartLine: b.StartLine, EndLine: b.Line, Side: diff.Right}
	if !f.Thread.IsOutdated && f.Thread.Line > 0 {
		c.StartLine, c.EndLine = f.Thread.StartLine, f.Thread.Line
	}
	if c.StartLine == 0 {
		c.StartLine = c.EndLine
	}
	if strings.EqualFold(b.Side, "left") {
		c.Side = diff.Left
	}
	c.Meta = fmt.Sprintf("score %d", b.Score)
	if b.Blocking {
		c.Meta = "blocking · " + c.Meta
	}
	var body strings.Builder
	if root := f.Thread.Root(); root != nil {
		body.WriteString(rmcoc.Strip(root.Body))
		for _, r := range f.Thread.Comments[1:] {
			fmt.Fprintf(&body, "\n\nReply by @%s: %s", r.Author.Login, rmcoc.Strip(r.Body))
		}
	} else {
		body.WriteString(b.Title)
	}
	c.Body = body.String()
	return c
}

func (s *Service) claimFinding(ctx context.Context, id, by string, force bool) (Item, error) {
	by = strings.TrimSpace(by)
	if by == "" {
		return Item{}, fail("claim", id, ErrInvalidInput, "say who claims it (--by NAME)")
	}
	_, ref, f, err := s.finding(ctx, "claim", id)
	if err != nil {
		return Item{}, err
	}
	if !f.Open() {
		return Item{}, fail("claim", id, ErrInvalidState, "the finding is already resolved on GitHub")
	}
	g := GitHubRef{Repo: ref.PR.Repo.String(), Number: ref.PR.Number, FindingID: ref.FindingID, Title: f.Block.Title, Path: f.Block.Path, Line: f.Block.Line}
	r, err := s.Store.ClaimGitHub(ctx, id, g, by, force)
	if err != nil {
		return Item{}, err
	}
	return findingItem(ref, f, &r), nil
}

// resolveFinding replies on the finding's thread and resolves it. Each step
// checks GitHub first, so a retry after a failure (or a lost answer) writes
// neither a second reply nor anything at all once the thread is resolved.
func (s *Service) resolveFinding(ctx context.Context, id string, o ResolveOptions) (Item, error) {
	note := o.Note
	gh, ref, f, err := s.finding(ctx, "resolve", id)
	if err != nil {
		return Item{}, err
	}
	claim, err := s.claimRecord(ctx, id)
	if err != nil {
		return Item{}, err
	}
	if claim != nil && claim.Status == StatusClaimed {
		// The claimant's rule of local reviews, checked before GitHub is
		// written to.
		if _, _, err := resolveTransition(*claim, o, s.Store.clock()); err != nil {
			return Item{}, err
		}
	}
	if !f.Thread.IsResolved {
		root := f.Thread.Root()
		if root == nil {
			return Item{}, fmt.Errorf("resolve %s: the finding's thread has no comments", id)
		}
		by := ""
		if claim != nil && claim.Claim != nil && claim.Status == StatusClaimed {
			by = claim.Claim.ClaimedBy
		}
		body := resolveReply(f.Block.ID, by, note)
		if !hasReply(f.Thread, body) {
			if _, err := gh.Reply(ctx, ref.PR.Repo, ref.PR.Number, root.ID, body); err != nil {
				return Item{}, fmt.Errorf("resolve %s: %w", id, err)
			}
		}
		if err := gh.ResolveThread(ctx, f.Thread.ID); err != nil {
			return Item{}, fmt.Errorf("resolve %s: %w", id, err)
		}
		f.Thread.IsResolved, f.Status = true, rmcoc.FindingResolved
	}
	if claim != nil {
		r, err := s.Store.ResolveGitHub(ctx, id, note, o.By)
		if err != nil {
			return Item{}, err
		}
		claim = &r
	}
	return findingItem(ref, f, claim), nil
}

// resolveReply is the reply that closes a finding. Its last line is a
// marker naming the finding and a digest of who resolved it with what
// note, by which a retry recognizes its own earlier reply.
func resolveReply(findingID, by, note string) string {
	text := "Resolved"
	if by != "" {
		text += " by " + oneLine(by)
	}
	if n := strings.TrimSpace(note); n != "" {
		text += ": " + n
	} else {
		text += "."
	}
	sum := sha256.Sum256([]byte(findingID + "\x00" + by + "\x00" + strings.TrimSpace(note)))
	return text + "\n\n<!-- reviews-for-agent resolve " + findingID + " " + hex.EncodeToString(sum[:6]) + " -->"
}

func hasReply(t snapshot.Thread, body string) bool {
	marker := body[strings.LastIndex(body, "<!--"):]
	for _, c := range t.Comments[1:] {
		if strings.Contains(c.Body, marker) {
			return true
		}
	}
	return false
}

// requestPR asks the review bot for a review of a pull request with the
// comment the action answers to, and returns without waiting for the run.
func (s *Service) requestPR(ctx context.Context, pr, message string) (RequestResult, error) {
	ref, err := ParsePR(pr)
	if err != nil {
		return RequestResult{}, err
	}
	gh, err := s.github("request", ref.String())
	if err != nil {
		return RequestResult{}, err
	}
	body := cmp.Or(s.Handle, DefaultHandle) + " review"
	if m := strings.TrimSpace(message); m != "" {
		body += "\n\n" + m
	}
	c, err := gh.CreateComment(ctx, ref.Repo, ref.Number, body)
	if err != nil {
		return RequestResult{}, fmt.Errorf("request a review of %s: %w", ref, err)
	}
	return RequestResult{ID: FindingPrefix + ref.String(), Source: SourceGitHub, Status: StatusOpen, URL: c.URL,
		Hint: fmt.Sprintf("Do not wait for it. The review bot answers in its own time; later, run `reviews-for-agent inbox list --pr %s` "+
			"(or the review_inbox tool with action list and pr) to see its findings.", ref)}, nil
}
