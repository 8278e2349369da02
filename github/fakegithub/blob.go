package fakegithub

import (
	"crypto/sha1"
	"encoding/hex"
	"strings"
)

// blobObj is a file's content at a commit, as Repository.object(expression:)
// returns it for "<rev>:<path>".
type blobObj struct{ text string }

func init() {
	resolvers["Repository"]["object"] = field(func(_ *executor, r *repoState, args map[string]any) (any, error) {
		rev, path, ok := strings.Cut(argString(args, "expression"), ":")
		if !ok {
			return nil, nil // a commit or tree expression: not served, and null on GitHub for unknown revs
		}
		if content, found := r.contents[rev+"\x00"+strings.Trim(path, "/")]; found {
			return blobObj{content}, nil
		}
		return nil, nil // GitHub answers null for a path that does not exist at rev
	}, "expression", "oid")
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
