package snapshot

import "errors"

// Refusals of GitHub's that the pipeline acts on. The GitHub adapter is the
// only code that reads GitHub's error text; it answers errors.Is for these.
var (
	// ErrRefused is any error answer from GitHub's API (as opposed to a
	// network failure or a cancelled run).
	ErrRefused = errors.New("GitHub refused the request")
	// ErrOwnPullRequest: GitHub does not let a user request changes on
	// their own pull request.
	ErrOwnPullRequest = errors.New("GitHub does not let a user request changes on their own pull request")
	// ErrAnchorRejected: an inline comment's line is not part of the diff
	// GitHub knows.
	ErrAnchorRejected = errors.New("GitHub rejected an inline comment's line")
	// ErrPermission: the token lacks a workflow permission; the error's
	// text names it.
	ErrPermission = errors.New("the token lacks a permission")
	// ErrBadCredentials: GitHub does not accept the token at all (401):
	// mistyped, expired or revoked.
	ErrBadCredentials = errors.New("GitHub did not accept the token")
	// ErrNotFound: GitHub has no such thing, or the token cannot see it
	// (404).
	ErrNotFound = errors.New("GitHub found no such thing, or the token cannot see it")
)
