package fakegithub

import (
	_ "embed"
	"fmt"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// schemaSource is GitHub's public GraphQL schema (see LICENSE-schema.md).
//
//go:embed schema.graphql
var schemaSource string

// The schema is large, so it is parsed once per process and shared by every
// Server; it is never modified after loading.
var (
	schemaOnce sync.Once
	schemaDoc  *ast.Schema
	schemaErr  error
)

func loadSchema() (*ast.Schema, error) {
	schemaOnce.Do(func() {
		doc, err := parser.ParseSchemas(validator.Prelude, &ast.Source{Name: "schema.graphql", Input: schemaSource})
		if err != nil {
			schemaErr = fmt.Errorf("parsing GitHub's GraphQL schema: %w", err)
			return
		}
		dropDuplicateFields(doc)
		schemaDoc, err = validator.ValidateSchemaDocument(doc)
		if err != nil {
			schemaErr = fmt.Errorf("validating GitHub's GraphQL schema: %w", err)
		}
	})
	return schemaDoc, schemaErr
}

// dropDuplicateFields keeps the first definition of each field. GitHub's
// published schema defines two EnterpriseOwnerInfo fields twice, which the
// validator rightly rejects; the copies are identical, so keeping one loses
// nothing.
func dropDuplicateFields(doc *ast.SchemaDocument) {
	for _, def := range doc.Definitions {
		seen := make(map[string]bool, len(def.Fields))
		kept := def.Fields[:0]
		for _, f := range def.Fields {
			if !seen[f.Name] {
				seen[f.Name] = true
				kept = append(kept, f)
			}
		}
		def.Fields = kept
	}
}
