package execution

import (
	"time"

	"github.com/review-my-code-bot/rmc/injection"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// poster is the one path every body the bot posts takes: compose cleans,
// redacts, cuts and defangs; fromModel and fromModelLine vet model text
// before it is relayed; say gives the fixed texts in the run's language.
// Every runner and the run-level work share the run's one poster.
type poster struct {
	secrets []string
	// withheld are lines of private files: redacted as secrets are.
	withheld []string
	// instructions is the fixed part of the system prompt: model text that
	// recites it is withheld.
	instructions string
	language     string
	log          Logger
}

// compose is the one path every body the bot posts takes. The prose
// (the bot's words with relayed text embedded, each piece already through
// sanitize.Relay or sanitize.Name) is cleaned and redacted, cut to leave
// room for the blocks, and defanged last, after every step that could
// change a line, so nothing in it reads as an rmcoc fence. The blocks
// follow as the trailing state section, the only part of a bot body that
// rmcoc.ParseTrusted (and so state) reads.
func (p poster) compose(text string, blocks ...rmcoc.Block) string {
	var tail string
	for _, b := range blocks {
		tail += "\n\n" + rmcoc.Render(b)
	}
	// Blocks hold model-written text too (titles, reasons): redact them as
	// well. A redaction keeps the JSON valid ("[REDACTED]" has no quote).
	redact := append(append([]string(nil), p.secrets...), p.withheld...)
	tail = sanitize.Redact(tail, redact...)
	room := sanitize.MaxBody - len([]rune(tail))
	// Defang never lengthens a line, so the prose stays within room.
	prose := rmcoc.Defang(sanitize.Fit(sanitize.Redact(text, redact...), room))
	return prose + tail
}

// fromModel vets text a model wrote before the bot relays it: text that
// recites the bot's instructions (a model talked into leaking them) is
// withheld; the rest is made safe to relay (no HTML, no live mentions).
// Defanging and redaction follow in compose, for every body.
func (p poster) fromModel(text string) string {
	if p.echoes(text) {
		return withheld
	}
	return sanitize.Relay(text)
}

// fromModelLine is fromModel for model text shown inline, on one line (a
// title, a reason after "Fixed:").
func (p poster) fromModelLine(text string) string {
	if p.echoes(text) {
		return withheld
	}
	return sanitize.RelayLine(text)
}

const withheld = "_I withheld this answer: it repeated my instructions._"

func (p poster) echoes(text string) bool {
	if p.instructions != "" && injection.Echoes(text, p.instructions, 64) {
		p.log.Warningf("withheld model text that repeated the bot's instructions")
		return true
	}
	return false
}

// env is what every runner shares: the poster, where it writes (the PR),
// the clock and the log.
type env struct {
	poster
	pr    snapshot.Repo
	num   int
	clock func() time.Time
	Log   Logger
	// ledger is the run's end of the state ledger, shared by every
	// runner the env is copied into.
	ledger *chain
}

func newEnv(c Config) env {
	return env{poster: poster{secrets: c.Secrets, withheld: c.Withheld, instructions: c.Instructions, language: c.Options.Language, log: c.Log},
		pr: c.Snap.Repo, num: c.Snap.PR.Number, clock: c.Now, Log: c.Log, ledger: newChain(c.State.Chain)}
}

func (e env) now() time.Time {
	if e.clock != nil {
		return e.clock().UTC()
	}
	return time.Now().UTC()
}

func (e env) repo() snapshot.Repo { return e.pr }
func (e env) number() int         { return e.num }
