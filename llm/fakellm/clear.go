package fakellm

// ClearFaults drops every injected fault not yet used, so a test can bring a
// "down" endpoint back up.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}
