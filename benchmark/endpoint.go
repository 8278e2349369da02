package benchmark

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strings"
	"time"

	"github.com/review-my-code-bot/rmc/llm"
)

// Endpoint is a model client's settings, the action's provider settings
// among them: everything about the endpoint that can change an answer. It
// is part of the cache key, so a run against another server, or with
// another timeout, window or extra_body, never reuses a result it did not
// make. The API key is not part of it.
type Endpoint struct {
	BaseURL         string                     `json:"base_url"`
	Model           string                     `json:"model"`
	Timeout         time.Duration              `json:"timeout,omitempty"`
	ContextTokens   int                        `json:"context_tokens,omitempty"`
	MaxOutputTokens int                        `json:"max_output_tokens,omitempty"`
	ReasoningEffort string                     `json:"reasoning_effort,omitempty"`
	Temperature     *float64                   `json:"temperature,omitempty"`
	ExtraBody       map[string]json.RawMessage `json:"extra_body,omitempty"`
	// ExtraHeaders may carry a gateway's credentials: the key holds their
	// names and a hash of the values, the report only the names.
	ExtraHeaders map[string]string `json:"-"`
	// MaxRetries and MaxRetryWait pace a call; they do not change an
	// answer, so they are not in the key: a call they let fail is redone
	// by --resume.
	MaxRetries   int           `json:"-"`
	MaxRetryWait time.Duration `json:"-"`
}

// Options are the llm client options for e, with the action's attribution.
func (e Endpoint) Options(apiKey string, warn func(string)) llm.Options {
	return llm.Options{BaseURL: e.BaseURL, APIKey: apiKey, Model: e.Model, PromptJSON: true,
		RequestTimeout: e.Timeout, ContextTokens: e.ContextTokens, MaxOutputTokens: e.MaxOutputTokens,
		ReasoningEffort: e.ReasoningEffort, Temperature: e.Temperature, ExtraBody: e.ExtraBody, ExtraHeaders: e.ExtraHeaders,
		// A benchmark waits out each pause up to MaxRetryWait, however many
		// it meets: no budget for the whole run.
		MaxRetries: e.MaxRetries, MaxRetryDelay: e.MaxRetryWait, MaxRetryWait: e.MaxRetryWait, RateLimitBudget: -1,
		Referer: "https://github.com/review-my-code-bot/rmc", Title: "review-my-code-bot bench", Warn: warn}
}

// keyed is e as the cache key holds it.
func (e Endpoint) keyed() any {
	base := strings.TrimRight(e.BaseURL, "/")
	if base == "" {
		base = llm.DefaultBaseURL
	}
	names := make([]string, 0, len(e.ExtraHeaders))
	for n := range e.ExtraHeaders {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		h.Write([]byte(strings.ToLower(n) + "\x00" + e.ExtraHeaders[n] + "\x00"))
	}
	e.BaseURL = base
	return struct {
		Endpoint
		Headers string `json:"headers,omitempty"`
	}{e, map[bool]string{true: hex.EncodeToString(h.Sum(nil))}[len(names) > 0]}
}

// HeaderNames lists the extra headers' names, for the report.
func (e Endpoint) HeaderNames() []string {
	names := make([]string, 0, len(e.ExtraHeaders))
	for n := range e.ExtraHeaders {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// JudgeTemperature is the temperature a judge is sent: 0, as upstream's
// judge runs, or none for a model that refuses it (OpenAI's reasoning
// models answer 400 to temperature 0, so every judge call would fail); the
// rule is the model client's.
func JudgeTemperature(model string) *float64 {
	if llm.RefusesTemperature(model) {
		return nil
	}
	zero := 0.0
	return &zero
}
