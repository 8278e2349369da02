// Package mention finds where a comment addresses the bot and decides what
// the developer wants.
//
// Find locates the first mention of one of the bot's handles in the prose of
// a comment body, so quoting an earlier "@rmc-bot review" or pasting a log
// that contains the handle does not wake the bot. The body is parsed as
// CommonMark by goldmark, the parser the action already ships, so block
// structure is read the way GitHub renders it rather than guessed line by
// line. Prose is the text of paragraphs and headings, in list items too;
// these are not prose:
//
//   - fenced and indented code blocks, and code spans;
//   - block quotes, with their lazy continuation lines ("> a" then "b"
//     renders "b" inside the quote): GitHub shows a quoted mention, but it
//     is someone else's words, so it never starts work;
//   - HTML blocks, whose text may sit in an attribute or a hidden element,
//     except the text that follows an HTML comment opening the block on the
//     same line ("<!-- note --> @rmc-bot why?"); inline HTML tags and
//     comments;
//   - link text, image descriptions and autolinks (GitHub does not notify
//     a mention inside a link either), and link reference definitions.
//
// HTML comments, in HTML blocks or inline, are cut out of Mention.Text.
//
// goldmark takes time quadratic in a few shapes: container markers opened on
// one line ("> > > …", "- - - …") and link destinations ("]("). A body with
// more than 32 of the former on a line or more than 1024 of the latter is
// read as not addressed to the bot; no hand-written comment comes near.
//
// Classify sorts the request into a Question, a ReviewRequest or a
// FullReviewRequest with fixed rules, behind the Classifier interface an
// LLM-backed classifier can share.
//
// Both work on untrusted input and never panic. Classify costs time linear
// in the body; Find parses only a body that holds a handle, and the parse
// stays in milliseconds at GitHub's largest comment (BenchmarkFind, hostile
// bodies included).
package mention
