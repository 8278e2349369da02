//go:build !unix

package main

import (
	"errors"
	"time"
)

// spawnServer needs a detached session, which only Unix systems offer here.
func spawnServer(store string, port int, idle time.Duration) error {
	return errors.New("starting a background server is not supported on this system: run `reviews-for-agent serve` yourself")
}
