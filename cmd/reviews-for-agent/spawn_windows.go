package main

import (
	"os/exec"
	"syscall"
)

// detachedProcess is DETACHED_PROCESS: the server gets no console, so
// closing the agent's terminal does not end it.
const detachedProcess = 0x00000008

// detach starts the server without a console and in a process group of
// its own, so Ctrl+C in the agent's console does not reach it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP | detachedProcess, HideWindow: true}
}
