package github

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// Whether a request writes and whether it may be sent again follow from
// its method and path, and for GraphQL from the operation the adapter
// marked it with: a body that reads like a mutation, or like a thread's
// resolution, decides nothing.
func TestWriteAndRetryByOperation(t *testing.T) {
	t.Parallel()
	const query = `{"query":"query($n:Int!){repository{pullRequest(number:$n){id}}}","variables":{"body":"mutation resolveReviewThread"}}`
	const mutation = `{"query":"mutation($input:AddCommentInput!){addComment(input:$input){clientMutationId}}","variables":{"input":{"body":"resolveReviewThread"}}}`
	for name, tc := range map[string]struct {
		method, path, body string
		op                 *gqlOperation // nil: not marked
		write, repeatable  bool
	}{
		"REST read":                             {method: "GET", path: "/repos/o/r/pulls/1", repeatable: true},
		"REST create":                           {method: "POST", path: "/repos/o/r/issues/1/comments", write: true},
		"REST edit":                             {method: "PATCH", path: "/repos/o/r/issues/comments/5", write: true, repeatable: true},
		"REST status":                           {method: "POST", path: "/repos/o/r/statuses/abc", write: true, repeatable: true},
		"a query":                               {method: "POST", path: "/graphql", body: query, op: ptr(gqlQuery), repeatable: true},
		"a query whose text names a mutation":   {method: "POST", path: "/graphql", body: mutation, op: ptr(gqlQuery), repeatable: true},
		"a thread's resolution":                 {method: "POST", path: "/graphql", body: mutation, op: ptr(gqlRepeatableMutation), write: true, repeatable: true},
		"a mutation whose text names a resolve": {method: "POST", path: "/graphql", body: mutation, op: ptr(gqlMutation), write: true},
		"an unmarked request that reads":        {method: "POST", path: "/api/graphql", body: query, write: true},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			if tc.op != nil {
				ctx = withOperation(ctx, *tc.op)
			}
			r, err := http.NewRequestWithContext(ctx, tc.method, "https://api.github.com"+tc.path, strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			write := isWrite(r)
			repeatable := !write || idempotent(r)
			if write != tc.write || repeatable != tc.repeatable {
				t.Errorf("write %v, repeatable %v; want %v, %v", write, repeatable, tc.write, tc.repeatable)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }
