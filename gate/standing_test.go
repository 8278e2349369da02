package gate

import (
	"strings"
	"testing"
)

// Every fact a verdict depends on but the change set moves the basis; the
// change set does not (it is named by the commits).
func TestBasis(t *testing.T) {
	t.Parallel()
	base := func() Facts {
		var l Ledger
		l.Record(Reviewed, blob(1))
		return Facts{Head: strings.Repeat("1", 40), Ledger: l, Scope: prefixScope("gen/")}
	}
	want := Basis(base(), 7, "b")
	if len(want) != basisLen {
		t.Fatalf("basis %q", want)
	}
	for name, change := range map[string]func(f *Facts) (pr int, baseSHA string){
		"another PR":         func(*Facts) (int, string) { return 8, "b" },
		"another base":       func(*Facts) (int, string) { return 7, "c" },
		"another head":       func(f *Facts) (int, string) { f.Head = strings.Repeat("2", 40); return 7, "b" },
		"another scope":      func(f *Facts) (int, string) { f.Scope = prefixScope("vendor/"); return 7, "b" },
		"a blob more":        func(f *Facts) (int, string) { f.Ledger.Record(Reviewed, blob(2)); return 7, "b" },
		"a blob less":        func(f *Facts) (int, string) { f.Ledger = Ledger{}; return 7, "b" },
		"another mark":       func(f *Facts) (int, string) { f.Ledger.Record(Binary, blob(3)); return 7, "b" },
		"a review running":   func(f *Facts) (int, string) { f.Review = Running; return 7, "b" },
		"another reason":     func(f *Facts) (int, string) { f.Review, f.Why = Paused, "draft"; return 7, "b" },
		"a blocking finding": func(f *Facts) (int, string) { f.Blocking = 1; return 7, "b" },
		"a deleted thread":   func(f *Facts) (int, string) { f.Blocking, f.Missing = 1, 1; return 7, "b" },
	} {
		f := base()
		pr, b := change(&f)
		if got := Basis(f, pr, b); got == want {
			t.Errorf("%s: the basis did not move", name)
		}
	}
	f := base()
	f.Changes = ChangeSet{Changes: []Change{{Path: "a", Blob: blob(9), Kind: KindBlob}}}
	if Basis(f, 7, "b") != want {
		t.Error("the change set moved the basis: it is named by the commits")
	}
	f.Scope = nil
	if Basis(f, 7, "b") != "" {
		t.Error("a scope that cannot name its configuration has a basis")
	}
}

// A status stands only when it was judged on the run's facts, or when
// there is none and nothing blocks; a blocking finding is always written.
func TestStands(t *testing.T) {
	t.Parallel()
	basis := strings.Repeat("ab", basisLen/2)
	url := "https://github.example/acme/svc/pull/7"
	var reviewed Ledger
	reviewed.Record(Reviewed, blob(1))
	for name, tc := range map[string]struct {
		p        Published
		blocking int
		basis    string
		want     bool
		ledger   Ledger
	}{
		"judged on these facts":          {Published{Found: true, State: Success, URL: Stamp(url, basis)}, 0, basis, true, reviewed},
		"pending, judged on these facts": {Published{Found: true, State: Pending, URL: Stamp(url, basis)}, 0, basis, true, reviewed},
		"judged on other facts":          {Published{Found: true, State: Success, URL: Stamp(url, strings.Repeat("cd", basisLen/2))}, 0, basis, false, reviewed},
		"no basis on the status":         {Published{Found: true, State: Success, URL: url}, 0, basis, false, reviewed},
		"a basis cut short":              {Published{Found: true, State: Success, URL: url + stampMark + basis[:10]}, 0, basis[:10], false, reviewed},
		"no basis for these facts":       {Published{Found: true, State: Success, URL: Stamp(url, basis)}, 0, "", false, reviewed},
		"no status, nothing blocks":      {Published{}, 0, basis, true, Ledger{}},
		"no status, a review recorded":   {Published{}, 0, basis, false, reviewed},
		"no status, a blocking finding":  {Published{}, 1, basis, false, reviewed},
		"a blocking finding":             {Published{Found: true, State: Failure, URL: Stamp(url, basis)}, 1, basis, false, reviewed},
	} {
		if got := Stands(tc.p, Facts{Blocking: tc.blocking, Ledger: tc.ledger}, tc.basis); got != tc.want {
			t.Errorf("%s: Stands = %v, want %v", name, got, tc.want)
		}
	}
	if Stamp(url, "") != url || Stamped(Stamp(url, basis)) != basis {
		t.Error("a stamp does not round-trip")
	}
}
