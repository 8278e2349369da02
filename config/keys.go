package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/review-my-code-bot/rmc/glob"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/settings"
)

// setCalibrate reads calibrate: one of the settings.Calibrate modes.
func setCalibrate(p *parser, c *Config, name, v string) {
	switch m := settings.Calibrate(strings.ToLower(strings.TrimSpace(v))); m {
	case settings.CalibrateOff, settings.CalibrateSuggest, settings.CalibrateApply:
		c.Calibrate = m
	default:
		p.fail("%s: %q is not off, suggest or apply", name, v)
	}
}

// Key is one setting .github/rmc.yml may set: the one place it is declared.
// Its parsing, its line in the job summary and its property in
// rmc.schema.json (generated: go test ./internal/reference -update) are
// here; a key that is also an input is in Inputs too.
type Key struct {
	Name string
	Doc  string // the schema's description
	// Schema is the JSON Schema of the value, the members of its object
	// without the description (type, bounds, items, default).
	Schema string
	// Default is the value with no input and no file, for a key whose
	// default is not the review's (review.DefaultSettings); "" = none.
	Default string
	gate    bool // a bad value changes what gates the merge: the run fails
	list    bool // the file may give a YAML list (or one string)
	set     func(p *parser, c *Config, name, v string)
	// node reads a structured file value; nil = set with the value's text.
	node func(p *parser, c *Config, name string, n *yaml.Node)
	// show is the effective value, for the job summary.
	show func(c Config) string
}

// Keys are the keys .github/rmc.yml may set, in the order the summary and
// the schema show them. The names are part of the contract.
var Keys = []Key{
	{Name: "problem_score_threshold", gate: true,
		Doc:    "Findings scoring below this (1-10) are dropped. Default 5. A bad value fails the run.",
		Schema: `"type": "integer", "minimum": 1, "maximum": 10, "default": 5`,
		set:    func(p *parser, c *Config, name, v string) { c.Review.ProblemThreshold = p.intOf(name, v, 1, 10) },
		show:   func(c Config) string { return strconv.Itoa(c.Review.ProblemThreshold) }},
	{Name: "blocking_score_threshold", gate: true,
		Doc:    "Findings scoring at or above this (1-10) block the merge; at least problem_score_threshold. Default: problem_score_threshold. A bad value fails the run.",
		Schema: `"type": "integer", "minimum": 1, "maximum": 10`,
		set:    setBlocking,
		show:   func(c Config) string { return strconv.Itoa(c.Review.BlockingThreshold) }},
	{Name: "ignore_paths", gate: true, list: true,
		Doc:    "Globs the review skips, with .gitignore's rules (*.snap, docs/**, vendor/, src/**/gen.go). A bad glob fails the run.",
		Schema: `"type": "array", "items": {"type": "string", "minLength": 1}`,
		set:    setIgnorePaths,
		show:   func(c Config) string { return strings.Join(c.Review.IgnorePaths, ", ") }},
	// The file's only, never an input: a pull request cannot change what
	// the base keeps private. A bad glob would let a private file through.
	{Name: "private_paths", gate: true, list: true,
		Doc:    "Globs, with ignore_paths' rules, of files whose content must never leave the runner (customer data, credential fixtures): never in any prompt, refused by the model's tools, never quoted in a reply, even when someone asks about them. Read from the base branch only. A bad glob fails the run.",
		Schema: `"type": "array", "items": {"type": "string", "minLength": 1}`,
		set:    setPrivatePaths,
		show:   func(c Config) string { return strings.Join(c.Review.PrivatePaths, ", ") }},
	{Name: "passes", gate: true, list: true,
		Doc:    "Which of the three review passes run. Default: all three. A bad value fails the run.",
		Schema: `"type": "array", "minItems": 1, "uniqueItems": true,` + "\n      " + `"items": {"enum": ["atomic", "structure", "security"]},` + "\n      " + `"default": ["atomic", "structure", "security"]`,
		set:    setPasses,
		show:   func(c Config) string { return strings.Join(c.Review.Passes, ", ") }},
	{Name: "max_run_tokens", gate: true,
		Doc:    "Most prompt + completion tokens a run may spend. A review that reaches it stops between passes or chunks and posts what it found as a partial review. 0 or absent: no limit. A bad value fails the run.",
		Schema: `"type": "integer", "minimum": 0, "maximum": 100000000`,
		set:    setMaxRunTokens,
		show:   showMaxRunTokens},
	{Name: "max_inline_comments",
		Doc:    "Inline comments per review; further findings go in the review body. Default 30.",
		Schema: `"type": "integer", "minimum": 1, "maximum": 100, "default": 30`,
		set:    func(p *parser, c *Config, name, v string) { c.Review.MaxInline = p.intOf(name, v, 1, 100) },
		show:   func(c Config) string { return strconv.Itoa(c.Review.MaxInline) }},
	{Name: "instructions",
		Doc:    "Guidance for every review, e.g. conventions the model should know.",
		Schema: `"type": "string", "maxLength": 8000`,
		set:    setInstructions,
		show:   func(c Config) string { return fmt.Sprintf("%d characters", len(c.Instructions)) }},
	{Name: "path_instructions",
		Doc: "Guidance for the files matching a glob (ignore_paths' rules); given to the review when the pull request changes such a file.",
		Schema: `"type": "array", "maxItems": 50,
      "items": {
        "type": "object", "additionalProperties": false, "required": ["path", "instructions"],
        "properties": {
          "path": {"type": "string", "minLength": 1},
          "instructions": {"type": "string", "minLength": 1, "maxLength": 8000}
        }
      }`,
		node: pathInstructions,
		show: showPathInstructions},
	{Name: "language",
		Doc:    "The language the bot writes in (e.g. French); code and identifiers stay as they are. Default: English.",
		Schema: `"type": "string", "pattern": "^\\p{L}[\\p{L}\\p{M} ()-]{0,39}$"`,
		set:    setLanguage,
		show:   showLanguage},
	{Name: "notify_agent",
		Doc:    "Handle of the pull request's coding agent (e.g. @claude) to tell when a review requests changes.",
		Schema: `"type": "string", "pattern": "^@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\\[bot\\])?$"`,
		set:    setNotifyAgent,
		show:   func(c Config) string { return c.NotifyAgent }},
	{Name: "bot_mentions", list: true, Default: "@review-my-code-bot,@rmc-bot",
		Doc:    "Handles the bot answers to. Default: @review-my-code-bot, @rmc-bot.",
		Schema: `"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1}`,
		set:    setBotMentions,
		show:   func(c Config) string { return strings.Join(c.Handles, ", ") }},
	{Name: "walkthrough", Default: "true",
		Doc:    "Post the walkthrough (a summary, the changed files grouped by purpose, the review effort) with the first automatic review, edited in place on later ones. Default true.",
		Schema: `"type": "boolean", "default": true`,
		set:    func(p *parser, c *Config, name, v string) { c.Walkthrough = p.boolOf(name, v) },
		show:   func(c Config) string { return strconv.FormatBool(c.Walkthrough) }},
	{Name: "calibrate", Default: string(settings.CalibrateSuggest),
		Doc:    "What the measured precision (the outcome ledger, see docs/stats.md) may do: off; suggest shows in the stats the problem threshold per category the evidence supports; apply also raises a category's problem threshold, up to blocking_score_threshold, when under 30% of at least 20 of its findings were acted on, and every review says so. Default: suggest.",
		Schema: `"type": "string", "enum": ["off", "suggest", "apply"], "default": "suggest"`,
		set:    setCalibrate,
		show:   func(c Config) string { return string(c.Calibrate) }},
	{Name: "walkthrough_diagram", Default: "false",
		Doc:    "Let the walkthrough carry a Mermaid sequence diagram when control flow across components changed. Default false.",
		Schema: `"type": "boolean", "default": false`,
		set:    func(p *parser, c *Config, name, v string) { c.WalkthroughDiagram = p.boolOf(name, v) },
		show:   func(c Config) string { return strconv.FormatBool(c.WalkthroughDiagram) }},
	// A bad check touches the gate: an error check holds it.
	{Name: "checks", gate: true,
		Doc: "Checks in plain language, evaluated by every automatic review against the diff: pass, fail or inconclusive, with a reason and locations. A failing error check holds the merge gate like a blocking finding. Read from the base branch only. A bad entry fails the run.",
		Schema: `"type": "array", "maxItems": 20,
      "items": {
        "type": "object", "additionalProperties": false, "required": ["name", "instructions", "mode"],
        "properties": {
          "name": {"type": "string", "pattern": "^[\\p{L}\\p{N}][\\p{L}\\p{N} _.,:/()-]{0,63}$"},
          "instructions": {"type": "string", "minLength": 1, "maxLength": 4000},
          "mode": {"enum": ["error", "warning"]},
          "paths": {"type": "array", "items": {"type": "string", "minLength": 1}}
        }
      }`,
		node: checks,
		show: showChecks},
}

// FileKeys are the names of Keys, in order.
var FileKeys = func() []string {
	out := make([]string, len(Keys))
	for i, k := range Keys {
		out[i] = k.Name
	}
	return out
}()

// lookupKey is the Key named name.
func lookupKey(name string) (Key, bool) {
	i := slices.IndexFunc(Keys, func(k Key) bool { return k.Name == name })
	if i < 0 {
		return Key{}, false
	}
	return Keys[i], true
}

func setBlocking(p *parser, c *Config, name, v string) {
	c.blockingInput = 0
	if v != "" {
		c.blockingInput = p.intOf(name, v, 1, 10)
	}
}

func setIgnorePaths(p *parser, c *Config, name, v string) {
	c.Review.IgnorePaths = list(v)
	if _, err := glob.CompileAll(c.Review.IgnorePaths); err != nil {
		for _, e := range strings.Split(err.Error(), "\n") {
			p.fail("%s: %s", name, e)
		}
	}
}

func setPrivatePaths(p *parser, c *Config, name, v string) {
	c.Review.PrivatePaths = list(v)
	if _, err := glob.CompileAll(c.Review.PrivatePaths); err != nil {
		for _, e := range strings.Split(err.Error(), "\n") {
			p.fail("%s: %s", name, e)
		}
	}
}

func setPasses(p *parser, c *Config, name, v string) {
	names := review.PassNames()
	c.Review.Passes = nil
	for _, s := range list(v) {
		if s = strings.ToLower(s); !slices.Contains(names, s) {
			p.fail("%s: %q is not a review pass (use %s)", name, s, strings.Join(names, ", "))
		} else if !slices.Contains(c.Review.Passes, s) {
			c.Review.Passes = append(c.Review.Passes, s)
		}
	}
	if len(c.Review.Passes) == 0 {
		p.fail("%s is empty: name at least one of %s", name, strings.Join(names, ", "))
	}
}

func setMaxRunTokens(p *parser, c *Config, name, v string) {
	c.Review.MaxRunTokens = 0
	if v != "" {
		c.Review.MaxRunTokens = p.intOf(name, v, 0, 100_000_000)
	}
}

func showMaxRunTokens(c Config) string {
	if c.Review.MaxRunTokens > 0 {
		return strconv.Itoa(c.Review.MaxRunTokens)
	}
	return "no limit"
}

func setInstructions(p *parser, c *Config, name, v string) {
	if len(v) > maxInstructions {
		p.fail("%s: %d characters, at most %d", name, len(v), maxInstructions)
		return
	}
	c.Instructions = strings.TrimSpace(v)
}

func showPathInstructions(c Config) string {
	var globs []string
	for _, pi := range c.PathInstructions {
		globs = append(globs, pi.Path)
	}
	return strings.Join(globs, ", ")
}

func setLanguage(p *parser, c *Config, name, v string) {
	if v != "" && !languageRe.MatchString(v) {
		p.fail("%s: %q is not a language name (e.g. French, Português)", name, v)
		return
	}
	c.Language = v
}

func showLanguage(c Config) string {
	if c.Language == "" {
		return "English"
	}
	return c.Language
}

func setNotifyAgent(p *parser, c *Config, name, v string) {
	if v != "" && !handleRe.MatchString(v) {
		p.fail("%s: %q is not an @handle (e.g. @claude)", name, v)
		return
	}
	c.NotifyAgent = v
}

func setBotMentions(p *parser, c *Config, name, v string) {
	var hs []string
	for _, h := range list(v) {
		if !strings.HasPrefix(h, "@") {
			h = "@" + h
		}
		if !handleRe.MatchString(h) {
			p.fail("%s: %q is not an @handle", name, h)
			continue
		}
		hs = append(hs, h)
	}
	if len(hs) == 0 && len(list(v)) == 0 {
		p.fail("%s is empty: the bot needs at least one handle to answer to", name)
	}
	c.Handles = hs
}

func showChecks(c Config) string {
	var names []string
	for _, ch := range c.Checks {
		names = append(names, fmt.Sprintf("%s (%s)", ch.Name, ch.Mode))
	}
	return strings.Join(names, ", ")
}

// InstructionsFor is the guidance a review of these changed paths gets:
// the file's instructions, and those of its path_instructions whose glob
// matches one of them.
func (c Config) InstructionsFor(paths []string) string {
	parts := []string{}
	if c.Instructions != "" {
		parts = append(parts, c.Instructions)
	}
	for _, pi := range c.PathInstructions {
		g, err := glob.Compile(pi.Path)
		if err != nil {
			continue // WithFile already reported it
		}
		if slices.ContainsFunc(paths, g.Match) {
			parts = append(parts, fmt.Sprintf("For files matching %s:\n%s", pi.Path, pi.Instructions))
		}
	}
	return strings.Join(parts, "\n\n")
}
