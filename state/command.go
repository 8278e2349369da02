package state

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/review-my-code-bot/rmc/rmcoc"
)

// Command is a command given to the bot in the PR's conversation
// ("@rmc-bot pause"). Commands are read by rules, never by the model: the
// whole of what is asked must be the command's word and its argument.
type Command string

// Who is who may give a command.
type Who int

const (
	// Collaborators are everyone who may ask the bot for work: a
	// collaborator, owner or member, or the pull request's author.
	Collaborators Who = iota
	// Maintainers have write access or more and are not the pull request's
	// author; anyone else's command changes nothing and is refused.
	Maintainers
)

// Arg is what a command takes after its word.
type Arg int

const (
	NoArg Arg = iota
	// FindingArg is a finding's id: f- and 6 to 16 hex digits.
	FindingArg
)

// argPattern is each Arg's grammar, after the word and a space.
var argPattern = map[Arg]string{NoArg: "", FindingArg: `\s+(f-[0-9a-fA-F]{6,16})`}

// CommandSpec is one command, declared whole in its own file: its grammar,
// who may give it, what it changes, its help line and its answer. Register
// it with RegisterCommand in the file's init; the parser, the state, the
// detector, the executor and help all read the registry.
type CommandSpec struct {
	Name    Command
	Aliases []string // other words for it ("config")
	Arg     Arg
	// Usage is how help writes it ("waive <finding id>"); "" = Name.
	Usage string
	Who   Who
	// Order is its place in help, lowest first.
	Order int
	Help  string // help's line: what it does
	// Apply is what it changes in the state, applied from the command's
	// own, unedited comment, in the order commands were given, and only
	// for someone Who allows; nil changes nothing.
	Apply func(st *State, m Mention)
	// Answer is the bot's reply to it, for someone Who allows (anyone
	// else gets the registry's refusal).
	Answer func(a Answering) Answer
	// Record is the block the reply carries, answered at at, when not
	// a CommandAnswer (the waiver keeps its own); nil = CommandAnswer.
	Record func(m Mention, a Answer, at time.Time) rmcoc.Block
	// Refused is said after the refusal of someone Who does not allow:
	// what stays as it was.
	Refused string

	re *regexp.Regexp
}

// Answering is what a command's answer may read.
type Answering struct {
	Mention Mention
	// By is the command's author as the reply names them ("@login"), safe
	// to post.
	By      string
	State   State
	HeadSHA string
	// Settings is the effective settings table; "" when the run read no
	// settings file.
	Settings string
	// ModelLine makes model text (a finding's title) safe to show inline.
	ModelLine func(string) string
	// Stats is the precision table read from the outcome ledger, "" when
	// the run read no learnings issue or learning is off. It holds counts
	// and fixed keys only.
	Stats string
}

// Answer is a command's reply: its text, and what the record says.
type Answer struct {
	Text   string
	Result string // rmcoc.CommandDone or rmcoc.CommandNotAllowed, or the Record's own
	// FindingIDs are the findings it changed; Cuts, the ledger cuts it
	// cleared.
	FindingIDs []string
	Cuts       []string
}

var registry []*CommandSpec

// RegisterCommand adds a command to the registry. It panics on a command
// declared twice or without its help line or answer: a program with such a
// command must not start.
func RegisterCommand(spec CommandSpec) {
	if spec.Name == "" || spec.Help == "" || spec.Answer == nil {
		panic(fmt.Sprintf("state: command %q needs a name, a help line and an answer", spec.Name))
	}
	words := append([]string{string(spec.Name)}, spec.Aliases...)
	for _, w := range words {
		if _, taken := parse(w + exampleArg(spec.Arg)); taken {
			panic(fmt.Sprintf("state: command word %q registered twice", w))
		}
	}
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = regexp.QuoteMeta(w)
	}
	spec.re = regexp.MustCompile(`(?i)^\s*(?:` + strings.Join(quoted, "|") + `)` + argPattern[spec.Arg] + `\s*[.!]?\s*$`)
	registry = append(registry, &spec)
	slices.SortStableFunc(registry, func(a, b *CommandSpec) int { return a.Order - b.Order })
}

// exampleArg is an argument of the kind, for checking a word is free.
func exampleArg(a Arg) string {
	if a == FindingArg {
		return " f-000000"
	}
	return ""
}

// Commands are the registered commands, in help's order.
func Commands() []CommandSpec {
	out := make([]CommandSpec, len(registry))
	for i, s := range registry {
		out[i] = *s
	}
	return out
}

// LookupCommand is the registered command named c.
func LookupCommand(c Command) (CommandSpec, bool) {
	for _, s := range registry {
		if s.Name == c {
			return *s, true
		}
	}
	return CommandSpec{}, false
}

// ParseCommand reads the text addressed to the bot as a command and its
// argument (a finding id, lower-cased; "" for a command that takes none);
// ok is false for anything else (a question that starts with "help me").
func ParseCommand(text string) (c Command, arg string, ok bool) {
	spec, m := parseSpec(text)
	if spec == nil {
		return "", "", false
	}
	if len(m) > 1 {
		arg = strings.ToLower(m[1])
	}
	return spec.Name, arg, true
}

func parse(text string) (*CommandSpec, bool) {
	spec, _ := parseSpec(text)
	return spec, spec != nil
}

func parseSpec(text string) (*CommandSpec, []string) {
	for _, s := range registry {
		if m := s.re.FindStringSubmatch(text); m != nil {
			return s, m
		}
	}
	return nil, nil
}

// usage is how help and the refusal write the command.
func (s CommandSpec) usage() string {
	if s.Usage != "" {
		return s.Usage
	}
	return string(s.Name)
}

// HelpText lists the commands, one line each, and the requests the bot
// also takes.
func HelpText() string {
	var b strings.Builder
	b.WriteString("ℹ️ Commands: comment `@rmc-bot <command>` in this conversation, the command alone. Collaborators and the pull request's author can give them.\n\n")
	for _, s := range registry {
		who := ""
		if s.Who == Maintainers {
			who = "(a maintainer who is not the author) "
		}
		fmt.Fprintf(&b, "- `%s`: %s%s\n", s.usage(), who, s.Help)
	}
	b.WriteString("- `review` / `full review`: review what changed since my last review / the whole pull request (informational: a manual review does not open the merge gate)\n")
	b.WriteString("- `@rmc-bot ignore` in the pull request's description: no automatic reviews of this pull request\n")
	b.WriteString("\nAnything else addressed to me is a question, answered in a reply.")
	return b.String()
}

// Refusal is the reply to a command from someone its Who does not allow.
func (s CommandSpec) Refusal(by string) Answer {
	text := fmt.Sprintf("🔒 %s: only a maintainer (write access, not the pull request's author) can give `%s`.", by, s.usage())
	if s.Refused != "" {
		text += " " + s.Refused
	}
	return Answer{Text: text, Result: rmcoc.CommandNotAllowed}
}
