//go:build !unix && !windows

package main

import "os/exec"

// detach has nothing to do where there are no sessions or consoles.
func detach(*exec.Cmd) {}
