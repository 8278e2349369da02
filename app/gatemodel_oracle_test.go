package app

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// The oracle of the gate's model-based test. It knows nothing of trees,
// blob ids, blocks or the ledger: only the files of each PR, what the
// scripted model was sent and answered, and who did what. For each PR:
//
//	coverage:  every changed file of the head is excluded by the base
//	           (gen/**), or its content was shown to all three passes of one
//	           posted review of the PR that nobody edited (binary content:
//	           the review had it among its changes), and the change set is
//	           readable (no tree the walk must read is past GitHub's limit);
//	findings:  pass 1 of a posted review shown a bug raises a finding on
//	           that content, unless the file is past GitHub's files list
//	           (no diff line from GitHub for a thread to sit on: the file
//	           counts as unread while it holds that content). A finding is open until a decision closes it;
//	           an open finding stands while its path holds a bug;
//	decisions: a verified fix (the path no longer holds the bug), a
//	           concession (the model conceding a dispute, once per content:
//	           a content a dispute was maintained on stays maintained), a
//	           maintainer's resolve (closes what is open when it is given,
//	           never later findings), a maintainer's waiver; the author's
//	           commands change nothing. A decision holds on the content it
//	           judged: a closed finding whose raised content comes back (a
//	           revert) is open again, unless the decision judged that very
//	           content;
//	cut:       a bot review a person edited, or a bot reply or verdict a
//	           person deleted, cuts the state ledger: the gate fails until
//	           a maintainer clears the cut (clear-ledger, which no step
//	           gives: a maintainer's resolve or waive decides findings, and
//	           accepting what was deleted is a decision of its own, as the
//	           gate's description says); a finding whose thread a person
//	           deleted blocks until a maintainer waives it (or a review
//	           reports it again: it has a thread again; a maintainer's
//	           command that closed it before holds whatever becomes of its
//	           thread); one whose comment a person edited while it was
//	           open blocks until a maintainer's command settles it; one a
//	           person edited after a decision closed it loses that decision
//	           (it judged another text than the comment shows now): the
//	           gate is pending until a maintainer's resolve after the edit;
//	gate:      failure when a finding stands or is cut, else pending when a
//	           decision was superseded by an edit or coverage is incomplete
//	           or unknown, else success;
//	progress:  after a push and its run, which nothing cut short, every
//	           changed file of PR 1's head is reviewed, unless the change
//	           set cannot be read or the ledger is cut: files a capped run
//	           left and files past GitHub's lists are read by then.
//
// The status on a commit is the strictest gate of the open PRs whose head
// it is.
type prModel struct {
	num      int
	baseSHA  string
	base     files
	head     files
	headSHA  string
	open     bool
	reviews  map[int64]reviewSeen
	findings []*finding
	gone     map[string]*finding // by id: findings whose thread a person deleted, until a maintainer waives them
	judged   map[string]bool     // bug contents a dispute was maintained on
	cut      bool                // a person edited a bot review: the state ledger is cut until a maintainer clears it
	// limit is where GitHub's files list stops (0: at 3,000, which no
	// history reaches); unanchored are the bug contents pass 1 was shown
	// on a file past it: GitHub gave no diff line a thread could sit on,
	// so no finding holds the gate and the file counts as unread while it
	// holds that content.
	limit      int
	unanchored map[string]bool
}

// reviewSeen is what one posted review was shown.
type reviewSeen struct{ shown, binary []string }

// finding is one finding the model reported: on a content of a path.
type finding struct {
	path, on string
	open     bool
	judged   string // the content the decision that closed it judged
	cut      bool   // a person deleted the bot's reply or verdict in its thread: a cut only clear-ledger clears
	held     bool   // a person edited its comment while it was open: a maintainer's command settles it
	// superseded: a person edited its comment after a decision closed it:
	// the decision no longer counts, a maintainer's resolve after the edit
	// settles it.
	superseded bool
	maint      bool // closed by a maintainer's command: a later deletion of its thread changes nothing
	// unverified: closed by a push no posted review has read yet (its run
	// was cancelled): on the PR it is still open, so a maintainer's
	// resolve given meanwhile waives it.
	unverified bool
}

func newPRModel(num int, baseSHA string, base, head files, headSHA string, limit int) *prModel {
	return &prModel{num: num, baseSHA: baseSHA, base: base, head: head.clone(), headSHA: headSHA, open: true,
		reviews: map[int64]reviewSeen{}, gone: map[string]*finding{}, judged: map[string]bool{}, limit: limit, unanchored: map[string]bool{}}
}

// pastTheList reports whether GitHub's files list of the PR's head leaves
// path p out.
func (pr *prModel) pastTheList(p string) bool {
	if pr.limit == 0 {
		return false
	}
	i := slices.IndexFunc(filesList(pr.base, pr.head), func(f fakegithub.File) bool { return f.Path == p })
	return i >= pr.limit
}

// find is the finding raised on content on at path p, nil for none.
func (pr *prModel) find(p, on string) *finding {
	for _, f := range pr.findings {
		if f.path == p && f.on == on {
			return f
		}
	}
	return nil
}

// moved is a push to the PR's head: an open finding whose bug is gone from
// its path is closed (its fix is verified on that content); a closed
// finding whose very content comes back reopens (a regression) unless the
// decision that closed it judged that very content (a maintainer who
// waived the raised code waived it, wherever the head went in between). A
// new bug at the path is a finding of its own, once reviewed.
func (pr *prModel) moved(sha string, head files) {
	for _, f := range pr.findings {
		was, now := pr.head[f.path], head[f.path]
		switch {
		case was == now:
		case f.open && !now.bug():
			f.open, f.judged, f.unverified = false, now.mark(), true
		case !f.open && now.mark() == f.on && f.judged != f.on:
			// Reopened: an edited comment makes it an edited open one.
			f.open, f.judged, f.maint = true, "", false
			f.held, f.superseded = f.held || f.superseded, false
		}
	}
	pr.head, pr.headSHA = head.clone(), sha
}

// stands reports whether a finding holds the gate on the PR's head: a fix
// no review has read yet is not on the PR, and the finding still holds it.
func (pr *prModel) stands(f *finding) bool {
	return f.cut || f.held || f.unverified || f.open && pr.head[f.path].bug()
}

// decide closes f by a decision on the head's content. A cut in the
// ledger stays: no decision on the finding accepts what a person deleted.
func (pr *prModel) decide(f *finding) {
	f.open, f.held, f.superseded, f.judged, f.maint, f.unverified = false, false, false, pr.head[f.path].mark(), false, false
}

// decideByMaintainer closes f by a maintainer's command, which judges the
// code the finding was raised on (docs/merge-gate.md: a maintainer waives
// the finding as reported, whatever the head shows when they do): that
// code coming back is what they waived, not a regression.
func (pr *prModel) decideByMaintainer(f *finding) {
	pr.decide(f)
	f.judged, f.maint = f.on, true
}

// observe attributes a run's model requests: a content is shown to a
// review when its marker reached all three passes; a bug pass 1 was shown
// is reported. Only a run that posted a review counts.
func (pr *prModel) observe(reqs []fakellm.Request, posted []fakegithub.Review) {
	if len(posted) == 0 {
		return
	}
	passes := [3]map[string]bool{{}, {}, {}}
	for _, r := range reqs {
		u := r.LastUser()
		for i := range passes {
			if strings.Contains(u, fmt.Sprintf("# Task: review pass %d of 3", i+1)) {
				for _, line := range shownLines(r) {
					for _, mk := range marker.FindAllString(line, -1) {
						passes[i][mk] = true
					}
					switch b := bugLine.FindStringSubmatch(line); {
					case b == nil || i > 0:
					case pr.pastTheList(b[2]):
						pr.unanchored[b[1]] = true
					default:
						pr.raise(b[2], b[1])
					}
				}
			}
		}
	}
	var seen reviewSeen
	for mk := range passes[0] {
		if passes[1][mk] && passes[2][mk] {
			seen.shown = append(seen.shown, mk)
		}
	}
	for p, c := range pr.head {
		if b, ok := pr.base[p]; c.binary && (!ok || b != c) {
			seen.binary = append(seen.binary, c.text)
		}
	}
	for _, rv := range posted {
		pr.reviews[rv.ID] = seen
	}
	for _, f := range pr.findings {
		f.unverified = false // the review read the head: its fixes are on the PR
	}
}

// raise is a finding reported on content mk at p: a new one, unless one
// was raised on that content before (a decision on it that holds keeps it
// closed; one that lapsed has reopened it).
// A finding whose thread a person deleted is, reported again, a finding
// with a thread again, open whatever closed it before.
func (pr *prModel) raise(p, mk string) {
	f := pr.find(p, mk)
	if f == nil {
		pr.findings = append(pr.findings, &finding{path: p, on: mk, open: true})
		return
	}
	for id, g := range pr.gone {
		if g == f {
			delete(pr.gone, id)
			f.open, f.judged = true, ""
		}
	}
}

// shownLines are the new-side lines of the diff chunk a request carries
// (the "+" lines of "# The diff under review").
func shownLines(r fakellm.Request) []string {
	var body struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		return nil
	}
	var out []string
	for _, msg := range body.Messages {
		var text string
		var parts []struct {
			Text string `json:"text"`
		}
		if json.Unmarshal(msg.Content, &text) != nil && json.Unmarshal(msg.Content, &parts) == nil {
			for _, p := range parts {
				text += p.Text
			}
		}
		if msg.Role != "user" || !strings.Contains(text, "# The diff under review") {
			continue
		}
		for _, line := range strings.Split(text, "\n") {
			// A new-side line: its number (when shown), then "+".
			if strings.HasPrefix(strings.TrimLeft(line, "0123456789"), "+") {
				out = append(out, line)
			}
		}
	}
	return out
}

// gate is the gate the invariant asks for on the PR's head.
func (pr *prModel) gate(limit int) string {
	if len(pr.gone) > 0 || pr.cut {
		return "failure"
	}
	for _, f := range pr.findings {
		if pr.stands(f) {
			return "failure"
		}
	}
	for _, f := range pr.findings {
		if f.superseded {
			return "pending"
		}
	}
	if !readable(pr.base, pr.head, limit) || len(pr.unreviewed()) > 0 {
		return "pending"
	}
	return "success"
}

// unreviewed are the changed files of the head the base does not exclude
// and no posted review that nobody edited was shown (binary content: had
// among its changes).
func (pr *prModel) unreviewed() []string {
	shown, binary := map[string]bool{}, map[string]bool{}
	for _, r := range pr.reviews {
		for _, s := range r.shown {
			shown[s] = true
		}
		for _, b := range r.binary {
			binary[b] = true
		}
	}
	var out []string
	for _, p := range pr.head.paths() {
		h := pr.head[p]
		if b, ok := pr.base[p]; ok && b == h || strings.HasPrefix(p, "gen/") {
			continue
		}
		if h.binary && binary[h.text] || !h.binary && shown[h.mark()] && !pr.unanchored[h.mark()] {
			continue
		}
		out = append(out, p)
	}
	return out
}

// owedAfterARun is the progress half of the invariant, checked after a push
// and its run, which nothing cut short: every changed file PR 1's head
// owes is reviewed by then (files a capped run left, files past GitHub's
// lists), unless the change set cannot be read or the ledger is cut; a
// file whose bug no thread could hold stays unread until it changes.
func (m *modelWorld) owedAfterARun() []string {
	pr := m.prs[0]
	if pr.cut || !readable(pr.base, pr.head, m.limit) {
		return nil
	}
	return slices.DeleteFunc(pr.unreviewed(), func(p string) bool { return pr.unanchored[pr.head[p].mark()] })
}

// strictness orders the states as a commit's status holds them.
var strictness = map[string]int{"success": 0, "pending": 1, "failure": 2}

// oracle is the status the head of PR 1 must carry: the strictest gate of
// the open PRs whose head it is.
func (m *modelWorld) oracle() string {
	head := m.prs[0].headSHA
	want := "success"
	for _, pr := range m.prs {
		if pr.open && pr.headSHA == head {
			if g := pr.gate(m.limit); strictness[g] > strictness[want] {
				want = g
			}
		}
	}
	return want
}

// readable says whether the change set can be read within the tree limit:
// every directory the walk reads one level of holds at most limit entries.
// A directory both sides hold and whose files differ is read on both
// sides; one only the head holds is read whole unless it is past the
// limit, then one level at a time.
func readable(base, head files, limit int) bool {
	if limit == 0 {
		return true
	}
	var walk func(dir string, inBase bool) bool
	walk = func(dir string, inBase bool) bool {
		if !inBase && entriesUnder(head, dir) <= limit {
			return true
		}
		if children(head, dir) > limit || inBase && children(base, dir) > limit {
			return false
		}
		var changed []string
		for _, sub := range subdirs(head, dir) {
			if !hasDir(base, sub) || !sameUnder(base, head, sub) {
				changed = append(changed, sub)
			}
		}
		if inBase && len(changed) > 8 && entriesUnder(base, dir) <= limit && entriesUnder(head, dir) <= limit {
			return true // read whole on both sides
		}
		for _, sub := range changed {
			if !walk(sub, hasDir(base, sub)) {
				return false
			}
		}
		return true
	}
	return walk("", true)
}

func under(p, dir string) (rest string, ok bool) {
	if dir == "" {
		return p, true
	}
	return strings.CutPrefix(p, dir+"/")
}

// children counts the entries of one level of dir: files and directories.
func children(f files, dir string) int {
	seen := map[string]bool{}
	for p := range f {
		if rest, ok := under(p, dir); ok {
			name, _, _ := strings.Cut(rest, "/")
			seen[name] = true
		}
	}
	return len(seen)
}

// entriesUnder counts everything a recursive read of dir lists.
func entriesUnder(f files, dir string) int {
	seen := map[string]bool{}
	for p := range f {
		if rest, ok := under(p, dir); ok {
			parts := strings.Split(rest, "/")
			for i := 1; i <= len(parts); i++ {
				seen[strings.Join(parts[:i], "/")] = true
			}
		}
	}
	return len(seen)
}

func subdirs(f files, dir string) []string {
	seen := map[string]bool{}
	for p := range f {
		if rest, ok := under(p, dir); ok {
			if name, _, isDir := strings.Cut(rest, "/"); isDir {
				seen[path.Join(dir, name)] = true
			}
		}
	}
	var out []string
	for d := range seen {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

func hasDir(f files, dir string) bool {
	for p := range f {
		if _, ok := under(p, dir); ok {
			return true
		}
	}
	return false
}

func sameUnder(a, b files, dir string) bool {
	for _, f := range []files{a, b} {
		for p := range f {
			if _, ok := under(p, dir); ok && a[p] != b[p] {
				return false
			}
		}
	}
	return true
}
