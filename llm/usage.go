package llm

// Usage counts tokens as the provider reported them.
type Usage struct {
	Requests         int // model calls that returned a completion
	PromptTokens     int // all prompt tokens, cached ones included
	CachedTokens     int // prompt tokens served from the provider's prefix cache
	CompletionTokens int
}

// Add returns the sum of u and o.
func (u Usage) Add(o Usage) Usage {
	return Usage{
		Requests:         u.Requests + o.Requests,
		PromptTokens:     u.PromptTokens + o.PromptTokens,
		CachedTokens:     u.CachedTokens + o.CachedTokens,
		CompletionTokens: u.CompletionTokens + o.CompletionTokens,
	}
}

// Uncached is the prompt tokens the provider processed in full: the part of
// the prompt that costs full price and time.
func (u Usage) Uncached() int { return u.PromptTokens - u.CachedTokens }

// TaskUsage is the usage of one Ask or AskJSON call, labelled with its task.
type TaskUsage struct {
	Task string
	Usage
}
