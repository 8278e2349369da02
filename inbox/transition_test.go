package inbox

import (
	"context"
	"net/http"
	"testing"
)

// Every transition from every status, through the store: the status it
// leaves, the kind of refusal, and whether a line was written (a refusal
// or an idempotent repeat writes none).
func TestTransitions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	submit := func(s *Store, id string) (Record, error) { return s.Submit(ctx, id, testSubmission()) }
	cancel := func(s *Store, id string) (Record, error) { return s.Cancel(ctx, id) }
	claim := func(by string, force bool) func(*Store, string) (Record, error) {
		return func(s *Store, id string) (Record, error) { return s.Claim(ctx, id, by, force) }
	}
	resolve := func(by string, force bool) func(*Store, string) (Record, error) {
		return func(s *Store, id string) (Record, error) {
			return s.Resolve(ctx, id, ResolveOptions{By: by, Note: "fixed", Force: force})
		}
	}
	tests := map[string]struct {
		from      Status
		op        func(*Store, string) (Record, error)
		want      Status // the status afterwards
		wantKind  string // the refusal, "" for success
		wantWrite bool
		wantBy    string // the claimant afterwards
	}{
		"submit open":      {from: StatusOpen, op: submit, want: StatusSubmitted, wantWrite: true},
		"submit twice":     {from: StatusSubmitted, op: submit, want: StatusSubmitted, wantKind: "invalid state"},
		"submit claimed":   {from: StatusClaimed, op: submit, want: StatusClaimed, wantKind: "invalid state", wantBy: "alpha"},
		"submit resolved":  {from: StatusResolved, op: submit, want: StatusResolved, wantKind: "invalid state"},
		"submit cancelled": {from: StatusCancelled, op: submit, want: StatusCancelled, wantKind: "invalid state"},

		"cancel open":      {from: StatusOpen, op: cancel, want: StatusCancelled, wantWrite: true},
		"cancel again":     {from: StatusCancelled, op: cancel, want: StatusCancelled},
		"cancel submitted": {from: StatusSubmitted, op: cancel, want: StatusSubmitted, wantKind: "invalid state"},
		"cancel resolved":  {from: StatusResolved, op: cancel, want: StatusResolved, wantKind: "invalid state"},

		"claim submitted":           {from: StatusSubmitted, op: claim("alpha", false), want: StatusClaimed, wantWrite: true, wantBy: "alpha"},
		"claim again, same agent":   {from: StatusClaimed, op: claim("alpha", false), want: StatusClaimed, wantWrite: true, wantBy: "alpha"},
		"claim held by another":     {from: StatusClaimed, op: claim("beta", false), want: StatusClaimed, wantKind: "conflict", wantBy: "alpha"},
		"claim held, forced":        {from: StatusClaimed, op: claim("beta", true), want: StatusClaimed, wantWrite: true, wantBy: "beta"},
		"claim cancelled":           {from: StatusCancelled, op: claim("alpha", false), want: StatusCancelled, wantKind: "invalid state"},
		"claim cancelled, forced":   {from: StatusCancelled, op: claim("alpha", true), want: StatusCancelled, wantKind: "invalid state"},
		"claim open":                {from: StatusOpen, op: claim("alpha", false), want: StatusOpen, wantKind: "invalid state"},
		"claim resolved":            {from: StatusResolved, op: claim("alpha", false), want: StatusResolved, wantKind: "invalid state"},
		"claim without a name":      {from: StatusSubmitted, op: claim("  ", false), want: StatusSubmitted, wantKind: "invalid input"},
		"resolve submitted":         {from: StatusSubmitted, op: resolve("", false), want: StatusResolved, wantWrite: true},
		"resolve claimed":           {from: StatusClaimed, op: resolve("alpha", false), want: StatusResolved, wantWrite: true, wantBy: "alpha"},
		"resolve claimed, no name":  {from: StatusClaimed, op: resolve("", false), want: StatusClaimed, wantKind: "conflict", wantBy: "alpha"},
		"resolve another's claim":   {from: StatusClaimed, op: resolve("beta", false), want: StatusClaimed, wantKind: "conflict", wantBy: "alpha"},
		"resolve another's, forced": {from: StatusClaimed, op: resolve("beta", true), want: StatusResolved, wantWrite: true, wantBy: "alpha"},
		"resolve again, new note":   {from: StatusResolved, op: resolve("", false), want: StatusResolved, wantKind: "conflict"},
		"resolve again, same note": {from: StatusResolved, op: func(s *Store, id string) (Record, error) {
			return s.Resolve(ctx, id, ResolveOptions{Note: "done"})
		}, want: StatusResolved},
		"resolve again, no note": {from: StatusResolved, op: func(s *Store, id string) (Record, error) {
			return s.Resolve(ctx, id, ResolveOptions{})
		}, want: StatusResolved},
		"resolve open":              {from: StatusOpen, op: resolve("", false), want: StatusOpen, wantKind: "invalid state"},
		"resolve cancelled":         {from: StatusCancelled, op: resolve("", false), want: StatusCancelled, wantKind: "invalid state"},
		"submit after resolve, too": {from: StatusResolved, op: submit, want: StatusResolved, wantKind: "invalid state"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := testStore(t, Options{})
			r := reviewIn(t, s, tc.from)
			before := lines(readStore(t, s))
			got, err := tc.op(s, r.ID)
			if kindOf(err) != tc.wantKind {
				t.Fatalf("err = %v, want kind %q", err, tc.wantKind)
			}
			if err != nil && HTTPStatus(err) == http.StatusInternalServerError {
				t.Errorf("refusal %v maps to a server error", err)
			}
			stored := mustGet(t, s, r.ID)
			if stored.Status != tc.want || (err == nil && got.Status != tc.want) {
				t.Errorf("status: returned %s, stored %s; want %s", got.Status, stored.Status, tc.want)
			}
			by := ""
			if stored.Claim != nil {
				by = stored.Claim.ClaimedBy
			}
			if by != tc.wantBy {
				t.Errorf("claimed by %q, want %q", by, tc.wantBy)
			}
			if wrote := lines(readStore(t, s)) > before; wrote != tc.wantWrite {
				t.Errorf("wrote a line: %v, want %v", wrote, tc.wantWrite)
			}
		})
	}
}

func TestTransitionsOfUnknownReviews(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testStore(t, Options{})
	ops := map[string]func() error{
		"submit":  func() error { _, err := s.Submit(ctx, "zzzzzzzz", testSubmission()); return err },
		"cancel":  func() error { _, err := s.Cancel(ctx, "zzzzzzzz"); return err },
		"claim":   func() error { _, err := s.Claim(ctx, "zzzzzzzz", "a", false); return err },
		"resolve": func() error { _, err := s.Resolve(ctx, "zzzzzzzz", ResolveOptions{}); return err },
		"get":     func() error { _, err := s.Get(ctx, "zzzzzzzz"); return err },
	}
	for name, op := range ops {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if err := op(); kindOf(err) != "not found" {
				t.Errorf("err = %v, want not found", err)
			}
		})
	}
}

func TestErrorCodes(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		err        error
		exit, http int
	}{
		"nil":           {nil, 0, 200},
		"invalid input": {fail("x", "", ErrInvalidInput, "r"), 2, 400},
		"not found":     {fail("x", "", ErrNotFound, "r"), 3, 404},
		"conflict":      {fail("x", "", ErrConflict, "r"), 4, 409},
		"invalid state": {fail("x", "", ErrInvalidState, "r"), 5, 409},
		"anything else": {context.Canceled, 1, 500},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := ExitCode(tc.err); got != tc.exit {
				t.Errorf("ExitCode = %d, want %d", got, tc.exit)
			}
			if got := HTTPStatus(tc.err); got != tc.http {
				t.Errorf("HTTPStatus = %d, want %d", got, tc.http)
			}
		})
	}
}
