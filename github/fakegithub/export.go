package fakegithub

import "github.com/vektah/gqlparser/v2/ast"

// Schema is GitHub's GraphQL schema, parsed and validated once, for tests
// that check documents directly.
func Schema() (*ast.Schema, error) { return loadSchema() }
