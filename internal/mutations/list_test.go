package mutations

// A mutation replaces Old, which occurs exactly once in File, with New; the
// tests named in Tests (a -run pattern over the package's top-level tests)
// must fail on it.
type mutation struct {
	ID       string
	Section  section
	What     string // the break, in words
	File     string // from the module root
	Old, New string
	Tests    string // e.g. "TestRun|TestRetries"
}

type section string

const (
	issue     section = "issue"
	more      section = "more"
	quadratic section = "quadratic"
	since     section = "since"
	survivors section = "survivors"
)

var sections = []section{issue, more, quadratic, since, survivors}

var list = []mutation{
	// The issue's seventeen: the blocking threshold, the author-resolved
	// thread, the token path of the local page, Defang, and the paths that
	// keep a blocking finding blocking.
	{ID: "M1", Section: issue, What: "the blocking threshold is exclusive", File: "review/engine.go",
		Old: "f.Blocking = f.Score >= opt.BlockingThreshold", New: "f.Blocking = f.Score > opt.BlockingThreshold", Tests: "TestRun"},
	{ID: "M2", Section: issue, What: "the PR author's resolution of a blocking thread counts", File: "state/state.go",
		Old: "a.IsBot || a.Is(d.prAuthor) {", New: "a.IsBot {", Tests: "TestDerive"},
	{ID: "M2b", Section: issue, What: "the run leaves alone a thread the PR's author resolved", File: "execution/reopen.go",
		Old: "if f.Reopen == nil || ctx.Err() != nil {", New: "if f.Reopen == nil || f.Reopen.Login == x.Snap.PR.Author.Login || ctx.Err() != nil {", Tests: "TestHandleResolutions"},
	{ID: "M3", Section: issue, What: "the page's one-time code works twice (the `//host` redirect it replaced is gone with the `?token=` link)", File: "reviewsforagent/auth.go",
		Old: "delete(s.codes, in.Code)", New: "_ = in.Code", Tests: "TestServerOneTimeCode"},
	{ID: "M4", Section: issue, What: "posted prose is not defanged", File: "execution/poster.go",
		Old: "prose := rmcoc.Defang(sanitize.Fit(", New: "prose := (sanitize.Fit(", Tests: "TestComposeDefangsDisguisedBlocks"},
	{ID: "M5", Section: issue, What: "a finding scoring exactly the problem threshold is dropped", File: "review/engine.go",
		Old: "f.Score < opt.ProblemThreshold ||", New: "f.Score <= opt.ProblemThreshold ||", Tests: "TestRun"},
	{ID: "M6", Section: issue, What: "a resolution already explained is explained again", File: "execution/reopen.go",
		Old: "if !f.ReopenExplained {", New: "if true {", Tests: "TestHandleResolutions"},
	{ID: "M7", Section: issue, What: "the thread is never reopened", File: "execution/reopen.go",
		Old: "if err := x.GitHub.UnresolveThread(ctx, f.Thread.ID); err != nil {", New: "if err := error(nil); err != nil {", Tests: "TestHandleResolutions"},
	{ID: "M8", Section: issue, What: "a resolution after a push is not verified first", File: "execution/reopen.go",
		Old: "(f.Thread.IsOutdated || f.Block.HeadSHA != x.Snap.PR.HeadSHA)", New: "f.Thread.IsOutdated", Tests: "TestHandleResolutions"},
	{ID: "M9", Section: issue, What: "a finding checked for a resolution is checked again by the review", File: "execution/reopen.go",
		Old: "x.fixes.verified[f.Block.ID] = true", New: "_ = f.Block.ID", Tests: "TestResolutionVerifiedOncePerRun"},
	{ID: "M10", Section: issue, What: "a fix is not tied to the commit it was verified on", File: "execution/verify.go",
		Old: "block.HeadSHA = x.Snap.PR.HeadSHA", New: "_ = x.Snap.PR.HeadSHA", Tests: "TestResolveFinding"},
	{ID: "M11", Section: issue, What: "a regression reopens only open threads", File: "execution/verify.go",
		Old: "if f.Thread.IsResolved {", New: "if !f.Thread.IsResolved {", Tests: "TestRegress"},
	{ID: "M12", Section: issue, What: "resolved findings are verified again", File: "execution/verify.go",
		Old: "if !f.Open() || f.Block.Category == CategoryCheck", New: "if f.Block.Category == CategoryCheck", Tests: "TestVerifyFixes"},
	{ID: "M13", Section: issue, What: "no bound on the fixes one run verifies", File: "execution/verify.go",
		Old: "|| checked == maxVerify {", New: "|| checked == -maxVerify {", Tests: "TestVerifyFixes"},
	{ID: "M14", Section: issue, What: "a waiver that does not count is answered as done", File: "state/command_waive.go",
		Old: "case a.State.Waived[a.Mention.Arg]:", New: "case true:", Tests: "TestWaiveAnswer"},
	{ID: "M15", Section: issue, What: "a waiver of a finding that still has its thread is carried out", File: "state/command_waive.go",
		Old: "case !gone:", New: "case false && !gone:", Tests: "TestWaiveAnswer"},
	{ID: "M16", Section: issue, What: "a claim exactly its lease old still holds", File: "execution/claim.go",
		Old: "c.Age >= lease", New: "c.Age > lease", Tests: "TestClaimLease"},
	{ID: "M17", Section: issue, What: "the run's own claim counts as another run's", File: "execution/claim.go",
		Old: "if c.Won || c.Age", New: "if c.Age", Tests: "TestClaimLease"},

	// Fifteen more, in the gate, state, detector, sanitize and the local page.
	{ID: "G1", Section: more, What: "one deleted blocking thread does not fail the gate", File: "gate/gate.go",
		Old: "case in.Missing > 0:", New: "case in.Missing > 1:", Tests: "TestDerive"},
	{ID: "G2", Section: more, What: "a cut description is one character over GitHub's limit", File: "gate/gate.go",
		Old: "r[:MaxDescription-1]", New: "r[:MaxDescription]", Tests: "TestVerdictFitsGitHub"},
	{ID: "G3", Section: more, What: "one open blocking finding does not fail the gate", File: "gate/gate.go",
		Old: "case in.Blocking > 0:", New: "case in.Blocking > 1:", Tests: "TestDerive|TestOnlyCoverageIsGreen"},
	{ID: "S1", Section: more, What: "a partial review covers the head", File: "state/query.go",
		Old: "case len(run.Unreviewed) > 0 || run.UnreviewedCount > 0:", New: "case false:", Tests: "TestCoverage"},
	{ID: "S2", Section: more, What: "an incremental chain through another base covers the head", File: "state/query.go",
		Old: "case !s.chained(run.FromSHA, baseRef):", New: "case !s.chained(run.FromSHA, \"\"):", Tests: "TestCoverage"},
	{ID: "S3", Section: more, What: "a waived deleted finding keeps blocking", File: "state/query.go",
		Old: "if !s.Waived[p.ID] {", New: "if true {", Tests: "TestMissingEvidence"},
	{ID: "S4", Section: more, What: "a commit list GitHub cut short marks fixes lost", File: "state/findings.go",
		Old: "if len(pr.Commits) == 0 || pr.CommitsTotal > len(pr.Commits) {", New: "if len(pr.Commits) == 0 {", Tests: "TestFixLost"},
	{ID: "D1", Section: more, What: "a task that failed the maximum number of times is retried", File: "detector/plan.go",
		Old: "n >= b.maxFail {", New: "n > b.maxFail {", Tests: "TestBuild"},
	{ID: "D2", Section: more, What: "a refused user is refused again on every run", File: "detector/plan.go",
		Old: "!b.in.State.Refused[login] && ", New: "", Tests: "TestBuild"},
	{ID: "D3", Section: more, What: "the evidence notice is posted on every run", File: "detector/plan.go",
		Old: "if !in.State.EvidenceNoticed[f.ID] {", New: "if true {", Tests: "TestEvidenceReportedOnce"},
	{ID: "Z1", Section: more, What: "a backtick run in a name can close its code span (the delimiter is as long as the run)", File: "internal/mdfence/mdfence.go",
		Old: "max(min, best+1)", New: "max(min, best)", Tests: "TestLonger"},
	{ID: "Z2", Section: more, What: "U+202E RIGHT-TO-LEFT OVERRIDE is kept", File: "sanitize/text.go",
		Old: "r >= 0x202a && r <= 0x202e", New: "r >= 0x202a && r <= 0x202d", Tests: "TestTextCharacters"},
	{ID: "Z3", Section: more, What: "known secrets are replaced shortest first (a secret that starts another leaves its tail)", File: "sanitize/text.go",
		Old: "return len(olds[i]) > len(olds[j])", New: "return len(olds[i]) < len(olds[j])", Tests: "TestRedactKnown"},
	{ID: "L2", Section: more, What: "any Host at the server's port is served (DNS rebinding)", File: "reviewsforagent/server.go",
		Old: `return host == "localhost:"+port || host == "127.0.0.1:"+port`, New: `return port != ""`, Tests: "TestServerRejectsForeignHostsAndOrigins"},
	{ID: "L3", Section: more, What: "a cross-origin PUT (a draft) is accepted: only POST is checked", File: "reviewsforagent/server.go",
		Old: "r.Method != http.MethodGet && r.Method != http.MethodHead && origin != \"\"", New: "r.Method == http.MethodPost && origin != \"\"", Tests: "TestServerRejectsForeignHostsAndOrigins"},

	// Work that goes quadratic: the hostile-input tests hold an allocation
	// budget (internal/budget), with no clock.
	{ID: "Q1", Section: quadratic, What: "cleaning copies the rest of the text at each removed character", File: "sanitize/text.go",
		Old: "\t\tcase removed(r):\n", New: "\t\tcase removed(r):\n\t\t\t_ = strings.Clone(s[i:])\n", Tests: "TestHostileInputs"},
	{ID: "Q2", Section: quadratic, What: "the mention pre-scan copies the rest of the body at each `@`", File: "mention/find.go",
		Old: "strings.IndexByte(s[p:], '@')", New: "strings.IndexByte(strings.Clone(s[p:]), '@')", Tests: "TestFindHostileInputs"},

	// Guards added since the table was first written.
	{ID: "N1", Section: since, What: "a link to \".\" inside a directory resolves to the repository root", File: "workspace/path.go",
		Old: "if len(r.done) > 0 {", New: "if false {", Tests: "TestResolveLinkToADirectoryItIsIn"},
	{ID: "N2", Section: since, What: "a failed run's summary shows a secret it was given", File: "summary/failure.go",
		Old: "lines[i] = sanitize.Redact(p, f.Secrets...)", New: "lines[i] = sanitize.Redact(p)", Tests: "TestFailure"},
	{ID: "N3", Section: since, What: "a blocking threshold below the problem threshold is accepted", File: "review/settings.go",
		Old: "s.BlockingThreshold < s.ProblemThreshold ||", New: "s.BlockingThreshold < 1 ||", Tests: "TestSettingsCheck"},
	{ID: "N4", Section: since, What: "a passing check's reply names no commit", File: "execution/checks.go",
		Old: "check passes on `%.7s`: %s\", sanitize.Name(r.Check.Name), rt.HeadSHA,", New: "check passes: %s\", sanitize.Name(r.Check.Name),", Tests: "TestReviewRunnerResolvesAPassingCheck"},
	{ID: "N5", Section: since, What: "a passing check leaves its open finding open", File: "execution/checks.go",
		Old: "case r.Verdict == review.CheckPass && open != nil:", New: "case r.Verdict == review.CheckPass && open != nil && false:", Tests: "TestReviewRunnerResolvesAPassingCheck"},
	{ID: "B1", Section: since, What: "bench leaves a PR whose review failed out of the scores (upstream scores it as a review with no comments)", File: "benchmark/results.go",
		Old: "\t\tif pr.Error != \"\" {\n\t\t\tr.Failed++", New: "\t\tif pr.Error != \"\" || pr.ReviewError != \"\" {\n\t\t\tr.Failed++", Tests: "TestScoresAsUpstream"},
	{ID: "B2", Section: since, What: "bench reads a judge's \"match\": \"yes\" as no match (upstream takes Python's truth)", File: "benchmark/judge.go",
		Old: "case string:\n\t\treturn x != \"\"", New: "case string:\n\t\treturn false", Tests: "TestScoresAsUpstream|TestParseVerdict"},
	{ID: "B3", Section: since, What: "bench keeps results by model name only: another endpoint reuses them", File: "benchmark/endpoint.go",
		Old: "e.BaseURL = base", New: "e.BaseURL = \"\"", Tests: "TestAnotherEndpointIsNeverServedFromTheCache|TestCacheKeyCoversWhatChangesAResult"},
	{ID: "B4", Section: since, What: "bench --resume asks every judge call of a kept result again, not only the failed ones", File: "benchmark/run.go",
		Old: "if v.Err != \"\" {\n\t\t\tfailed = append(failed, i)", New: "if v.Err != \"\" || len(v.Reasoning) >= 0 {\n\t\t\tfailed = append(failed, i)", Tests: "TestResumeRedoesExactlyTheFailures"},
	{ID: "P1", Section: since, What: "chunks reviewed side by side are taken in the order they finished, not the diff's", File: "review/reviewer.go",
		Old: "for _, s := range slots {", New: "for _, s := range append(slots[len(slots)-1:], slots[:len(slots)-1]...) {", Tests: "TestConcurrentResultIsDeterministic"},
	{ID: "P2", Section: since, What: "requests under way do not count against max_run_tokens", File: "review/reviewer.go",
		Old: "r.ceiling.over(next + r.inflight)", New: "r.ceiling.over(next)", Tests: "TestCeilingCountsRequestsInFlight"},
	{ID: "P3", Section: since, What: "a 429 spends one of the pass's retries instead of pausing the review", File: "review/reviewer.go",
		Old: "case limited && waits < maxRateWaits:", New: "case limited && waits < 0:", Tests: "TestRateLimitSlowsTheReview"},
	{ID: "P4", Section: since, What: "a 429 leaves as many requests in flight", File: "review/throttle.go",
		Old: "t.limit, t.ok = max(1, t.limit/2), 0", New: "t.ok = 0", Tests: "TestThrottleLimit"},
	{ID: "P6", Section: since, What: "a deleted line is shown to the model with the new file's number", File: "review/chunk.go",
		Old: "if l.Kind == diff.Delete {", New: "if l.Kind == diff.Add {", Tests: "TestRenderedNumbersAnchor"},
	{ID: "P5", Section: since, What: "a review that did not read every file reports review_status clean", File: "outcome/outcome.go",
		Old: "case !r.Covered():", New: "case false:", Tests: "TestSetReview"},
	// The model client's provider quirks (issue 35).
	{ID: "C1", Section: since, What: "a made-up tool call id is not 9 characters [a-zA-Z0-9], which a Mistral template refuses", File: "llm/echo.go",
		Old: "fmt.Sprintf(\"rmc%03s%03s\",", New: "fmt.Sprintf(\"call_%03s_%03s\",", Tests: "TestProviders|TestEcho"},
	{ID: "C2", Section: since, What: "a streamed answer times out by its whole length, not by silence", File: "llm/retry.go",
		Old: "res, err := c.send(actx, body, func() { idle.Reset(c.opts.RequestTimeout) })", New: "res, err := c.send(actx, body, func() {})", Tests: "TestStreamTimesOutBySilence"},
	{ID: "C3", Section: since, What: "rate-limit waits have no run-wide budget", File: "llm/retry.go",
		Old: "errors.Is(f.err, ErrRateLimited) && d > left:", New: "errors.Is(f.err, ErrRateLimited) && d > left && false:", Tests: "TestRetryAfterBeyondLimits|TestRateLimitBudgetIsRunWide"},
	{ID: "C4", Section: since, What: "x-ratelimit-reset-* waits for a limit that is not used up", File: "llm/provider_openai.go",
		Old: "if strings.TrimSpace(h.Get(fmt.Sprintf(k, \"remaining\"))) == \"0\" {", New: "if false {", Tests: "TestRetryAfterIsHonoured"},
	{ID: "C5", Section: since, What: "a prompt the server cut (Ollama) goes unnoticed", File: "llm/session.go",
		Old: "|| !cutPrompt(p, text) {", New: "|| true {", Tests: "TestProviders"},
	{ID: "C6", Section: since, What: "a content filter's refusal reads as a bad key", File: "llm/session.go",
		Old: "return choice.Message, &Error{Kind: ErrRejected, cause: ErrModeration,", New: "return choice.Message, &Error{Kind: ErrAuth, cause: ErrModeration,", Tests: "TestProviders"},
	{ID: "C7", Section: since, What: "a completion without choices is not retried", File: "llm/retry.go",
		Old: "has no choices\", plainWords(string(res.ID)))}, retryable: true}", New: "has no choices\", plainWords(string(res.ID)))}}", Tests: "TestRetriesTransientFailures"},
	{ID: "C8", Section: since, What: "a context refusal inside a 200 (LM Studio) is not one", File: "llm/retry.go",
		Old: "if contextWording(info.code + \" \" + info.status + \" \" + info.msg) {", New: "if false {", Tests: "TestProviders"},
	{ID: "C9", Section: since, What: "JSON after a model's reasoning is not found", File: "llm/jsonanswer.go",
		Old: "if dec.Decode(&v) == nil && strings.TrimSpace(text[i+int(dec.InputOffset()):]) == \"\" {", New: "if dec.Decode(&v) == nil && false {", Tests: "TestAskJSON"},
	// Issue 37: the three mutations that survived every unit test, and
	// guards of the code that issue changed.
	{ID: "V1", Section: survivors, What: "a score-9 blocking finding is deferred as out of scope", File: "execution/dispute.go",
		Old: "case f.Block.Score >= 9:", New: "case f.Block.Score >= 10:", Tests: "TestDecideOutOfScope"},
	{ID: "V2", Section: survivors, What: "a reply on a waived finding starts a dispute", File: "detector/plan.go",
		Old: `if len(f.PendingReplies) == 0 || f.WaivedBy != "" {`, New: "if len(f.PendingReplies) == 0 {", Tests: "TestNoDisputeOnAWaivedFinding"},
	{ID: "V3", Section: survivors, What: "an HTTP 413 \"maximum context length\" is not read as a context refusal", File: "llm/errors.go",
		Old: "case http.StatusOK, http.StatusBadRequest, http.StatusRequestEntityTooLarge,", New: "case http.StatusOK, http.StatusBadRequest,", Tests: "TestContextRefusalByStatusAndMessage"},
	{ID: "V4", Section: survivors, What: "a commit's statuses are read from the first page only", File: "github/write.go",
		Old: "opt.Page = resp.NextPage", New: "return s, false, nil", Tests: "TestStatusReadsEveryPage"},
	{ID: "V5", Section: survivors, What: "a thread's resolution is not paced as a write", File: "github/transport.go",
		Old: "return operation(r) != gqlQuery", New: "return operation(r) == gqlMutation", Tests: "TestWriteAndRetryByOperation"},
	{ID: "V6", Section: survivors, What: "every GraphQL mutation is retried", File: "github/transport.go",
		Old: "return operation(r) == gqlRepeatableMutation", New: "return true", Tests: "TestWriteAndRetryByOperation"},
	{ID: "V7", Section: survivors, What: "a bot and a user with the same login are one account", File: "snapshot/snapshot.go",
		Old: `a.Login != "" && a.IsBot == b.IsBot &&`, New: `a.Login != "" &&`, Tests: "TestActor"},
	{ID: "V8", Section: survivors, What: "GraphQL's Bot type does not make a bot", File: "snapshot/snapshot.go",
		Old: `isBot := typename == "Bot"`, New: "isBot := false", Tests: "TestActor"},
	{ID: "V9", Section: survivors, What: "a repository name with a slash is accepted", File: "snapshot/snapshot.go",
		Old: ` || strings.Contains(name, "/")`, New: "", Tests: "TestParseRepo"},
	{ID: "V10", Section: survivors, What: "the write role is not a maintainer's", File: "snapshot/snapshot.go",
		Old: "|| r == RoleWrite }", New: "}", Tests: "TestRoleWrites"},
	{ID: "V11", Section: survivors, What: "a contributor may ask the bot for work", File: "snapshot/snapshot.go",
		Old: `case "OWNER", "MEMBER", "COLLABORATOR":`, New: `case "OWNER", "MEMBER", "COLLABORATOR", "CONTRIBUTOR":`, Tests: "TestCommentTrusted"},
	{ID: "V13", Section: survivors, What: "a maintainers' command counts from anyone who may ask", File: "state/commands.go",
		Old: "			if !entitled {", New: "			if false && !entitled {", Tests: "TestCommands"},
	{ID: "V14", Section: survivors, What: "an edited command is applied", File: "state/commands.go",
		Old: "if !ok || m.Edited || !m.Trusted {", New: "if !ok || !m.Trusted {", Tests: "TestCommands"},
	{ID: "V15", Section: survivors, What: "a command someone else's role does not allow is answered as done", File: "execution/commands.go",
		Old: "	case !m.Allowed:", New: "	case !m.Allowed && false:", Tests: "TestAThrowawayCommandNeedsOneFile"},
	{ID: "V16", Section: survivors, What: "the nearest known name is suggested however far it is", File: "config/nearest.go",
		Old: "best, bestDist := \"\", max(2, len(name)/3)+1", New: "best, bestDist := \"\", 1<<30", Tests: "TestNearest|TestNearestBoundary"},
	{ID: "V17", Section: survivors, What: "a known input is reported as unknown", File: "config/nearest.go",
		Old: "		if slices.Contains(names, name) {", New: "		if false {", Tests: "TestUnknownInputs"},
	{ID: "V18", Section: survivors, What: "a manual review's blocking findings fail the job", File: "outcome/outcome.go",
		Old: "lines = append(lines, Line{false, fmt.Sprintf(\"%d open blocking finding(s); this run's review was manual", New: "code = ExitFailed\n\t\tlines = append(lines, Line{false, fmt.Sprintf(\"%d open blocking finding(s); this run's review was manual", Tests: "TestExit"},
	{ID: "V19", Section: survivors, What: "a pending gate after a failed task is reported twice", File: "outcome/outcome.go",
		Old: "case o.Gated && o.Gate.State == gate.Pending && res.Failed() == 0:", New: "case o.Gated && o.Gate.State == gate.Pending:", Tests: "TestExit"},
	{ID: "V20", Section: survivors, What: "a login's permission is asked again on every derive", File: "state/permissions.go",
		Old: "	if r, known := p.roles[key]; known {", New: "	if r, known := p.roles[key]; known && false {", Tests: "TestPermissionsDerive"},
	{ID: "V21", Section: survivors, What: "a kind's declared screening is not what its task hands the model", File: "detector/plan.go",
		Old: "return Screening{Text: pr.Title + \"\\n\" + pr.Body}", New: "return Screening{Text: pr.Title}", Tests: "TestEveryKindDeclaresItsScreening"},
	{ID: "V22", Section: survivors, What: "a flag the verifying model dismissed is still reported", File: "execution/screen.go",
		Old: "	if !out.Injection {\n		return \"\"", New: "	if false {\n		return \"\"", Tests: "TestScreener"},
	{ID: "V23", Section: survivors, What: "an outsider's mention is read by the model", File: "detector/plan.go",
		Old: "if m.Command != \"\" || !m.Trusted {", New: "if m.Command != \"\" {", Tests: "TestClassifyReadsOnlyTrustedRequests"},
	{ID: "V24", Section: survivors, What: "every path instruction applies whatever the pull request changes", File: "config/keys.go",
		Old: "if slices.ContainsFunc(paths, g.Match) {", New: "if _ = g; true {", Tests: "TestInstructionsFor"},
	{ID: "V12", Section: survivors, What: "a configured login is a bot whatever the token's account is", File: "snapshot/write.go",
		Old: "a.IsBot = viewer.IsBot", New: "a.IsBot = true", Tests: "TestBotIdentity"},
	{ID: "N6", Section: since, What: "the local review page starts with nowhere to keep the comments", File: "reviewsforagent/run.go",
		Old: "\tcase inbox:", New: "\tcase inbox || true:", Tests: "TestDestination"},
}
