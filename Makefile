# The commands a newcomer needs. `make test` is what CI runs.
GO        ?= go
TOOLS_BIN ?= $(CURDIR)/bin
ACTIONLINT_VERSION := v1.7.12
export PATH := $(TOOLS_BIN):$(PATH)

.PHONY: test vet unit bench-once cross lint tools demo build sizes image-check bench fuzz

## test: every test: vet, unit + end-to-end (incl. the browser test), every benchmark once,
## Windows build of the companion, workflow lint
test: vet unit bench-once cross lint

vet:
	$(GO) vet ./...

unit:
	$(GO) test -count=1 ./...

## cross: the companion (its inbox's file locks, its background server) builds for Windows
cross:
	GOOS=windows GOARCH=amd64 $(GO) build ./cmd/reviews-for-agent ./inbox/...

## bench-once: every benchmark, one iteration each, so a broken benchmark fails the tests
bench-once:
	$(GO) test -count=1 -run '^$$' -bench . -benchtime 1x ./...

lint:
	actionlint .github/workflows/*.yml examples/*.yml

## tools: what the tests need beyond Go (Debian/Ubuntu): chromium, actionlint; tools already
## on PATH are used as they are, and a user who cannot install one is told what is missing
tools:
	@GO="$(GO)" ./scripts/tools.sh "$(TOOLS_BIN)" $(ACTIONLINT_VERSION)

## demo: the main job, offline, against a fake GitHub and a scripted model
demo:
	$(GO) run ./cmd/demo

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
