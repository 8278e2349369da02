package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/review-my-code-bot/rmc/benchmark"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/review"
)

// defaultRetryWait is how long a pause the endpoint asks for (Retry-After)
// is waited out: a benchmark would rather wait than score a failure.
const defaultRetryWait = 10 * time.Minute

// providerFlags are the action's provider settings (model_timeout,
// model_context_tokens, max_output_tokens, reasoning_effort, extra_body,
// extra_headers), for the model and, where a judge needs its own, for the
// judge.
type providerFlags struct {
	timeout, judgeTimeout, retryWait        time.Duration
	contextTokens, maxOutput                int
	effort, judgeEffort                     string
	extraBody, extraHeaders, judgeExtraBody string
	body, judgeBody                         map[string]json.RawMessage
	headers                                 map[string]string
}

func (p *providerFlags) add(fs *flag.FlagSet) {
	fs.DurationVar(&p.timeout, "model-timeout", llm.DefaultRequestTimeout, "longest wait for one model request, as the action's model_timeout (e.g. 90s, 10m)")
	fs.DurationVar(&p.judgeTimeout, "judge-timeout", llm.DefaultRequestTimeout, "longest wait for one judge request")
	fs.DurationVar(&p.retryWait, "max-retry-wait", defaultRetryWait, "longest pause an endpoint may ask for (Retry-After) that is waited out; a longer one fails the call (a failed judge call is redone by --resume)")
	fs.IntVar(&p.contextTokens, "model-context-tokens", review.DefaultSettings().ContextTokens, "the model's context window in tokens, as the action's model_context_tokens: it sizes the diff's chunks, and no request is sent over it")
	fs.IntVar(&p.maxOutput, "max-output-tokens", 0, "most tokens of one answer, sent as max_completion_tokens, as the action's max_output_tokens (0: the provider's default)")
	fs.StringVar(&p.effort, "reasoning-effort", "", "sent as reasoning_effort, as the action's reasoning_effort (empty: the model's default)")
	fs.StringVar(&p.judgeEffort, "judge-reasoning-effort", "", "reasoning_effort for the judge (empty: the model's default)")
	fs.StringVar(&p.extraBody, "extra-body", "", `JSON object merged into every model request, as the action's extra_body, e.g. {"options": {"num_ctx": 32768}} for Ollama`)
	fs.StringVar(&p.extraHeaders, "extra-headers", "", "JSON object of headers sent with every model request, as the action's extra_headers")
	fs.StringVar(&p.judgeExtraBody, "judge-extra-body", "", "JSON object merged into every judge request")
}

// check parses the JSON flags and refuses what the client would refuse.
func (p *providerFlags) check() []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	var err error
	if p.body, err = jsonObject(p.extraBody); err != nil {
		bad("--extra-body: %v", err)
	}
	if p.judgeBody, err = jsonObject(p.judgeExtraBody); err != nil {
		bad("--judge-extra-body: %v", err)
	}
	if p.extraHeaders != "" {
		if err := json.Unmarshal([]byte(p.extraHeaders), &p.headers); err != nil {
			bad("--extra-headers is not a JSON object of strings: %v", err)
		}
	}
	if p.timeout < time.Second || p.judgeTimeout < time.Second || p.retryWait < 0 {
		bad("--model-timeout and --judge-timeout are at least 1s; --max-retry-wait is not negative")
	}
	if p.contextTokens < 1000 || p.maxOutput < 0 {
		bad("--model-context-tokens is at least 1000 and --max-output-tokens not negative")
	}
	for _, err := range llm.CheckExtras(llm.Options{ExtraBody: p.body, ExtraHeaders: p.headers}) {
		bad("%v", err)
	}
	for _, err := range llm.CheckExtras(llm.Options{ExtraBody: p.judgeBody}) {
		bad("judge: %v", err)
	}
	return problems
}

func jsonObject(s string) (map[string]json.RawMessage, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &m); err != nil || m == nil {
		return nil, fmt.Errorf("not a JSON object: %.100q", s)
	}
	return m, nil
}

// endpoints are the model's and the judge's settings.
func (c config) endpoints() (model, judge benchmark.Endpoint) {
	p := c.provider
	model = benchmark.Endpoint{BaseURL: c.baseURL, Model: c.model, Timeout: p.timeout, ContextTokens: p.contextTokens,
		MaxOutputTokens: p.maxOutput, ReasoningEffort: p.effort, ExtraBody: p.body, ExtraHeaders: p.headers, MaxRetryWait: p.retryWait}
	// The judge and the extraction run at temperature 0, as upstream's
	// do, unless the judge model refuses temperature.
	judge = benchmark.Endpoint{BaseURL: c.judgeBaseURL, Model: c.judgeModel, Timeout: p.judgeTimeout, ReasoningEffort: p.judgeEffort,
		Temperature: benchmark.JudgeTemperature(c.judgeModel), ExtraBody: p.judgeBody, MaxRetryWait: p.retryWait}
	return model, judge
}
