package rmcoc

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// wireBlocks holds one block of each type with every enum-valued field set.
func wireBlocks() []Block {
	return []Block{
		QuestionAnswer{ReplyToCommentID: 11, Status: AnswerInProgress, Source: SourceReview, ThreadID: "T1", Asker: "alice", AnsweredAt: at},
		QuestionAnswer{ReplyToCommentID: 12, Status: AnswerFailed, AnsweredAt: at},
		QuestionAnswer{ReplyToCommentID: 13, Status: AnswerAnswered, AnsweredAt: at},
		ManualReview{RequestCommentID: 21, Source: SourceDispatch, Status: ManualPending, HeadSHA: "abc"},
		ManualReview{RequestCommentID: 22, Status: ManualInProgress, StartedAt: &at},
		ManualReview{RequestCommentID: 23, Status: ManualCompleted, CompletedAt: &at},
		ManualReview{RequestCommentID: 24, Status: ManualDismissed, DismissedBy: "auto-pr-review"},
		Finding{ID: "f1", Fingerprint: "ab", Path: "a.go", Line: 3, StartLine: 1, Side: "RIGHT", Title: "t", Category: "bug", Score: 8, Blocking: true, Status: FindingOpen, HeadSHA: "abc", Pass: 2, CreatedAt: at},
		Finding{ID: "f2", Status: FindingResolved, CreatedAt: at},
		Finding{ID: "f3", Status: FindingDisputed, CreatedAt: at},
		Finding{ID: "f4", Status: FindingEscalated, CreatedAt: at},
		Finding{ID: "f5", Status: FindingAcknowledged, CreatedAt: at},
		DisputeResolution{ReplyToCommentID: 31, FindingID: "f1", ThreadID: "T", Status: FindingDisputed, Resolution: ResolutionConcession, Reason: "r", ResolvedAt: at},
		DisputeResolution{ReplyToCommentID: 32, Status: FindingOpen, Resolution: ResolutionMaintained, ResolvedAt: at},
		DisputeResolution{ReplyToCommentID: 33, Status: FindingEscalated, Resolution: ResolutionEscalated, ResolvedAt: at},
		DisputeResolution{ReplyToCommentID: 34, Status: FindingAcknowledged, Resolution: ResolutionAcknowledged, ResolvedAt: at},
		DisputeResolution{ReplyToCommentID: 35, Status: FindingOpen, Resolution: ResolutionAnswered, ResolvedAt: at},
		DisputeResolution{ReplyToCommentID: 36, Status: FindingResolved, Resolution: ResolutionFixed, ResolvedAt: at},
		DisputeResolution{ReplyToCommentID: 37, Status: FindingResolved, Resolution: ResolutionDeferred, ResolvedAt: at},
		DisputeResolution{ReplyToCommentID: 38, Status: FindingOpen, Resolution: ResolutionReopened, ResolvedBy: "bob", ResolvedAt: at},
		AutoReviewTrigger{HeadSHA: "abc", Action: "synchronize", TriggeredAt: at},
		ReviewRun{HeadSHA: "abc", BaseSHA: "def", FromSHA: "012", Mode: ModeAuto, RequestCommentIDs: []ID{1}, DismissedRequestIDs: []ID{2}, RequestReviewIDs: []ID{3}, DismissedReviewIDs: []ID{4}, Findings: 3, Blocking: 1, CompletedAt: at, RequestRunIDs: []ID{5}, DismissedRunIDs: []ID{6}},
		ReviewRun{HeadSHA: "abc", Mode: ModeManual, CompletedAt: at},
		AgentNotice{ReviewID: 5, Handle: "@claude", SentAt: at},
		TaskError{TaskKey: "k", Message: "m", FailedAt: at, Attempts: 2},
		AccessNotice{User: "eve", ReplyToCommentID: 41, SentAt: at},
		Learning{ID: "L1", Fingerprint: "fp", Title: "t", Reason: "r", PathGlob: "**/*.go", Source: "u", Origin: LearnedConcession, By: "bob", FindingID: "f1", PR: 7, CommandID: 8, CreatedAt: at},
		Learning{ID: "L2", PathGlob: "*", Origin: LearnedResolution, CreatedAt: at},
		Learning{ID: "L3", PathGlob: "*", Origin: LearnedRemember, CreatedAt: at},
		LearningCommand{CommandCommentID: 51, Command: CommandRemember, LearningID: "L1", Result: "done", At: at},
		LearningCommand{CommandCommentID: 52, Command: CommandForget, Result: "unknown-id", At: at},
	}
}

// TestWireBytes pins the bytes of every block type and enum value: the file
// was written before the enums became named types, and every existing block
// must read and write exactly as it did.
func TestWireBytes(t *testing.T) {
	t.Parallel()
	want, err := os.ReadFile("testdata/wire.txt")
	if err != nil {
		t.Fatal(err)
	}
	blocks := wireBlocks()
	var parts []string
	for _, b := range blocks {
		parts = append(parts, Render(b))
	}
	if got := strings.Join(parts, "\n\n") + "\n"; got != string(want) {
		t.Errorf("rendered blocks differ from testdata/wire.txt:\n%s", got)
	}
	parsed, errs := Parse(string(want))
	if len(errs) != 0 || len(parsed) != len(blocks) {
		t.Fatalf("Parse(wire.txt) = %d blocks, %v; want %d", len(parsed), errs, len(blocks))
	}
	for i, b := range parsed {
		if !reflect.DeepEqual(b, blocks[i]) {
			t.Errorf("block %d read back as %#v, want %#v", i, b, blocks[i])
		}
		if Render(b) != parts[i] {
			t.Errorf("block %d re-renders differently", i)
		}
	}
}
