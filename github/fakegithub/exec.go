package fakegithub

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
)

// executor runs one validated operation against the server state, with
// s.mu held. It is generic over the AST (aliases, fragments, directives,
// variables, __typename); what each field means lives in the resolver
// table, and a field missing from it is an error, never a silent null.
type executor struct {
	s      *Server
	schema *ast.Schema
	doc    *ast.QueryDocument
	vars   map[string]any
	viewer *user
	errs   []gqlError
}

// failure is a resolver error carrying GitHub's error type.
type failure struct {
	typ string
	msg string
}

func (f *failure) Error() string { return f.msg }

func fail(typ, format string, args ...any) error {
	return &failure{typ: typ, msg: fmt.Sprintf(format, args...)}
}

// queryRoot and mutationRoot stand for the operation's root objects.
type (
	queryRoot    struct{}
	mutationRoot struct{}
)

func (x *executor) run(op *ast.OperationDefinition) any {
	var root any = queryRoot{}
	typ := x.schema.Query
	if op.Operation == ast.Mutation {
		root, typ = mutationRoot{}, x.schema.Mutation
	}
	if typ == nil {
		x.errs = append(x.errs, gqlError{Message: fmt.Sprintf("Schema is not configured for %ss", op.Operation)})
		return nil
	}
	data, ok := x.selectionSet(root, typ.Name, op.SelectionSet, nil)
	if !ok {
		return nil
	}
	return data
}

// omap is a JSON object that keeps the order fields were requested in, as
// GraphQL responses do.
type omap struct {
	keys []string
	vals []any
}

func (m *omap) set(k string, v any) {
	m.keys = append(m.keys, k)
	m.vals = append(m.vals, v)
}

func (m *omap) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	buf.WriteByte('{')
	for i, k := range m.keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := enc.Encode(k); err != nil {
			return nil, err
		}
		buf.WriteByte(':')
		if err := enc.Encode(m.vals[i]); err != nil {
			return nil, fmt.Errorf("encoding field %q: %w", k, err)
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

var _ json.Marshaler = (*omap)(nil)

// fieldGroup is the fields sharing one response key, merged per the spec.
type fieldGroup struct {
	key    string
	fields []*ast.Field
}

// collect gathers the fields of a selection set that apply to typeName,
// expanding fragments and honouring @skip and @include.
func (x *executor) collect(typeName string, set ast.SelectionSet, groups []fieldGroup, seen map[string]bool) []fieldGroup {
	for _, sel := range set {
		switch sel := sel.(type) {
		case *ast.Field:
			if !x.included(sel.Directives) {
				continue
			}
			i := 0
			for i < len(groups) && groups[i].key != sel.Alias {
				i++
			}
			if i == len(groups) {
				groups = append(groups, fieldGroup{key: sel.Alias})
			}
			groups[i].fields = append(groups[i].fields, sel)
		case *ast.InlineFragment:
			if x.included(sel.Directives) && (sel.TypeCondition == "" || x.applies(sel.TypeCondition, typeName)) {
				groups = x.collect(typeName, sel.SelectionSet, groups, seen)
			}
		case *ast.FragmentSpread:
			if seen[sel.Name] || !x.included(sel.Directives) {
				continue
			}
			seen[sel.Name] = true
			if frag := x.doc.Fragments.ForName(sel.Name); frag != nil && x.applies(frag.TypeCondition, typeName) {
				groups = x.collect(typeName, frag.SelectionSet, groups, seen)
			}
		}
	}
	return groups
}

func (x *executor) included(ds ast.DirectiveList) bool {
	for _, d := range ds {
		v, _ := d.ArgumentMap(x.vars)["if"].(bool)
		switch d.Name {
		case "skip":
			if v {
				return false
			}
		case "include":
			if !v {
				return false
			}
		}
	}
	return true
}

// applies reports whether a fragment on cond applies to an object of
// typeName: the same type, or an interface or union it belongs to.
func (x *executor) applies(cond, typeName string) bool {
	if cond == typeName {
		return true
	}
	def := x.schema.Types[cond]
	if def == nil {
		return false
	}
	for _, t := range x.schema.GetPossibleTypes(def) {
		if t.Name == typeName {
			return true
		}
	}
	return false
}

// selectionSet resolves the fields of one object. ok is false when a
// non-null field came back null, which nulls this object too.
func (x *executor) selectionSet(obj any, typeName string, set ast.SelectionSet, path []any) (*omap, bool) {
	out := &omap{}
	for _, g := range x.collect(typeName, set, nil, map[string]bool{}) {
		f := g.fields[0]
		fpath := append(append([]any(nil), path...), g.key)
		if f.Name == "__typename" {
			out.set(g.key, typeName)
			continue
		}
		val, err := x.resolve(obj, typeName, f)
		if err != nil {
			x.addError(err, f, fpath)
			val = nil
		}
		v, ok := x.complete(f.Definition.Type, val, g.fields, fpath, err != nil)
		if !ok {
			return nil, false
		}
		out.set(g.key, v)
	}
	return out, true
}

func (x *executor) addError(err error, f *ast.Field, path []any) {
	e := gqlError{Message: err.Error(), Path: path}
	if fl, ok := err.(*failure); ok {
		e.Type = fl.typ
	}
	if f != nil && f.Position != nil {
		e.Locations = []gqlLocation{{Line: f.Position.Line, Column: f.Position.Column}}
	}
	x.errs = append(x.errs, e)
}

// complete shapes a resolved value by its schema type. reported says an
// error was already recorded for this path, so a null needs no second one.
func (x *executor) complete(typ *ast.Type, val any, fields []*ast.Field, path []any, reported bool) (any, bool) {
	if isNil(val) {
		if typ.NonNull {
			if !reported {
				x.addError(fail("", "Cannot return null for non-nullable field %s.%s", fields[0].ObjectDefinition.Name, fields[0].Name), fields[0], path)
			}
			return nil, false
		}
		return nil, true
	}
	if typ.Elem != nil {
		rv := reflect.ValueOf(val)
		if rv.Kind() != reflect.Slice {
			x.addError(fmt.Errorf("fakegithub: %s.%s resolved to %T, not a list", fields[0].ObjectDefinition.Name, fields[0].Name, val), fields[0], path)
			return nil, !typ.NonNull
		}
		list := make([]any, 0, rv.Len())
		for i := 0; i < rv.Len(); i++ {
			v, ok := x.complete(typ.Elem, rv.Index(i).Interface(), fields, append(append([]any(nil), path...), i), false)
			if !ok {
				return nil, !typ.NonNull
			}
			list = append(list, v)
		}
		return list, true
	}
	def := x.schema.Types[typ.NamedType]
	switch def.Kind {
	case ast.Scalar, ast.Enum:
		return leaf(val), true
	case ast.Object, ast.Interface, ast.Union, ast.InputObject:
		// Its fields are selected below (validation keeps input objects
		// out of selections).
	}
	rt := x.runtimeType(def, val)
	if rt == "" {
		x.addError(fmt.Errorf("fakegithub: cannot tell which %s a %T is", def.Name, val), fields[0], path)
		return nil, !typ.NonNull
	}
	var sub ast.SelectionSet
	for _, f := range fields {
		sub = append(sub, f.SelectionSet...)
	}
	m, ok := x.selectionSet(val, rt, sub, path)
	if !ok {
		return nil, !typ.NonNull
	}
	return m, true
}

// runtimeType picks the concrete type of a value returned for def. Object
// types are what they say; interfaces and unions ask the value. A bot user
// is a Bot behind an interface (author) but a User where the schema says
// User (viewer), as on GitHub.
func (x *executor) runtimeType(def *ast.Definition, val any) string {
	if def.Kind == ast.Object {
		return def.Name
	}
	switch v := val.(type) {
	case *user:
		if v.bot {
			return "Bot"
		}
		return "User"
	case *repoState:
		return "Repository"
	case *pullState:
		return "PullRequest"
	case *issueComment:
		return "IssueComment"
	case *threadState:
		return "PullRequestReviewThread"
	case *reviewComment:
		return "PullRequestReviewComment"
	case *reviewState:
		return "PullRequestReview"
	case blobObj:
		return "Blob"
	case commitObj:
		return "Commit"
	case statusObj:
		return "Status"
	case *Status:
		return "StatusContext"
	}
	return ""
}

// leaf serializes a scalar or enum value.
func leaf(v any) any {
	switch v := v.(type) {
	case time.Time:
		return fmtTime(v)
	case int64:
		return v
	case json.Number:
		n, _ := strconv.ParseInt(string(v), 10, 64)
		return n
	}
	return v
}

func isNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	// The kinds of resolver results that can be nil (resolvers return no
	// channels or functions).
	//exhaustive:ignore
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		return rv.IsNil()
	}
	return false
}

// resolve finds the value of one field. Connections, edges and page info
// are generic; everything else comes from the resolver table.
func (x *executor) resolve(obj any, typeName string, f *ast.Field) (any, error) {
	if v, ok, err := x.resolveGeneric(obj, typeName, f); ok {
		return v, err
	}
	r, ok := resolvers[typeName][f.Name]
	if !ok {
		return nil, fail("FAKE_UNSUPPORTED", "fakegithub does not implement %s.%s; add a resolver for it", typeName, f.Name)
	}
	args := f.ArgumentMap(x.vars)
	for _, a := range f.Arguments {
		if !r.args[a.Name] && args[a.Name] != nil {
			return nil, fail("FAKE_UNSUPPORTED", "fakegithub does not implement argument %q of %s.%s", a.Name, typeName, f.Name)
		}
	}
	v, err := r.fn(x, obj, args)
	if src, ok := v.(connSource); ok && err == nil {
		return paginateConnection(src, args, f.Name)
	}
	return v, err
}

// resolver computes one field of one type.
type resolver struct {
	fn   func(x *executor, obj any, args map[string]any) (any, error)
	args map[string]bool
}

// field makes a resolver for type T's field, accepting the named arguments.
func field[T any](fn func(x *executor, v T, args map[string]any) (any, error), args ...string) resolver {
	allowed := map[string]bool{}
	for _, a := range args {
		allowed[a] = true
	}
	return resolver{args: allowed, fn: func(x *executor, obj any, a map[string]any) (any, error) {
		v, ok := obj.(T)
		if !ok {
			return nil, fmt.Errorf("fakegithub: resolver expected %T, got %T", *new(T), obj)
		}
		return fn(x, v, a)
	}}
}

// get makes a resolver for an argument-less field.
func get[T any](fn func(v T) any) resolver {
	return field(func(_ *executor, v T, _ map[string]any) (any, error) { return fn(v), nil })
}

// argInt reads an Int argument, which arrives as int64 from literals and
// coerced variables alike.
func argInt(args map[string]any, name string) (int, bool) {
	switch v := args[name].(type) {
	case int64:
		return int(v), true
	case int:
		return v, true
	case float64:
		return int(v), true
	case json.Number:
		n, err := v.Int64()
		return int(n), err == nil
	}
	return 0, false
}

func argString(args map[string]any, name string) string {
	s, _ := args[name].(string)
	return s
}
