package fakegithub

import (
	"fmt"
	"strings"
)

// anchorProblem is one way an inline comment can miss the diff. GitHub words
// it two ways: the reviews endpoint lists plain sentences ("Pull request
// review thread line must be part of the diff"), the single-comment endpoint
// answers "Validation Failed" naming the thread field.
type anchorProblem struct {
	sentence string
	field    string
	detail   string
}

var (
	problemLine = anchorProblem{msgLineNotInDiff,
		"pull_request_review_thread.line", "must be part of the diff"}
	problemPath = anchorProblem{msgPathNotResolved,
		"pull_request_review_thread.path", "could not be resolved"}
	problemStartHunk = anchorProblem{msgStartNotInHunk,
		"pull_request_review_thread.start_line", "must be part of the same hunk as the line."}
	problemStartOrder = anchorProblem{msgStartAfterEnd,
		"pull_request_review_thread.start_line", "must precede the end line."}
	problemPosition = anchorProblem{msgPositionInvalid,
		"pull_request_review_thread.position", "is invalid"}
)

func (p anchorProblem) reply(doc string, single bool) reply {
	if single {
		return validationFailed(doc, fieldError{Resource: "PullRequestReviewComment", Code: "custom",
			Field: p.field, Message: p.field + " " + p.detail})
	}
	return unprocessable(doc, p.sentence)
}

// resolveAnchor checks one inline comment against the PR's patches,
// accepting either line/side (with an optional start) or the legacy diff
// position. single selects the single-comment endpoint's error wording.
func (p *pullState) resolveAnchor(in reviewCommentInput, doc string, single bool) (anchor, *reply) {
	bad := func(r reply) (anchor, *reply) { return anchor{}, &r }
	miss := func(pr anchorProblem) (anchor, *reply) { return bad(pr.reply(doc, single)) }
	if strings.TrimSpace(in.Body) == "" {
		return bad(missingField("PullRequestReviewComment", "body", doc))
	}
	if tooLong(in.Body) {
		return bad(bodyTooLong("PullRequestReviewComment", doc))
	}
	f, ok := p.file(in.Path)
	if !ok {
		return miss(problemPath)
	}
	pp, err := parsePatch(f.Patch)
	if err != nil || len(pp.lines) == 0 {
		return miss(problemLine)
	}

	if in.Line == nil {
		if in.Position == nil {
			return bad(invalidRequest(doc, `"line" wasn't supplied.`))
		}
		pl, ok := pp.at(*in.Position)
		if !ok {
			return miss(problemPosition)
		}
		side, line := pl.side()
		return anchor{path: in.Path, line: line, side: side, position: *in.Position, hunk: pp.hunkText(pl)}, nil
	}

	side := orDefault(strings.ToUpper(in.Side), "RIGHT")
	if side != "LEFT" && side != "RIGHT" {
		return bad(invalidRequest(doc, fmt.Sprintf(`For 'properties/side', %q is not one of ["LEFT", "RIGHT"].`, in.Side)))
	}
	end, ok := pp.find(side, *in.Line)
	if !ok {
		return miss(problemLine)
	}
	a := anchor{path: in.Path, line: *in.Line, side: side, position: end.position, hunk: pp.hunkText(end)}
	if in.StartLine == nil {
		return a, nil
	}
	startSide := orDefault(strings.ToUpper(in.StartSide), side)
	start, ok := pp.find(startSide, *in.StartLine)
	if !ok || start.hunk != end.hunk {
		return miss(problemStartHunk)
	}
	if start.index >= end.index {
		return miss(problemStartOrder)
	}
	a.startLine, a.startSide = *in.StartLine, startSide
	return a, nil
}
