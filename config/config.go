// Package config reads and validates the action's inputs. Input names and
// meanings follow rmc-oc's, so its users switch by changing one line.
package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/settings"
)

// DefaultBaseURL is the model client's default endpoint (OpenRouter's
// OpenAI-compatible API): one constant, the client's.
const DefaultBaseURL = llm.DefaultBaseURL

// ErrNoAPIKey is the error for a missing model key.
var ErrNoAPIKey = errors.New("llm_api_key (or openrouter_api_key) is required: pass it from a secret, e.g. llm_api_key: ${{ secrets.OPENROUTER_API_KEY }}")

// Config is the validated input.
type Config struct {
	GitHubToken string
	APIKey      string // llm_api_key, or its alias openrouter_api_key
	BaseURL     string
	Model       string

	// Run are the settings the run's tasks receive whole (the review's
	// settings, language, comments, escalation, checks...).
	settings.Run
	ReviewTimeout time.Duration

	EnableWeb bool
	Debug     bool

	InjectionDetection bool
	InjectionModel     string

	Handles  []string // "@review-my-code-bot", "@rmc-bot"
	BotLogin string   // "" = detect
	DryRun   bool
	// NoticeUnauthorized tells people without access, once, why their
	// mention is not acted on.
	NoticeUnauthorized bool
	// ForkAuthorsCanAsk lets the author of a PR from a fork start model work
	// without write access (off: every comment would spend the key).
	ForkAuthorsCanAsk bool

	// Settings a repository may also set in .github/rmc.yml (file.go).
	Instructions     string            // for every review
	PathInstructions []PathInstruction // for the files matching a glob
	// Walkthrough posts the sticky walkthrough comment with automatic
	// reviews.
	Walkthrough bool

	// Model client settings (inputs only; model.go).
	ModelTimeout    time.Duration              // one model request; 0 = the client's default
	ReasoningEffort string                     // "" = the model's default
	MaxOutputTokens int                        // 0 = the provider's default
	ExtraBody       map[string]json.RawMessage // merged into every request
	ExtraHeaders    map[string]string          // sent with every request; secrets
	Provider        string                     // llm_provider; "" = detected from the URL
	Stream          *bool                      // llm_stream; nil = the provider's default
	ModelPrices     *llm.Prices                // nil = not set
	// Sources says where each of FileKeys' values came from.
	Sources map[string]Source
	// File is what reading the config file found (WithFile).
	File FileReport

	input         map[string]string // FileKeys set as inputs
	blockingInput int               // blocking_score_threshold as given; 0 = unset
}

var (
	handleRe = regexp.MustCompile(`^@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\[bot\])?$`)
	loginRe  = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\[bot\])?$`)
)

// Load reads inputs through get (which returns "" for unset inputs; the
// runner fills action.yml defaults) and validates all of them, reporting
// every problem at once. needLLM is false for modes that never call a model.
func Load(get func(name string) string, needLLM bool) (Config, error) {
	p := parser{get: get}
	c := Config{input: map[string]string{}, Run: settings.Run{Review: review.DefaultSettings(),
		ManualStartComment: p.boolean("review_manual_trigger_enable_start_comment"),
		ManualEndComment:   p.boolean("review_manual_trigger_enable_end_comment")},
		GitHubToken:        p.str("github_token"),
		BaseURL:            strings.TrimRight(p.str("llm_base_url"), "/"),
		Model:              p.str("model"),
		EnableWeb:          p.boolean("enable_web"),
		Debug:              p.boolean("debug_logging"),
		InjectionDetection: p.boolean("injection_detection_enabled"),
		InjectionModel:     p.str("injection_verification_model"),
		BotLogin:           p.str("bot_login"),
		DryRun:             p.boolean("dry_run"),
		NoticeUnauthorized: p.boolean("notice_unauthorized"),
		ForkAuthorsCanAsk:  p.boolean("fork_authors_can_ask"),
	}
	c.APIKey = p.apiKey()
	p.modelSettings(&c)
	c.ReviewTimeout = time.Duration(p.intIn("review_timeout_minutes", 1, 360)) * time.Minute
	c.Review.Retries = p.intIn("max_review_retries", 0, 5)
	c.Review.Concurrency = p.intIn("review_concurrency", 1, review.MaxConcurrency)
	p.escalation(&c)
	p.tunables(&c)
	c.settle(&p)
	p.endpoint(&c, needLLM)
	return c, errors.Join(p.errs...)
}

// escalation reads who disputes are escalated to.
func (p *parser) escalation(c *Config) {
	c.EnableHumanEscalation = p.boolean("enable_human_escalation")
	for _, r := range list(p.str("human_reviewers")) {
		r = strings.TrimPrefix(r, "@")
		if !loginRe.MatchString(r) {
			p.fail("human_reviewers: %q is not a GitHub login", r)
			continue
		}
		c.HumanReviewers = append(c.HumanReviewers, r)
	}
	if c.EnableHumanEscalation && len(c.HumanReviewers) == 0 {
		p.fail("enable_human_escalation is true but human_reviewers is empty: name who disputes are escalated to")
	}
}

// tunables reads the settings the repository's file may also set: the
// input when given, else the default (review.DefaultSettings for the
// review's, the Key's Default for the others), each with its source.
func (p *parser) tunables(c *Config) {
	c.Sources = map[string]Source{}
	for _, key := range Keys {
		k := key.Name
		if isInput(k) && p.str(k) != "" {
			c.input[k] = p.str(k)
		}
		v, src := c.input[k], SourceInput
		if v == "" {
			v, src = key.Default, SourceDefault
		}
		c.Sources[k] = src
		if key.set != nil && v != "" {
			key.set(p, c, k, v)
		}
	}
}

// endpoint checks who the bot is and where the model is, and that a run
// that calls the model has a key and a model.
func (p *parser) endpoint(c *Config, needLLM bool) {
	if c.BotLogin != "" && !loginRe.MatchString(c.BotLogin) {
		p.fail("bot_login: %q is not a GitHub login", c.BotLogin)
	}
	if c.BaseURL != "" && !strings.HasPrefix(c.BaseURL, "https://") && !strings.HasPrefix(c.BaseURL, "http://") {
		p.fail("llm_base_url: %q is not an http(s) URL", c.BaseURL)
	}
	if c.BaseURL == "" {
		c.BaseURL = DefaultBaseURL
	}
	if c.InjectionModel == "" {
		c.InjectionModel = c.Model
	}
	if needLLM && !c.DryRun {
		if c.APIKey == "" {
			p.errs = append(p.errs, ErrNoAPIKey)
		}
		if c.Model == "" {
			p.fail("model is required")
		}
	}
}

type parser struct {
	get  func(string) string
	errs []error
}

func (p *parser) str(name string) string { return strings.TrimSpace(p.get(name)) }

func (p *parser) fail(format string, args ...any) {
	p.errs = append(p.errs, fmt.Errorf(format, args...))
}

func (p *parser) boolean(name string) bool {
	switch v := strings.ToLower(p.str(name)); v {
	case "true", "yes", "on", "1":
		return true
	case "", "false", "no", "off", "0":
		return false
	default:
		p.fail("%s: %q is not a boolean (use true or false)", name, p.str(name))
		return false
	}
}

func (p *parser) intIn(name string, lo, hi int) int {
	v := p.str(name)
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		p.fail("%s: %q must be a whole number from %d to %d", name, v, lo, hi)
		return 0
	}
	return n
}

func (p *parser) apiKey() string {
	a, b := p.str("llm_api_key"), p.str("openrouter_api_key")
	if a != "" && b != "" && a != b {
		p.fail("llm_api_key and openrouter_api_key are both set and differ: set one (they are aliases)")
	}
	if a != "" {
		return a
	}
	return b
}

// list splits a comma- or newline-separated input, dropping blanks.
func list(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '\n' }) {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// Defaults returns the inputs' default values, as the runner would fill them
// (github_token's expression is left empty: outside a runner there is none).
func Defaults() map[string]string {
	m := make(map[string]string, len(Inputs))
	for _, in := range Inputs {
		if !strings.HasPrefix(in.Default, "${{") {
			m[in.Name] = in.Default
		}
	}
	return m
}
