package gate

import "strings"

// binaryPeek is how far git looks for a NUL byte: the first 8,000 bytes.
const binaryPeek = 8000

// IsBinary reports whether a blob's content is binary, by git's own rule: a
// NUL byte in its first 8,000 bytes. It is coverage's rule for a file
// GitHub sends no patch for: a binary blob has nothing for the model to
// read, so a review records it as Binary and the gate owes it nothing;
// text is read, diffed and reviewed, or recorded NoDiff.
func IsBinary(content string) bool {
	return strings.Contains(content[:min(len(content), binaryPeek)], "\x00")
}
