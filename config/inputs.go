package config

import (
	"strconv"

	"github.com/review-my-code-bot/rmc/review"
)

// Kind is what an input's text holds, as the reference states it.
type Kind string

// The kinds of input.
const (
	KindString   Kind = "string"
	KindSecret   Kind = "secret"   // masked in the log; pass it from a secret
	KindBoolean  Kind = "boolean"  // true or false
	KindInteger  Kind = "integer"  // a whole number
	KindList     Kind = "list"     // comma- or newline-separated
	KindDuration Kind = "duration" // seconds, or a Go duration
	KindURL      Kind = "URL"
	KindJSON     Kind = "JSON"
)

// Input is one action input: the one place it is declared. action.yml's
// inputs, docs/inputs.md and, for a key the repository's file may also set
// (FileKeys), rmc.schema.json's description are generated from it (go test
// ./internal/reference -update).
type Input struct {
	Name    string
	Kind    Kind
	Default string // what the runner fills in when the workflow sets nothing
	Doc     string // one or two sentences: what it does, its values
}

// Inputs are every input the action reads, in the order the reference
// lists them. A new input is one line here, and its parsing in Load.
var Inputs = []Input{
	{Name: "github_token", Kind: KindSecret, Default: "${{ github.token }}", Doc: "Token for the GitHub API."},
	{Name: "llm_api_key", Kind: KindSecret, Doc: "API key for the OpenAI-compatible endpoint (alias: openrouter_api_key)."},
	{Name: "openrouter_api_key", Kind: KindSecret, Doc: "API key for OpenRouter (rmc-oc's name; same as llm_api_key)."},
	{Name: "llm_base_url", Kind: KindURL, Default: DefaultBaseURL, Doc: "Any OpenAI-compatible endpoint: OpenRouter, OpenAI, vLLM, Ollama."},
	{Name: "llm_provider", Kind: KindString, Doc: "The provider family whose differences the client follows (openai, azure, anthropic, gemini, mistral, openrouter, ollama, vllm, ...; see docs/providers.md). Empty = detected from llm_base_url."},
	{Name: "llm_stream", Kind: KindBoolean, Doc: "Stream model answers (true) or not (false); a stalled stream times out after model_timeout of silence. Empty = where the provider documents it; a stream-only model always streams."},
	{Name: "model", Kind: KindString, Default: "anthropic/claude-sonnet-4.5", Doc: "Model name at the endpoint."},
	{Name: "problem_score_threshold", Kind: KindInteger, Doc: "Findings scoring below this (1-10) are dropped; empty = .github/rmc.yml, else 5."},
	{Name: "blocking_score_threshold", Kind: KindInteger, Doc: "Findings scoring at or above this (1-10) block the merge; empty = .github/rmc.yml, else problem_score_threshold."},
	{Name: "review_timeout_minutes", Kind: KindInteger, Default: "40", Doc: "Overall deadline for the run's LLM work, in minutes."},
	{Name: "max_review_retries", Kind: KindInteger, Default: strconv.Itoa(review.DefaultSettings().Retries), Doc: "How often a failed review pass is retried."},
	{Name: "review_concurrency", Kind: KindInteger, Default: strconv.Itoa(review.DefaultConcurrency), Doc: "How many chunks of a big diff are reviewed at once (1-16); the passes over one chunk go in order. A rate limit (429) lowers it for the rest of the run."},
	{Name: "enable_web", Kind: KindBoolean, Default: "false", Doc: "Let the model fetch public web pages."},
	{Name: "enable_human_escalation", Kind: KindBoolean, Default: "false", Doc: "Escalate disputes the bot cannot settle to human_reviewers."},
	{Name: "human_reviewers", Kind: KindList, Doc: "Comma-separated logins to escalate disputes to."},
	{Name: "debug_logging", Kind: KindBoolean, Default: "false", Doc: "Verbose logs."},
	{Name: "injection_detection_enabled", Kind: KindBoolean, Default: "false", Doc: "Flag likely prompt injection in untrusted text and verify it with a second model."},
	{Name: "injection_verification_model", Kind: KindString, Doc: "Model that verifies flagged text; empty = model."},
	{Name: "review_manual_trigger_enable_start_comment", Kind: KindBoolean, Default: "true", Doc: "Reply when a manual review starts."},
	{Name: "review_manual_trigger_enable_end_comment", Kind: KindBoolean, Default: "true", Doc: "Reply when a manual review ends."},
	{Name: "bot_mentions", Kind: KindList, Doc: "Comma-separated handles the bot answers to; empty = .github/rmc.yml, else @review-my-code-bot,@rmc-bot."},
	{Name: "bot_login", Kind: KindString, Doc: "The bot's login; empty = ask the API who the token belongs to."},
	{Name: "dry_run", Kind: KindBoolean, Default: "false", Doc: "Print the plan (log and job summary) and write nothing."},
	{Name: "notify_agent", Kind: KindString, Doc: "Handle of the PR's coding agent (e.g. @claude) to tell when a review requests changes; empty = .github/rmc.yml, else none."},
	{Name: "ignore_paths", Kind: KindList, Doc: "Comma- or newline-separated globs the review skips, with .gitignore's rules: *.snap, docs/**, vendor/, src/**/gen.go; empty = .github/rmc.yml, else none."},
	{Name: "notice_unauthorized", Kind: KindBoolean, Default: "true", Doc: "Tell people without access, once, that the bot only takes requests from collaborators and the PR's author."},
	{Name: "max_run_tokens", Kind: KindInteger, Doc: "Most prompt + completion tokens a run may spend; a review that reaches it posts what it found as a partial review. Empty = .github/rmc.yml, else no limit."},
	{Name: "language", Kind: KindString, Doc: "Language the bot writes in (e.g. French); code and identifiers stay as they are. Empty = .github/rmc.yml, else English."},
	{Name: "fork_authors_can_ask", Kind: KindBoolean, Default: "false", Doc: "Let the author of a pull request from a fork ask questions, request reviews and dispute findings without write access (each spends the model key)."},
	{Name: "model_timeout", Kind: KindDuration, Doc: "Longest wait for one model request: seconds (300) or a duration (90s, 10m), 10s to 2h. Raise it for slow local or high-effort reasoning models. Empty = 3m."},
	{Name: "reasoning_effort", Kind: KindString, Doc: "Sent as reasoning_effort: none, minimal, low, medium, high or xhigh (what the model supports). Empty = the model's default."},
	{Name: "max_output_tokens", Kind: KindInteger, Doc: "Most tokens of one answer, sent as max_completion_tokens. Empty = the provider's default."},
	{Name: "model_context_tokens", Kind: KindInteger, Default: strconv.Itoa(review.DefaultSettings().ContextTokens), Doc: "The model's context window in tokens: no request is sent over it. Set it to the server's window for local models (Ollama, llama.cpp, vLLM)."},
	{Name: "extra_body", Kind: KindJSON, Doc: "JSON object merged into every model request, for a provider's own settings, e.g. {\"provider\": {\"order\": [\"anthropic\"]}} on OpenRouter. Members the action sets (model, messages, tools...) are refused."},
	{Name: "extra_headers", Kind: KindJSON, Doc: "JSON object of headers sent with every model request, e.g. a gateway's key; the values are masked in the log. Pass secrets from a secret."},
	{Name: "calibrate", Kind: KindString, Doc: "What the measured precision may do: off, suggest (show the supported thresholds in the stats) or apply (raise a category's problem threshold, never past blocking_score_threshold, and say so in every review). Empty = .github/rmc.yml, else suggest."},
	{Name: "model_prices", Kind: KindJSON, Doc: "Model prices in USD per million tokens, as JSON: {\"input\": 3, \"cached\": 0.3, \"output\": 15} (\"cache_write\" optional); the summary then shows the run's cost."},
}
