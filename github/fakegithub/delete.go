package fakegithub

import "fmt"

// DeleteReviewComment deletes a review comment as a user with write access
// can in the web UI; a thread left empty goes too.
func (s *Server) DeleteReviewComment(id int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rc := s.reviewComments[id]
	if rc == nil {
		panic(fmt.Sprintf("fakegithub: no review comment %d to delete", id))
	}
	s.deleteReviewComment(rc)
}
