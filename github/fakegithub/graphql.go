package fakegithub

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// gqlRequest is a POST /graphql body, parsed early so the pipeline knows
// whether it is a mutation (a write) and what to call it in logs.
type gqlRequest struct {
	Query         string         `json:"query"`
	OperationName string         `json:"operationName"`
	Variables     map[string]any `json:"variables"`

	decodeErr error
	parseErr  error
	doc       *ast.QueryDocument
	op        *ast.OperationDefinition
	operation string // operation name, else the first field's name
	mutation  bool
}

func parseGraphQLRequest(body []byte) *gqlRequest {
	g := &gqlRequest{}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber() // keep integers exact for variable coercion
	if err := dec.Decode(g); err != nil {
		g.decodeErr = err
		return g
	}
	doc, err := parser.ParseQuery(&ast.Source{Name: "query", Input: g.Query})
	if err != nil {
		g.parseErr = err
		return g
	}
	g.doc = doc
	g.op = doc.Operations.ForName(g.OperationName)
	if g.op != nil {
		g.mutation = g.op.Operation == ast.Mutation
		g.operation = g.op.Name
		if g.operation == "" && len(g.op.SelectionSet) > 0 {
			if f, ok := g.op.SelectionSet[0].(*ast.Field); ok {
				g.operation = f.Name
			}
		}
	}
	return g
}

// gqlError is one entry of a GraphQL "errors" list, shaped like GitHub's.
type gqlError struct {
	Type       string         `json:"type,omitempty"`
	Path       []any          `json:"path,omitempty"`
	Extensions map[string]any `json:"extensions,omitempty"`
	Locations  []gqlLocation  `json:"locations,omitempty"`
	Message    string         `json:"message"`
}

type gqlLocation struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// serveGraphQL answers POST /graphql. Like GitHub it answers HTTP 200 for
// anything it could parse as JSON, reporting problems in "errors".
func (s *Server) serveGraphQL(c *call) reply {
	g := c.gql
	if g.decodeErr != nil {
		return errorReply(http.StatusBadRequest, "Problems parsing JSON", docGraphQL, nil)
	}
	if g.Query == "" {
		return s.gqlFailure(c, gqlError{Message: "A query attribute must be specified and must be a string."})
	}
	schema, err := loadSchema()
	if err != nil {
		return errorReply(http.StatusInternalServerError, "fakegithub: "+err.Error(), docGraphQL, nil)
	}
	if g.parseErr != nil {
		return s.gqlFailure(c, fromGQLParser(g.parseErr)...)
	}
	if errs := validator.ValidateWithRules(schema, g.doc, nil); len(errs) > 0 {
		var out []gqlError
		for _, e := range errs {
			out = append(out, githubStyle(e))
		}
		return s.gqlFailure(c, out...)
	}
	if g.op == nil {
		if g.OperationName != "" {
			return s.gqlFailure(c, gqlError{Message: fmt.Sprintf("No operation named %q", g.OperationName)})
		}
		return s.gqlFailure(c, gqlError{Message: "An operation name is required"})
	}
	vars, err := validator.VariableValues(schema, g.op, g.Variables)
	if err != nil {
		return s.gqlFailure(c, fromGQLParser(err)...)
	}
	x := &executor{s: s, schema: schema, doc: g.doc, vars: vars, viewer: c.who}
	data := x.run(g.op)
	for _, e := range x.errs {
		s.gqlErrors = append(s.gqlErrors, g.operation+": "+e.Message)
	}
	if len(x.errs) == 0 {
		return jsonReply(http.StatusOK, map[string]any{"data": data})
	}
	return jsonReply(http.StatusOK, struct {
		Data   any        `json:"data"`
		Errors []gqlError `json:"errors"`
	}{data, x.errs})
}

// gqlFailure answers a document that never ran, and records why.
func (s *Server) gqlFailure(c *call, errs ...gqlError) reply {
	for _, e := range errs {
		s.gqlErrors = append(s.gqlErrors, c.gql.operation+": "+e.Message)
	}
	return jsonReply(http.StatusOK, map[string]any{"errors": errs})
}

func fromGQLParser(err error) []gqlError {
	var list gqlerror.List
	if errors.As(err, &list) {
		out := make([]gqlError, 0, len(list))
		for _, e := range list {
			out = append(out, githubStyle(e))
		}
		return out
	}
	var one *gqlerror.Error
	if errors.As(err, &one) {
		return []gqlError{githubStyle(one)}
	}
	return []gqlError{{Message: err.Error()}}
}

var undefinedField = regexp.MustCompile(`^Cannot query field "([^"]+)" on type "([^"]+)"\.`)

// githubStyle converts a gqlparser error, rewording the most common one the
// way GitHub's server phrases it so clients and logs see familiar text.
func githubStyle(e *gqlerror.Error) gqlError {
	out := gqlError{Message: e.Message}
	for _, l := range e.Locations {
		out.Locations = append(out.Locations, gqlLocation{Line: l.Line, Column: l.Column})
	}
	if m := undefinedField.FindStringSubmatch(e.Message); m != nil {
		out.Message = fmt.Sprintf("Field '%s' doesn't exist on type '%s'", m[1], m[2])
		out.Extensions = map[string]any{"code": "undefinedField", "typeName": m[2], "fieldName": m[1]}
	}
	return out
}
