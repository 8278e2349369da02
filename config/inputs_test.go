package config

import (
	"strings"
	"testing"
)

// An input's kind is what Load accepts for it: a boolean input refuses a
// word that is not one, an integer input a word that is not a number, and
// each names the input. The table's defaults load without a problem.
func TestInputKindsAreWhatLoadReads(t *testing.T) {
	t.Parallel()
	if _, err := Load(getter(nil), false); err != nil {
		t.Fatalf("the defaults do not load: %v", err)
	}
	bad := map[Kind]string{KindBoolean: "maybe", KindInteger: "many", KindJSON: "{not json", KindDuration: "soon", KindURL: "ftp://x"}
	checked := map[Kind]int{}
	for _, in := range Inputs {
		v, ok := bad[in.Kind]
		if !ok {
			continue
		}
		_, err := Load(getter(map[string]string{in.Name: v}), false)
		if err == nil || !strings.Contains(err.Error(), in.Name) {
			t.Errorf("%s (%s) = %q: error %v, want one naming the input", in.Name, in.Kind, v, err)
		}
		checked[in.Kind]++
	}
	for k := range bad {
		if checked[k] == 0 {
			t.Errorf("no input of kind %s was checked", k)
		}
	}
	seen := map[string]bool{}
	for _, in := range Inputs {
		if seen[in.Name] || in.Doc == "" || in.Kind == "" {
			t.Errorf("input %q: declared twice, or without a kind or a doc", in.Name)
		}
		seen[in.Name] = true
	}
}
