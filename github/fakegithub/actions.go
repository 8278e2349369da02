package fakegithub

import (
	"net/http"
	"strconv"
)

const docGetRun = "https://docs.github.com/rest/actions/workflow-runs#get-a-workflow-run"

// SetRun registers a workflow run of repo with its status (queued,
// in_progress, completed), as the Actions API reports it.
func (s *Server) SetRun(repo string, id int64, status string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ensureRepo(repo).runs[id] = status
}

// getRun serves a workflow run: its id, status and, once completed, its
// conclusion. An unknown run is GitHub's 404.
func (s *Server) getRun(c *call) reply {
	r := c.repoParam()
	id, err := strconv.ParseInt(c.params["run"], 10, 64)
	if r == nil || err != nil {
		return notFound(docGetRun)
	}
	status, ok := r.runs[id]
	if !ok {
		return notFound(docGetRun)
	}
	out := map[string]any{"id": id, "status": status, "conclusion": nil}
	if status == "completed" {
		out["conclusion"] = "cancelled"
	}
	return jsonReply(http.StatusOK, out)
}
