package inbox

import (
	"context"
	"fmt"
	"time"

	"github.com/gofrs/flock"
)

// lockRetry is how often lockFile tries again while another holds the lock.
const lockRetry = 5 * time.Millisecond

// lockFile takes an exclusive lock on path, creating the file if need be,
// and waits for it as long as ctx allows: flock on Unix, LockFileEx on
// Windows. Each call opens the file anew, so two goroutines of one process
// exclude each other as two processes do. The lock goes when the returned
// function closes the file, or when the process dies.
func lockFile(ctx context.Context, path string) (unlock func(), err error) {
	l := flock.New(path, flock.SetPermissions(0o600))
	ok, err := l.TryLockContext(ctx, lockRetry)
	if err == nil && !ok {
		err = ctx.Err()
	}
	if err != nil {
		l.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { l.Close() }, nil
}
