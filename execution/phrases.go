package execution

import (
	"fmt"
	"strings"
)

// The bot's short fixed texts in the languages `language` most often names.
// The model writes reviews, answers and dispute replies in any language; these
// few texts are posted without it, so they come from this table, and stay in
// English for a language it does not hold.
const (
	phraseReviewStart   = "review-start"   // args: head SHA
	phraseReviewEnd     = "review-end"     // args: head SHA, findings, blocking
	phraseAutoStart     = "auto-start"     // args: head SHA, event action
	phraseQuestionStart = "question-start" // args: asker's login
)

var phrases = map[string]map[string]string{
	phraseAutoStart: {
		"english":    "🔍 **review-my-code-bot** is reviewing `%.7s` (`%s`). Questions and replies to findings are answered first; the review follows.",
		"french":     "🔍 **review-my-code-bot** relit `%.7s` (`%s`). Les questions et les réponses aux remarques passent d'abord ; la revue suit.",
		"german":     "🔍 **review-my-code-bot** prüft `%.7s` (`%s`). Fragen und Antworten auf Befunde kommen zuerst; das Review folgt.",
		"spanish":    "🔍 **review-my-code-bot** está revisando `%.7s` (`%s`). Primero se responden las preguntas y las respuestas a los hallazgos; luego sigue la revisión.",
		"portuguese": "🔍 **review-my-code-bot** está revisando `%.7s` (`%s`). Perguntas e respostas aos achados vêm primeiro; a revisão vem em seguida.",
		"italian":    "🔍 **review-my-code-bot** sta revisionando `%.7s` (`%s`). Prima le domande e le risposte alle segnalazioni; poi la revisione.",
	},
	phraseQuestionStart: {
		"english":    "⏳ @%s, looking into your question…",
		"french":     "⏳ @%s, je regarde ta question…",
		"german":     "⏳ @%s, ich sehe mir deine Frage an…",
		"spanish":    "⏳ @%s, estoy mirando tu pregunta…",
		"portuguese": "⏳ @%s, estou olhando sua pergunta…",
		"italian":    "⏳ @%s, sto guardando la tua domanda…",
	},
	phraseReviewStart: {
		"english":    "🔍 Reviewing `%.7s` as requested. I will post the review here when it is done.",
		"french":     "🔍 Je relis `%.7s` comme demandé. Je publierai la revue ici quand elle sera prête.",
		"german":     "🔍 Ich prüfe `%.7s` wie gewünscht. Das Review erscheint hier, sobald es fertig ist.",
		"spanish":    "🔍 Revisando `%.7s` como se pidió. Publicaré la revisión aquí cuando esté lista.",
		"portuguese": "🔍 Revisando `%.7s` como pedido. Vou publicar a revisão aqui quando estiver pronta.",
		"italian":    "🔍 Sto revisionando `%.7s` come richiesto. Pubblicherò la revisione qui quando sarà pronta.",
	},
	phraseReviewEnd: {
		"english":    "✅ Review of `%.7s` done: %d finding(s), %d blocking. Manual reviews inform; they do not gate the merge.",
		"french":     "✅ Revue de `%.7s` terminée : %d remarque(s), dont %d bloquante(s). Les revues manuelles informent ; elles ne bloquent pas la fusion.",
		"german":     "✅ Review von `%.7s` fertig: %d Befund(e), %d blockierend. Manuelle Reviews informieren; sie blockieren den Merge nicht.",
		"spanish":    "✅ Revisión de `%.7s` terminada: %d hallazgo(s), %d bloqueante(s). Las revisiones manuales informan; no bloquean la fusión.",
		"portuguese": "✅ Revisão de `%.7s` concluída: %d achado(s), %d bloqueante(s). Revisões manuais informam; não bloqueiam o merge.",
		"italian":    "✅ Revisione di `%.7s` completata: %d segnalazione/i, %d bloccante/i. Le revisioni manuali informano; non bloccano il merge.",
	},
}

// languageKey maps a language name, in English or in itself, to the table's
// key.
func languageKey(language string) string {
	switch l := strings.ToLower(strings.TrimSpace(language)); l {
	case "français", "francais":
		return "french"
	case "deutsch":
		return "german"
	case "español", "espanol", "castellano":
		return "spanish"
	case "português", "portugues", "brazilian portuguese", "português (brasil)":
		return "portuguese"
	case "italiano":
		return "italian"
	case "":
		return "english"
	default:
		return l
	}
}

// HasPhrases reports whether the fixed texts exist in language.
func HasPhrases(language string) bool {
	_, ok := phrases[phraseReviewStart][languageKey(language)]
	return ok
}

// say renders a fixed text in the run's language, or in English.
func (p poster) say(key string, args ...any) string {
	f, ok := phrases[key][languageKey(p.language)]
	if !ok {
		f = phrases[key]["english"]
	}
	return fmt.Sprintf(f, args...)
}
