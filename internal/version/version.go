// Package version says which build of a binary is running, in one format
// for all of them (the action, demo, bench, reviews-for-agent), and gives
// each the same words for help and version.
package version

import "runtime/debug"

// set is the version given at build time (the release image's build does):
// -ldflags "-X github.com/review-my-code-bot/rmc/internal/version.set=v1.2.3".
var set = ""

// String is the version set at build time, else the module version from
// the build info (a `go install …@v1.2.3`), else "(devel)".
func String() string {
	if set != "" {
		return set
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}

// Line is what every binary prints for --version: its name and the
// version, "bench v1.2.3".
func Line(name string) string { return name + " " + String() }

// Words lets the words help and version, given alone, stand for --help
// and --version, so `bench version` and `demo help` work as
// `reviews-for-agent version` does.
func Words(args []string) []string {
	if len(args) == 1 {
		switch args[0] {
		case "help":
			return []string{"--help"}
		case "version":
			return []string{"--version"}
		}
	}
	return args
}
