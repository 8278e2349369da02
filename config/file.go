package config

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/review-my-code-bot/rmc/glob"
)

// Source is where a setting's value came from. Precedence: an input set in
// the workflow wins over the file, the file over the default.
type Source string

// Sources of a setting.
const (
	SourceDefault Source = "default"
	SourceInput   Source = "input"
	SourceFile    Source = "file"
)

// PathInstruction is review guidance for the files matching Path (a glob
// with ignore_paths' rules).
type PathInstruction struct {
	Path         string `yaml:"path" json:"path"`
	Instructions string `yaml:"instructions" json:"instructions"`
}

// Limits on the file's free text, which goes into every review's prompt.
const (
	maxInstructions     = 8000
	maxPathInstructions = 50
)

var languageRe = regexp.MustCompile(`^\p{L}[\p{L}\p{M} ()-]{0,39}$`)

func pathInstructions(p *parser, c *Config, name string, n *yaml.Node) {
	var pis []PathInstruction
	if n.Kind != yaml.SequenceNode {
		p.fail("%s: must be a list of {path, instructions}", name)
		return
	}
	if len(n.Content) > maxPathInstructions {
		p.fail("%s: %d entries, at most %d", name, len(n.Content), maxPathInstructions)
		return
	}
	for i, e := range n.Content {
		var pi PathInstruction
		if e.Kind != yaml.MappingNode {
			p.fail("%s[%d]: must be {path, instructions}", name, i)
			continue
		}
		for j := 0; j+1 < len(e.Content); j += 2 {
			k, v := e.Content[j].Value, e.Content[j+1]
			if v.Kind != yaml.ScalarNode {
				p.fail("%s[%d].%s: must be a string", name, i, k)
				continue
			}
			switch k {
			case "path":
				pi.Path = strings.TrimSpace(v.Value)
			case "instructions":
				pi.Instructions = strings.TrimSpace(v.Value)
			default:
				p.fail("%s[%d]: unknown key %q (use path and instructions)", name, i, k)
			}
		}
		switch _, err := glob.Compile(pi.Path); {
		case pi.Path == "":
			p.fail("%s[%d]: path is missing", name, i)
		case err != nil:
			p.fail("%s[%d]: %v", name, i, err)
		case pi.Instructions == "":
			p.fail("%s[%d]: instructions are missing", name, i)
		case len(pi.Instructions) > maxInstructions:
			p.fail("%s[%d]: instructions are %d characters, at most %d", name, i, len(pi.Instructions), maxInstructions)
		default:
			pis = append(pis, pi)
		}
	}
	c.PathInstructions = pis
}

// isInput reports whether a file key is also an action input.
func isInput(key string) bool {
	return slices.ContainsFunc(Inputs, func(in Input) bool { return in.Name == key })
}

// settle derives what depends on several settings.
func (c *Config) settle(p *parser) {
	problem := c.Review.ProblemThreshold
	c.Review.BlockingThreshold = problem
	if c.blockingInput == 0 {
		return
	}
	c.Review.BlockingThreshold = c.blockingInput
	if problem > 0 && c.blockingInput < problem {
		p.fail("blocking_score_threshold (%d) must be at least problem_score_threshold (%d): a finding too weak to report cannot block", c.blockingInput, problem)
	}
}

func (p *parser) boolOf(name, v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "yes", "on":
		return true
	case "false", "no", "off":
		return false
	}
	p.fail("%s: %q is not a boolean (use true or false)", name, v)
	return false
}

func (p *parser) intOf(name, v string, lo, hi int) int {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < lo || n > hi {
		p.fail("%s: %q must be a whole number from %d to %d", name, v, lo, hi)
		return 0
	}
	return n
}

// FileReport is what reading the config file found.
type FileReport struct {
	Path     string   // the file read; "" when the base has none
	Problems []string // unknown keys and bad values, each naming its key
	// Unknown are the Problems that are keys no setting has: a typo, most
	// likely, so each names the nearest key. They are warnings: the file's
	// other settings apply.
	Unknown []string
	// Fatal: a bad value touches the merge gate (a threshold, what is
	// reviewed), so the run must not go on without it.
	Fatal bool
}

// WithFile applies the repository's config file (text read from path at the
// PR's base) under the inputs: a key set as an input keeps the input's
// value. A bad value is left out and reported; it makes the report Fatal
// when it touches the gate.
func (c Config) WithFile(path, text string) Config {
	c.Sources = maps.Clone(c.Sources)
	file := FileReport{Path: path}
	problem := func(fatal bool, format string, args ...any) {
		file.Problems = append(file.Problems, path+": "+fmt.Sprintf(format, args...))
		file.Fatal = file.Fatal || fatal
	}
	unknown := func(key string) {
		msg := fmt.Sprintf("%s: unknown key %q is ignored%s (known keys: %s)", path, key, didYouMean(key, FileKeys), strings.Join(FileKeys, ", "))
		file.Problems, file.Unknown = append(file.Problems, msg), append(file.Unknown, msg)
	}
	c = c.fromFile(path, text, problem, unknown)
	c.File = file
	return c
}

// fromFile is WithFile's reading of the file, each problem reported
// through problem.
func (c Config) fromFile(path, text string, problem func(fatal bool, format string, args ...any), unknown func(key string)) Config {
	if path == "" {
		return c
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		problem(true, "not valid YAML: %v", err)
		return c
	}
	if len(doc.Content) == 0 {
		return c // an empty file sets nothing
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		problem(true, "must be a mapping of settings (key: value)")
		return c
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		key := root.Content[i].Value
		if _, known := lookupKey(key); !known {
			unknown(key)
			continue
		}
		c = c.withKey(key, root.Content[i+1], problem)
	}
	var p parser
	c.settle(&p)
	for _, err := range p.errs {
		problem(true, "%v", err)
	}
	return c
}

// withKey applies one known key of the file, unless an input set it; a value
// that does not parse is reported through problem and left out.
func (c Config) withKey(key string, val *yaml.Node, problem func(fatal bool, format string, args ...any)) Config {
	t, _ := lookupKey(key)
	overridden := c.Sources[key] == SourceInput
	next, p := c, parser{}
	switch {
	case t.node != nil:
		t.node(&p, &next, key, val)
	case val.Kind == yaml.ScalarNode && val.Tag != "!!null":
		t.set(&p, &next, key, val.Value)
	case val.Kind == yaml.SequenceNode && t.list && scalars(val):
		items := make([]string, len(val.Content))
		for j, n := range val.Content {
			items[j] = n.Value
		}
		t.set(&p, &next, key, strings.Join(items, "\n"))
	default:
		p.fail("%s: must be %s", key, map[bool]string{true: "a list of strings", false: "a single value"}[t.list])
	}
	for _, err := range p.errs {
		problem(t.gate && !overridden, "%v", err)
	}
	if len(p.errs) > 0 || overridden {
		return c
	}
	next.Sources[key] = SourceFile
	return next
}

func scalars(n *yaml.Node) bool {
	for _, e := range n.Content {
		if e.Kind != yaml.ScalarNode {
			return false
		}
	}
	return true
}

// Setting is one effective setting, for the job summary.
type Setting struct {
	Key, Value string
	Source     Source
}

// Settings are the effective values of Keys and where each came from.
func (c Config) Settings() []Setting {
	out := make([]Setting, len(Keys))
	for i, k := range Keys {
		out[i] = Setting{Key: k.Name, Value: k.show(c), Source: c.Sources[k.Name]}
	}
	return out
}
