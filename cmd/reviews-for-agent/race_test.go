//go:build race

package main

// raceEnabled relaxes timing checks: the race detector slows every process
// the tests start several times over.
const raceEnabled = true
