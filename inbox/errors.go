package inbox

import (
	"errors"
	"net/http"
)

// The kinds of failure callers decide on. Every error the inbox returns for
// a bad request wraps exactly one of them; anything else is an I/O or
// GitHub failure.
var (
	ErrNotFound     = errors.New("not found")
	ErrConflict     = errors.New("conflict")
	ErrInvalidState = errors.New("invalid state")
	ErrInvalidInput = errors.New("invalid input")
	// ErrExpired is a review retention dropped: gone as a missing one is
	// (errors.Is(err, ErrNotFound) holds too, and it exits with 3), but
	// said as what it is.
	ErrExpired = errors.New("expired")
)

// Error is a refused operation: what was asked (Op), of which review (ID),
// the kind of refusal (one of the Err* values above) and why.
type Error struct {
	Op     string // "claim", "submit", ...
	ID     string // the review or finding, "" when none applies
	Kind   error
	Reason string
}

func (e *Error) Error() string {
	s := e.Op
	if e.ID != "" {
		s += " " + e.ID
	}
	return s + ": " + e.Kind.Error() + ": " + e.Reason
}

func (e *Error) Unwrap() error { return e.Kind }

// Is makes an expired review a missing one too, for callers that only ask
// whether it is there.
func (e *Error) Is(target error) bool { return e.Kind == ErrExpired && target == ErrNotFound }

func fail(op, id string, kind error, reason string) error {
	return &Error{Op: op, ID: id, Kind: kind, Reason: reason}
}

// Exit codes of the command line, by kind of failure.
const (
	ExitFailure      = 1
	ExitInvalidInput = 2
	ExitNotFound     = 3
	ExitConflict     = 4
	ExitInvalidState = 5
)

// ExitCode maps err to the command's exit status: 0 for nil, the kind's
// code for a refusal, 1 for anything else.
func ExitCode(err error) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, ErrInvalidInput):
		return ExitInvalidInput
	case errors.Is(err, ErrNotFound):
		return ExitNotFound
	case errors.Is(err, ErrConflict):
		return ExitConflict
	case errors.Is(err, ErrInvalidState):
		return ExitInvalidState
	}
	return ExitFailure
}

// KindName names err's kind for a program to read: invalid_input,
// not_found, expired, conflict, invalid_state, or failure for anything
// else.
func KindName(err error) string {
	switch ExitCode(err) {
	case 0:
		return ""
	case ExitInvalidInput:
		return "invalid_input"
	case ExitNotFound:
		if errors.Is(err, ErrExpired) {
			return "expired"
		}
		return "not_found"
	case ExitConflict:
		return "conflict"
	case ExitInvalidState:
		return "invalid_state"
	}
	return "failure"
}

// HTTPStatus maps err to the status an HTTP API answers it with. An
// invalid state is a 409 as well as a conflict: the request clashes with
// the review's current state, and repeating it will not help.
func HTTPStatus(err error) int {
	switch {
	case err == nil:
		return http.StatusOK
	case errors.Is(err, ErrInvalidInput):
		return http.StatusBadRequest
	case errors.Is(err, ErrExpired):
		return http.StatusGone
	case errors.Is(err, ErrNotFound):
		return http.StatusNotFound
	case errors.Is(err, ErrConflict), errors.Is(err, ErrInvalidState):
		return http.StatusConflict
	}
	return http.StatusInternalServerError
}
