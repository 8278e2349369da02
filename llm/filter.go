package llm

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// filterDetail says in plain words that the provider's content filter
// withheld an answer (finish_reason "content_filter"), with the reason the
// provider gave: Azure OpenAI's content_filter_results (each category
// filtered, with its severity), OpenRouter's native_finish_reason, or the
// model's refusal. The reason is the provider's text, so only words are
// kept of it, and briefly.
func filterDetail(ch choice) string {
	msg := "the provider's content filter withheld the answer (finish_reason \"content_filter\"); the prompt or the answer was flagged, not the API key"
	var reasons []string
	for _, name := range slices.Sorted(maps.Keys(ch.ContentFilterResults)) {
		var r struct {
			Filtered bool   `json:"filtered"`
			Severity string `json:"severity"`
		}
		if json.Unmarshal(ch.ContentFilterResults[name], &r) != nil || !r.Filtered {
			continue
		}
		reason := plainWords(name)
		if sev := plainWords(r.Severity); sev != "" {
			reason += " (severity " + sev + ")"
		}
		reasons = append(reasons, reason)
	}
	if n := plainWords(string(ch.NativeFinishReason)); n != "" && n != "content_filter" {
		reasons = append(reasons, "the provider's reason: "+n)
	}
	if r := plainWords(string(ch.Message.Refusal)); r != "" {
		reasons = append(reasons, "the model said: "+r)
	}
	if len(reasons) == 0 {
		return msg
	}
	return fmt.Sprintf("%s: %s", msg, strings.Join(reasons, "; "))
}

// notWords are the characters a relayed reason may not hold: markup,
// mentions, links (no ":" or "/"), control characters.
var notWords = regexp.MustCompile(`[^\p{L}\p{N} ,.;_'-]+`)

// plainWords is s with only letters, digits, spaces and light punctuation
// kept, spaces collapsed and at most 200 characters.
func plainWords(s string) string {
	s = strings.Join(strings.Fields(notWords.ReplaceAllString(s, " ")), " ")
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200]) + "…"
	}
	return s
}
