# The commands a newcomer needs. `make test` is what CI runs.
GO        ?= go
TOOLS_BIN ?= $(CURDIR)/bin
ACTIONLINT_VERSION := v1.7.12
# staticcheck 2026.2.2
STATICCHECK_VERSION := v0.8.2
EXHAUSTIVE_VERSION := v0.17.1
# the packages with goroutines or locks of their own (and the fakes they
# run against): make test runs their tests again under the race detector
RACE_PKGS := ./app/... ./benchmark/... ./cmd/reviews-for-agent/... ./github/fakegithub/... \
	./inbox/... ./llm/... ./reviewsforagent/... ./workspace/...
export PATH := $(TOOLS_BIN):$(PATH)

# make with no target lists the targets.
.DEFAULT_GOAL := help

.PHONY: help tools-check test short vet staticcheck exhaustive unit race mutations bench-once cross lint tools demo build sizes image-check bench fuzz

## help: this list: each target and what it does
help:
	@awk '/^## [a-z-]+:/ { sub(/^## /, ""); name = $$1; sub(/^[^:]+: */, ""); printf "\n  make %-12s %s\n", substr(name, 1, length(name) - 1), $$0; next } \
		/^## / { sub(/^## /, ""); printf "  %-17s %s\n", "", $$0 }' $(MAKEFILE_LIST)
	@echo

## test: every test: vet, staticcheck, exhaustive, unit + end-to-end (incl. the browser
## tests and the slow end-to-end ones, and internal/shape: no production function over 60
## lines or cyclomatic complexity 20), the concurrent packages under -race, every mutation
## in docs/mutations.md caught, every benchmark once, Windows build of the companion, workflow lint
test: tools-check vet staticcheck exhaustive unit race mutations bench-once cross lint

## short: the inner loop while working: every test but the browser tests and the slow
## end-to-end ones (go test -short ./...)
short:
	$(GO) test -short ./...

## vet: go vet ./...
vet:
	$(GO) vet ./...

## staticcheck: the pinned version that make tools installs into bin/
staticcheck: tools-check
	staticcheck ./...

## exhaustive: every switch over one of the module's enums (or another module's) lists each
## value; a default case does not count for the values it hides, so a new value fails here
## until each switch says what it does with it (//exhaustive:ignore, with the reason, on a
## switch that takes only a few of reflect's kinds); the pinned version that make tools
## installs into bin/
exhaustive: tools-check
	exhaustive ./...

## unit: every test of every package, the browser and slow end-to-end ones included
unit:
	$(GO) test -count=1 -timeout 30m ./...

## race: the packages with concurrency, under the race detector; -short, as
## unit already ran their browser and slow tests
race:
	$(GO) test -race -short -count=1 -timeout 30m $(RACE_PKGS)

## mutations: apply each deliberate break listed in internal/mutations (docs/mutations.md)
## through go test -overlay and fail unless the named unit tests catch it
mutations:
	$(GO) test -count=1 -timeout 30m -run TestMutationsCaught ./internal/mutations -mutate

## cross: the companion (its inbox's file locks, its background server) builds for Windows
cross:
	GOOS=windows GOARCH=amd64 $(GO) build ./cmd/reviews-for-agent ./inbox/...

## bench-once: every benchmark, one iteration each, so a broken benchmark fails the tests
bench-once:
	$(GO) test -count=1 -run '^$$' -bench . -benchtime 1x ./...

## lint: actionlint over this repository's workflows and the example workflows
lint: tools-check
	actionlint .github/workflows/*.yml examples/*.yml

## tools-check: name each tool make test needs and lacks, with how to get it (make test runs
## it first)
tools-check:
	@GO="$(GO)" ./scripts/tools.sh --check "$(TOOLS_BIN)" $(ACTIONLINT_VERSION) $(STATICCHECK_VERSION) $(EXHAUSTIVE_VERSION)

## tools: what the tests need beyond Go (Debian/Ubuntu): chromium, actionlint, staticcheck,
## exhaustive; tools already on PATH are used as they are (staticcheck and exhaustive only at
## the pinned version), and a user who cannot install one is told what is missing
tools:
	@GO="$(GO)" ./scripts/tools.sh "$(TOOLS_BIN)" $(ACTIONLINT_VERSION) $(STATICCHECK_VERSION) $(EXHAUSTIVE_VERSION)

## demo: the main job, offline, against a fake GitHub and a scripted model
demo:
	$(GO) run ./cmd/demo

## build: the action's static binary, ./action
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags="-s -w" -o action ./cmd/action

## sizes: bytes of the stripped action and demo binaries (the action holds no fakes)
sizes:
	@dir=$$(mktemp -d) && trap 'rm -rf "$$dir"' EXIT && \
	for cmd in action demo; do \
		CGO_ENABLED=0 $(GO) build -trimpath -ldflags="-s -w" -o "$$dir/$$cmd" ./cmd/$$cmd && \
		printf '%-7s %10d bytes\n' "$$cmd" "$$(stat -c %s "$$dir/$$cmd")"; \
	done
	@! $(GO) list -deps ./cmd/action | grep -E '/fakegithub|/fakellm|gqlparser'

## image-check: the static binary runs alone: no ELF interpreter, a real run with an empty
## environment in an empty directory; as root also chrooted into an empty root filesystem
image-check:
	$(GO) test -count=1 -run TestStaticBinary -v ./cmd/action

## bench: every benchmark, timed
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## fuzz: each fuzz target for 60s
fuzz:
	./scripts/fuzz.sh 60s
