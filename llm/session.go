package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
)

// Reply is the outcome of one Ask or AskJSON.
type Reply struct {
	Text      string // the final answer; for AskJSON the JSON, fences removed
	Usage     Usage  // tokens of every request this call made
	ToolCalls int    // tool calls the model requested, refused ones included
}

// Session is a run's conversation with the model: one stable prefix (the
// system prompt and the tool definitions, byte-identical on every request,
// so a provider's prompt cache can serve it), shared usage accounting, and
// one turn per Ask. A turn carries the prefix and its own messages only:
// no task pays again for an earlier task's prompt, tool transcript or
// answer, so the cost of a run grows with what each task reads, not with
// the square of the run. Sub adds a stable block (a review chunk) to the
// prefix for the tasks that share it. It is safe for concurrent use.
type Session struct {
	client  *Client
	tools   []Tool
	defs    []toolDef
	toolErr error

	prefix      []message // system prompt, then any Sub context
	prefixBytes int       // encoded size of prefix and tool definitions
	ledger      *ledger   // shared by a session and its Subs
}

// ledger is the usage of every turn of a session and its Subs, in order.
type ledger struct {
	mu    sync.Mutex
	tasks []TaskUsage
}

// NewSession starts a conversation. system (instructions and repository
// context) is sent once, first; tools are offered on every request, in the
// same order, so that the cached prefix stays identical. Invalid tools are
// reported by the first Ask.
func (c *Client) NewSession(system string, tools []Tool) *Session {
	s := &Session{client: c, tools: append([]Tool(nil), tools...), toolErr: checkTools(tools), ledger: &ledger{}}
	if s.toolErr == nil {
		s.defs, s.toolErr = toolParams(s.tools)
	}
	if system != "" {
		m := systemMessage(system)
		m.cache = c.breakpoints
		s.prefix = append(s.prefix, m)
	}
	s.prefixBytes = encodedSize(s.prefix...)
	for _, d := range s.defs {
		b, _ := json.Marshal(d)
		s.prefixBytes += len(b) + 1
	}
	return s
}

// PrefixChars is the encoded size of what every request of the session
// carries before its own messages: the system prompt and the tool
// definitions.
func (s *Session) PrefixChars() int { return s.prefixBytes }

// maxBreakpoints is how many cache_control breakpoints Anthropic allows in
// one request.
const maxBreakpoints = 4

// encodedSize is the encoded size of msgs in a request, separators
// included.
func encodedSize(msgs ...message) int {
	n := 0
	for _, m := range msgs {
		b, _ := json.Marshal(m)
		n += len(b) + 1
	}
	return n
}

// Sub is a view of the session whose turns start with the session's prefix
// followed by block as a user message: the text several tasks share,
// such as the diff every review pass reads. Its turns are accounted in the
// session's usage. Keeping block in the prefix, instead of in each task's
// prompt, lets the provider serve it from its cache after the first task.
func (s *Session) Sub(block string) JSONAsker { return s.sub(block) }

func (s *Session) sub(block string) *Session {
	sub := *s
	m := contextMessage(block)
	m.cache = s.client.breakpoints && breakpoints(s.prefix) < maxBreakpoints
	sub.prefix = append(append([]message(nil), s.prefix...), m)
	sub.prefixBytes += encodedSize(m)
	return &sub
}

func breakpoints(msgs []message) int {
	n := 0
	for _, m := range msgs {
		if m.cache {
			n++
		}
	}
	return n
}

// Usage is the total of every task so far.
func (s *Session) Usage() Usage {
	s.ledger.mu.Lock()
	defer s.ledger.mu.Unlock()
	var u Usage
	for _, t := range s.ledger.tasks {
		u = u.Add(t.Usage)
	}
	return u
}

// TaskUsage lists the usage of each Ask and AskJSON call, in order. A
// failed call is listed too: its tokens were spent.
func (s *Session) TaskUsage() []TaskUsage {
	s.ledger.mu.Lock()
	defer s.ledger.mu.Unlock()
	return append([]TaskUsage(nil), s.ledger.tasks...)
}

// Ask sends the prefix and prompt and runs the tool loop until the model
// answers without calling a tool. label names the call in the usage and in
// errors. Nothing of the turn stays in the session: the next Ask starts
// from the prefix again.
func (s *Session) Ask(ctx context.Context, label Label, prompt string) (Reply, error) {
	t := s.newTurn()
	defer s.record(label, t)
	if err := s.precheck(prompt); err != nil {
		return t.reply, fmt.Errorf("llm: %s: %w", label, err)
	}
	t.add(userMessage(prompt))
	text, err := s.loop(ctx, t, nil)
	if err != nil {
		return t.reply, fmt.Errorf("llm: %s: %w", label, err)
	}
	t.reply.Text = text
	return t.reply, nil
}

// turn is the state of one Ask: its messages after the prefix, its tool
// budget, loop guard and usage.
type turn struct {
	msgs   []message
	bytes  int // encoded size of msgs
	runner *toolRunner
	rounds int
	reply  Reply
}

func (t *turn) add(m ...message) {
	t.msgs = append(t.msgs, m...)
	t.bytes += encodedSize(m...)
}

// reset replaces the turn's messages.
func (t *turn) reset(m ...message) {
	t.msgs, t.bytes = nil, 0
	t.add(m...)
}

func (s *Session) newTurn() *turn {
	return &turn{runner: newToolRunner(s.tools, s.client.opts.MaxToolOutput)}
}

func (s *Session) record(label Label, t *turn) {
	s.ledger.mu.Lock()
	defer s.ledger.mu.Unlock()
	s.ledger.tasks = append(s.ledger.tasks, TaskUsage{Label: label, Usage: t.reply.Usage})
}

func (s *Session) precheck(prompt string) error {
	if s.toolErr != nil {
		return s.toolErr
	}
	if strings.TrimSpace(prompt) == "" {
		return errors.New("empty prompt")
	}
	return nil
}

// loop calls the model and runs the tools it asks for until it answers.
// rf, when set, is sent as response_format on every request.
func (s *Session) loop(ctx context.Context, t *turn, rf *responseFormat) (string, error) {
	limit := s.client.opts.MaxToolRounds
	for {
		msg, err := s.call(ctx, t, rf, "")
		if err != nil {
			return "", err
		}
		msg = withCallIDs(msg, t.rounds)
		t.add(echo(msg)) // AskSchema's correction answers a final one
		if len(msg.ToolCalls) == 0 {
			return answer(msg)
		}
		t.reply.ToolCalls += len(msg.ToolCalls)
		if t.rounds >= limit {
			note := fmt.Sprintf("error: not run: the limit of %d tool rounds for this task is reached; answer now with what you have", limit)
			return s.forceAnswer(ctx, t, rf, s.notes(msg.ToolCalls, note), fmt.Sprintf("after %d rounds", limit))
		}
		t.rounds++
		results := make([]message, len(msg.ToolCalls))
		for i, c := range msg.ToolCalls {
			results[i] = toolMessage(t.runner.run(ctx, c.Function.Name, string(c.Function.Arguments)), c.ID)
		}
		if kept, fits := s.fit(t, rf, results); !fits {
			return s.forceAnswer(ctx, t, rf, kept, "when the context window was full")
		}
		t.add(results...)
	}
}

// contextNote answers a tool call whose result would not fit the window.
const contextNote = "error: not run: the result would not fit the model's context window; answer now with what you have"

// notes answers every call with note.
func (s *Session) notes(calls []toolCall, note string) []message {
	out := make([]message, len(calls))
	for i, c := range calls {
		out[i] = toolMessage(note, c.ID)
	}
	return out
}

// fit reports whether the next request, with results, stays under the
// window. When it does not, kept has the results that fit, in order, and
// contextNote for the others: every call still gets an answer, because the
// API rejects a history with unanswered calls.
func (s *Session) fit(t *turn, rf *responseFormat, results []message) (kept []message, fits bool) {
	budget := s.client.promptBudget()
	size := s.requestSize(t, rf)
	if estimateTokens(size+encodedSize(results...)) <= budget {
		return results, true
	}
	kept = make([]message, len(results))
	for i, r := range results {
		note := toolMessage(contextNote, r.ToolCallID)
		rest := encodedSize(note) * (len(results) - i - 1)
		if estimateTokens(size+encodedSize(r)+rest) <= budget {
			kept[i] = r
		} else {
			kept[i] = note
		}
		size += encodedSize(kept[i])
	}
	return kept, false
}

// forceAnswer sends results for the last calls and makes one request that
// forbids tools (tool_choice "none"). when says why, for the error when
// the model calls tools anyway.
func (s *Session) forceAnswer(ctx context.Context, t *turn, rf *responseFormat, results []message, when string) (string, error) {
	t.add(results...)
	final, err := s.call(ctx, t, rf, "none")
	if err != nil {
		return "", err
	}
	if len(final.ToolCalls) > 0 {
		return "", fmt.Errorf("%w: the model asked for tools again %s and tool_choice \"none\"", ErrToolRounds, when)
	}
	t.add(echo(final))
	return answer(final)
}

// requestSize is the encoded size of the turn's next request, before
// any messages still to be added.
func (s *Session) requestSize(t *turn, rf *responseFormat) int {
	n := s.prefixBytes + t.bytes + requestOverhead
	if rf != nil && rf.JSONSchema != nil {
		n += len(rf.JSONSchema.Schema) + len(rf.JSONSchema.Name)
	}
	return n
}

// requestOverhead is the encoded size of a request besides its messages
// and tools: model, tool_choice, the JSON punctuation.
const requestOverhead = 256

// promptBudget is the most tokens a request's prompt may have: the window
// less room for the answer (MaxOutputTokens, or a quarter of the window
// up to 8,192 tokens).
func (c *Client) promptBudget() int {
	window := c.ContextTokens()
	reserve := c.opts.MaxOutputTokens
	if reserve == 0 || reserve >= window {
		// A window lowered under max_output_tokens still takes a prompt.
		reserve = min(window/4, 8192)
	}
	return window - reserve
}

// call makes one completion request, the prefix and the turn's messages,
// and adds its usage to the turn. A request estimated over the window is
// not sent (ErrContextLength). An endpoint that refuses tools is asked
// again without them, and every later request of the client goes without.
func (s *Session) call(ctx context.Context, t *turn, rf *responseFormat, toolChoice string) (responseMessage, error) {
	size := s.requestSize(t, rf)
	if est, budget := estimateTokens(size), s.client.promptBudget(); est > budget {
		return responseMessage{}, &Error{Kind: ErrRejected, cause: ErrContextLength, Detail: fmt.Sprintf(
			"not sent: the request would be about %d tokens (%d bytes at 3 a token), over the %d-token window less room for the answer (%d)",
			est, size, s.client.ContextTokens(), budget)}
	}
	msgs := append(append(make([]message, 0, len(s.prefix)+len(t.msgs)), s.prefix...), t.msgs...)
	req := &chatRequest{Model: s.client.opts.Model, Messages: msgs, ResponseFormat: rf,
		ReasoningEffort: s.client.opts.ReasoningEffort, MaxCompletionTokens: s.client.opts.MaxOutputTokens, Temperature: s.client.opts.Temperature}
	if s.client.stream.Load() {
		req.Stream, req.StreamOptions = true, &streamOptions{IncludeUsage: true}
	}
	if len(s.defs) > 0 && !s.client.noTools.Load() {
		// tool_choice without tools is a 400 at OpenAI.
		req.Tools = s.defs
		req.ToolChoice = toolChoice
	}
	res, waited, err := s.client.complete(ctx, req)
	t.reply.Usage.RateLimitWait += waited
	if err != nil && !req.Stream && errors.Is(err, errStreamRequired) {
		// The endpoint (or a gateway in front of it) serves only streamed
		// requests: stream from now on.
		s.client.stream.Store(true)
		req.Stream, req.StreamOptions = true, &streamOptions{IncludeUsage: true}
		res, waited, err = s.client.complete(ctx, req)
		t.reply.Usage.RateLimitWait += waited
	}
	if err != nil && req.Tools != nil && errors.Is(err, errToolsUnsupported) {
		s.client.noTools.Store(true)
		s.client.warn(warnNoTools, fmt.Sprintf("the model endpoint refused tool definitions, so the model reviews from the prompt alone, without reading files: %v", err))
		req.Tools, req.ToolChoice = nil, ""
		res, waited, err = s.client.complete(ctx, req)
		t.reply.Usage.RateLimitWait += waited
	}
	if err != nil {
		return responseMessage{}, err
	}
	if err := s.account(t, res.Usage, size, promptText(msgs, req.Tools, rf)); err != nil {
		return responseMessage{}, err
	}
	choice := res.Choices[0]
	switch choice.FinishReason {
	case "length":
		return choice.Message, &Error{Kind: ErrBadResponse, Detail: "the answer was cut off at the token limit (finish_reason \"length\"; raise max_output_tokens)"}
	case "content_filter":
		return choice.Message, &Error{Kind: ErrRejected, cause: ErrModeration, Detail: filterDetail(choice)}
	}
	return choice.Message, nil
}

// promptText is the text a request's prompt is made of, in bytes: the
// messages' contents and the tool definitions, which is what a server
// counts tokens of (the request's JSON punctuation and escapes are not).
func promptText(msgs []message, defs []toolDef, rf *responseFormat) int {
	n := 0
	for _, m := range msgs {
		n += len(m.Content) + len(m.raw)
		for _, c := range m.ToolCalls {
			n += len(c.Function.Name) + len(c.Function.Arguments)
		}
	}
	for _, d := range defs {
		n += len(d.Function.Name) + len(d.Function.Description) + len(d.Function.Parameters)
	}
	if rf != nil && rf.JSONSchema != nil {
		n += len(rf.JSONSchema.Schema)
	}
	return n
}

// account adds a request's usage to the turn. On the first request large
// enough to tell, it checks that the endpoint counted the prompt text it
// was sent: one that counts far fewer tokens cut the prompt to a smaller
// window than the model has (Ollama's default context does so without an
// error). Then the client's window is lowered for the rest of the run to
// what the endpoint kept, one warning says how to raise the server's, and
// the call fails with ErrContextLength, so a caller that can send less (a
// review chunk) splits it.
func (s *Session) account(t *turn, u usage, size, text int) error {
	t.reply.Usage = t.reply.Usage.Add(Usage{
		Requests:         1,
		PromptTokens:     int(u.PromptTokens),
		CachedTokens:     u.cached(),
		CacheWriteTokens: u.cacheWrites(),
		CompletionTokens: int(u.CompletionTokens),
	})
	p := int(u.PromptTokens)
	if p <= 0 || text < cutCheckBytes || s.client.cutChecked.Swap(true) || !cutPrompt(p, text) {
		return nil
	}
	// The server holds p tokens: at 3 bytes a token of text (as
	// conservative as estimateTokens), that many bytes of text, which are
	// size/text as many bytes of request, in the client's estimate.
	window := p * size / text
	s.client.lowerWindow(window)
	s.client.warn(warnTruncated, fmt.Sprintf("the model endpoint counted %d prompt tokens for %d bytes of prompt text: it cuts prompts to a smaller context window than the model has, "+
		"so the window is lowered to about %d tokens for this run and long prompts are split. Ollama: start the server with OLLAMA_CONTEXT_LENGTH set to the model's window (or set num_ctx in a Modelfile); "+
		"llama.cpp: raise --ctx-size; then set model_context_tokens to match", p, text, window))
	return &Error{Kind: ErrRejected, cause: ErrContextLength, Detail: fmt.Sprintf(
		"the endpoint cut the prompt: it counted %d tokens of %d bytes of prompt text; not used", p, text)}
}

// cutCheckBytes is the least prompt text whose count tells a cut: below
// it, tokenizers differ too much.
const cutCheckBytes = 4096

// cutPrompt reports a prompt count p too small for size bytes of text:
// more than 5 bytes a token (beyond any tokenizer on code or prose), or a
// count that is exactly a power-of-two window (Ollama keeps exactly
// num_ctx tokens: 2048, 4096, 8192...) with more than 4 bytes a token.
func cutPrompt(p, size int) bool {
	pow2 := p >= 1024 && p&(p-1) == 0
	return p*5 < size || pow2 && p*4 < size
}

// lowerWindow lowers the client's context window to n tokens, never
// raising it.
func (c *Client) lowerWindow(n int) {
	for {
		cur := c.window.Load()
		if int64(n) >= cur || c.window.CompareAndSwap(cur, int64(n)) {
			return
		}
	}
}

// answer is the text of the model's final message.
func answer(msg responseMessage) (string, error) {
	text := string(msg.Content)
	if strings.TrimSpace(text) == "" {
		if msg.Refusal != "" {
			return "", &Error{Kind: ErrBadResponse, Detail: "the model refused: " + string(msg.Refusal)}
		}
		return "", &Error{Kind: ErrBadResponse, Detail: "the model returned an empty answer"}
	}
	return text, nil
}
