package config

import (
	"fmt"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/review-my-code-bot/rmc/glob"
	"github.com/review-my-code-bot/rmc/review"
)

// Limits on checks: each is evaluated by every automatic review.
const (
	maxChecks            = 20
	maxCheckInstructions = 4000
)

// checkNameRe is a check's name: it shows in titles, tables and the
// prompt, so it is a short plain name.
var checkNameRe = regexp.MustCompile(`^[\p{L}\p{N}][\p{L}\p{N} _.,:/()-]{0,63}$`)

// checks reads the checks key: a list of {name, instructions, mode, paths}.
// mode is error or warning, and must be said: whether a check holds the
// gate is not left to a default; paths are globs with ignore_paths' rules
// (default: every file).
func checks(p *parser, c *Config, name string, n *yaml.Node) {
	if n.Kind != yaml.SequenceNode {
		p.fail("%s: must be a list of {name, instructions, mode, paths}", name)
		return
	}
	if len(n.Content) > maxChecks {
		p.fail("%s: %d checks, at most %d", name, len(n.Content), maxChecks)
		return
	}
	var out []review.Check
	seen := map[string]bool{}
	for i, e := range n.Content {
		ch, ok := check(p, name, i, e)
		if !ok {
			continue
		}
		if key := strings.ToLower(ch.Name); seen[key] {
			p.fail("%s[%d]: a second check named %q", name, i, ch.Name)
			continue
		} else {
			seen[key] = true
		}
		out = append(out, ch)
	}
	c.Checks = out
}

// check reads one entry of checks.
func check(p *parser, name string, i int, e *yaml.Node) (review.Check, bool) {
	var ch review.Check
	where := fmt.Sprintf("%s[%d]", name, i)
	if e.Kind != yaml.MappingNode {
		p.fail("%s: must be {name, instructions, mode, paths}", where)
		return ch, false
	}
	bad := len(p.errs)
	for j := 0; j+1 < len(e.Content); j += 2 {
		checkKey(p, &ch, where, e.Content[j].Value, e.Content[j+1])
	}
	if _, err := glob.CompileAll(ch.Paths); err != nil {
		p.fail("%s.paths: %v", where, err)
	}
	checkComplete(p, ch, where)
	return ch, len(p.errs) == bad
}

// checkKey reads key k of the check at where into ch.
func checkKey(p *parser, ch *review.Check, where, k string, v *yaml.Node) {
	switch {
	case k == "paths" && (v.Kind == yaml.SequenceNode && scalars(v) || v.Kind == yaml.ScalarNode):
		ch.Paths = nil
		for _, s := range append([]*yaml.Node{v}, v.Content...) {
			if s.Kind == yaml.ScalarNode && strings.TrimSpace(s.Value) != "" {
				ch.Paths = append(ch.Paths, strings.TrimSpace(s.Value))
			}
		}
	case k == "paths":
		p.fail("%s.paths: must be a list of globs", where)
	case v.Kind != yaml.ScalarNode:
		p.fail("%s.%s: must be a string", where, k)
	case k == "name":
		ch.Name = strings.TrimSpace(v.Value)
	case k == "instructions":
		ch.Instructions = strings.TrimSpace(v.Value)
	case k == "mode":
		ch.Mode = review.CheckMode(strings.ToLower(strings.TrimSpace(v.Value)))
	default:
		p.fail("%s: unknown key %q (use name, instructions, mode and paths)", where, k)
	}
}

// checkComplete refuses a check without a plain name, instructions of a
// sensible length, or a mode of error or warning (the first problem only).
func checkComplete(p *parser, ch review.Check, where string) {
	switch {
	case !checkNameRe.MatchString(ch.Name):
		p.fail("%s: name %q must be 1-64 letters, digits, spaces or _ . , : / ( ) -, starting with a letter or digit", where, ch.Name)
	case ch.Instructions == "":
		p.fail("%s (%s): instructions are missing", where, ch.Name)
	case len(ch.Instructions) > maxCheckInstructions:
		p.fail("%s (%s): instructions are %d characters, at most %d", where, ch.Name, len(ch.Instructions), maxCheckInstructions)
	case ch.Mode == "":
		p.fail("%s (%s): mode is missing (error holds the merge gate when the check fails, warning reports it)", where, ch.Name)
	case ch.Mode != review.CheckError && ch.Mode != review.CheckWarning:
		p.fail("%s (%s): mode %q must be error or warning", where, ch.Name, ch.Mode)
	}
}
