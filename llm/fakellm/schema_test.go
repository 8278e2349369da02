package fakellm

import (
	"net/http"
	"strings"
	"testing"
)

// The server refuses a body OpenAI's reference does not allow, as a strict
// endpoint would: every test that talks to the fake checks what it sends.
func TestServerRefusesUndocumentedRequests(t *testing.T) {
	t.Parallel()
	s := New(Config{})
	defer s.Close()
	s.SetDefault(Reply{Text: "ok"})
	for body, want := range map[string]int{
		`{"model":"m","messages":[{"role":"user","content":"hi"}]}`:                     http.StatusOK,
		`{"model":"m","messages":[{"role":"user","content":"hi"}],"temperature":0}`:     http.StatusOK,
		`{"model":"m","messages":[{"role":"user","content":"hi"}],"temperature":"hot"}`: http.StatusBadRequest,
		`{"model":"m","messages":[{"role":"wizard","content":"hi"}]}`:                   http.StatusBadRequest,
		`{"model":"m","messages":[{"role":"tool","content":"x"}]}`:                      http.StatusBadRequest,
	} {
		req, _ := http.NewRequest(http.MethodPost, s.BaseURL()+"/chat/completions", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+s.APIKey())
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("%s: status %d, want %d", body, res.StatusCode, want)
		}
	}
}
