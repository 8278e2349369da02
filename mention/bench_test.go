package mention

import (
	"strings"
	"testing"
)

// BenchmarkFind measures Find on bodies of GitHub's maximum comment size
// (65,536 characters): a typical comment with code and quotes repeated, the
// same without the handle (no parse), and hostile ones.
func BenchmarkFind(b *testing.B) {
	const max = 65536
	typical := strings.Repeat("> earlier point @rmc-bot\n\nsome prose with `code` and <!-- hidden -->\n\n```go\nx := 1 // @rmc-bot\n```\n\n- item\n", 1000)[:max] + "\n@rmc-bot why?"
	var ticks strings.Builder
	for n := 1; ticks.Len() < max; n++ {
		ticks.WriteString(strings.Repeat("`", n) + " x ")
	}
	for name, body := range map[string]string{
		"typical":           typical,
		"no mention":        strings.ReplaceAll(typical, "@rmc-bot", "@octocat"),
		"backtick runs":     ticks.String() + " @rmc-bot",
		"unclosed comments": "x " + strings.Repeat("<!-- y ", max/7) + " @rmc-bot",
		"mixed emphasis":    strings.Repeat("_a*", max/3) + " @rmc-bot",
		"at the limits":     strings.Repeat("> ", 32) + strings.Repeat("[a](", 1024) + strings.Repeat("x ", (max-4160)/2) + " @rmc-bot",
	} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				Find(body, botHandles)
			}
		})
	}
}
