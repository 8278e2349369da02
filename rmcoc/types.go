// Package rmcoc renders and parses the typed, versioned state blocks the bot
// leaves in its own PR comments: fenced code blocks with the info string
// "rmcoc" holding one JSON object each. They are the action's only durable
// state; package state decides which of them to trust.
package rmcoc

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/review-my-code-bot/rmc/internal/jsonnum"
)

// Version is the schema version this build writes. Blocks without "v" are
// read as version 1 (rmc-oc wrote none).
const Version = 1

// Type names a block's kind.
type Type string

// The block types. Every one is written only by the bot, in its own comments.
const (
	TypeQuestionAnswer Type = "question-answer"    // an answer to a question comment
	TypeManualReview   Type = "manual-pr-review"   // status of a manual review request
	TypeFinding        Type = "review-finding"     // one review finding (inline comment)
	TypeDispute        Type = "dispute-resolution" // the bot's answer to a reply on a finding
	TypeAutoTrigger    Type = "auto-review-trigger"
	TypeReviewRun      Type = "review-run"         // a completed review (in the review body)
	TypeAgentNotice    Type = "agent-notification" // the coding agent was told about a review
	TypeTaskError      Type = "task-error"         // a task failed; it stays pending
	TypeAccessNotice   Type = "access-notice"      // someone without access was told, once
	TypeLearning       Type = "learning"           // a learning, in the learnings issue
	TypeLearningCmd    Type = "learning-command"   // a remember/forget command was carried out
	TypeEvidence       Type = "evidence-notice"    // blocking findings whose thread was deleted were reported
	TypeWaiver         Type = "finding-waiver"     // a waive command was answered
	TypeCommand        Type = "command-answer"     // a pause, resume, resolve... command was answered
	TypeWalkthrough    Type = "walkthrough"        // the sticky walkthrough comment
	TypeOutcomes       Type = "pr-outcomes"        // a link of the outcome ledger, in the learnings issue
	TypeLedgerHead     Type = "ledger-head"        // the gate ledger's newest links, in a bot review's body
	TypeLedgerCut      Type = "ledger-cut"         // the PR was told its gate ledger is cut
)

// Block is one decoded block. Concrete types are the structs below.
type Block interface{ BlockType() Type }

// ID is a GitHub database id. It is written as a JSON string (as rmc-oc did)
// and read by jsonnum's rule (a number or a string holding one); an id is
// never negative.
type ID int64

func (id ID) MarshalJSON() ([]byte, error) {
	return json.Marshal(strconv.FormatInt(int64(id), 10))
}

func (id *ID) UnmarshalJSON(b []byte) error {
	n := jsonnum.Int(*id)
	if err := n.UnmarshalJSON(b); err != nil {
		return fmt.Errorf("id: %w", err)
	}
	if n < 0 {
		return fmt.Errorf("id %d is not a positive integer", n)
	}
	*id = ID(n)
	return nil
}

// AnswerStatus is an answer block's status. A bot comment first holds
// IN_PROGRESS (the visible "looking into it" status), then the answer; a
// killed or failed run leaves it for the next run to reuse, so a question
// never gets two bot comments.
type AnswerStatus string

const (
	AnswerInProgress AnswerStatus = "IN_PROGRESS"
	AnswerFailed     AnswerStatus = "FAILED"
	AnswerAnswered   AnswerStatus = "ANSWERED"
)

// QuestionAnswer marks a question comment as answered, whatever later
// happens to the question's text.
type QuestionAnswer struct {
	ReplyToCommentID ID           `json:"reply_to_comment_id"`
	Status           AnswerStatus `json:"status,omitempty"`    // "" is ANSWERED (rmc-oc wrote none)
	Source           string       `json:"source,omitempty"`    // SourceReview when the question was a review body
	ThreadID         string       `json:"thread_id,omitempty"` // set when answered inside a review thread
	Asker            string       `json:"asker,omitempty"`
	// RunID is, on an unfinished answer, the workflow run working on it:
	// another run leaves the question to it while its claim holds.
	RunID      string    `json:"run_id,omitempty"`
	AnsweredAt time.Time `json:"answered_at"`
}

// SourceReview marks ids that name a pull request review rather than a comment
// (the two id spaces are separate); SourceDispatch marks ids that name a
// workflow run started by hand (workflow_dispatch) to ask for a review.
const (
	SourceReview   = "review"
	SourceDispatch = "workflow-dispatch"
)

// ManualStatus is a manual review request's status.
type ManualStatus string

// Manual review request statuses.
const (
	ManualPending    ManualStatus = "PENDING"
	ManualInProgress ManualStatus = "IN_PROGRESS"
	ManualCompleted  ManualStatus = "COMPLETED"
	ManualDismissed  ManualStatus = "DISMISSED_BY_AUTO_REVIEW"
)

// ManualReview records what happened to a "@rmc-bot review" request.
type ManualReview struct {
	RequestCommentID ID           `json:"request_comment_id"`
	Source           string       `json:"source,omitempty"` // SourceReview for a review body, SourceDispatch for a workflow run
	Status           ManualStatus `json:"status"`
	HeadSHA          string       `json:"head_sha,omitempty"`
	StartedAt        *time.Time   `json:"started_at,omitempty"`
	CompletedAt      *time.Time   `json:"completed_at,omitempty"`
	DismissedBy      string       `json:"dismissed_by,omitempty"`
}

// FindingStatus is a finding's status (the latest dispute-resolution block
// in a thread overrides).
type FindingStatus string

const (
	FindingOpen         FindingStatus = "PENDING"
	FindingResolved     FindingStatus = "RESOLVED"
	FindingDisputed     FindingStatus = "DISPUTED"
	FindingEscalated    FindingStatus = "ESCALATED"
	FindingAcknowledged FindingStatus = "ACKNOWLEDGED"
)

// Finding is the block on each inline review comment.
type Finding struct {
	ID          string        `json:"id"`
	Fingerprint string        `json:"fingerprint,omitempty"`
	Path        string        `json:"path,omitempty"`
	Line        int           `json:"line,omitempty"`
	StartLine   int           `json:"start_line,omitempty"`
	Side        string        `json:"side,omitempty"`
	Title       string        `json:"title,omitempty"`
	Category    string        `json:"category,omitempty"`
	Score       int           `json:"score"`
	Blocking    bool          `json:"blocking"`
	Status      FindingStatus `json:"status"`
	HeadSHA     string        `json:"head_sha,omitempty"`
	Pass        int           `json:"pass,omitempty"`
	CreatedAt   time.Time     `json:"created_at"`
	// OnFix is the id of the earlier finding whose verified fix wrote the
	// lines this one sits on (a fix loop); OnSuggestion is set when those
	// lines are that finding's own suggestion, committed as the bot wrote
	// it.
	OnFix        string `json:"on_fix,omitempty"`
	OnSuggestion bool   `json:"on_suggestion,omitempty"`
	// Blob is the key (BlobKeyLen hex digits) of the head blob of Path the
	// finding was raised on: the content that is bad. A decision that
	// closed the finding on other content lapses when this comes back.
	// "" in blocks written before it was recorded.
	Blob string `json:"blob,omitempty"`
}

// LineRange is a span of lines, both ends included.
type LineRange struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// MaxFixLines bounds the ranges a fix block records: a fix that wrote
// more is recorded by its first ones.
const MaxFixLines = 50

// Resolution is how the bot answered one reply on a finding.
type Resolution string

// Dispute resolutions.
const (
	ResolutionConcession   Resolution = "concession"
	ResolutionMaintained   Resolution = "maintained"
	ResolutionEscalated    Resolution = "escalated"
	ResolutionAcknowledged Resolution = "acknowledged"
	ResolutionAnswered     Resolution = "answered"
	ResolutionFixed        Resolution = "fixed"
	ResolutionDeferred     Resolution = "deferred" // accepted as out of scope for this PR
	// ResolutionReopened marks the bot's reply to a resolution that does not
	// count (see state): the thread is reopened, the status is unchanged.
	ResolutionReopened Resolution = "reopened"
	// ResolutionAccepted is the bot's record of a maintainer's resolution
	// of the thread, binding it to the content it judged (Blob): it
	// changes no status (the resolution itself does).
	ResolutionAccepted Resolution = "accepted"
	// ResolutionRegressed marks the bot's reply reopening a fixed finding:
	// the head no longer contains the commit its fix was verified on (a
	// force-push), or the same problem came back (a revert).
	ResolutionRegressed Resolution = "regressed"
)

// DisputeResolution is the bot's reply to one developer reply on a finding.
type DisputeResolution struct {
	ReplyToCommentID ID            `json:"reply_to_comment_id"` // the developer's reply
	FindingID        string        `json:"finding_id,omitempty"`
	ThreadID         string        `json:"thread_id,omitempty"`
	Status           FindingStatus `json:"status"`
	Resolution       Resolution    `json:"resolution"`
	Reason           string        `json:"reason,omitempty"`
	ResolvedBy       string        `json:"resolved_by,omitempty"` // with ResolutionReopened: whose resolution
	// HeadSHA is, with ResolutionFixed, the commit the fix was verified
	// on: the fix holds while the PR's head contains it.
	HeadSHA    string    `json:"head_sha,omitempty"`
	ResolvedAt time.Time `json:"resolved_at"`
	// FixLines are, with ResolutionFixed, the new-side lines of the
	// finding's file that the push since the last review wrote, at
	// HeadSHA (at most MaxFixLines ranges; none when the run read no such
	// diff). FixSuggestion are those of them holding the finding's own
	// suggestion as the bot wrote it, when the fix committed it.
	FixLines      []LineRange `json:"fix_lines,omitempty"`
	FixSuggestion LineRange   `json:"fix_suggestion,omitzero"`
	Prev          *Link       `json:"prev,omitempty"` // the gate ledger's link (see Link)
	// Blob is the key of the head blob of the finding's file a verdict
	// judged: on a decision that closes the finding (a verified fix, a
	// concession, a deferral, a maintainer's resolution recorded as
	// accepted) what it holds on, on one that keeps it open (maintained,
	// escalated) the content a later reply cannot argue it off again; ""
	// when unknown (blocks written before it was recorded, or a read that
	// failed).
	Blob string `json:"blob,omitempty"`
}

// AutoReviewTrigger records that an automatic review was requested for a head
// SHA. It is written before the review starts, so a run that is cancelled
// midway leaves a trace the next run restarts from (seed 004, merge gate).
type AutoReviewTrigger struct {
	HeadSHA string `json:"head_sha"`
	Action  string `json:"action"`
	// RunID is the workflow run that took the review on: while it is at
	// work, another run leaves the review to it.
	RunID       string    `json:"run_id,omitempty"`
	TriggeredAt time.Time `json:"triggered_at"`
}

// Mode is how a review was asked for.
type Mode string

// Review modes.
const (
	ModeAuto   Mode = "auto"
	ModeManual Mode = "manual"
)

// ReviewRun is written in the body of a completed review.
type ReviewRun struct {
	HeadSHA           string `json:"head_sha"`
	BaseSHA           string `json:"base_sha,omitempty"`
	FromSHA           string `json:"from_sha,omitempty"` // incremental reviews: the previously reviewed head
	Mode              Mode   `json:"mode"`
	RequestCommentIDs []ID   `json:"request_comment_ids,omitempty"`
	// DismissedRequestIDs are manual requests this automatic review made
	// redundant; each gets an explanation reply (a ManualReview block).
	DismissedRequestIDs []ID `json:"dismissed_request_ids,omitempty"`
	// RequestReviewIDs and DismissedReviewIDs are the same for requests
	// made in a review's body (review ids are a separate id space).
	RequestReviewIDs   []ID      `json:"request_review_ids,omitempty"`
	DismissedReviewIDs []ID      `json:"dismissed_review_ids,omitempty"`
	Findings           int       `json:"findings"`
	Blocking           int       `json:"blocking"`
	CompletedAt        time.Time `json:"completed_at"`

	// BaseRef is the branch the PR targeted when it was reviewed: a review
	// covers its head against that base only.
	BaseRef string `json:"base_ref,omitempty"`
	// Unreviewed are files of the review's scope that some pass did not
	// see whole (a partial review), at most MaxListed; UnreviewedCount is
	// how many there were. A review with any is not coverage: the next
	// run reviews them.
	Unreviewed      []string `json:"unreviewed,omitempty"`
	UnreviewedCount int      `json:"unreviewed_count,omitempty"`
	// Unreadable are changed files no pass could read (GitHub sends no
	// diff for a change that large): not covered, and no later run covers
	// them, so the gate waits for the change to be split or the path
	// excluded by the base branch.
	Unreadable []string `json:"unreadable,omitempty"`
	// Posted are the findings the review posted in threads: a blocking one
	// whose thread disappears keeps blocking.
	Posted []PostedFinding `json:"posted,omitempty"`

	// RequestRunIDs and DismissedRunIDs are requests made by running the
	// workflow by hand (workflow_dispatch): the ids are workflow run ids.
	RequestRunIDs   []ID `json:"request_run_ids,omitempty"`
	DismissedRunIDs []ID `json:"dismissed_run_ids,omitempty"`

	// The merge gate's ledger (see package gate), by blob, each a packed
	// list of 32-hex-digit blob keys (PackBlobs): Blobs were shown whole to
	// every enabled pass, BinaryBlobs are binary by content, NoDiffBlobs
	// are text no review could read. No cap on how many a run records:
	// past what one review body holds (MaxBlobs) the rest goes to
	// continuation blocks (Spilled, Continues).
	Blobs       string `json:"blobs,omitempty"`
	BinaryBlobs string `json:"binary_blobs,omitempty"`
	NoDiffBlobs string `json:"nodiff_blobs,omitempty"`
	// Spilled counts the blobs the review read past what its own block
	// holds: the bot records them in continuation blocks, in its comments
	// posted after the review. Until they are all found the review counts
	// as partial (a run killed before them leaves those files owed).
	Spilled int `json:"spilled,omitempty"`
	// Continues marks a continuation block: the review (its id) whose
	// ledger it carries on. Only its Blobs count.
	Continues ID `json:"continues,omitempty"`

	Prev *Link `json:"prev,omitempty"` // the gate ledger's link (see Link)
}

// BlobKeyLen is the length of one key in a packed blob list: 128 bits of
// the blob id, so that no author can make two contents share a key (see
// gate.KeyLen, the same length).
const BlobKeyLen = 32

// MaxBlobs bounds the keys one review-run block records, over its three
// lists: 32 characters each, 48,000 of the 56 KiB a block may hold, within
// a review body's 65,536. A review of more files records the rest in
// continuation blocks (ReviewRun.Continues), MaxBlobs each, in the bot's
// comments posted after the review.
const MaxBlobs = 1500

// PackBlobs packs blob ids into one string of their 32-digit keys, at most
// max of them, skipping ids that are not hex; it returns how many it
// packed and how many it left out.
func PackBlobs(ids []string, max int) (packed string, n, left int) {
	var b []byte
	for i, id := range ids {
		if len(id) < BlobKeyLen || !isHex(id[:BlobKeyLen]) {
			continue
		}
		if n == max {
			return string(b), n, len(ids) - i
		}
		b = append(b, id[:BlobKeyLen]...)
		n++
	}
	return string(b), n, 0
}

// UnpackBlobs is PackBlobs' inverse; a malformed list yields nothing, as a
// malformed block would.
func UnpackBlobs(s string) []string {
	if len(s)%BlobKeyLen != 0 || !isHex(s) {
		return nil
	}
	out := make([]string, 0, len(s)/BlobKeyLen)
	for i := 0; i < len(s); i += BlobKeyLen {
		out = append(out, s[i:i+BlobKeyLen])
	}
	return out
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// MaxListed bounds the paths a review-run block lists.
const MaxListed = 50

// PostedFinding is a finding a review posted, as its run block records it.
type PostedFinding struct {
	ID          string `json:"id"`
	Fingerprint string `json:"fingerprint,omitempty"`
	Blocking    bool   `json:"blocking"`
}

// Covered reports whether the review saw every file of its scope whole.
func (r ReviewRun) Covered() bool {
	return len(r.Unreviewed) == 0 && r.UnreviewedCount == 0 && len(r.Unreadable) == 0
}

// EvidenceNotice records that the bot told the PR that blocking findings
// lost their thread (someone deleted the bot's comment), once for each.
type EvidenceNotice struct {
	FindingIDs []string  `json:"finding_ids"`
	At         time.Time `json:"at"`
}

// Waiver results.
const (
	WaiverDone    = "waived"
	WaiverRefused = "not-allowed" // not a maintainer
	WaiverUnknown = "unknown-id"  // no finding of that id is missing
)

// Waiver answers a "waive <finding id>" command: a maintainer (write
// access, not the PR's author) lets a blocking finding whose thread was
// deleted stop holding the gate. What waives is the maintainer's own
// comment, judged by their permission; this block says it was answered.
type Waiver struct {
	CommandCommentID ID        `json:"command_comment_id"`
	FindingID        string    `json:"finding_id"`
	By               string    `json:"by"`
	Result           string    `json:"result"`
	At               time.Time `json:"at"`
	Prev             *Link     `json:"prev,omitempty"` // the gate ledger's link (see Link)
}

// CommandAnswer records that a command given to the bot in the PR's
// conversation ("@rmc-bot pause", "resolve", "help"...) was answered, so it
// is answered once. What a command does is the state's to say, from the
// command's own comment (judged by its author's access); this block only
// says it was answered and how. Result is a Command* result.
type CommandAnswer struct {
	CommandCommentID ID     `json:"command_comment_id"`
	Command          string `json:"command"`
	By               string `json:"by"`
	Result           string `json:"result"`
	// FindingIDs are, for resolve, the findings it waived.
	FindingIDs []string `json:"finding_ids,omitempty"`
	// Cuts are, for clear-ledger, the cuts of the gate ledger it cleared
	// (LedgerCut's keys).
	Cuts []string  `json:"cuts,omitempty"`
	At   time.Time `json:"at"`
	Prev *Link     `json:"prev,omitempty"` // the gate ledger's link (see Link)
}

// Walkthrough marks the bot's one walkthrough comment on a PR, edited in
// place on later reviews. Files are the lines the review's reading wrote
// on the PR's files, kept so that a push rewrites only its own files'
// lines: model text, relayed and fenced as such, never state the gate
// reads.
type Walkthrough struct {
	HeadSHA string     `json:"head_sha"`
	At      time.Time  `json:"at"`
	Files   []FileLine `json:"files,omitempty"`
}

// FileLine is what changed in one file, in a line the model wrote.
type FileLine struct {
	Path   string `json:"path"`
	Change string `json:"change"`
}

// AgentNotice records that the PR's coding agent was told about a review.
type AgentNotice struct {
	ReviewID ID        `json:"review_id"`
	Handle   string    `json:"handle"`
	SentAt   time.Time `json:"sent_at"`
}

// TaskError records a failed task; the task stays pending and is retried.
type TaskError struct {
	TaskKey  string    `json:"task_key"`
	Message  string    `json:"message"`
	FailedAt time.Time `json:"failed_at"`
	Attempts int       `json:"attempts,omitempty"` // failures recorded in this block (0 means 1)
}

// AccessNotice records that a user who may not ask the bot for work was told
// so, once per pull request.
type AccessNotice struct {
	User             string    `json:"user"`
	ReplyToCommentID ID        `json:"reply_to_comment_id"`
	SentAt           time.Time `json:"sent_at"`
}

func (AccessNotice) BlockType() Type      { return TypeAccessNotice }
func (EvidenceNotice) BlockType() Type    { return TypeEvidence }
func (Waiver) BlockType() Type            { return TypeWaiver }
func (CommandAnswer) BlockType() Type     { return TypeCommand }
func (Walkthrough) BlockType() Type       { return TypeWalkthrough }
func (Learning) BlockType() Type          { return TypeLearning }
func (LearningCommand) BlockType() Type   { return TypeLearningCmd }
func (QuestionAnswer) BlockType() Type    { return TypeQuestionAnswer }
func (ManualReview) BlockType() Type      { return TypeManualReview }
func (Finding) BlockType() Type           { return TypeFinding }
func (DisputeResolution) BlockType() Type { return TypeDispute }
func (AutoReviewTrigger) BlockType() Type { return TypeAutoTrigger }
func (ReviewRun) BlockType() Type         { return TypeReviewRun }
func (AgentNotice) BlockType() Type       { return TypeAgentNotice }
func (TaskError) BlockType() Type         { return TypeTaskError }

// newBlock returns a pointer to a zero value of the concrete type for t.
func newBlock(t Type) (Block, bool) {
	switch t {
	case TypeQuestionAnswer:
		return &QuestionAnswer{}, true
	case TypeManualReview:
		return &ManualReview{}, true
	case TypeFinding:
		return &Finding{}, true
	case TypeDispute:
		return &DisputeResolution{}, true
	case TypeAutoTrigger:
		return &AutoReviewTrigger{}, true
	case TypeReviewRun:
		return &ReviewRun{}, true
	case TypeAgentNotice:
		return &AgentNotice{}, true
	case TypeTaskError:
		return &TaskError{}, true
	case TypeAccessNotice:
		return &AccessNotice{}, true
	case TypeLearning:
		return &Learning{}, true
	case TypeLearningCmd:
		return &LearningCommand{}, true
	case TypeEvidence:
		return &EvidenceNotice{}, true
	case TypeWaiver:
		return &Waiver{}, true
	case TypeCommand:
		return &CommandAnswer{}, true
	case TypeWalkthrough:
		return &Walkthrough{}, true
	case TypeOutcomes:
		return &Outcomes{}, true
	case TypeLedgerHead:
		return &LedgerHead{}, true
	case TypeLedgerCut:
		return &LedgerCut{}, true
	}
	return nil, false
}

// Where a learning came from.
const (
	LearnedConcession = "concession" // the bot conceded a dispute
	LearnedResolution = "resolution" // a maintainer resolved a finding by hand
	LearnedRemember   = "remember"   // a maintainer said "@rmc-bot remember <rule>"
)

// Learning is one thing the bot learned about a repository, kept in the
// learnings issue. A new finding whose pattern fingerprint and path match
// is not reported again.
type Learning struct {
	ID string `json:"id"` // short, for "@rmc-bot forget <id>"
	// Fingerprint is the pattern the learning suppresses (the finding's
	// normalized title, hashed); "" for a rule that only guides the model.
	Fingerprint string    `json:"fingerprint,omitempty"`
	Title       string    `json:"title,omitempty"`  // what was reported
	Reason      string    `json:"reason,omitempty"` // why it was wrong here, or the rule
	PathGlob    string    `json:"path_glob"`        // which files it applies to
	Source      string    `json:"source,omitempty"` // link to the thread or comment
	Origin      string    `json:"origin"`           // a Learned* value
	By          string    `json:"by,omitempty"`     // who conceded the point or resolved it
	FindingID   string    `json:"finding_id,omitempty"`
	PR          int       `json:"pr,omitempty"`
	CommandID   ID        `json:"command_comment_id,omitempty"` // the remember command it carries out
	CreatedAt   time.Time `json:"created_at"`
}

// Learning commands. Confirm makes a learning drawn from a finding
// (a concession, a maintainer's resolution) suppress that finding on later
// pull requests; until then it is a hint in the prompt only. "remember
// <id>" with the id of an active learning is read as confirm.
const (
	CommandRemember = "remember"
	CommandForget   = "forget"
	CommandConfirm  = "confirm"
)

// What became of a learning command (LearningCommand.Result).
const (
	CommandDone       = "done"
	CommandUnknownID  = "unknown-id"
	CommandNotAllowed = "not-allowed"
)

// LearningCommand records that a command in the learnings issue was carried
// out (or refused), so it is done once. The first such block for a command
// (the lowest comment id) is the one that counts: overlapping runs that
// both carried it out keep the earliest. A not-allowed block also records
// that By was told, once ever: their later commands get no reply.
type LearningCommand struct {
	CommandCommentID ID        `json:"command_comment_id"`
	Command          string    `json:"command"`
	LearningID       string    `json:"learning_id,omitempty"`
	Result           string    `json:"result"`       // a Command* result
	By               string    `json:"by,omitempty"` // the command's author
	At               time.Time `json:"at"`
}
