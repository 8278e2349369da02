package fakegithub

import (
	"fmt"
	"net/http"
	"strconv"
	"unicode/utf8"
)

// Documentation URLs GitHub puts in error bodies. Clients key behaviour on
// some of them (go-github spots secondary rate limits by the suffix), so they
// are copied from real responses.
const (
	docREST               = "https://docs.github.com/rest"
	docGraphQL            = "https://docs.github.com/graphql"
	docGetUser            = "https://docs.github.com/rest/users/users#get-the-authenticated-user"
	docGetPull            = "https://docs.github.com/rest/pulls/pulls#get-a-pull-request"
	docCreateReview       = "https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request"
	docCreateIssueComment = "https://docs.github.com/rest/issues/comments#create-an-issue-comment"
	docUpdateIssueComment = "https://docs.github.com/rest/issues/comments#update-an-issue-comment"
	docCreateReply        = "https://docs.github.com/rest/pulls/comments#create-a-reply-for-a-review-comment"
	docUpdateReviewCmt    = "https://docs.github.com/rest/pulls/comments#update-a-review-comment-for-a-pull-request"
	docCreateReaction     = "https://docs.github.com/rest/reactions/reactions#create-reaction-for-an-issue-comment"
	docCreateStatus       = "https://docs.github.com/rest/commits/statuses#create-a-commit-status"
	docRequestReviewers   = "https://docs.github.com/rest/pulls/review-requests#request-reviewers-for-a-pull-request"
	docGetContent         = "https://docs.github.com/rest/repos/contents#get-repository-content"
	docPermission         = "https://docs.github.com/rest/collaborators/collaborators#get-repository-permissions-for-a-user"
	docCompare            = "https://docs.github.com/rest/commits/commits#compare-two-commits"
	docPrimaryRateLimit   = "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-primary-rate-limits"
	docSecondaryRateLimit = "https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"
)

// maxBodyChars is GitHub's limit on comment and review bodies, counted in
// characters, not bytes.
const maxBodyChars = 65536

// apiError is GitHub's REST error body. Field order follows GitHub's.
type apiError struct {
	Message          string `json:"message"`
	Errors           any    `json:"errors,omitempty"`
	DocumentationURL string `json:"documentation_url"`
	Status           string `json:"status"`
}

// fieldError is one entry of a "Validation Failed" error list.
type fieldError struct {
	Resource string `json:"resource,omitempty"`
	Code     string `json:"code"`
	Field    string `json:"field,omitempty"`
	Message  string `json:"message,omitempty"`
}

func errorReply(status int, message, doc string, errs any) reply {
	return jsonReply(status, apiError{Message: message, Errors: errs, DocumentationURL: doc, Status: strconv.Itoa(status)})
}

func notFound(doc string) reply { return errorReply(http.StatusNotFound, "Not Found", doc, nil) }

func badCredentials(resource string) reply {
	doc := docREST
	if resource == "graphql" {
		doc = docGraphQL
	}
	return errorReply(http.StatusUnauthorized, "Bad credentials", doc, nil)
}

// rateLimited answers a request made with the primary budget spent. REST
// says 403; GraphQL answers HTTP 200 with a RATE_LIMITED error, as GitHub
// documents for its GraphQL API. Both report x-ratelimit-remaining 0.
func rateLimited(c *call) reply {
	who := "installation ID 1"
	if c.kind == TokenPAT {
		who = "user ID " + strconv.FormatInt(c.who.id, 10)
	}
	if c.resource == "graphql" {
		return jsonReply(http.StatusOK, map[string]any{"errors": []gqlError{{
			Type: "RATE_LIMITED", Message: "API rate limit already exceeded for " + who + ".",
		}}})
	}
	return errorReply(http.StatusForbidden, "API rate limit exceeded for "+who+".", docPrimaryRateLimit, nil)
}

// unprocessable is GitHub's 422 with plain-string errors, as the pulls
// endpoints send ("Pull request review thread line must be part of the diff").
func unprocessable(doc string, msgs ...string) reply {
	return errorReply(http.StatusUnprocessableEntity, "Unprocessable Entity", doc, msgs)
}

// validationFailed is GitHub's 422 with structured field errors.
func validationFailed(doc string, errs ...fieldError) reply {
	return errorReply(http.StatusUnprocessableEntity, "Validation Failed", doc, errs)
}

func missingField(resource, field, doc string) reply {
	return validationFailed(doc, fieldError{Resource: resource, Code: "missing_field", Field: field})
}

// tooLong reports whether body exceeds GitHub's body limit.
func tooLong(body string) bool { return utf8.RuneCountInString(body) > maxBodyChars }

func bodyTooLong(resource, doc string) reply {
	return validationFailed(doc, fieldError{
		Resource: resource, Code: "custom", Field: "body",
		Message: fmt.Sprintf("body is too long (maximum is %d characters)", maxBodyChars),
	})
}

func forbiddenIntegration(doc string) reply {
	return errorReply(http.StatusForbidden, "Resource not accessible by integration", doc, nil)
}
