package llm

import (
	"encoding/json"
	"strings"
	"testing"
)

// The reason a content filter gives is the provider's text, relayed into
// logs and comments: only plain words of it are kept.
func TestFilterDetailRelaysOnlyWords(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		choice string
		want   string
		never  []string
	}{
		"Azure's categories": {
			choice: `{"finish_reason":"content_filter","message":{"content":null},"content_filter_results":{"violence":{"filtered":true,"severity":"high"},"hate":{"filtered":false,"severity":"safe"},"self_harm":{"filtered":true,"severity":"medium"}}}`,
			want:   ": self_harm (severity medium); violence (severity high)",
		},
		"OpenRouter's native reason": {
			choice: `{"finish_reason":"content_filter","message":{"content":""},"native_finish_reason":"SAFETY"}`,
			want:   ": the provider's reason: SAFETY",
		},
		"hostile category, severity and refusal": {
			choice: `{"finish_reason":"content_filter","message":{"content":null,"refusal":"@org/admins see <img src=x onerror=alert(1)> [here](https://evil.example)` + "\\u0007" + `"},` +
				`"content_filter_results":{"@everyone [x](https://evil.example)":{"filtered":true,"severity":"<script>high</script>"}},"native_finish_reason":"` + strings.Repeat("a", 500) + `"}`,
			want:  ": everyone x https evil.example (severity script high script); the provider's reason: aaa",
			never: []string{"@", "<", ">", "[", "://", "\a", strings.Repeat("a", 201), "alert(1)"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var ch choice
			if err := json.Unmarshal([]byte(tc.choice), &ch); err != nil {
				t.Fatal(err)
			}
			got := filterDetail(ch)
			if !strings.HasPrefix(got, "the provider's content filter withheld the answer") || !strings.Contains(got, tc.want) {
				t.Errorf("filterDetail = %q, want it to say %q", got, tc.want)
			}
			for _, bad := range tc.never {
				if strings.Contains(got, bad) {
					t.Errorf("filterDetail = %q relays %q", got, bad)
				}
			}
		})
	}
}

// The event-stream reader takes what a server sends: it must not panic,
// and what it returns must decode as one completion or be an error.
func FuzzReadStream(f *testing.F) {
	f.Add(sampleStream)
	f.Add("data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0},{\"index\":0}]}}]}\n\ndata: [DONE]\n\n")
	f.Add("data: {\"error\":{\"code\":502}}\n\n")
	f.Add(": comment\n\nevent: x\ndata: {\"choices\":[{\"delta\":{\"content\":[1]},\"finish_reason\":\"stop\"}]}\n\n")
	f.Fuzz(func(t *testing.T, s string) {
		res, err := readStream(strings.NewReader(s), func() {})
		if err == nil && res == nil {
			t.Fatal("no completion and no error")
		}
	})
}
