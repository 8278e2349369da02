package execution

import (
	"regexp"
	"strings"
	"testing"
)

var verbRe = regexp.MustCompile(`%[-.0-9]*[a-z]`)

// Every fixed text exists in every language of the table, with the same
// format verbs in the same order as the English one.
func TestPhrasebookIsComplete(t *testing.T) {
	t.Parallel()
	langs := []string{"english", "french", "german", "spanish", "portuguese", "italian"}
	for key, byLang := range phrases {
		want := strings.Join(verbRe.FindAllString(byLang["english"], -1), " ")
		for _, l := range langs {
			f, ok := byLang[l]
			if !ok {
				t.Errorf("%s: no %s text", key, l)
				continue
			}
			if got := strings.Join(verbRe.FindAllString(f, -1), " "); got != want {
				t.Errorf("%s in %s has verbs %q, English has %q", key, l, got, want)
			}
		}
		if len(byLang) != len(langs) {
			t.Errorf("%s: %d languages, want %d", key, len(byLang), len(langs))
		}
	}
	for name, want := range map[string]string{"Français": "french", " deutsch ": "german", "Español": "spanish", "Português (Brasil)": "portuguese", "": "english", "Klingon": "klingon"} {
		if got := languageKey(name); got != want {
			t.Errorf("languageKey(%q) = %q, want %q", name, got, want)
		}
	}
	x := poster{language: "Klingon"}
	if got := x.say(phraseQuestionStart, "bob"); got != "⏳ @bob, looking into your question…" {
		t.Errorf("fallback = %q", got)
	}
}
