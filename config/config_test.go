package config

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

func getter(over map[string]string) func(string) string {
	d := Defaults()
	for k, v := range over {
		d[k] = v
	}
	return func(k string) string { return d[k] }
}

func TestLoadDefaults(t *testing.T) {
	t.Parallel()
	c, err := Load(getter(map[string]string{"llm_api_key": "sk-test"}), true)
	if err != nil {
		t.Fatal(err)
	}
	if c.Review.ProblemThreshold != 5 || c.Review.BlockingThreshold != 5 || c.ReviewTimeout != 40*time.Minute || c.Review.Retries != 1 || c.Review.Concurrency != 4 {
		t.Errorf("thresholds/timeouts/concurrency: %+v", c)
	}
	if c.BaseURL != DefaultBaseURL || c.Model == "" || c.InjectionModel != c.Model {
		t.Errorf("llm: %+v", c)
	}
	if strings.Join(c.Handles, ",") != "@review-my-code-bot,@rmc-bot" {
		t.Errorf("handles = %v", c.Handles)
	}
	if !c.ManualStartComment || !c.ManualEndComment || c.DryRun || c.EnableWeb {
		t.Errorf("booleans: %+v", c)
	}
}

func TestLoad(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		in      map[string]string
		needLLM bool
		wantErr []string // every substring must appear
		check   func(t *testing.T, c Config)
	}{
		"openrouter_api_key is an alias": {
			in: map[string]string{"openrouter_api_key": "sk-or"}, needLLM: true,
			check: func(t *testing.T, c Config) {
				if c.APIKey != "sk-or" {
					t.Errorf("APIKey = %q", c.APIKey)
				}
			},
		},
		"aliases that disagree":              {in: map[string]string{"openrouter_api_key": "a", "llm_api_key": "b"}, wantErr: []string{"both set and differ"}},
		"missing key when the LLM is needed": {needLLM: true, wantErr: []string{"llm_api_key (or openrouter_api_key) is required"}},
		"missing key is fine for a dry run":  {in: map[string]string{"dry_run": "true"}, needLLM: true},
		"threshold 0":                        {in: map[string]string{"problem_score_threshold": "0"}, wantErr: []string{"problem_score_threshold: \"0\" must be a whole number from 1 to 10"}},
		"threshold 11":                       {in: map[string]string{"problem_score_threshold": "11"}, wantErr: []string{"from 1 to 10"}},
		"blocking below problem":             {in: map[string]string{"problem_score_threshold": "7", "blocking_score_threshold": "6"}, wantErr: []string{"blocking_score_threshold (6) must be at least problem_score_threshold (7)"}},
		"blocking above problem": {
			in: map[string]string{"problem_score_threshold": "4", "blocking_score_threshold": "8"},
			check: func(t *testing.T, c Config) {
				if c.Review.ProblemThreshold != 4 || c.Review.BlockingThreshold != 8 {
					t.Errorf("got %d/%d", c.Review.ProblemThreshold, c.Review.BlockingThreshold)
				}
			},
		},
		"unknown boolean": {in: map[string]string{"enable_web": "maybe"}, wantErr: []string{`enable_web: "maybe" is not a boolean`}},
		"booleans in other spellings": {
			in: map[string]string{"enable_web": "Yes", "debug_logging": "ON", "dry_run": "1"},
			check: func(t *testing.T, c Config) {
				if !c.EnableWeb || !c.Debug || !c.DryRun {
					t.Errorf("got %+v", c)
				}
			},
		},
		"timeout not a number":      {in: map[string]string{"review_timeout_minutes": "forty"}, wantErr: []string{"review_timeout_minutes"}},
		"escalation without people": {in: map[string]string{"enable_human_escalation": "true"}, wantErr: []string{"human_reviewers is empty"}},
		"reviewers are logins": {
			in: map[string]string{"enable_human_escalation": "true", "human_reviewers": "@alice, bob\ncarol"},
			check: func(t *testing.T, c Config) {
				if strings.Join(c.HumanReviewers, ",") != "alice,bob,carol" {
					t.Errorf("reviewers = %v", c.HumanReviewers)
				}
			},
		},
		"bad reviewer": {in: map[string]string{"human_reviewers": "al ice"}, wantErr: []string{`"al ice" is not a GitHub login`}},
		"handles without @": {in: map[string]string{"bot_mentions": "rmc-bot, @other"}, check: func(t *testing.T, c Config) {
			if strings.Join(c.Handles, ",") != "@rmc-bot,@other" {
				t.Errorf("handles = %v", c.Handles)
			}
		}},
		"bad handle":       {in: map[string]string{"bot_mentions": "@rmc bot"}, wantErr: []string{"is not an @handle"}},
		"bad base URL":     {in: map[string]string{"llm_base_url": "ftp://x"}, wantErr: []string{"not an http(s) URL"}},
		"bad agent handle": {in: map[string]string{"notify_agent": "claude code"}, wantErr: []string{"notify_agent"}},
		"ignore_paths are globs": {in: map[string]string{"ignore_paths": "**/*.snap, docs/**\nvendor/"}, check: func(t *testing.T, c Config) {
			if strings.Join(c.Review.IgnorePaths, "|") != "**/*.snap|docs/**|vendor/" {
				t.Errorf("ignore_paths = %q", c.Review.IgnorePaths)
			}
		}},
		"malformed ignore_paths, each named": {in: map[string]string{"ignore_paths": "src/[ab.go, docs/**, *.{png"}, wantErr: []string{`ignore_paths: "src/[ab.go" is not a valid glob`, `ignore_paths: "*.{png" is not a valid glob`}},
		"negated ignore_paths":               {in: map[string]string{"ignore_paths": "!docs/keep.md"}, wantErr: []string{"ignore_paths", "negation (!) is not supported"}},
		"review_concurrency at its bounds": {in: map[string]string{"review_concurrency": "16"}, check: func(t *testing.T, c Config) {
			if c.Review.Concurrency != 16 {
				t.Errorf("concurrency = %d", c.Review.Concurrency)
			}
		}},
		"review_concurrency one": {in: map[string]string{"review_concurrency": "1"}, check: func(t *testing.T, c Config) {
			if c.Review.Concurrency != 1 {
				t.Errorf("concurrency = %d", c.Review.Concurrency)
			}
		}},
		"review_concurrency 0":  {in: map[string]string{"review_concurrency": "0"}, wantErr: []string{`review_concurrency: "0" must be a whole number from 1 to 16`}},
		"review_concurrency 17": {in: map[string]string{"review_concurrency": "17"}, wantErr: []string{"review_concurrency", "from 1 to 16"}},
		"every error at once":   {in: map[string]string{"problem_score_threshold": "0", "enable_web": "x", "review_timeout_minutes": "0"}, wantErr: []string{"problem_score_threshold", "enable_web", "review_timeout_minutes"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, err := Load(getter(tc.in), tc.needLLM)
			if len(tc.wantErr) == 0 {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				if tc.check != nil {
					tc.check(t, c)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %v", tc.wantErr)
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

// action.yml and Inputs must agree: names, defaults, and nothing extra.
func TestActionYAMLMatchesInputs(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	inputsSection := text[strings.Index(text, "\ninputs:\n"):strings.Index(text, "\noutputs:\n")]
	re := regexp.MustCompile(`(?m)^  ([a-z_]+):\n    description: .*\n    required: false\n    default: (.*)$`)
	got := map[string]string{}
	for _, m := range re.FindAllStringSubmatch(inputsSection, -1) {
		got[m[1]] = strings.Trim(m[2], `"`)
	}
	if len(got) != len(Inputs) {
		t.Errorf("action.yml declares %d inputs, config.Inputs has %d", len(got), len(Inputs))
	}
	for _, in := range Inputs {
		def, ok := got[in.Name]
		if !ok {
			t.Errorf("input %s missing from action.yml", in.Name)
			continue
		}
		if def != in.Default {
			t.Errorf("input %s: action.yml default %q, code default %q", in.Name, def, in.Default)
		}
	}
	for _, out := range []string{"review_status", "issues_found", "blocking_issues", "has_blocking_issues", "tasks_executed"} {
		if !strings.Contains(text, "\n  "+out+":\n") {
			t.Errorf("output %s missing from action.yml", out)
		}
	}
}
