package gate

import (
	"fmt"
	"path"
	"sort"
)

// EntryKind is what a git tree entry points at.
type EntryKind string

// The kinds GitHub's trees API reports.
const (
	KindBlob   EntryKind = "blob"   // a file (or a symlink)
	KindTree   EntryKind = "tree"   // a directory
	KindCommit EntryKind = "commit" // a submodule's commit
)

// TreeEntry is one entry of a git tree, named relative to the tree.
type TreeEntry struct {
	Name string
	Mode string
	Kind EntryKind
	ID   string // the object's id
}

// Tree is one git tree as read. Truncated is set when GitHub cut the list
// short: what it holds past the cut is unknown.
type Tree struct {
	ID        string
	Entries   []TreeEntry
	Truncated bool
}

// Change is one path of the head that differs from the merge base. Blob
// is the head's object id; Kind is KindCommit for a submodule whose
// pointer moved (nobody can review it from here). A deleted path is no
// change: the head holds nothing there to review.
type Change struct {
	Path string
	Blob string
	Kind EntryKind
}

// ChangeSet is every path of a head that differs from its merge base. It
// is complete or it is unknown: Unknown says why a read fell short (a
// truncated tree, a failed read), and an unknown change set is never
// covered.
type ChangeSet struct {
	Changes []Change
	Unknown string
	// Unread is set when the change set was not read because the gate
	// cannot be green whatever it holds (see Worth).
	Unread bool
}

// Worth reports whether reading a head's change set can change its gate:
// with a blocking finding standing the gate fails whatever changed, and
// the reads are saved. Everywhere else the change set is read (a PR that
// changes nothing, or only what the base excludes, is green unreviewed).
func Worth(blocking int) bool {
	return blocking == 0
}

// Known reports whether the change set is complete.
func (c ChangeSet) Known() bool { return c.Unknown == "" && !c.Unread }

// Descent is a pair of trees, one per side, whose ids differ: the walk
// reads both and compares them. Base is "" for a directory the head
// added; Head is never "" (a directory the head removed holds nothing to
// review).
type Descent struct {
	Dir        string // the directory's path from the root, "" for the root
	Base, Head string
}

// Compare is one step of the change set's walk: the changes two trees of
// the same directory show, and the subtrees whose ids differ, to read
// next. Entries whose ids are equal on both sides are the same content and
// are never read further: the walk costs as many reads as the directories
// the change touched. A truncated side makes the step, and so the change
// set, unknown.
func Compare(dir string, base, head Tree) (changes []Change, next []Descent, unknown string) {
	if base.Truncated || head.Truncated {
		return nil, nil, fmt.Sprintf("GitHub truncated the tree of %q", displayDir(dir))
	}
	old := make(map[string]TreeEntry, len(base.Entries))
	for _, e := range base.Entries {
		old[e.Name] = e
	}
	for _, e := range head.Entries {
		b, had := old[e.Name]
		if had && b.ID == e.ID && b.Kind == e.Kind {
			continue
		}
		p := path.Join(dir, e.Name)
		switch e.Kind {
		case KindTree:
			d := Descent{Dir: p, Head: e.ID}
			if had && b.Kind == KindTree {
				d.Base = b.ID
			}
			next = append(next, d)
		case KindBlob, KindCommit:
			changes = append(changes, Change{Path: p, Blob: e.ID, Kind: e.Kind})
		default:
			return nil, nil, fmt.Sprintf("unknown tree entry kind %q at %q", e.Kind, p)
		}
	}
	return changes, next, ""
}

// Added is the changes of a whole subtree the head added, read at once
// (a recursive tree read, entries named from the subtree's root). A
// truncated read is not an answer: the walk reads the subtree level by
// level instead.
func Added(dir string, recursive Tree) []Change {
	var out []Change
	for _, e := range recursive.Entries {
		if e.Kind == KindBlob || e.Kind == KindCommit {
			out = append(out, Change{Path: path.Join(dir, e.Name), Blob: e.ID, Kind: e.Kind})
		}
	}
	return out
}

// CompareWhole is the changes between two recursive reads of the same
// directory (entries named from its root), neither truncated: every file
// of the head whose object differs from the base's at the same path.
func CompareWhole(dir string, base, head Tree) (changes []Change, unknown string) {
	if head.Truncated || base.Truncated {
		return nil, fmt.Sprintf("GitHub truncated the tree of %q", displayDir(dir))
	}
	old := make(map[string]TreeEntry, len(base.Entries))
	for _, e := range base.Entries {
		old[e.Name] = e
	}
	for _, e := range head.Entries {
		if e.Kind == KindTree {
			continue
		}
		if b, had := old[e.Name]; had && b.ID == e.ID && b.Kind == e.Kind {
			continue
		}
		changes = append(changes, Change{Path: path.Join(dir, e.Name), Blob: e.ID, Kind: e.Kind})
	}
	return changes, ""
}

// Sorted orders the changes by path, so a change set reads the same
// whatever order its subtrees were walked in.
func Sorted(cs []Change) []Change {
	sort.Slice(cs, func(i, j int) bool { return cs[i].Path < cs[j].Path })
	return cs
}

func displayDir(dir string) string {
	if dir == "" {
		return "/"
	}
	return dir
}
