package sanitize

import (
	"github.com/review-my-code-bot/rmc/internal/budget"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTextCharacters(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		in, want string
	}{
		"plain ascii":          {"hello, world\n\tindented", "hello, world\n\tindented"},
		"crlf":                 {"a\r\nb\r\n", "a\nb\n"},
		"lone cr":              {"a\rb", "a\nb"},
		"cr cr lf":             {"a\r\r\nb", "a\n\nb"},
		"c0 controls":          {"a\x00b\x07c\x1bd\x7fe", "abcde"},
		"c1 controls":          {"a\u0085b\u009bc", "abc"},
		"bidi override":        {"abc\u202edcba\u202c", "abcdcba"},
		"bidi isolates":        {"\u2066x\u2067y\u2068z\u2069", "xyz"},
		"bidi marks":           {"a\u200eb\u200fc\u061cd", "abcd"},
		"zero width space":     {"ghp\u200b_x", "ghp_x"},
		"word joiner and bom":  {"\ufeffa\u2060b", "ab"},
		"invisible operators":  {"a\u2062b", "ab"},
		"zwj kept":             {"👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"},
		"zwnj kept":            {"می\u200cخواهم", "می\u200cخواهم"},
		"invalid utf-8":        {"a\xffb\xfe\xfdc", "a\ufffdb\ufffdc"},
		"truncated rune":       {"a\xe2\x80", "a\ufffd"},
		"valid multibyte":      {"naïve 日本 🎉", "naïve 日本 🎉"},
		"tag smuggling":        {"hi\U000E0069\U000E0067\U000E006E\U000E006F\U000E0072\U000E0065", "hi"},
		"england flag kept":    {"\U0001F3F4\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F", "\U0001F3F4\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F"},
		"flag without cancel":  {"\U0001F3F4\U000E0067\U000E0062", "\U0001F3F4"},
		"black flag alone":     {"\U0001F3F4 x", "\U0001F3F4 x"},
		"tab and newline kept": {"\t\n", "\t\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := Text(tc.in); got != tc.want {
				t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// Fake credentials are assembled at run time so that the source holds no
// string a secret scanner would flag.
func fake(prefix string, n int) string {
	const alphabet = "a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ"
	var b strings.Builder
	b.WriteString(prefix)
	for i := range n {
		b.WriteByte(alphabet[i%len(alphabet)])
	}
	return b.String()
}

func TestRedactPatterns(t *testing.T) {
	t.Parallel()
	jwt := fake("eyJ", 20) + "." + fake("eyJ", 30) + "." + fake("", 43)
	pem := "-----BEGIN RSA PRIVATE KEY-----\n" + fake("MIIE", 60) + "\n" + fake("", 64) + "\n-----END RSA PRIVATE KEY-----"
	tests := map[string]struct {
		in, want string
	}{
		"github classic":        {"token " + fake("ghp_", 36) + " leaked", "token [REDACTED] leaked"},
		"github oauth":          {fake("gho_", 36), "[REDACTED]"},
		"github user to server": {fake("ghu_", 36), "[REDACTED]"},
		"github server":         {"x-access-token " + fake("ghs_", 36), "x-access-token [REDACTED]"},
		"github refresh":        {fake("ghr_", 76), "[REDACTED]"},
		"github fine-grained":   {fake("github_pat_", 22) + "_" + fake("", 59), "[REDACTED]"},
		"openai legacy":         {"key=" + fake("sk-", 48), "key=[REDACTED]"},
		"openai project":        {fake("sk-proj-", 40) + "_" + fake("", 60), "[REDACTED]"},
		"openrouter":            {`"` + "sk-or-v1-" + strings.Repeat("0a1b2c3d", 8) + `"`, `"[REDACTED]"`},
		"anthropic":             {fake("sk-ant-api03-", 90), "[REDACTED]"},
		"aws access key id":     {"AKIAIOSFODNN7EXAMPLE", "[REDACTED]"},
		"aws session key id":    {"id: ASIA" + strings.Repeat("Z9", 8), "id: [REDACTED]"},
		"aws secret":            {"aws_secret_access_key = " + fake("", 40), "aws_secret_access_key = [REDACTED]"},
		"slack bot":             {fake("xoxb-1234-", 24), "[REDACTED]"},
		"slack user":            {fake("xoxp-", 30), "[REDACTED]"},
		"google api key":        {"?key=" + fake("AIza", 35), "?key=[REDACTED]"},
		"private key":           {"before\n" + pem + "\nafter", "before\n[REDACTED]\nafter"},
		"openssh private key":   {strings.ReplaceAll(pem, "RSA", "OPENSSH"), "[REDACTED]"},
		"pgp private key":       {"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + fake("", 64) + "\n-----END PGP PRIVATE KEY BLOCK-----", "[REDACTED]"},
		"truncated private key": {"-----BEGIN PRIVATE KEY-----\n" + fake("", 64) + "\n" + fake("", 20) + "\n\nIs this safe?", "[REDACTED]\n\nIs this safe?"},
		"jwt":                   {"jwt: " + jwt + " end", "jwt: [REDACTED] end"},
		"bearer":                {"curl -H 'Authorization: Bearer " + fake("", 32) + "'", "curl -H 'Authorization: Bearer [REDACTED]'"},
		"bearer lower case":     {"bearer " + fake("", 24), "bearer [REDACTED]"},
		"bearer jwt":            {"Authorization: Bearer " + jwt, "Authorization: Bearer [REDACTED]"},
		"basic auth header":     {"Authorization: Basic dXNlcjpwYXNzd29yZA==", "Authorization: Basic [REDACTED]"},
		"token auth header":     {`"authorization": "token ` + fake("", 40) + `"`, `"authorization": "token [REDACTED]"`},
		"url credentials":       {"git clone https://bot:hunter2hunter2@github.com/o/r", "git clone https://bot:[REDACTED]@github.com/o/r"},
		"stripe":                {fake("sk_live_", 24), "[REDACTED]"},
		"hugging face":          {fake("hf_", 34), "[REDACTED]"},
		"npm":                   {fake("npm_", 36), "[REDACTED]"},
		"gitlab":                {fake("glpat-", 20), "[REDACTED]"},
		"hidden by zero width":  {"ghp_\u200b" + fake("", 36), "[REDACTED]"},
		"two secrets":           {fake("ghp_", 36) + " and " + fake("xoxb-", 20), "[REDACTED] and [REDACTED]"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := Text(tc.in); got != tc.want {
				t.Errorf("Text(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestRedactFalsePositives lists ordinary text that resembles a secret.
func TestRedactFalsePositives(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"sk inside a word":         "add a task-list and a risk-assessment-0123456789abcdefghij",
		"sk css class":             "class=\"sk-circle-2-bounce-animation-delay\"",
		"sk library":               "uses sk-learn style pipelines",
		"short sha":                "fixed in e6f68f6 and ecdff0a",
		"full sha":                 "commit e6f68f6d3b2a4c1f8e9d0a7b6c5d4e3f2a1b0c9d",
		"uuid":                     "id 123e4567-e89b-12d3-a456-426614174000",
		"bearer prose":             "Bearer authentication is configured in auth.go",
		"bearer long word":         "Bearer tokenExchangeServiceProviderImpl",
		"bearer placeholder":       "Authorization: Bearer ${{ secrets.GITHUB_TOKEN }}",
		"url placeholder":          "https://x-access-token:${GITHUB_TOKEN}@github.com/o/r",
		"url env":                  "https://user:$TOKEN@example.com",
		"url without password":     "https://github.com/o/r and git@github.com:o/r.git",
		"url with port":            "http://localhost:8080/path",
		"short prefixes":           "ghp_ gho_x sk-1234 AKIA1234 xoxb- AIza eyJ0.eyJ1.x",
		"public key":               "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----",
		"go identifier":            "ghs_total := 3; npm_config_cache = 1",
		"base64 blob":              "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
		"secret access key prose":  "rotate the secret access key every 90 days",
		"already redacted":         "Bearer [REDACTED] and https://u:[REDACTED]@h",
		"hex digest":               "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		"authorization word":       "authorization: required",
		"jwt header only":          "eyJhbGciOiJIUzI1NiJ9",
		"aws key id lower case":    "akiaiosfodnn7example",
		"aws key id in word":       "XAKIAIOSFODNN7EXAMPLE",
		"github token in word":     "xghp_" + strings.Repeat("a", 36),
		"slack prefix in word":     "exoxb-123456789012",
		"google key short":         "AIzaShort",
		"private key mention":      "never commit a PRIVATE KEY",
		"sk followed by separator": "sk-" + strings.Repeat("ab-", 10),
	}
	for name, in := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := Text(in); got != in {
				t.Errorf("Text(%q) = %q, want it unchanged", in, got)
			}
		})
	}
}

func TestRedactKnown(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		in      string
		secrets []string
		want    string
	}{
		"exact value":                  {"key is abc123secret!", []string{"abc123secret"}, "key is [REDACTED]!"},
		"every occurrence":             {"s3cr3t-value s3cr3t-value", []string{"s3cr3t-value"}, "[REDACTED] [REDACTED]"},
		"trimmed":                      {"v=s3cr3t-value", []string{"s3cr3t-value\n"}, "v=[REDACTED]"},
		"too short":                    {"the key is abc", []string{"abc", "", " "}, "the key is abc"},
		"longest first":                {"prefix-s3cr3t-value-suffix", []string{"s3cr3t-value", "prefix-s3cr3t-value-suffix"}, "[REDACTED]"},
		"a secret that starts another": {"s3cr3t-value-and-more", []string{"s3cr3t-value", "s3cr3t-value-and-more"}, "[REDACTED]"},
		"split by invisible":           {"s3cr3t\u200b-value", []string{"s3cr3t-value"}, "[REDACTED]"},
		"duplicates":                   {"s3cr3t-value", []string{"s3cr3t-value", "s3cr3t-value"}, "[REDACTED]"},
		"with patterns":                {"s3cr3t-value " + fake("ghp_", 36), []string{"s3cr3t-value"}, "[REDACTED] [REDACTED]"},
		"absent":                       {"nothing here", []string{"s3cr3t-value"}, "nothing here"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := Redact(tc.in, tc.secrets...); got != tc.want {
				t.Errorf("Redact(%q, %q) = %q, want %q", tc.in, tc.secrets, got, tc.want)
			}
		})
	}
}

// TestTextFastPathDoesNotAllocate: clean ASCII with no hint of a secret is
// returned as is.
func TestTextFastPathDoesNotAllocate(t *testing.T) {
	in := strings.Repeat("an ordinary review comment with `code` and a [link](#anchor)\n", 100)
	if allocs := testing.AllocsPerRun(10, func() { Text(in) }); allocs != 0 {
		t.Errorf("Text on clean ASCII allocates %v times, want 0", allocs)
	}
}

// benchComment builds a realistic review comment of exactly n characters:
// prose, code, non-ASCII text and the odd credential.
func benchComment(n int) string {
	block := "### Finding: unchecked error in `auth.go`\n\n" +
		"The call to `client.Do` ignores the error — naïve retries hide 認証 failures 🎉.\n\n" +
		"```go\nresp, _ := client.Do(req) // Authorization: Bearer " + fake("", 32) + "\n```\n\n" +
		"See https://example.com/docs?id=42 and commit e6f68f6.\n\n"
	var b strings.Builder
	for utf8.RuneCountInString(b.String()) < n {
		b.WriteString(block)
	}
	s := b.String()
	return s[:advance(s, 0, n)]
}

func BenchmarkText(b *testing.B) {
	in := benchComment(MaxBody)
	if got := utf8.RuneCountInString(in); got != MaxBody {
		b.Fatalf("comment has %d characters, want %d", got, MaxBody)
	}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		Text(in)
	}
}

func BenchmarkTextASCII(b *testing.B) {
	in := strings.Repeat("an ordinary review comment, nothing to strip or redact here.\n", MaxBody/61+1)[:MaxBody]
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		Text(in)
	}
}

// TestWindowsMatchWholeText compares windowed matching with running each
// regexp over the whole text, on texts assembled from fragments that sit at
// the edges of the windows: separators, case variants, adjacent secrets.
func TestWindowsMatchWholeText(t *testing.T) {
	t.Parallel()
	frags := []string{
		" ", "\t", "\n", "=", ":", "\"", "'", "x", "-", "_", ".", "/", "@", "[", "ſ", "K",
		"Bearer", "bEaReR", "BEARER", "bearer", "Authorization", "AUTHORIZATION", "authorization",
		"Basic", "token", "secret_access_key", "SecretAccessKey", "aws_secret_access_key",
		"https://", "u:", "p4ss", "sk-", "ghp_", "github_pat_", "AKIA", "xoxb-", "AIza", "eyJ",
		"hf_", "npm_", "glpat-", "sk_live_", "-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----",
		fake("", 8), fake("", 20), fake("", 40), strings.Repeat("Z9", 8),
		// Composites, so that the multi-part rules fire too.
		"eyJ" + fake("", 12) + "." + fake("", 12) + ".", "https://u:" + fake("", 8) + "@",
		"Authorization: Basic ", "authorization :\tTOKEN ", "SECRET_ACCESS_KEY=", "Bearer ",
	}
	seed := uint64(1)
	rnd := func(n int) int { // xorshift: deterministic and dependency-free
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		return int(seed % uint64(n))
	}
	redacted := map[string]int{}
	for range 10000 {
		var b strings.Builder
		for range 1 + rnd(12) {
			b.WriteString(frags[rnd(len(frags))])
		}
		s := clean(b.String())
		if got, want := redactPEM(s), pemWhole(s); got != want {
			t.Fatalf("redactPEM on %q:\n got %q\nwant %q", s, got, want)
		} else if got != s {
			redacted["private key"]++
		}
		s = redactPEM(s)
		for _, r := range rules {
			got, want := r.apply(s), applyWhole(r, s)
			if got != want {
				t.Fatalf("rule %s on %q:\nwindowed %q\n   whole %q", r.name, s, got, want)
			}
			if got != s {
				redacted[r.name]++
			}
			s = got
		}
	}
	// Guard against a vacuous test: every rule must have fired.
	if len(redacted) < len(rules)+1 {
		t.Errorf("only %d of %d rules ever fired: %v", len(redacted), len(rules), redacted)
	}
	t.Logf("redactions per rule: %v", redacted)
}

// TestHostileInputs feeds inputs that would make a careless scanner
// quadratic, at two sizes: what the work allocates must grow linearly with
// the input (internal/budget). Not parallel: the counts are the process's.
func TestHostileInputs(t *testing.T) {
	tests := map[string]string{
		"hint words":        "authorization bearer secret ",
		"one long word":     "AuthorizationBearerSecret",
		"jwt-like run":      "eyJaaaaaaaaaaa-",
		"sk run":            "sk-",
		"url schemes":       "a://b:c",
		"unterminated pems": "-----BEGIN RSA PRIVATE KEY-----\nQUJD\n",
		"invisible":         "\u202e\u200b\r",
		"invalid utf-8":     "\xff",
		"fences":            "```\n",
		"comments":          "<!-- ",
		"one long line":     "x",
	}
	for name, unit := range tests {
		t.Run(name, func(t *testing.T) {
			rep := func(n int) string { return strings.Repeat(unit, n/len(unit)) }
			budget.Linear(t, 1<<17, rep, func(in string) {
				out := Text(in)
				for _, max := range []int{1, 20, 1000, MaxBody} {
					Fit(out, max)
				}
				Split(out, MaxBody)
				Split(out, 500)
			})
		})
	}
}
