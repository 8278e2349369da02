package github

import "testing"

func TestGraphQLURLFromTheRESTURL(t *testing.T) {
	t.Parallel()
	tests := map[string]struct{ api, want string }{
		"github.com":               {"https://api.github.com/", "https://api.github.com/graphql"},
		"GHE.com (data residency)": {"https://api.acme.ghe.com/", "https://api.acme.ghe.com/graphql"},
		"Enterprise Server":        {"https://ghes.example.com/api/v3/", "https://ghes.example.com/api/graphql"},
		"Enterprise Server, port":  {"http://10.0.0.5:8080/api/v3/", "http://10.0.0.5:8080/api/graphql"},
		"a proxy with a path":      {"https://proxy.example.com/github/", "https://proxy.example.com/github/graphql"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := graphQLURL(tc.api); got != tc.want {
				t.Errorf("graphQLURL(%q) = %q, want %q", tc.api, got, tc.want)
			}
		})
	}
}
