package fakegithub

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The seeding helpers below shape the world before (or between) client
// runs. They are not API writes: they never appear in Writes, Requests or
// the OnWrite count.

// SetNow sets the deterministic clock.
func (s *Server) SetNow(t time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = t.UTC()
}

// Now reads the deterministic clock: the time the next object will get.
func (s *Server) Now() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.now
}

// AddUser registers an account. A bot's login gets the "[bot]" suffix if it
// lacks one, since that is how GitHub's REST API names bots.
func (s *Server) AddUser(login string, bot bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if bot && !strings.HasSuffix(login, "[bot]") {
		login += "[bot]"
	}
	if _, ok := s.users[strings.ToLower(login)]; !ok {
		// Its own account, even when a bot of the same name exists: a user
		// may register "rmc-bot" while the App is "rmc-bot[bot]".
		s.users[strings.ToLower(login)] = &user{id: s.newID(), login: login}
	}
	s.userFor(login).bot = bot || strings.HasSuffix(login, "[bot]")
}

// AddToken registers a token acting as id. Installation and App tokens act
// as bots; their login gets the "[bot]" suffix if it lacks one.
func (s *Server) AddToken(token string, id Identity) {
	if token == "" || id.Login == "" {
		panic("fakegithub: AddToken needs a token and a login")
	}
	if id.Kind.isBot() && !strings.HasSuffix(id.Login, "[bot]") {
		id.Login += "[bot]"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.userFor(id.Login)
	u.bot = id.Kind.isBot()
	s.tokens[token] = Identity{Login: u.login, Kind: id.Kind}
}

// AddRepo registers a repository "owner/name" with default branch "main".
// AddPR creates repositories on demand, so this is only needed for
// repositories without pull requests.
func (s *Server) AddRepo(fullName string) Repo {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ensureRepo(fullName).Repo
}

// SetPermission grants login a collaborator permission on repo: admin,
// maintain, write, triage, read or none.
func (s *Server) SetPermission(repo, login, permission string) {
	switch permission {
	case "admin", "maintain", "write", "triage", "read", "none":
	default:
		panic(fmt.Sprintf("fakegithub: unknown permission %q for %s on %s", permission, login, repo))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.ensureRepo(repo)
	s.userFor(login)
	r.perms[strings.ToLower(login)] = permission
}

// AddPR adds a pull request, filling zero fields with defaults (see PR). It
// returns a copy with the number, ids and defaults filled in.
func (s *Server) AddPR(repo string, pr PR) *PR {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.ensureRepo(repo)
	if pr.Number == 0 {
		pr.Number = r.nextNumber
	}
	if r.pulls[pr.Number] != nil {
		panic(fmt.Sprintf("fakegithub: pull request %s#%d already exists", repo, pr.Number))
	}
	r.nextNumber = max(r.nextNumber, pr.Number+1)
	n := strconv.Itoa(pr.Number)
	pr.ID = s.newID()
	pr.NodeID = "PR_" + strconv.FormatInt(pr.ID, 10)
	pr.Author = s.userFor(orDefault(pr.Author, "octocat")).login
	pr.State = orDefault(pr.State, "open")
	if pr.Merged {
		pr.State = "closed"
	}
	pr.HeadSHA = orDefault(pr.HeadSHA, fakeSHA(repo+"#"+n+":head"))
	pr.BaseSHA = orDefault(pr.BaseSHA, fakeSHA(repo+"#"+n+":base"))
	pr.HeadRef = orDefault(pr.HeadRef, "feature-"+n)
	pr.BaseRef = orDefault(pr.BaseRef, r.DefaultBranch)
	if pr.HeadRepo == "" {
		pr.HeadRepo = r.FullName()
		if pr.Fork {
			pr.HeadRepo = botBase(pr.Author) + "/" + r.Name
		}
	}
	if pr.CreatedAt.IsZero() {
		pr.CreatedAt = s.tick()
	}
	if pr.UpdatedAt.IsZero() {
		pr.UpdatedAt = pr.CreatedAt
	}
	p := &pullState{repo: r, pr: pr, commits: []string{pr.HeadSHA}}
	r.pulls[pr.Number] = p
	r.commits[pr.HeadSHA], r.commits[pr.BaseSHA] = true, true
	s.nodes[pr.NodeID] = p
	out := pr
	return &out
}

// UpdatePR edits a pull request in place, e.g. to push a new head SHA or
// mark it ready for review. Number and ids cannot change. edit runs with the
// server locked, so it must not call back into the server. A new head SHA
// is pushed on top of the PR's commits, as Push does, and one of the PR's
// earlier commits drops those after it, as a force-push back does;
// ForcePush replaces the commits with any others.
func (s *Server) UpdatePR(repo string, number int, edit func(*PR)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.mustPull(repo, number)
	pr := p.pr
	edit(&pr)
	pr.Number, pr.ID, pr.NodeID = p.pr.Number, p.pr.ID, p.pr.NodeID
	pr.UpdatedAt = s.tick()
	if pr.HeadSHA != p.pr.HeadSHA {
		if i := slices.Index(p.commits, pr.HeadSHA); i >= 0 {
			p.commits = p.commits[:i+1] // back to an earlier commit: a force-push
		} else {
			p.commits = append(p.commits, pr.HeadSHA)
		}
	}
	p.pr = pr
	p.repo.commits[pr.HeadSHA], p.repo.commits[pr.BaseSHA] = true, true
}

// Push adds commits (oldest first) on top of a PR's head, as an ordinary
// push does: the last becomes the head, and the commits before stay the
// PR's.
func (s *Server) Push(repo string, number int, oids ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.mustPull(repo, number)
	s.setCommits(p, append(slices.Clone(p.commits), oids...))
}

// ForcePush replaces a PR's commits with oids (oldest first), as a
// force-push or a rebase does: the last becomes the head, and a commit not
// in oids is no longer the PR's, whatever it was before. It is also how a
// test gives a PR its commit list.
func (s *Server) ForcePush(repo string, number int, oids ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.setCommits(s.mustPull(repo, number), slices.Clone(oids))
}

func (s *Server) setCommits(p *pullState, oids []string) {
	if len(oids) == 0 || slices.Contains(oids, "") {
		panic(fmt.Sprintf("fakegithub: %s needs at least one commit and no empty oid", p.key()))
	}
	p.commits = oids
	p.pr.HeadSHA, p.pr.UpdatedAt = oids[len(oids)-1], s.tick()
	for _, oid := range oids {
		p.repo.commits[oid] = true
	}
}

// SetFiles sets a PR's changed files. Zero Additions and Deletions are
// counted from Patch; Status defaults to "modified". Unless SetDiff gave
// one, the raw diff is rendered from these files.
func (s *Server) SetFiles(repo string, number int, files []File) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.mustPull(repo, number)
	p.setFiles(normalizeFiles(files))
}

// SetDiff sets a PR's raw unified diff, as served for
// application/vnd.github.diff. When no files were set, the changed files
// are derived from it.
func (s *Server) SetDiff(repo string, number int, diff string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.mustPull(repo, number)
	p.diff = diff
	if len(p.files) == 0 {
		p.setFiles(splitDiff(diff))
	}
}

func normalizeFiles(files []File) []File {
	out := make([]File, len(files))
	for i, f := range files {
		f.Status = orDefault(f.Status, "modified")
		if f.Additions == 0 && f.Deletions == 0 {
			f.Additions, f.Deletions = countChanges(f.Patch)
		}
		out[i] = f
	}
	return out
}

// SetContents stores a file's content at ref (a branch name or SHA), served
// by GET /repos/{o}/{r}/contents/{path}?ref=.
func (s *Server) SetContents(repo, ref, path, content string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ensureRepo(repo).contents[ref+"\x00"+strings.Trim(path, "/")] = content
}

// AddStatus seeds a commit status on sha by creator, as a status posted
// through the API would be (newest last).
func (s *Server) AddStatus(repo, sha, creator string, st Status) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.ensureRepo(repo)
	id, now := s.newID(), s.tick()
	st.ID, st.NodeID, st.SHA, st.Creator, st.CreatedAt, st.UpdatedAt = id, "SC_"+strconv.FormatInt(id, 10), sha, creator, now, now
	r.statuses = append(r.statuses, &st)
}

// SetCompare registers what GET /repos/{o}/{r}/compare/{base}...{head}
// answers.
func (s *Server) SetCompare(repo, base, head string, files []File) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ensureRepo(repo).compares[base+"..."+head] = normalizeFiles(files)
}

// AddIssueComment seeds a conversation comment.
func (s *Server) AddIssueComment(repo string, number int, author, body string) Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.mustPull(repo, number)
	return s.newIssueComment(p, s.userFor(author), body).c
}

// AddThread seeds a review thread in its own COMMENTED review, the way
// GitHub records a single inline comment. It does not insist the line is in
// the diff (seeded threads may predate the current head); when it is, the
// comment gets the matching position and diff hunk.
func (s *Server) AddThread(repo string, number int, spec ThreadSpec) (threadID string, rootID int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.mustPull(repo, number)
	side := orDefault(spec.Side, "RIGHT")
	a, _ := p.anchorFor(spec.Path, side, spec.Line)
	a.startLine, a.outdated = spec.StartLine, spec.Outdated
	if spec.StartLine != 0 {
		a.startSide = orDefault(spec.StartSide, side)
	}
	author := s.userFor(orDefault(spec.Author, "octocat"))
	rs := s.newReview(p, author, "COMMENTED", "", orDefault(spec.CommitID, p.pr.HeadSHA))
	t := s.newThread(rs, a, author, spec.Body)
	if spec.Resolved {
		t.t.Resolved = true
		t.t.ResolvedBy = s.userFor(orDefault(spec.ResolvedBy, author.login)).login
	}
	return t.t.ID, t.comments[0].c.ID
}

// AddReply seeds a reply in the thread holding comment inReplyTo and
// returns the reply's id.
func (s *Server) AddReply(repo string, number int, inReplyTo int64, author, body string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.mustPull(repo, number)
	rc := s.reviewComments[inReplyTo]
	if rc == nil || rc.thread.pull != p {
		panic(fmt.Sprintf("fakegithub: no review comment %d on %s#%d", inReplyTo, repo, number))
	}
	return s.newReply(rc.thread, s.userFor(author), body).c.ID
}

// AddReview seeds a review without inline comments. state is the REST
// spelling: APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED or PENDING.
func (s *Server) AddReview(repo string, number int, author, state, body string) Review {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.mustPull(repo, number)
	return s.newReview(p, s.userFor(author), state, body, p.pr.HeadSHA).r
}

// AddReaction seeds a reaction on an issue or review comment.
func (s *Server) AddReaction(commentID int64, login, content string) Reaction {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.comments[commentID] == nil && s.reviewComments[commentID] == nil {
		panic(fmt.Sprintf("fakegithub: no comment %d to react to", commentID))
	}
	return *s.newReaction(commentID, s.userFor(login), content)
}

// SetThreadOutdated marks a thread outdated (or current again), as GitHub
// does when a push moves the lines it was anchored to. Outdated threads
// report no current line.
func (s *Server) SetThreadOutdated(threadID string, outdated bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.threadByNode(threadID)
	if t == nil {
		panic(fmt.Sprintf("fakegithub: no review thread %s", threadID))
	}
	t.t.Outdated = outdated
	line, start := 0, 0
	if !outdated && len(t.comments) > 0 {
		line, start = t.comments[0].c.OriginalLine, t.comments[0].c.OriginalStartLine
	}
	t.t.Line, t.t.StartLine = line, start
	for _, rc := range t.comments {
		rc.c.Line, rc.c.StartLine = line, start
	}
}

// EditComment edits an issue or review comment as editor would in the web
// UI, setting its last-edited time and editor.
func (s *Server) EditComment(id int64, editor, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.userFor(editor)
	switch {
	case s.comments[id] != nil:
		s.editComment(&s.comments[id].c, u, body)
	case s.reviewComments[id] != nil:
		s.editComment(&s.reviewComments[id].c.Comment, u, body)
	default:
		panic(fmt.Sprintf("fakegithub: no comment %d to edit", id))
	}
}

// EditReview edits a review's body as editor would in the web UI.
func (s *Server) EditReview(id int64, editor, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rs := s.reviews[id]
	if rs == nil {
		panic(fmt.Sprintf("fakegithub: no review %d to edit", id))
	}
	rs.r.Body, rs.r.Editor, rs.r.LastEditedAt = body, s.userFor(editor).login, s.tick()
}

// ResolveThreadAs resolves (or, with resolved false, reopens) a review
// thread as login would in the web UI.
func (s *Server) ResolveThreadAs(threadID, login string, resolved bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.threadByNode(threadID)
	if t == nil {
		panic(fmt.Sprintf("fakegithub: no review thread %s", threadID))
	}
	t.t.Resolved, t.t.ResolvedBy = resolved, ""
	if resolved {
		t.t.ResolvedBy = s.userFor(login).login
	}
}

// orDefault returns v, or def when v is empty.
func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}
