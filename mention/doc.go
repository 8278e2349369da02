// Package mention finds where a comment addresses the bot and decides what
// the developer wants.
//
// Find locates the first mention of one of the bot's handles in the prose of
// a comment body, so quoting an earlier "@rmc-bot review" or pasting a log
// that contains the handle does not wake the bot. Prose is what GitHub
// renders as ordinary text; these are not prose (CommonMark's rules, closely
// enough):
//
//   - fenced code blocks: a line indented at most three spaces opening with
//     three or more backticks or tildes (a backtick fence's info string may
//     not contain a backtick, else the line is inline code), closed by a line
//     of the same character at least as long with nothing after it, or by the
//     end of the body;
//   - quoted lines: the first non-blank character is '>' (any indentation,
//     any nesting);
//   - HTML comments: a line starting with "<!--" (indented at most three
//     spaces) hides everything up to the line holding "-->", blank lines
//     included, or to the end of the body; within a paragraph, "<!--" to the
//     next "-->" in the same paragraph;
//   - code spans: a run of backticks up to the next run of the same length
//     in the same paragraph, which may span lines; a backslash-escaped
//     backtick opens nothing. Paragraphs end at blank lines, fences, quotes,
//     HTML comments, list items and headings.
//
// Lines indented four or more spaces are treated as prose, not as indented
// code, as are lazy continuation lines of a quote and a fence opened on a
// list item's own line ("- ```"): all are rare in comments, and reading
// them as prose only risks an extra answer.
//
// Classify sorts the request into a Question, a ReviewRequest or a
// FullReviewRequest with fixed rules, behind the Classifier interface an
// LLM-backed classifier can share.
//
// Both work on untrusted input, never panic, and cost time linear in the
// body (up to a log factor) whatever the input.
package mention
