package mention

import "strings"

// The request grammar is matched with a tiny set-of-positions automaton
// rather than regular expressions or backtracking: every rule maps the set
// of word positions reachable so far to the set reachable after it, so the
// cost is bounded by words × phrases however the rules combine.
//
// reach[i] holds bits for "position i reachable": plainBit without a
// whole-PR word so far, fullBit with one.
type reach []uint8

const (
	plainBit uint8 = 1 << iota
	fullBit
)

type rule func(w []string, in reach) reach

// phrases matches any one of the given phrases (space-separated words).
// full marks the phrases as whole-PR words.
func phrases(full bool, ps ...string) rule {
	split := make([][]string, len(ps))
	for i, p := range ps {
		split[i] = strings.Fields(p)
	}
	return func(w []string, in reach) reach {
		out := make(reach, len(in))
		for pos, bits := range in {
			if bits == 0 {
				continue
			}
			if full {
				bits = fullBit
			}
			for _, p := range split {
				if pos+len(p) <= len(w) && equalWords(w[pos:pos+len(p)], p) {
					out[pos+len(p)] |= bits
				}
			}
		}
		return out
	}
}

func equalWords(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func seq(rs ...rule) rule {
	return func(w []string, in reach) reach {
		for _, r := range rs {
			in = r(w, in)
		}
		return in
	}
}

func alt(rs ...rule) rule {
	return func(w []string, in reach) reach {
		out := make(reach, len(in))
		for _, r := range rs {
			for i, b := range r(w, in) {
				out[i] |= b
			}
		}
		return out
	}
}

func opt(r rule) rule {
	return func(w []string, in reach) reach {
		out := r(w, in)
		for i, b := range in {
			out[i] |= b
		}
		return out
	}
}

// star repeats r until no new position is reached; since every round adds a
// bit, it stops after at most 2×(len(w)+1) rounds.
func star(r rule) rule {
	return func(w []string, in reach) reach {
		acc := append(reach(nil), in...)
		frontier := in
		for {
			next := r(w, frontier)
			grew := false
			for i, b := range next {
				next[i] = b &^ acc[i]
				if next[i] != 0 {
					acc[i] |= next[i]
					grew = true
				}
			}
			if !grew {
				return acc
			}
			frontier = next
		}
	}
}

// The word lists. Keep them explicit: every entry widens what starts a review.
var (
	lead = phrases(false,
		"please", "kindly", "can you", "could you", "would you", "will you",
		"would you mind", "do you mind", "mind", "hey", "hi", "hello", "ok", "okay",
		"so", "now", "then", "also", "bot", "go ahead and", "i'd like you to",
		"i would like you to", "i want you to", "i need you to", "you can",
		"time to", "let's", "lets")

	verb = phrases(false,
		"review", "re-review", "rereview", "re review", "code review",
		"check", "recheck", "re-check", "check out", "look at", "look over",
		"look through", "go over", "go through")

	det = phrases(false, "a", "an", "another", "one more", "some")

	adjective = alt(
		phrases(false, "quick", "new", "second", "closer", "final", "proper",
			"thorough", "detailed", "careful", "incremental", "real", "last"),
		phrases(true, "full", "complete", "fresh", "entire", "whole",
			"comprehensive", "clean"),
	)

	reviewNoun = phrases(false, "review", "re-review", "rereview", "re review",
		"code review", "review pass")

	// These nouns need a determiner: "take a look", not "take look".
	passNoun = phrases(false, "pass", "look", "once-over", "round",
		"round of review", "review round", "go", "check")

	nounPhrase = alt(
		seq(opt(det), star(adjective), reviewNoun),
		seq(det, star(adjective), passNoun),
	)

	objectDet = phrases(false, "this", "the", "my", "our", "these", "those",
		"latest", "last", "new", "newest", "recent", "most recent", "updated",
		"current", "changed", "pushed")

	objectNoun = phrases(false, "pr", "pull request", "changes", "change", "diff",
		"code", "commits", "commit", "update", "updates", "patch", "fix", "fixes",
		"branch", "push", "version", "one", "changeset", "work", "files", "revision")

	object = alt(
		phrases(false, "it", "this", "these", "them", "that"),
		phrases(true, "everything", "all", "all of it", "all of this", "it all",
			"every file", "all files", "all the files", "all changes",
			"all the changes", "all the code", "all commits", "all the commits",
			"the whole thing"),
		seq(star(objectDet), opt(phrases(true, "whole", "entire", "full", "complete")), objectNoun),
	)

	preposition = phrases(false, "of", "on", "at", "over", "for", "to")

	lightVerb = phrases(false, "do", "give", "run", "perform", "make", "start",
		"trigger", "kick off", "take", "have", "get", "need", "want", "request",
		"requesting", "i need", "we need", "i'd like", "i would like", "we'd like",
		"i want")

	recipient = alt(
		phrases(false, "it", "this", "me", "us", "them", "that"),
		seq(star(objectDet), objectNoun),
	)

	action = alt(
		seq(verb, opt(object)),
		phrases(false, "ptal"),
		seq(opt(lightVerb), opt(recipient), nounPhrase, opt(seq(preposition, object))),
	)

	tail = phrases(false, "again", "now", "please", "thanks", "thank you",
		"when you can", "when you get a chance", "when you have a chance",
		"when you have time", "when you're free", "once more", "once again",
		"one more time", "for me", "asap", "too", "as well", "if you can",
		"if possible", "quickly", "real quick", "thoroughly", "carefully",
		"right now", "today", "before merge", "before merging",
		"before i merge", "before we merge")

	fullTail = phrases(true, "from scratch", "from the start", "from the beginning",
		"from the top", "from zero", "in full", "fully", "completely",
		"in its entirety", "end to end", "top to bottom")

	// "now that I've pushed fixes", "since the fixes are in": a reason made
	// only of report words. Anything else ("since I think…") is a question.
	reportWord = phrases(false, "i", "we", "i've", "we've", "ive", "they",
		"it", "it's", "its", "have", "has", "is", "are", "been", "just",
		"everything", "all", "the", "a", "my", "your", "our", "some", "new",
		"more", "them", "pushed", "fixed", "addressed", "updated", "applied",
		"resolved", "rebased", "changed", "made", "added", "removed",
		"implemented", "merged", "done", "in", "up", "ready", "comments",
		"feedback", "fixes", "fix", "changes", "commits", "commit",
		"suggestions", "suggestion", "code", "updates", "issues")

	reasonTail = seq(phrases(false, "now that", "since", "as", "because", "after"),
		reportWord, star(reportWord))

	request = seq(star(lead), action, star(alt(tail, fullTail, reasonTail)))
)

// matchRequest reports whether the whole of w is a review request, and
// whether it asks for a full review.
func matchRequest(w []string) (ok, full bool) {
	in := make(reach, len(w)+1)
	in[0] = plainBit
	out := request(w, in)
	end := out[len(w)]
	return end != 0, end&fullBit != 0
}
