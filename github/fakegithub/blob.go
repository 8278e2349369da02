package fakegithub

import (
	"crypto/sha1"
	"encoding/hex"
	"strings"
)

// blobObj is a file's content at a commit, as Repository.object(expression:)
// returns it for "<rev>:<path>".
type blobObj struct{ text string }

// statusObj is a commit's combined status (Commit.status).
type statusObj struct{ latest []*Status }

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func init() {
	resolvers["Repository"]["object"] = field(func(x *executor, r *repoState, args map[string]any) (any, error) {
		rev, path, ok := strings.Cut(argString(args, "expression"), ":")
		if !ok {
			if sha := r.resolveRef(rev); r.knownCommit(sha) {
				return commitObj{oid: sha, url: x.s.htmlURL("/" + r.FullName() + "/commit/" + sha), r: r}, nil
			}
			return nil, nil // null on GitHub for unknown revs
		}
		if content, found := r.contentAt(rev, strings.Trim(path, "/")); found {
			return blobObj{content}, nil
		}
		return nil, nil // GitHub answers null for a path that does not exist at rev
	}, "expression", "oid")
	resolvers["Commit"]["status"] = get(func(c commitObj) any {
		if st := c.r.latestStatuses(c.oid); len(st) > 0 {
			return statusObj{st}
		}
		return nil // GitHub answers null for a commit without statuses
	})
	resolvers["Status"] = map[string]resolver{
		"contexts": get(func(s statusObj) any { return s.latest }),
		"state":    get(func(s statusObj) any { return strings.ToUpper(combinedState(s.latest)) }),
	}
	resolvers["StatusContext"] = map[string]resolver{
		"context":     get(func(s *Status) any { return s.Context }),
		"state":       get(func(s *Status) any { return strings.ToUpper(s.State) }),
		"description": get(func(s *Status) any { return nilIfEmpty(s.Description) }),
		"targetUrl":   get(func(s *Status) any { return nilIfEmpty(s.TargetURL) }),
	}
	resolvers["Blob"] = map[string]resolver{
		"text":        get(func(b blobObj) any { return b.text }),
		"byteSize":    get(func(b blobObj) any { return len(b.text) }),
		"isBinary":    get(func(blobObj) any { return false }),
		"isTruncated": get(func(blobObj) any { return false }),
		"oid": get(func(b blobObj) any {
			sum := sha1.Sum([]byte(b.text))
			return hex.EncodeToString(sum[:])
		}),
	}
}
