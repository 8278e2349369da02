#!/usr/bin/env bash
# Installs what the tests need beyond Go (make tools): Debian's chromium for
# the browser test, actionlint for the workflow lint, staticcheck and
# exhaustive for the static checks.
#
#   scripts/tools.sh [--check] BIN_DIR ACTIONLINT_VERSION STATICCHECK_VERSION EXHAUSTIVE_VERSION
#
# --check installs nothing: it names each tool make test needs and lacks,
# and how to get it (make test runs it first, so a missing tool is named
# before a long run rather than failing in the middle of it).
#
# apt-get waits for the package lock another apt-get or dpkg holds (an
# unattended upgrade, another install) instead of failing at once: up to
# RMC_APT_LOCK_WAIT seconds (default 600), asking again every
# RMC_APT_LOCK_POLL seconds (default 10).
#
# staticcheck and exhaustive are pinned: one on PATH at another version is
# not used, since each release adds checks and the tree is kept clean for
# exactly one.
# A tool already on PATH is used as it is. Installing chromium needs root
# (apt-get, without recommended packages); a user who is not root goes
# through sudo when there is one, and otherwise is told what is missing and
# how to install it, instead of failing on a command that is not there.
set -euo pipefail
check=
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi
bin=${1:?bin directory}
actionlint_version=${2:?actionlint version}
staticcheck_version=${3:?staticcheck version}
exhaustive_version=${4:?exhaustive version}
go=${GO:-go}
missing=()

have() { command -v "$1" >/dev/null 2>&1; }

# apt_get runs apt-get (through sudo when not root), waiting while another
# package manager holds the lock; any other failure fails at once.
apt_get() {
	local waited=0 poll=${RMC_APT_LOCK_POLL:-10} limit=${RMC_APT_LOCK_WAIT:-600} err rc
	err=$(mktemp)
	while :; do
		rc=0
		"${sudo[@]}" apt-get -o DPkg::Lock::Timeout="$poll" "$@" 2>"$err" || rc=$?
		cat "$err" >&2
		if [ "$rc" = 0 ]; then
			rm -f "$err"
			return 0
		fi
		if ! grep -qE 'Could not get lock|Unable to acquire the dpkg frontend lock|Unable to lock' "$err" || [ "$waited" -ge "$limit" ]; then
			rm -f "$err"
			return "$rc"
		fi
		echo "apt-get: another package manager holds the lock; waiting (${waited}s of ${limit}s)" >&2
		sleep "$poll"
		waited=$((waited + (poll > 0 ? poll : 1)))
	done
}

if have chromium || have chromium-browser; then
	:
elif [ -n "$check" ]; then
	# Outside CI the browser tests skip themselves without chromium.
	if [ -n "${CI:-}" ]; then
		missing+=("chromium (the browser test): run make tools (apt-get install --no-install-recommends chromium)")
	else
		echo "note: chromium is not installed, so the browser tests will be skipped (make tools installs it)" >&2
	fi
elif ! have apt-get; then
	missing+=("chromium (the browser test): this is not a Debian or Ubuntu system; install Chromium with the system's package manager so that 'chromium' is on PATH")
else
	sudo=()
	if [ "$(id -u)" != 0 ]; then
		if have sudo; then
			sudo=(sudo)
		else
			missing+=("chromium (the browser test): installing it needs root and there is no sudo; as root run: apt-get install --no-install-recommends chromium")
		fi
	fi
	if [ "$(id -u)" = 0 ] || [ ${#sudo[@]} -gt 0 ]; then
		echo "installing chromium (apt-get, no recommended packages)"
		apt_get update -qq
		apt_get install -y -qq --no-install-recommends chromium
	fi
fi

if [ -x "$bin/actionlint" ] || have actionlint; then
	:
elif ! have "$go"; then
	missing+=("actionlint (the workflow lint): Go is not on PATH to install it")
elif [ -n "$check" ]; then
	missing+=("actionlint (the workflow lint): run make tools (it installs the pinned version into $bin)")
else
	echo "installing actionlint $actionlint_version into $bin"
	GOBIN=$bin "$go" install "github.com/rhysd/actionlint/cmd/actionlint@$actionlint_version"
fi

# staticcheck -version prints "staticcheck 2026.2.2 (0.8.2)": the module
# version is in the parentheses.
if [ -x "$bin/staticcheck" ] && "$bin/staticcheck" -version | grep -qF "(${staticcheck_version#v})"; then
	:
elif ! have "$go"; then
	missing+=("staticcheck (the static checks): Go is not on PATH to install it")
elif [ -n "$check" ]; then
	missing+=("staticcheck (the static checks): run make tools (it installs the pinned version into $bin)")
else
	echo "installing staticcheck $staticcheck_version into $bin"
	GOBIN=$bin "$go" install "honnef.co/go/tools/cmd/staticcheck@$staticcheck_version"
fi

# exhaustive has no version flag: the module version is in the build info
# Go writes into the binary ("mod github.com/nishanths/exhaustive v0.17.1").
if [ -x "$bin/exhaustive" ] && have "$go" &&
	"$go" version -m "$bin/exhaustive" | grep -qE "^[[:space:]]+mod[[:space:]]+github.com/nishanths/exhaustive[[:space:]]+${exhaustive_version//./\.}([[:space:]]|$)"; then
	:
elif ! have "$go"; then
	missing+=("exhaustive (the switch checks): Go is not on PATH to install it")
elif [ -n "$check" ]; then
	missing+=("exhaustive (the switch checks): run make tools (it installs the pinned version into $bin)")
else
	echo "installing exhaustive $exhaustive_version into $bin"
	GOBIN=$bin "$go" install "github.com/nishanths/exhaustive/cmd/exhaustive@$exhaustive_version"
fi

if [ ${#missing[@]} -gt 0 ]; then
	if [ -n "$check" ]; then
		echo "make test needs tools that are not installed:" >&2
	else
		echo "make tools: missing:" >&2
	fi
	printf '  - %s\n' "${missing[@]}" >&2
	exit 1
fi
