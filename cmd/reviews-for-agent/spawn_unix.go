//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// detach puts the server in a session of its own, away from the terminal
// and the process group of the command that started it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
