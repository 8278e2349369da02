package llm

import (
	"context"
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

	prefix []message // system prompt, then any Sub context
	ledger *ledger   // shared by a session and its Subs
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
		s.prefix = append(s.prefix, systemMessage(system))
	}
	return s
}

// Sub is a view of the session whose turns start with the session's prefix
// followed by context as a user message: the block several tasks share,
// such as the diff every review pass reads. Its turns are accounted in the
// session's usage. Keeping context in the prefix, instead of in each
// task's prompt, lets the provider serve it from its cache after the
// first task.
func (s *Session) Sub(context string) JSONAsker { return s.sub(context) }

func (s *Session) sub(context string) *Session {
	sub := *s
	sub.prefix = append(append([]message(nil), s.prefix...), contextMessage(context))
	return &sub
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
	runner *toolRunner
	rounds int
	reply  Reply
}

func (t *turn) add(m ...message) { t.msgs = append(t.msgs, m...) }

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
		if len(msg.ToolCalls) == 0 {
			t.add(assistantMessage(msg)) // AskSchema's correction answers it
			return answer(msg)
		}
		t.add(assistantMessage(msg))
		t.reply.ToolCalls += len(msg.ToolCalls)
		if t.rounds >= limit {
			return s.forceAnswer(ctx, t, rf, msg)
		}
		t.rounds++
		for _, c := range msg.ToolCalls {
			result := t.runner.run(ctx, c.Function.Name, string(c.Function.Arguments))
			t.add(toolMessage(result, c.ID))
		}
	}
}

// forceAnswer refuses the calls in msg, which came after the last allowed
// round, and makes one request that forbids tools. Every call still gets a
// result, because the API rejects a history with unanswered calls.
func (s *Session) forceAnswer(ctx context.Context, t *turn, rf *responseFormat, msg responseMessage) (string, error) {
	limit := s.client.opts.MaxToolRounds
	note := fmt.Sprintf("error: not run: the limit of %d tool rounds for this task is reached; answer now with what you have", limit)
	for _, c := range msg.ToolCalls {
		t.add(toolMessage(note, c.ID))
	}
	final, err := s.call(ctx, t, rf, "none")
	if err != nil {
		return "", err
	}
	if len(final.ToolCalls) > 0 {
		return "", fmt.Errorf("%w: the model asked for tools again after %d rounds and tool_choice \"none\"", ErrToolRounds, limit)
	}
	t.add(assistantMessage(final))
	return answer(final)
}

// call makes one completion request, the prefix and the turn's messages,
// and adds its usage to the turn.
func (s *Session) call(ctx context.Context, t *turn, rf *responseFormat, toolChoice string) (responseMessage, error) {
	msgs := append(append(make([]message, 0, len(s.prefix)+len(t.msgs)), s.prefix...), t.msgs...)
	req := &chatRequest{Model: s.client.opts.Model, Messages: msgs, ResponseFormat: rf}
	if len(s.defs) > 0 {
		// tool_choice without tools is a 400 at OpenAI.
		req.Tools = s.defs
		req.ToolChoice = toolChoice
	}
	res, err := s.client.complete(ctx, req)
	if err != nil {
		return responseMessage{}, err
	}
	u := res.Usage
	t.reply.Usage = t.reply.Usage.Add(Usage{
		Requests:         1,
		PromptTokens:     int(u.PromptTokens),
		CachedTokens:     int(u.PromptTokensDetails.CachedTokens),
		CompletionTokens: int(u.CompletionTokens),
	})
	choice := res.Choices[0]
	switch choice.FinishReason {
	case "length":
		return choice.Message, &Error{Kind: ErrBadResponse, Detail: "the answer was cut off at the token limit (finish_reason \"length\")"}
	case "content_filter":
		return choice.Message, &Error{Kind: ErrBadResponse, Detail: "the answer was withheld by the provider's content filter"}
	}
	return choice.Message, nil
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

// assistantMessage turns a response message back into a request message.
// It is built field by field, always the same way, because the next
// request's cached prefix depends on these bytes being stable.
func assistantMessage(msg responseMessage) message {
	m := message{Role: "assistant", Content: string(msg.Content)}
	for _, c := range msg.ToolCalls {
		m.ToolCalls = append(m.ToolCalls, toolCall{
			ID:       c.ID,
			Type:     "function",
			Function: functionCall{Name: c.Function.Name, Arguments: c.Function.Arguments},
		})
	}
	return m
}
