package fakegithub

import (
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// maxPageSize is GitHub's cap on first and last.
const maxPageSize = 100

// connSource is what a connection field's resolver returns: every item, in
// ascending cursor order. The executor pages it by the field's arguments.
type connSource []any

// connection is one page of a connection.
type connection struct {
	page    []any
	keys    []int64
	total   int
	hasNext bool
	hasPrev bool
}

type edge struct {
	cursor string
	node   any
}

type pageInfo struct {
	hasNext bool
	hasPrev bool
	start   *string
	end     *string
}

// cursorKey is the stable key a cursor encodes: the item's database id, so
// a page boundary survives items being added or deleted in between. Items
// without ids (changed files) use their position.
func cursorKey(item any, index int) int64 {
	switch v := item.(type) {
	case *issueComment:
		return v.c.ID
	case *threadState:
		return v.t.DatabaseID
	case *reviewComment:
		return v.c.ID
	case *reviewState:
		return v.r.ID
	}
	return int64(index + 1)
}

const cursorPrefix = "cursor:v2:"

func encodeCursor(key int64) string {
	return base64.StdEncoding.EncodeToString([]byte(cursorPrefix + strconv.FormatInt(key, 10)))
}

func decodeCursor(c string) (int64, error) {
	raw, err := base64.StdEncoding.DecodeString(c)
	if err == nil {
		if n, ok := strings.CutPrefix(string(raw), cursorPrefix); ok {
			if key, err := strconv.ParseInt(n, 10, 64); err == nil {
				return key, nil
			}
		}
	}
	return 0, fail("INVALID_CURSOR_ARGUMENTS", "`%s` does not appear to be a valid cursor.", c)
}

// paginateConnection applies first/after/last/before with GitHub's rules:
// one of first or last is required, not both, and neither may exceed 100.
func paginateConnection(src connSource, args map[string]any, name string) (*connection, error) {
	first, hasFirst := argInt(args, "first")
	last, hasLast := argInt(args, "last")
	switch {
	case !hasFirst && !hasLast:
		return nil, fail("MISSING_PAGINATION_BOUNDARIES", "You must provide a `first` or `last` value to properly paginate the `%s` connection.", name)
	case hasFirst && hasLast:
		return nil, fail("INVALID_PAGINATION_ARGUMENTS", "Passing both `first` and `last` to paginate the `%s` connection is not supported.", name)
	case hasFirst && first > maxPageSize:
		return nil, fail("EXCESSIVE_PAGINATION", "Requesting %d records on the `%s` connection exceeds the `first` limit of %d records.", first, name, maxPageSize)
	case hasLast && last > maxPageSize:
		return nil, fail("EXCESSIVE_PAGINATION", "Requesting %d records on the `%s` connection exceeds the `last` limit of %d records.", last, name, maxPageSize)
	case first < 0 || last < 0:
		return nil, fail("INVALID_PAGINATION_ARGUMENTS", "`first` and `last` on the `%s` connection must be non-negative.", name)
	}
	keys := make([]int64, len(src))
	for i, item := range src {
		keys[i] = cursorKey(item, i)
	}
	lo, hi := 0, len(src)
	if after := argString(args, "after"); after != "" {
		k, err := decodeCursor(after)
		if err != nil {
			return nil, err
		}
		for lo < hi && keys[lo] <= k {
			lo++
		}
	}
	if before := argString(args, "before"); before != "" {
		k, err := decodeCursor(before)
		if err != nil {
			return nil, err
		}
		for hi > lo && keys[hi-1] >= k {
			hi--
		}
	}
	if hasFirst && hi-lo > first {
		hi = lo + first
	}
	if hasLast && hi-lo > last {
		lo = hi - last
	}
	return &connection{page: src[lo:hi], keys: keys[lo:hi], total: len(src), hasNext: hi < len(src), hasPrev: lo > 0}, nil
}

// resolveGeneric answers the fields every connection, edge and PageInfo
// has. ok is false for other objects.
func (x *executor) resolveGeneric(obj any, typeName string, f *ast.Field) (any, bool, error) {
	switch o := obj.(type) {
	case *connection:
		switch f.Name {
		case "nodes":
			return o.page, true, nil
		case "edges":
			edges := make([]*edge, len(o.page))
			for i, item := range o.page {
				edges[i] = &edge{cursor: encodeCursor(o.keys[i]), node: item}
			}
			return edges, true, nil
		case "totalCount":
			return o.total, true, nil
		case "pageInfo":
			pi := &pageInfo{hasNext: o.hasNext, hasPrev: o.hasPrev}
			if n := len(o.keys); n > 0 {
				start, end := encodeCursor(o.keys[0]), encodeCursor(o.keys[n-1])
				pi.start, pi.end = &start, &end
			}
			return pi, true, nil
		}
	case *edge:
		switch f.Name {
		case "cursor":
			return o.cursor, true, nil
		case "node":
			return o.node, true, nil
		}
	case *pageInfo:
		switch f.Name {
		case "hasNextPage":
			return o.hasNext, true, nil
		case "hasPreviousPage":
			return o.hasPrev, true, nil
		case "startCursor":
			return o.start, true, nil
		case "endCursor":
			return o.end, true, nil
		}
	default:
		return nil, false, nil
	}
	return nil, true, fail("FAKE_UNSUPPORTED", "fakegithub does not implement %s.%s; add it to the generic connection fields", typeName, f.Name)
}
