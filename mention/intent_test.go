package mention

import (
	"context"
	"testing"
)

func TestClassify(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		text string
		want Intent
	}{
		// Review requests.
		"review":                   {"review", ReviewRequest},
		"review capitalized":       {"Review.", ReviewRequest},
		"review this":              {"review this", ReviewRequest},
		"please review":            {"please review", ReviewRequest},
		"re-review":                {"re-review", ReviewRequest},
		"rereview":                 {"rereview please", ReviewRequest},
		"re-review non-breaking":   {"re\u2011review", ReviewRequest},
		"take a look":              {"take a look", ReviewRequest},
		"have a look":              {"have a look", ReviewRequest},
		"check the changes":        {"check the changes", ReviewRequest},
		"check this PR":            {"check this PR", ReviewRequest},
		"look at the changes":      {"look at the changes", ReviewRequest},
		"can you review":           {"can you review?", ReviewRequest},
		"another pass":             {"another pass", ReviewRequest},
		"could you please review":  {"Could you please review this PR when you get a chance?", ReviewRequest},
		"take another look at":     {"can you take another look at the latest changes?", ReviewRequest},
		"review again":             {"review again please", ReviewRequest},
		"give it another pass":     {"give it another pass", ReviewRequest},
		"one more pass":            {"one more pass, thanks!", ReviewRequest},
		"ptal":                     {"PTAL", ReviewRequest},
		"would you mind reviewing": {"would you mind reviewing the new commits?", ReviewRequest},
		"handle kept in text":      {"@rmc-bot please review", ReviewRequest},
		"emoji":                    {"review pls 🙏", ReviewRequest},
		"thanks then request":      {"Thanks! Please review again.", ReviewRequest},
		"report then request":      {"I've addressed your comments. Please take another look.", ReviewRequest},
		"fixed then request":       {"Fixed the typo. Please re-review.", ReviewRequest},
		"done comma request":       {"Done, please review", ReviewRequest},
		"reason tail":              {"Can you re-review now that I've pushed the fixes?", ReviewRequest},
		"give this pr a review":    {"give this PR a quick review", ReviewRequest},
		"quoted context ignored":   {"> why is this here?\n\nplease review", ReviewRequest},
		"hidden comment ignored":   {"review <!-- and explain auth.go -->", ReviewRequest},
		"review the latest commit": {"review the latest commit", ReviewRequest},
		"i need a review":          {"I need a review", ReviewRequest},

		// Full review requests.
		"full review":                    {"full review", FullReviewRequest},
		"please do a full review":        {"please do a full review", FullReviewRequest},
		"review everything":              {"review everything", FullReviewRequest},
		"review from scratch":            {"review from scratch", FullReviewRequest},
		"full review of this pr":         {"Could you do a full review of this PR?", FullReviewRequest},
		"complete re-review":             {"a complete re-review please", FullReviewRequest},
		"re-review everything":           {"re-review everything from scratch", FullReviewRequest},
		"whole pr":                       {"review the whole PR", FullReviewRequest},
		"all the files":                  {"check all the files again", FullReviewRequest},
		"fresh look":                     {"take a fresh look", FullReviewRequest},
		"full review after thanks":       {"Thanks. Full review please.", FullReviewRequest},
		"unknown word in its own clause": {"Please review. Actually, review everything.", Question},
		"two requests pick full":         {"Please review. Review everything.", FullReviewRequest},

		// Questions, including ones that use "review" in another sense.
		"why did the review flag":        {"why did the review flag line 10?", Question},
		"what does reviewer mean":        {"what does reviewer mean here", Question},
		"is the review of auth.go right": {"is the review of auth.go right?", Question},
		"ready for review":               {"Is this ready for review?", Question},
		"when will the review":           {"When will the review be done?", Question},
		"review comments confusing":      {"review comments are confusing", Question},
		"review a file":                  {"review auth.go", Question},
		"review a function":              {"please review this function", Question},
		"review and explain":             {"review this and explain the bug", Question},
		"request plus question":          {"Can you review this? Also, what does foo do?", Question},
		"thanks for the review":          {"Thanks for the review!", Question},
		"thanks then question":           {"Thanks for the review. Why did you flag line 10?", Question},
		"negated":                        {"don't review this", Question},
		"do not review":                  {"do not review", Question},
		"full review question":           {"is a full review needed?", Question},
		"cost of a full review":          {"what would a full review cost?", Question},
		"plain question":                 {"what does this function return on error?", Question},
		"code attached":                  {"review\n```go\nfunc f() {}\n```", Question},
		"inline code":                    {"review `f`", Question},
		"explain":                        {"explain the change to the retry loop", Question},
		"empty":                          {"", Question},
		"only a handle":                  {"@rmc-bot", Question},
		"only thanks":                    {"thanks!", Question},
		"reason that asks":               {"review since I think it is wrong", Question},
		"filler that asks":               {"Fixed it but why does the test fail. Please review.", Question},
		"long text":                      {"please review " + longWords(70), Question},
		"review the review":              {"review the review", Question},
		"check the tests":                {"check the tests", Question},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := Classify(tc.text); got != tc.want {
				t.Errorf("Classify(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}

func longWords(n int) string {
	s := ""
	for range n {
		s += "now "
	}
	return s
}

func TestRules(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // a fallback must still answer after the LLM's context is gone
	var c Classifier = Rules{}
	got, err := c.Classify(ctx, "please review")
	if err != nil || got != ReviewRequest {
		t.Errorf("Rules.Classify = %q, %v; want %q, nil", got, err, ReviewRequest)
	}
}
