// Package mutations holds the deliberate breaks of production code that the
// unit tests must catch, and the test that proves they do.
//
// Each mutation replaces one exact piece of a production file. By default the
// test checks that every piece still occurs exactly once in its file (so the
// list cannot silently drift from the code) and that docs/mutations.md shows
// the list as it is (go test ./internal/mutations -update rewrites its
// tables). With -mutate it applies each break through go test's -overlay
// (the working tree is never written), runs the mutated package's own named
// tests, and fails unless a test fails on it; the unmutated package must pass
// the same tests first.
package mutations
