package fakellm

import (
	"regexp"
	"strings"
)

// chunkHeading is a file's heading in the review's diff chunk:
// "### path (status)".
var chunkHeading = regexp.MustCompile(`(?m)^### (.+) \([a-z]+\)$`)

// ReviewAnswer is a review pass's answer reporting findings, as a model
// answers it: when the pass also asks for a line per file (the
// walkthrough's "files"), it writes one for each file of the diff chunk the
// request carries.
func ReviewAnswer(r Request, findings any) Reply {
	if findings == nil {
		findings = []any{}
	}
	if !strings.Contains(r.LastUser(), `Also write "files"`) {
		return Reply{JSON: map[string]any{"findings": findings}}
	}
	files := []map[string]string{}
	for _, m := range r.Messages {
		if m.Role != "user" || !strings.Contains(m.Content, "# The diff under review") {
			continue
		}
		files = files[:0] // the latest chunk
		seen := map[string]bool{}
		for _, h := range chunkHeading.FindAllStringSubmatch(m.Content, -1) {
			if !seen[h[1]] {
				seen[h[1]] = true
				files = append(files, map[string]string{"path": h[1], "change": "changes " + h[1]})
			}
		}
	}
	return Reply{JSON: map[string]any{"findings": findings, "files": files}}
}
