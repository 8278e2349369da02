package reviewsforagent

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
)

// Where a submission can go: the repository, else the inbox alone (said
// in one sentence), else nowhere, and then the page is not started.
func TestDestination(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		repoErr  error
		inbox    bool
		wantNote string
		wantErr  error
	}{
		"a writable repository":              {inbox: true},
		"a writable repository and no inbox": {},
		"a read-only repository, an inbox":   {repoErr: fs.ErrPermission, inbox: true, wantNote: "Note: /r cannot be written (permission denied), so submitted comments are kept in the inbox only, not in rfa/."},
		"a read-only repository, no inbox":   {repoErr: fs.ErrPermission, wantErr: ErrNowhereToWrite},
	} {
		note, err := destination("/r", tc.repoErr, tc.inbox)
		if note != tc.wantNote || !errors.Is(err, tc.wantErr) || (err == nil) != (tc.wantErr == nil) {
			t.Errorf("%s: note %q, err %v; want %q, %v", name, note, err, tc.wantNote, tc.wantErr)
		}
		if err != nil && !strings.Contains(err.Error(), "/r cannot be written (permission denied) and there is no inbox") {
			t.Errorf("%s: the error does not say what cannot be written: %v", name, err)
		}
	}
}
