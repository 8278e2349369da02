package config

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// codeDefault is a setting's default as the code has it: an input's
// action.yml default, else the value a run with no input and no file has
// (review.DefaultSettings and the Key's Default), as a comma-separated list.
// ok is false when the code states none.
func codeDefault(t *testing.T, name string) (v string, ok bool) {
	t.Helper()
	for _, in := range Inputs {
		if in.Name == name && in.Default != "" {
			return normal(in.Default), true
		}
	}
	for _, s := range loaded(t, nil).Settings() {
		if s.Key == name && s.Source == SourceDefault {
			return normal(s.Value), true
		}
	}
	return "", false
}

// normal writes a list without spaces around its commas.
func normal(v string) string {
	parts := strings.Split(v, ",")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return strings.Join(parts, ",")
}

// Every default rmc.schema.json states is the code's.
func TestSchemaDefaultsAreTheCodes(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../rmc.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Properties map[string]struct {
			Default json.RawMessage `json:"default"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for key, p := range s.Properties {
		if p.Default == nil {
			continue
		}
		var v any
		if err := json.Unmarshal(p.Default, &v); err != nil {
			t.Fatal(err)
		}
		var text string
		if list, ok := v.([]any); ok {
			for i, e := range list {
				text += map[bool]string{true: ",", false: ""}[i > 0] + fmt.Sprint(e)
			}
		} else {
			text = fmt.Sprint(v)
		}
		if want, ok := codeDefault(t, key); !ok || text != want {
			t.Errorf("rmc.schema.json: %s defaults to %s, the code to %q", key, p.Default, want)
		}
		checked++
	}
	if checked < 5 {
		t.Errorf("checked %d defaults of rmc.schema.json: the test no longer reads them", checked)
	}
}

// readmeRow is a row of the tables of docs/configuration.md of inputs and keys whose
// default is written as code: | `name` | `value`[, `value`] | meaning |.
var readmeRow = regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\| (`[^`|]+`(?:, `[^`|]+`)*) \\|")

// Every default the tables of docs/configuration.md state as a value is
// the code's.
func TestDocsDefaultsAreTheCodes(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := readmeRow.FindAllStringSubmatch(string(raw), -1)
	checked := map[string]bool{}
	for _, m := range rows {
		name, stated := m[1], normal(strings.ReplaceAll(m[2], "`", ""))
		want, ok := codeDefault(t, name)
		if !ok {
			continue // a default the code leaves to the client or the provider
		}
		if stated != want {
			t.Errorf("docs/configuration.md: %s defaults to %q, the code to %q", name, stated, want)
		}
		checked[name] = true
	}
	for _, name := range []string{"problem_score_threshold", "max_inline_comments", "max_review_retries", "model_context_tokens", "bot_mentions", "walkthrough"} {
		if !checked[name] {
			t.Errorf("docs/configuration.md states no default of %s that the test could read", name)
		}
	}
}
