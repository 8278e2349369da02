package gate

import (
	"crypto/sha1"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// blob is a blob id: the SHA-1 of n, so ids differ in their first digits as
// git's do.
func blob(n int) string { return fmt.Sprintf("%x", sha1.Sum([]byte(fmt.Sprint(n)))) }

func tree(entries ...TreeEntry) Tree { return Tree{Entries: entries} }

func file(name string, n int) TreeEntry {
	return TreeEntry{Name: name, Mode: "100644", Kind: KindBlob, ID: blob(n)}
}

func dir(name string, n int) TreeEntry {
	return TreeEntry{Name: name, Mode: "040000", Kind: KindTree, ID: blob(1000 + n)}
}

// One step of the walk: equal entries are skipped whatever their kind, a
// changed file is a change, a changed or added directory is read next, a
// deleted path is nothing, and a truncated side makes the step unknown.
func TestCompare(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		base, head Tree
		changes    []Change
		next       []Descent
		unknown    string
	}{
		"identical": {base: tree(file("a", 1), dir("d", 1)), head: tree(file("a", 1), dir("d", 1))},
		"a changed file": {base: tree(file("a", 1)), head: tree(file("a", 2)),
			changes: []Change{{Path: "src/a", Blob: blob(2), Kind: KindBlob}}},
		"an added file":  {base: tree(), head: tree(file("b", 3)), changes: []Change{{Path: "src/b", Blob: blob(3), Kind: KindBlob}}},
		"a deleted file": {base: tree(file("a", 1)), head: tree()},
		"a changed directory": {base: tree(dir("d", 1)), head: tree(dir("d", 2)),
			next: []Descent{{Dir: "src/d", Base: blob(1001), Head: blob(1002)}}},
		"an added directory":             {base: tree(), head: tree(dir("d", 2)), next: []Descent{{Dir: "src/d", Head: blob(1002)}}},
		"a file that became a directory": {base: tree(file("d", 1)), head: tree(dir("d", 2)), next: []Descent{{Dir: "src/d", Head: blob(1002)}}},
		"a submodule moved": {base: tree(TreeEntry{Name: "m", Kind: KindCommit, ID: blob(5)}), head: tree(TreeEntry{Name: "m", Kind: KindCommit, ID: blob(6)}),
			changes: []Change{{Path: "src/m", Blob: blob(6), Kind: KindCommit}}},
		"the base truncated": {base: Tree{Entries: []TreeEntry{file("a", 1)}, Truncated: true}, head: tree(file("a", 1)), unknown: `truncated the tree of "src"`},
		"the head truncated": {base: tree(), head: Tree{Truncated: true}, unknown: `truncated the tree of "src"`},
		"an unknown kind":    {base: tree(), head: tree(TreeEntry{Name: "x", Kind: "tag", ID: blob(1)}), unknown: `unknown tree entry kind "tag"`},
	} {
		changes, next, unknown := Compare("src", tc.base, tc.head)
		if !reflect.DeepEqual(changes, tc.changes) || !reflect.DeepEqual(next, tc.next) || (unknown == "") != (tc.unknown == "") || !strings.Contains(unknown, tc.unknown) {
			t.Errorf("%s: changes %+v next %+v unknown %q", name, changes, next, unknown)
		}
	}
}

// A recursive read of an added directory lists its files from the
// directory's root; its subtrees are not changes.
func TestAdded(t *testing.T) {
	t.Parallel()
	got := Added("new", tree(dir("d", 1), file("d/a", 1), TreeEntry{Name: "m", Kind: KindCommit, ID: blob(2)}))
	want := []Change{{Path: "new/d/a", Blob: blob(1), Kind: KindBlob}, {Path: "new/m", Blob: blob(2), Kind: KindCommit}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Added = %+v", got)
	}
}

type prefixScope string

func (p prefixScope) Excluded(path string) bool { return strings.HasPrefix(path, string(p)) }
func (p prefixScope) Key() string               { return "prefix " + string(p) }

// The rule: success only when the change set is known, every change is
// excluded by the base or its blob is in the ledger as reviewed or binary,
// and nothing blocking stands. Coverage follows the blob, not the path.
func TestEvaluate(t *testing.T) {
	t.Parallel()
	change := func(path string, n int) Change { return Change{Path: path, Blob: blob(n), Kind: KindBlob} }
	ledger := func(marks map[Mark][]int) Ledger {
		var l Ledger
		for m, ns := range marks {
			for _, n := range ns {
				l.Record(m, blob(n))
			}
		}
		return l
	}
	for name, tc := range map[string]struct {
		f     Facts
		state State
		desc  string
		owed  int
	}{
		"nothing changed": {Facts{}, Success, "reviewed", 0},
		"every blob reviewed": {Facts{Changes: ChangeSet{Changes: []Change{change("a", 1), change("b", 2)}}, Ledger: ledger(map[Mark][]int{Reviewed: {1, 2}})},
			Success, "reviewed", 0},
		"a renamed reviewed blob": {Facts{Changes: ChangeSet{Changes: []Change{change("moved/a", 1)}}, Ledger: ledger(map[Mark][]int{Reviewed: {1}})},
			Success, "reviewed", 0},
		"a new blob at a reviewed path": {Facts{Changes: ChangeSet{Changes: []Change{change("a", 3)}}, Ledger: ledger(map[Mark][]int{Reviewed: {1}})},
			Pending, "0123456 not reviewed yet", 1},
		"one of two reviewed": {Facts{Changes: ChangeSet{Changes: []Change{change("a", 1), change("b", 2)}}, Ledger: ledger(map[Mark][]int{Reviewed: {1}})},
			Pending, "1 changed file(s) of", 1},
		"binary by content": {Facts{Changes: ChangeSet{Changes: []Change{change("logo.png", 4)}}, Ledger: ledger(map[Mark][]int{Binary: {4}})},
			Success, "reviewed", 0},
		"no diff": {Facts{Changes: ChangeSet{Changes: []Change{change("dump.sql", 5)}}, Ledger: ledger(map[Mark][]int{NoDiff: {5}})},
			Pending, "too large for GitHub to send a diff", 1},
		"no diff, then reviewed": {Facts{Changes: ChangeSet{Changes: []Change{change("dump.sql", 5)}}, Ledger: ledger(map[Mark][]int{NoDiff: {5}, Reviewed: {5}})},
			Success, "reviewed", 0},
		"excluded by the base": {Facts{Changes: ChangeSet{Changes: []Change{change("gen/x.go", 6)}}, Scope: prefixScope("gen/")}, Success, "reviewed", 0},
		"a submodule": {Facts{Changes: ChangeSet{Changes: []Change{{Path: "vendor/m", Blob: blob(7), Kind: KindCommit}}}, Ledger: ledger(map[Mark][]int{Reviewed: {7}})},
			Pending, "too large", 1},
		"unknown change set": {Facts{Changes: ChangeSet{Unknown: "GitHub truncated the tree of \"/\""}, Ledger: ledger(map[Mark][]int{Reviewed: {1}})},
			Pending, "changed files of 0123456 unknown (GitHub truncated", 0},
		"unknown, blocking": {Facts{Changes: ChangeSet{Unknown: "x"}, Blocking: 1}, Failure, "1 open blocking", 0},
		"covered, blocking": {Facts{Blocking: 2, Missing: 1}, Failure, "with a deleted thread", 0},
		"never reviewed":    {Facts{Changes: ChangeSet{Changes: []Change{change("a", 1)}}}, Pending, "not reviewed yet", 1},
		"paused":            {Facts{Changes: ChangeSet{Changes: []Change{change("a", 1)}}, Review: Paused, Why: "paused by @maria"}, Pending, "not reviewed: paused by @maria", 1},
		"paused, covered": {Facts{Changes: ChangeSet{Changes: []Change{change("a", 1)}}, Ledger: ledger(map[Mark][]int{Reviewed: {1}}), Review: Paused},
			Success, "reviewed", 0},
		"failed": {Facts{Changes: ChangeSet{Changes: []Change{change("a", 1)}}, Review: Failed, Why: "HTTP 503"}, Pending, "failed (HTTP 503)", 1},
		"every blob reviewed, the state ledger cut": {Facts{Changes: ChangeSet{Changes: []Change{change("a", 1)}}, Ledger: ledger(map[Mark][]int{Reviewed: {1}}),
			Integrity: Integrity{Cuts: 1, Cut: "the bot's reply 9 was deleted", Touched: 1}}, Failure, "state ledger cut (the bot's reply 9 was deleted)", 0},
		"change set unread, the state ledger cut": {Facts{Changes: ChangeSet{Unread: true}, Integrity: Integrity{Cuts: 1, Cut: "x"}}, Failure, "state ledger cut", 0},
		"a short blob id matches nothing": {Facts{Changes: ChangeSet{Changes: []Change{{Path: "a", Blob: "abc", Kind: KindBlob}}}, Ledger: ledger(map[Mark][]int{Reviewed: {1}})},
			Pending, "not reviewed yet", 1},
	} {
		tc.f.Head = "0123456789abcdef0123456789abcdef01234567"
		j := Evaluate(tc.f)
		want := tc.state
		if j.Verdict.State != want || !strings.Contains(j.Verdict.Description, tc.desc) || len(j.Owed) != tc.owed {
			t.Errorf("%s: %s %q, %d owed; want %s containing %q, %d owed", name, j.Verdict.State, j.Verdict.Description, len(j.Owed), want, tc.desc, tc.owed)
		}
	}
}

// Reviewed outranks binary, which outranks no diff, whatever the order
// the ledger meets them in; keys are the first 32 hex digits.
func TestLedger(t *testing.T) {
	t.Parallel()
	var l Ledger
	l.Record(NoDiff, blob(1))
	l.Record(Reviewed, blob(1))
	l.Record(NoDiff, blob(1))
	l.Record(Binary, blob(2))
	l.Record(NoDiff, blob(2))
	l.Record(Reviewed, "not hex at all, not hex at all, not hex")
	if l.Of(blob(1)) != Reviewed || l.Of(blob(2)) != Binary || l.Len() != 2 {
		t.Errorf("ledger: %v %v, %d blobs", l.Of(blob(1)), l.Of(blob(2)), l.Len())
	}
	if Key(blob(1)) != blob(1)[:KeyLen] || Key("ABCDEF0123456789ab") != "" || Key("0123") != "" {
		t.Error("Key")
	}
}

// Two whole reads of a directory: the head's files whose object differs at
// their path are changes, directories are not, and a truncated side is
// unknown.
func TestCompareWhole(t *testing.T) {
	t.Parallel()
	base := tree(dir("d", 1), file("d/a", 1), file("d/b", 2), file("c", 3))
	head := tree(dir("d", 2), file("d/a", 1), file("d/b", 4), file("d/new", 5), file("c", 3))
	got, unknown := CompareWhole("svc", base, head)
	want := []Change{{Path: "svc/d/b", Blob: blob(4), Kind: KindBlob}, {Path: "svc/d/new", Blob: blob(5), Kind: KindBlob}}
	if unknown != "" || !reflect.DeepEqual(got, want) {
		t.Errorf("CompareWhole = %+v, %q", got, unknown)
	}
	if _, unknown := CompareWhole("svc", base, Tree{Truncated: true}); unknown == "" {
		t.Error("a truncated whole read was taken as complete")
	}
}

// A commit's status is the strictest gate of the open PRs whose head it is,
// this PR's on a tie, naming the PR it came from.
func TestShared(t *testing.T) {
	t.Parallel()
	ok := Verdict{State: Success, Description: "0123456 reviewed"}
	wait := Verdict{State: Pending, Description: "not reviewed yet"}
	red := Verdict{State: Failure, Description: "1 open blocking finding(s)"}
	for name, tc := range map[string]struct {
		own    Verdict
		others []PRVerdict
		want   Verdict
	}{
		"alone":                  {ok, nil, ok},
		"another PR fails":       {ok, []PRVerdict{{7, red}}, Verdict{State: Failure, Description: "#7: 1 open blocking finding(s)"}},
		"the strictest of two":   {ok, []PRVerdict{{7, wait}, {8, red}}, Verdict{State: Failure, Description: "#8: 1 open blocking finding(s)"}},
		"a tie keeps this PR's":  {red, []PRVerdict{{7, red}}, red},
		"a laxer one is ignored": {wait, []PRVerdict{{7, ok}}, wait},
	} {
		if got := Shared(tc.own, tc.others); got != tc.want {
			t.Errorf("%s: %+v", name, got)
		}
	}
	if !Relaxes(Failure, Pending) || !Relaxes(Pending, Success) || Relaxes(Pending, Failure) || Relaxes(Success, Success) || !Relaxes("error", Failure) {
		t.Error("Relaxes")
	}
}

// An author who made two contents share the first 64 bits of their blob
// ids (2^32 work) gets no review for the second from the first's: the
// ledger keys 128 bits.
func TestLedgerKeysResistAnAuthorsCollision(t *testing.T) {
	t.Parallel()
	reviewed := "0123456789abcdef" + "0000000000000000" + "00000000"
	crafted := "0123456789abcdef" + "ffffffffffffffff" + "00000000"
	var l Ledger
	l.Record(Reviewed, reviewed)
	if l.Of(crafted) == Reviewed {
		t.Errorf("a blob sharing only its first 64 bits with a reviewed one counts as reviewed")
	}
}
