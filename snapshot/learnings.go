package snapshot

// LearningsLabel marks the bot's learnings issue; LearningsTitle is its title.
const (
	LearningsLabel = "rmc-learnings"
	LearningsTitle = "review-my-code-bot learnings"
)

// LearningsIssue is the repository's learnings issue: the oldest issue with
// LearningsLabel, with all its comments. Who wrote it and its comments is
// checked by package state, as for every block.
type LearningsIssue struct {
	Read     bool // the snapshot read it (false: not asked for)
	Number   int  // 0 when there is none yet
	URL      string
	Title    string
	Closed   bool // closing the issue turns learning off
	Author   Actor
	Comments []Comment
}
