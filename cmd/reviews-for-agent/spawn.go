package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// spawnServer starts "reviews-for-agent serve" for store on port, detached
// (see detach), so it outlives the agent's command and its terminal, with its output appended to a log file next to the store. It
// returns once the process is started.
func spawnServer(store string, port int, idle, lease time.Duration) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find this program to start the server: %w", err)
	}
	log, err := os.OpenFile(serverLog(store), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open the server log: %w", err)
	}
	defer log.Close()
	cmd := exec.Command(exe, "serve", "--store", store, "--port", strconv.Itoa(port), "--idle", idle.String(), "--lease", lease.String())
	cmd.Dir = filepath.Dir(store)
	cmd.Stdout, cmd.Stderr = log, log
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s serve: %w", exe, err)
	}
	// Reap it should it end while this process still runs (the MCP server
	// does, for hours); otherwise it is adopted when this one exits.
	go cmd.Wait()
	return nil
}

// serverLog is the background server's log: reviews-server.log beside
// reviews.jsonl.
func serverLog(store string) string {
	return strings.TrimSuffix(store, filepath.Ext(store)) + "-server.log"
}
