package config

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/review-my-code-bot/rmc/llm"
)

// Model client settings. They are inputs only, next to model and
// llm_base_url: they describe the endpoint and the model the workflow
// chose, and the client is built before the repository's file is read.

// ReasoningEfforts are the values of reasoning_effort that OpenAI's API
// reference lists; providers that read the parameter accept a subset.
var ReasoningEfforts = []string{"none", "minimal", "low", "medium", "high", "xhigh"}

// Limits of the model settings.
const (
	minModelTimeout  = 10 * time.Second
	maxModelTimeout  = 2 * time.Hour
	minContextTokens = 1024
	maxContextTokens = 10_000_000
	maxOutputTokens  = 1_000_000
	maxPrice         = 10_000 // USD per million tokens
)

// modelSettings reads the model client's inputs into c.
func (p *parser) modelSettings(c *Config) {
	c.ModelTimeout = p.duration("model_timeout")
	if v := p.str("reasoning_effort"); v != "" {
		if !slices.Contains(ReasoningEfforts, v) {
			p.fail("reasoning_effort: %q is not one of %s", v, strings.Join(ReasoningEfforts, ", "))
		} else {
			c.ReasoningEffort = v
		}
	}
	if v := p.str("max_output_tokens"); v != "" {
		c.MaxOutputTokens = p.intOf("max_output_tokens", v, 1, maxOutputTokens)
	}
	if v := p.str("model_context_tokens"); v != "" {
		c.Review.ContextTokens = p.intOf("model_context_tokens", v, minContextTokens, maxContextTokens)
	}
	if window := c.Review.ContextTokens; c.MaxOutputTokens > 0 && window > 0 && c.MaxOutputTokens >= window {
		p.fail("max_output_tokens (%d) must be less than model_context_tokens (%d): the window holds the prompt and the answer", c.MaxOutputTokens, window)
	}
	c.Provider = strings.ToLower(p.str("llm_provider"))
	if c.Provider != "" && !slices.Contains(llm.ProviderNames(), c.Provider) {
		p.fail("llm_provider: %q is not one of %s (or empty, to detect it from llm_base_url)", c.Provider, strings.Join(llm.ProviderNames(), ", "))
		c.Provider = ""
	}
	if p.str("llm_stream") != "" {
		on := p.boolean("llm_stream")
		c.Stream = &on
	}
	c.ExtraBody = p.jsonObject("extra_body")
	c.ExtraHeaders = p.headers("extra_headers")
	inputNames := strings.NewReplacer("ExtraBody", "extra_body", "ExtraHeaders", "extra_headers",
		"ReasoningEffort", "reasoning_effort", "MaxOutputTokens", "max_output_tokens")
	for _, err := range llm.CheckExtras(c.LLMOptions(c.Model)) {
		p.fail("%s", inputNames.Replace(err.Error()))
	}
	c.ModelPrices = p.prices("model_prices")
}

// duration reads a whole number of seconds or a Go duration ("90s", "10m").
func (p *parser) duration(name string) time.Duration {
	v := p.str(name)
	if v == "" {
		return 0
	}
	d, err := time.ParseDuration(v)
	if n, nerr := strconv.Atoi(v); nerr == nil {
		d, err = time.Duration(n)*time.Second, nil
	}
	if err != nil || d < minModelTimeout || d > maxModelTimeout {
		p.fail("%s: %q must be a duration from %v to %v, e.g. 300 (seconds), 90s or 10m", name, v, minModelTimeout, maxModelTimeout)
		return 0
	}
	return d
}

// jsonObject reads an input holding a JSON object, members as sent.
func (p *parser) jsonObject(name string) map[string]json.RawMessage {
	v := p.str(name)
	if v == "" {
		return nil
	}
	var m map[string]json.RawMessage
	dec := json.NewDecoder(strings.NewReader(v))
	if err := dec.Decode(&m); err != nil || m == nil || dec.More() {
		p.fail("%s: not a JSON object (%s); write it as {\"key\": value}", name, jsonProblem(err))
		return nil
	}
	return m
}

func jsonProblem(err error) string {
	if err == nil {
		return "extra text after the object"
	}
	return err.Error()
}

// headers reads extra_headers: a JSON object of strings.
func (p *parser) headers(name string) map[string]string {
	raw := p.jsonObject(name)
	if raw == nil {
		return nil
	}
	out := make(map[string]string, len(raw))
	for k, v := range raw {
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			p.fail("%s: the value of %q must be a string", name, k)
			continue
		}
		out[k] = s
	}
	return out
}

// prices reads model_prices: {"input", "cached", "output", "cache_write"}
// in USD per million tokens; input and output are required, cached
// defaults to input (no discount known), cache_write to input.
func (p *parser) prices(name string) *llm.Prices {
	v := p.str(name)
	if v == "" {
		return nil
	}
	var in struct {
		Input      *float64 `json:"input"`
		Cached     *float64 `json:"cached"`
		Output     *float64 `json:"output"`
		CacheWrite *float64 `json:"cache_write"`
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(v)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		p.fail(`%s: %v; write it as {"input": 3, "cached": 0.3, "output": 15} (USD per million tokens; "cache_write" optional)`, name, err)
		return nil
	}
	if in.Input == nil || in.Output == nil {
		p.fail(`%s: "input" and "output" are required, e.g. {"input": 3, "cached": 0.3, "output": 15}`, name)
		return nil
	}
	pr := llm.Prices{Input: *in.Input, Cached: *in.Input, Output: *in.Output}
	if in.Cached != nil {
		pr.Cached = *in.Cached
	}
	if in.CacheWrite != nil {
		pr.CacheWrite = *in.CacheWrite
	}
	// In a fixed order, so the same bad value always gets the same message.
	for _, kx := range []struct {
		k string
		x float64
	}{{"input", pr.Input}, {"cached", pr.Cached}, {"output", pr.Output}, {"cache_write", pr.CacheWrite}} {
		if kx.x < 0 || kx.x > maxPrice {
			p.fail("%s: %s is %v; a price is from 0 to %d USD per million tokens", name, kx.k, kx.x, maxPrice)
			return nil
		}
	}
	return &pr
}

// Secrets are the values the log must hide: the keys and the values of
// extra_headers (a gateway's credentials travel there).
func (c Config) Secrets() []string {
	out := []string{c.APIKey, c.GitHubToken}
	for _, v := range c.ExtraHeaders {
		out = append(out, v)
	}
	return out
}

// LLMOptions are the model client's options from the inputs, for model
// (the review's or the injection check's).
func (c Config) LLMOptions(model string) llm.Options {
	return llm.Options{BaseURL: c.BaseURL, APIKey: c.APIKey, Model: model,
		RequestTimeout: c.ModelTimeout, ReasoningEffort: c.ReasoningEffort, MaxOutputTokens: c.MaxOutputTokens,
		ContextTokens: c.Review.ContextTokens, ExtraBody: c.ExtraBody, ExtraHeaders: c.ExtraHeaders,
		Provider: c.Provider, Stream: c.Stream}
}
