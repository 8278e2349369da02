package fakegithub

import (
	"fmt"
	"slices"
	"testing"
)

// prCommits is PullRequest.commits read backwards from the head, as the
// project's adapter reads it.
const prCommits = `query Commits($before: String) {
	repository(owner: "o", name: "r") {
		pullRequest(number: 1) {
			headRefOid
			commits(last: 100, before: $before) {
				totalCount
				pageInfo { hasPreviousPage startCursor }
				nodes { commit { oid } url }
			}
		}
	}
}`

// readCommits pages PullRequest.commits from the head back to the first
// and returns the oids oldest first, the head and the totalCount.
func readCommits(t *testing.T, s *Server) (oids []string, head string, total int) {
	t.Helper()
	var before any
	for {
		var data struct {
			Repository struct {
				PullRequest struct {
					HeadRefOid string
					Commits    struct {
						TotalCount int
						PageInfo   struct {
							HasPreviousPage bool
							StartCursor     string
						}
						Nodes []struct {
							Commit struct{ Oid string }
							URL    string
						}
					}
				}
			}
		}
		gqlData(t, s, tokInstall, prCommits, map[string]any{"before": before}, &data)
		pr := data.Repository.PullRequest
		var page []string
		for _, n := range pr.Commits.Nodes {
			page = append(page, n.Commit.Oid)
			if want := s.htmlURL("/o/r/pull/1/commits/" + n.Commit.Oid); n.URL != want {
				t.Errorf("url %s, want %s", n.URL, want)
			}
		}
		oids, head, total = append(page, oids...), pr.HeadRefOid, pr.Commits.TotalCount
		if !pr.Commits.PageInfo.HasPreviousPage {
			return oids, head, total
		}
		before = pr.Commits.PageInfo.StartCursor
	}
}

func shas(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%037d", prefix, i)
	}
	return out
}

// A PR starts with its head as its one commit; a push (UpdatePR or Push)
// adds commits on top; a force-push (back, or ForcePush) replaces them; commits page like any
// connection, with totalCount; statuses may be set on every commit.
func TestPullRequestCommits(t *testing.T) {
	t.Parallel()
	s := newFixture(t)
	pr, _ := s.PR("o/r", 1)
	oids, head, total := readCommits(t, s)
	if !slices.Equal(oids, []string{pr.HeadSHA}) || head != pr.HeadSHA || total != 1 {
		t.Fatalf("new PR: commits %v head %s total %d", oids, head, total)
	}
	s.UpdatePR("o/r", 1, func(p *PR) { p.HeadSHA = "a000000000000000000000000000000000000001" })
	s.Push("o/r", 1, "a000000000000000000000000000000000000002", "a000000000000000000000000000000000000003")
	want := []string{pr.HeadSHA, "a000000000000000000000000000000000000001", "a000000000000000000000000000000000000002", "a000000000000000000000000000000000000003"}
	if oids, head, total := readCommits(t, s); !slices.Equal(oids, want) || head != want[3] || total != 4 {
		t.Fatalf("after pushes: commits %v head %s total %d", oids, head, total)
	}
	s.UpdatePR("o/r", 1, func(p *PR) { p.HeadSHA = want[1] })
	if oids, head, total := readCommits(t, s); !slices.Equal(oids, want[:2]) || head != want[1] || total != 2 {
		t.Fatalf("after a force-push back: commits %v head %s total %d", oids, head, total)
	}
	long := shas("b", 230)
	s.ForcePush("o/r", 1, long...)
	if oids, head, total := readCommits(t, s); !slices.Equal(oids, long) || head != long[229] || total != 230 {
		t.Fatalf("after a force-push: %d commits, head %s, total %d", len(oids), head, total)
	}
	if got := s.Commits("o/r", 1); !slices.Equal(got, long) {
		t.Errorf("Commits = %d oids", len(got))
	}
	if r := do(t, s, tokInstall, "POST", "/repos/o/r/statuses/"+want[1], map[string]string{"state": "success", "context": "ci"}); r.status != 201 {
		t.Errorf("a status on a commit the force-push dropped: %d %s (GitHub keeps the commit)", r.status, r.body)
	}
}

// The request log records how many bytes each answer carried.
func TestRequestBytes(t *testing.T) {
	t.Parallel()
	s := newFixture(t)
	r := do(t, s, tokInstall, "GET", "/repos/o/r/pulls/1", nil)
	reqs := s.Requests()
	if got := reqs[len(reqs)-1].Bytes; got != len(r.body) || got == 0 {
		t.Errorf("logged %d bytes, the answer had %d", got, len(r.body))
	}
}
