// Package mention finds where a comment addresses the bot and decides what
// the developer wants.
//
// Find locates the first mention of one of the bot's handles in the prose of
// a comment body. Prose is what GitHub renders as ordinary text: fenced code,
// code spans, quoted lines and HTML comments are never prose, so quoting an
// earlier "@rmc-bot review" or pasting a log that contains the handle does
// not wake the bot. Classify then sorts the request into a Question, a
// ReviewRequest or a FullReviewRequest with fixed rules, behind the
// Classifier interface an LLM-backed classifier can share.
//
// Both work on untrusted input and never panic; their cost is linear in the
// body (up to a log factor) whatever the input.
package mention
