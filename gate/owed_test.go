package gate

import (
	"reflect"
	"testing"
)

// What a change set owes is what Evaluate counts against the gate, split
// by whether a review can read it: an excluded path, a reviewed or binary
// blob (under any path) owe nothing; a new blob is owed a review; a blob
// no review could read, and a submodule's pointer, are owed and
// unreadable; an unread or unknown change set owes nothing known.
func TestOwed(t *testing.T) {
	t.Parallel()
	var l Ledger
	l.Record(Reviewed, blob(1))
	l.Record(Binary, blob(2))
	l.Record(NoDiff, blob(3))
	changes := []Change{
		{Path: "a.go", Blob: blob(1), Kind: KindBlob},     // reviewed
		{Path: "moved.go", Blob: blob(1), Kind: KindBlob}, // renamed: the review carries
		{Path: "logo.png", Blob: blob(2), Kind: KindBlob}, // binary by content
		{Path: "huge.json", Blob: blob(3), Kind: KindBlob},
		{Path: "gen/x.go", Blob: blob(4), Kind: KindBlob}, // excluded by the base
		{Path: "new.go", Blob: blob(5), Kind: KindBlob},
		{Path: "vendor/m", Blob: blob(6), Kind: KindCommit},
	}
	for name, tc := range map[string]struct {
		cs         ChangeSet
		known      bool
		review     []string
		unreadable []string
	}{
		"a known change set":  {cs: ChangeSet{Changes: changes}, known: true, review: []string{"new.go"}, unreadable: []string{"huge.json", "vendor/m"}},
		"nothing changed":     {cs: ChangeSet{}, known: true},
		"not read":            {cs: ChangeSet{Changes: changes, Unread: true}},
		"a truncated tree":    {cs: ChangeSet{Unknown: "GitHub truncated the tree of \"a\""}},
		"every change is old": {cs: ChangeSet{Changes: changes[:3]}, known: true},
	} {
		o := Owed(tc.cs, l, prefixScope("gen/"))
		if o.Known != tc.known || !reflect.DeepEqual(paths(o.Review), tc.review) || !reflect.DeepEqual(paths(o.Unreadable), tc.unreadable) {
			t.Errorf("%s: known %v, review %v, unreadable %v; want %v, %v, %v", name, o.Known, paths(o.Review), paths(o.Unreadable), tc.known, tc.review, tc.unreadable)
		}
		if want := tc.known && len(tc.review) == 0; o.Covered() != want {
			t.Errorf("%s: covered %v, want %v", name, o.Covered(), want)
		}
		// One rule: the gate counts exactly what is owed.
		if j := Evaluate(Facts{Head: "h", Changes: tc.cs, Ledger: l, Scope: prefixScope("gen/")}); len(j.Owed) != len(o.Review)+len(o.Unreadable) {
			t.Errorf("%s: the gate owes %d change(s), Owed %d", name, len(j.Owed), len(o.Review)+len(o.Unreadable))
		}
	}
}

func paths(cs []Change) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Path)
	}
	return out
}
