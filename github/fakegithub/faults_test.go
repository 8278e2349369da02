package fakegithub

import (
	"bytes"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

const commentsPath = "/repos/o/r/issues/1/comments"

func TestFaults(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		fault       Fault
		wantStatus  int
		wantType    string // Content-Type prefix
		wantHeader  map[string]string
		wantStored  int // comments stored after the faulted POST
		wantWrites  int
		wantRetryOK bool // a second POST succeeds (the fault was used up)
	}{
		"secondary rate limit": {
			fault:      SecondaryRateLimit(60*time.Second).For("POST", commentsPath).Once(),
			wantStatus: 403, wantType: "application/json", wantHeader: map[string]string{"Retry-After": "60"},
			wantRetryOK: true,
		},
		"too many requests": {
			fault:      TooManyRequests(5*time.Second).For("POST", commentsPath).Once(),
			wantStatus: 429, wantType: "application/json", wantHeader: map[string]string{"Retry-After": "5"},
			wantRetryOK: true,
		},
		"server error": {
			fault:      ServerError().For("POST", commentsPath).Once(),
			wantStatus: 500, wantType: "application/json", wantRetryOK: true,
		},
		"bad gateway every time": {
			fault:      BadGateway().For("", "/repos/o/r/issues/"),
			wantStatus: 502, wantType: "text/html",
		},
		"lost response still writes": {
			fault:      LostResponse().For("POST", commentsPath).Once(),
			wantStatus: 502, wantType: "text/html", wantStored: 1, wantWrites: 1, wantRetryOK: true,
		},
		"regexp match": {
			fault:      Fault{PathRegexp: regexp.MustCompile(`/issues/\d+/comments$`), Status: 503, Body: "down", Times: 1},
			wantStatus: 503, wantType: "text/plain", wantRetryOK: true,
		},
		"status without a body": {
			fault:      Fault{Status: 500, Times: 1},
			wantStatus: 500, wantType: "text/plain", wantRetryOK: true,
		},
		"other method does not match": {
			fault:      ServerError().For("PATCH", commentsPath),
			wantStatus: 201, wantType: "application/json", wantStored: 1, wantWrites: 1, wantRetryOK: true,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newFixture(t)
			s.Inject(tc.fault)
			r := do(t, s, tokInstall, "POST", commentsPath, map[string]string{"body": "hi"})
			if r.status != tc.wantStatus {
				t.Fatalf("status %d, want %d: %s", r.status, tc.wantStatus, r.body)
			}
			if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, tc.wantType) {
				t.Errorf("Content-Type = %q, want %s", ct, tc.wantType)
			}
			for k, v := range tc.wantHeader {
				if got := r.header.Get(k); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
			if r.header.Get("X-RateLimit-Remaining") == "" || r.header.Get("X-GitHub-Request-Id") == "" {
				t.Error("a faulted response lacks GitHub's standard headers")
			}
			if n := len(s.IssueComments("o/r", 1)); n != tc.wantStored {
				t.Errorf("%d comments stored, want %d", n, tc.wantStored)
			}
			if n := len(s.Writes()); n != tc.wantWrites {
				t.Errorf("Writes = %v, want %d entries", s.Writes(), tc.wantWrites)
			}
			retry := do(t, s, tokInstall, "POST", commentsPath, map[string]string{"body": "hi"})
			if (retry.status == http.StatusCreated) != tc.wantRetryOK {
				t.Errorf("retry status %d, want success=%v", retry.status, tc.wantRetryOK)
			}
			if reqs := s.Requests(); !reqs[0].Fault && tc.wantStatus != 201 {
				t.Errorf("request not marked as faulted: %+v", reqs[0])
			}
		})
	}
}

func TestSecondaryRateLimitBodyQuotesRequestID(t *testing.T) {
	t.Parallel()
	s := newFixture(t)
	s.Inject(SecondaryRateLimit(time.Minute).Once())
	r := do(t, s, tokInstall, "GET", "/repos/o/r", nil)
	id := r.header.Get("X-GitHub-Request-Id")
	want := `{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID ` +
		id + `.","documentation_url":"https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits","status":"403"}`
	if id == "" || r.body != want {
		t.Errorf("body = %s\nwant   %s", r.body, want)
	}
}

func TestTimeoutStillApplies(t *testing.T) {
	t.Parallel()
	s := newFixture(t)
	// The fault outlasts the client's timeout by far, so the client gives
	// up first however loaded the machine.
	s.Inject(Timeout(2*time.Second).For("POST", commentsPath).Once())
	client := &http.Client{Timeout: 50 * time.Millisecond, Transport: s.Client().Transport}
	req, _ := http.NewRequest(http.MethodPost, s.URL+commentsPath, bytes.NewReader([]byte(`{"body":"slow"}`)))
	req.Header.Set("Authorization", "Bearer "+tokInstall)
	if resp, err := client.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("request answered with %d before the client's timeout", resp.StatusCode)
	}
	if n := len(s.IssueComments("o/r", 1)); n != 0 {
		t.Fatalf("%d comments stored before the stalled write ended, want 0", n)
	}
	// The write lands when the stall ends; wait for it as long as the test
	// may run (go test -timeout), not for a fixed time.
	for len(s.IssueComments("o/r", 1)) == 0 {
		if dl, ok := t.Deadline(); ok && time.Until(dl) < 10*time.Second {
			t.Fatal("the timed-out write was never applied")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := len(s.IssueComments("o/r", 1)); n != 1 {
		t.Errorf("%d comments stored after the timed-out write, want 1", n)
	}
}

func TestOnWriteStopsTheWorld(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		allow      int
		posts      int
		wantStored int
	}{
		"stop before the first write": {allow: 0, posts: 2, wantStored: 0},
		"stop after two writes":       {allow: 2, posts: 4, wantStored: 2},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newFixture(t)
			s.StopAfterWrites(tc.allow)
			failed := 0
			for range tc.posts {
				req, _ := http.NewRequest(http.MethodPost, s.URL+commentsPath, strings.NewReader(`{"body":"x"}`))
				req.Header.Set("Authorization", "Bearer "+tokInstall)
				resp, err := s.Client().Do(req)
				if err != nil {
					failed++
					continue
				}
				resp.Body.Close()
			}
			if n := len(s.IssueComments("o/r", 1)); n != tc.wantStored || failed != tc.posts-tc.wantStored {
				t.Errorf("stored %d (want %d), %d requests failed", n, tc.wantStored, failed)
			}
			if reads := do(t, s, tokInstall, "GET", commentsPath, nil); reads.status != 200 {
				t.Errorf("reads still work after the stop: status %d", reads.status)
			}
		})
	}
}

func TestGraphQLFaultByOperation(t *testing.T) {
	t.Parallel()
	s := newFixture(t)
	s.Inject(Fault{Operation: "Comments", Status: 502, Body: unicornPage})
	if r := gql(t, s, tokInstall, commentsPage, map[string]any{"owner": "o", "name": "r", "number": 1}); r.status != 502 {
		t.Errorf("Comments: status %d, want 502", r.status)
	}
	if r := gql(t, s, tokInstall, "query Viewer { viewer { login } }", nil); r.status != 200 {
		t.Errorf("Viewer: status %d, want 200", r.status)
	}
	ops := []string{}
	for _, r := range s.Requests() {
		ops = append(ops, r.Operation)
	}
	if !slices.Equal(ops, []string{"Comments", "Viewer"}) {
		t.Errorf("operations = %v", ops)
	}
}
