package llm

import (
	"fmt"
	"time"
)

// Usage counts tokens as the provider reported them.
type Usage struct {
	Requests     int // model calls that returned a completion
	PromptTokens int // all prompt tokens, cached ones included
	CachedTokens int // prompt tokens served from the provider's prefix cache
	// CacheWriteTokens are prompt tokens written to the cache (Anthropic
	// bills them above the input price); included in PromptTokens.
	CacheWriteTokens int
	CompletionTokens int
	// RateLimitWait is the time spent waiting for the endpoint's rate
	// limits before retrying.
	RateLimitWait time.Duration
}

// Add returns the sum of u and o.
func (u Usage) Add(o Usage) Usage {
	return Usage{
		Requests:         u.Requests + o.Requests,
		PromptTokens:     u.PromptTokens + o.PromptTokens,
		CachedTokens:     u.CachedTokens + o.CachedTokens,
		CacheWriteTokens: u.CacheWriteTokens + o.CacheWriteTokens,
		CompletionTokens: u.CompletionTokens + o.CompletionTokens,
		RateLimitWait:    u.RateLimitWait + o.RateLimitWait,
	}
}

// Uncached is the prompt tokens the provider processed in full: the part of
// the prompt that costs full price and time.
func (u Usage) Uncached() int { return u.PromptTokens - u.CachedTokens }

// Label names one model call for the usage report and error messages.
type Label struct {
	// Task is the key of the plan task the call works for (detector.Task's
	// Key); "" for a call that serves the whole run or no task.
	Task string
	// Step says which call of the task it is: "pass 2", "verify <id>",
	// "classify"; "" when the task makes one call.
	Step string
}

// String is the label as error messages show it.
func (l Label) String() string {
	switch {
	case l.Task == "":
		return fmt.Sprintf("%q", l.Step)
	case l.Step == "":
		return fmt.Sprintf("task %q", l.Task)
	}
	return fmt.Sprintf("task %q (%s)", l.Task, l.Step)
}

// TaskUsage is the usage of one Ask or AskJSON call, with its label.
type TaskUsage struct {
	Label
	Usage
}

// Prices are a model's prices in US dollars per million tokens.
type Prices struct {
	Input  float64 // uncached prompt tokens
	Cached float64 // prompt tokens read from the cache
	Output float64 // completion tokens, reasoning included
	// CacheWrite is the price of prompt tokens written to the cache; zero
	// means Input.
	CacheWrite float64
}

// Cost is what u costs at p, in US dollars. Cache writes are charged at
// CacheWrite (or Input), cache reads at Cached, the rest of the prompt at
// Input.
func (u Usage) Cost(p Prices) float64 {
	write := p.CacheWrite
	if write == 0 {
		write = p.Input
	}
	writes := min(u.CacheWriteTokens, max(u.Uncached(), 0))
	uncached := max(u.Uncached()-writes, 0)
	return (float64(uncached)*p.Input + float64(u.CachedTokens)*p.Cached +
		float64(writes)*write + float64(u.CompletionTokens)*p.Output) / 1e6
}
