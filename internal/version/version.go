// Package version says which build is running: the action (rmc) and the
// companion binaries (demo, bench, reviews-for-agent) share this one
// mechanism.
package version

import "runtime/debug"

// set is the version given at build time:
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
