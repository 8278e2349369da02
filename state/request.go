package state

// Request says how the bot handled a review request or question it recorded
// ("" while pending, else a Handled* value) and which of its comments holds
// the request's unfinished status, for the next attempt to edit. Mentions
// carry the same in their fields; this serves requests that are not
// comments, such as a workflow run started by hand (SourceDispatch).
func (s State) Request(ref Ref) (handled Handling, placeholder int64) {
	handled = s.requests[ref]
	if handled == "" {
		placeholder = s.placeholders[ref]
	}
	return handled, placeholder
}
