//go:build !unix

package inbox

import (
	"context"
	"errors"
)

// lockFile needs flock, which only Unix systems have.
func lockFile(ctx context.Context, path string) (func(), error) {
	return nil, errors.New("the review store needs file locks, which this system lacks")
}
