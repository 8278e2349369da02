package mention

import (
	"context"
	"strings"
	"unicode"
)

// Intent is what a developer wants from the bot.
type Intent string

// The intents. Anything that is not plainly a request for a review is a
// Question: answering a review request as a question costs one reply, while
// starting a review nobody asked for costs a whole review.
const (
	Question          Intent = "question"
	ReviewRequest     Intent = "review"      // review what changed since the last review
	FullReviewRequest Intent = "full_review" // review the whole pull request from scratch
)

// Classifier decides the intent of a request addressed to the bot, usually
// Mention.Text. An LLM-backed classifier can sit behind the same interface,
// with Rules as its fallback.
type Classifier interface {
	Classify(ctx context.Context, text string) (Intent, error)
}

// Rules is the rule-based Classifier.
type Rules struct{}

// Classify implements Classifier with the package-level Classify. It never
// fails and ignores ctx, so it still works as a fallback after an LLM call's
// context has expired.
func (Rules) Classify(_ context.Context, text string) (Intent, error) {
	return Classify(text), nil
}

var _ Classifier = Rules{}

// maxTokens bounds what can be a review request: a request is a short,
// imperative sentence plus pleasantries, never a paragraph.
const maxTokens = 60

// Classify decides the intent of text with fixed rules:
//
//  1. Quoted lines and HTML comments are dropped. What is left is a
//     Question if it carries code (a backtick or a "~~~" fence): the
//     developer is asking about that code.
//  2. The rest is split into sentences at line breaks and at . ! ? ; , when
//     followed by a space or the end, and into lower-case words; @handles,
//     emoji and punctuation are dropped. More than maxTokens words is a
//     Question.
//  3. Every sentence must be either a request — the whole sentence matches
//     the request grammar below — or filler (greetings, thanks, "fixed the
//     typo", "I've addressed your comments"; never a question and never with
//     question words like why, what, how, explain). At least one must be a
//     request; otherwise the text is a Question.
//  4. It is a FullReviewRequest when a request uses a whole-PR word (full,
//     complete, fresh, entire, whole, everything, all, from scratch, ...),
//     else a ReviewRequest.
//
// The request grammar, in words (see the rule variables for the lists):
//
//	request := lead* action tail*
//	lead    := please | can you | could you | would you (mind) | hey | ...
//	action  := verb [object]                              "review this PR", "check the changes", "look at it"
//	         | ptal
//	         | [light-verb] [recipient] noun-phrase [prep object]
//	                                                      "do a full review of the PR", "give it another pass", "take a look"
//	tail    := again | now | please | thanks | when you can | from scratch | now that I've pushed fixes | ...
//
// An object is a pronoun (it, this), a whole-PR word (everything, all the
// files) or determiners plus a PR noun (the latest changes, this PR, my
// commits). "review auth.go" or "review the error handling" is not a review
// request but a Question about that part: the answer can discuss it, and a
// review of the pull request would not be focused on it anyway.
func Classify(text string) Intent {
	v := visible(text)
	if strings.Contains(v, "`") || strings.Contains(v, "~~~") {
		return Question
	}
	sents := sentences(v)
	total := 0
	for _, s := range sents {
		total += len(s.words)
	}
	if total == 0 || total > maxTokens {
		return Question
	}
	requests, full := 0, false
	for _, s := range sents {
		if len(s.words) == 0 {
			continue
		}
		if ok, f := matchRequest(s.words); ok {
			requests++
			full = full || f
			continue
		}
		if !isFiller(s) {
			return Question
		}
	}
	switch {
	case requests == 0:
		return Question
	case full:
		return FullReviewRequest
	default:
		return ReviewRequest
	}
}

// visible drops what a reader does not see as the request: HTML comments
// and quoted lines.
func visible(text string) string {
	s := normalize(text)
	s = without(s, commentSpans(s), 0, len(s))
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if !isQuote(line) {
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

type sentence struct {
	words    []string
	question bool // ended with '?'
}

// sentences splits text into sentences of normalized words.
func sentences(text string) []sentence {
	text = strings.Map(func(r rune) rune {
		switch r {
		case '\u2018', '\u2019', '\u02bc':
			return '\''
		case '\u2010', '\u2011', '\u2012':
			return '-'
		case '\u2013', '\u2014', '\u2015':
			return ' '
		}
		return r
	}, strings.ToLower(text))
	var out []sentence
	var cur strings.Builder
	question := false
	end := func() {
		out = append(out, sentence{words: words(cur.String()), question: question})
		cur.Reset()
		question = false
	}
	rs := []rune(text)
	for i, r := range rs {
		if r == '\n' {
			end()
			continue
		}
		if strings.ContainsRune(".!?;,", r) && (i+1 == len(rs) || unicode.IsSpace(rs[i+1]) || strings.ContainsRune(".!?;,", rs[i+1])) {
			if r == '?' {
				question = true
			}
			if i+1 == len(rs) || !strings.ContainsRune(".!?;,", rs[i+1]) {
				end()
			}
			continue
		}
		cur.WriteRune(r)
	}
	end()
	return out
}

// synonyms folds spellings and verb forms onto the words the grammar uses.
var synonyms = map[string]string{
	"u": "you", "pls": "please", "plz": "please", "plse": "please",
	"thx": "thanks", "thnx": "thanks", "ty": "thanks", "tks": "thanks",
	"reviewing": "review", "re-reviewing": "re-review", "rereviewing": "rereview",
	"checking": "check", "looking": "look", "taking": "take", "having": "have",
	"giving": "give", "doing": "do", "running": "run",
	"pull-request": "pr", "prs": "pr", "pr's": "pr",
}

// words lower-cases and splits a sentence, dropping @handles and anything
// without a letter or digit.
func words(s string) []string {
	var out []string
	for _, f := range strings.Fields(s) {
		f = strings.TrimFunc(f, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '@'
		})
		if f == "" || strings.HasPrefix(f, "@") {
			continue
		}
		f = strings.TrimRight(f, "@")
		if syn, ok := synonyms[f]; ok {
			f = syn
		}
		out = append(out, f)
	}
	return out
}

// Filler sentences: pleasantries and reports of what the developer did.
var (
	fillerStart = set("thanks", "thank", "cheers", "hi", "hello", "hey", "ok", "okay",
		"done", "fixed", "updated", "addressed", "pushed", "rebased", "resolved",
		"applied", "changed", "implemented", "great", "cool", "nice", "sure",
		"alright", "sorry", "please", "yes", "yep", "good", "perfect")
	pastVerb = set("fixed", "updated", "addressed", "pushed", "rebased", "resolved",
		"applied", "changed", "implemented", "made", "added", "removed", "merged",
		"incorporated", "reworked", "refactored", "cleaned")
	askWord = set("why", "what", "how", "where", "when", "which", "who", "whose",
		"explain", "but", "however", "can", "could", "would", "should", "is",
		"are", "does", "do", "did", "tell", "help", "not", "don't", "dont")
)

// maxFiller bounds a filler sentence: a long one is saying something.
const maxFiller = 12

func isFiller(s sentence) bool {
	w := s.words
	if s.question || len(w) > maxFiller {
		return false
	}
	for _, x := range w {
		if askWord[x] {
			return false
		}
	}
	switch w[0] {
	case "i", "we", "i've", "ive", "we've":
		rest := w[1:]
		for len(rest) > 0 && (rest[0] == "have" || rest[0] == "just" || rest[0] == "also") {
			rest = rest[1:]
		}
		return len(rest) > 0 && pastVerb[rest[0]]
	}
	return fillerStart[w[0]] || pastVerb[w[0]]
}

func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}
