package benchmark

import (
	"strings"
	"testing"
)

func TestParseGolden(t *testing.T) {
	t.Parallel()
	ok := `[{"pr_title": "T", "url": "https://github.com/o/r/pull/1", "comments": [{"comment": "c", "severity": "High", "category": "bug"}]}]`
	tests := map[string]struct {
		in   string
		want string // "" = parses
	}{
		"public format":         {ok, ""},
		"no category (older)":   {`[{"pr_title": "T", "url": "https://github.com/o/r/pull/1", "comments": [{"comment": "c", "severity": "Low"}]}]`, ""},
		"no comments":           {`[{"pr_title": "T", "url": "local/r/pull/2", "comments": []}]`, ""},
		"curators' notes":       {strings.Replace(ok, `"pr_title"`, `"original_url": "https://github.com/getsentry/sentry/pull/9", "az_comment": "reviewed commit is not in the repo", "pr_title"`, 1), ""},
		"a comment twice":       {strings.Replace(ok, `"category": "bug"}`, `"category": "bug"}, {"comment": "c", "severity": "Low"}`, 1), "listed twice in the PR"},
		"unknown severity":      {strings.Replace(ok, "High", "Severe", 1), `severity "Severe"`},
		"unknown category":      {strings.Replace(ok, `"bug"`, `"performance"`, 1), `category "performance"`},
		"empty comment":         {strings.Replace(ok, `"comment": "c"`, `"comment": " "`, 1), "empty comment"},
		"unknown field":         {strings.Replace(ok, `"pr_title"`, `"line": 3, "pr_title"`, 1), "unknown field"},
		"not a PR URL":          {strings.Replace(ok, "pull/1", "issues/1", 1), "not a pull request URL"},
		"path in the repo name": {strings.Replace(ok, "o/r/pull", "o/../pull", 1), "not a pull request URL"},
		"PR listed twice":       {"[" + ok[1:len(ok)-1] + "," + ok[1:], "listed twice"},
		"not an array":          {`{"pr_title": "T"}`, "cannot unmarshal"},
		"trailing data":         {ok + ` []`, "extra data"},
		"another host":          {strings.Replace(ok, "github.com", "evil.example", 1), "not a pull request URL"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := ParseGolden("x.json", []byte(tc.in))
			if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("ParseGolden: %v, want %q", err, tc.want)
			}
		})
	}
}

func TestParsePRURL(t *testing.T) {
	t.Parallel()
	good := map[string]PRRef{
		"https://github.com/getsentry/sentry/pull/93824":                        {"getsentry", "sentry", 93824},
		"https://github.com/calcom/cal.com/pull/8087":                           {"calcom", "cal.com", 8087},
		"https://github.com/ai-code-review-evaluation/keycloak-greptile/pull/1": {"ai-code-review-evaluation", "keycloak-greptile", 1},
		"local/go-ledger/pull/3":                                                {"local", "go-ledger", 3},
	}
	for in, want := range good {
		if got, err := ParsePRURL(in); err != nil || got != want {
			t.Errorf("ParsePRURL(%q) = %+v, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "https://github.com/o/r/pull/0", "https://github.com/o/r/pull/1/files", "https://github.com/o/./pull/1",
		"https://github.com/../r/pull/1", "o/r/pull/1\n", "https://github.com/o/r%2f/pull/1", "https://github.com/-o/r/pull/1"} {
		if got, err := ParsePRURL(in); err == nil {
			t.Errorf("ParsePRURL(%q) = %+v, want an error", in, got)
		}
	}
}

func FuzzParseGolden(f *testing.F) {
	f.Add([]byte(`[{"pr_title": "T", "url": "https://github.com/o/r/pull/1", "comments": [{"comment": "c", "severity": "High", "category": "bug"}]}]`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		prs, err := ParseGolden("fuzz.json", data)
		if err != nil {
			return
		}
		for _, pr := range prs {
			ref, err := ParsePRURL(pr.URL)
			if err != nil || strings.ContainsAny(ref.Owner+ref.Name, "/\\\x00") || ref.Name == ".." || ref.Name == "." {
				t.Fatalf("accepted %q as %+v", pr.URL, ref)
			}
		}
	})
}

func FuzzParseVerdict(f *testing.F) {
	f.Add([]byte(`{"reasoning": "r", "match": true, "confidence": 0.5}`))
	f.Add([]byte(`{"reasoning": "r", "match": true, "confidence": 2}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseVerdict(data)
		// A verdict without a match carries no confidence: it cannot raise
		// a golden comment's best.
		if err == nil && !v.Match && v.Confidence != 0 {
			t.Fatalf("accepted %+v from %q", v, data)
		}
	})
}

func FuzzParseIssues(f *testing.F) {
	f.Add([]byte(`{"issues": ["a", "b"]}`))
	f.Add([]byte(`{"issues": [""]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		issues, err := ParseIssues(data)
		if err != nil {
			return
		}
		for _, s := range issues {
			if strings.TrimSpace(s) == "" {
				t.Fatalf("accepted an empty issue from %q", data)
			}
		}
	})
}
