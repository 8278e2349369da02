# The commands a newcomer needs. `make test` is what CI runs.
GO        ?= go
TOOLS_BIN ?= $(CURDIR)/bin
ACTIONLINT_VERSION := v1.7.12
export PATH := $(TOOLS_BIN):$(PATH)

.PHONY: test vet unit cross lint tools demo build sizes image-check bench fuzz

## test: every test: vet, unit + end-to-end (incl. the browser test), Windows build of the companion, workflow lint
test: vet unit cross lint

vet:
	$(GO) vet ./...

unit:
	$(GO) test -count=1 ./...

## cross: the companion (its inbox's file locks, its background server) builds for Windows
cross:
	GOOS=windows GOARCH=amd64 $(GO) build ./cmd/reviews-for-agent ./inbox/...

lint:
	actionlint .github/workflows/*.yml examples/*.yml

## tools: what the tests need beyond Go (Debian/Ubuntu): chromium, actionlint
tools:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
		{ sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; $$sudo apt-get update -qq && $$sudo apt-get install -y -qq chromium; }
	@test -x $(TOOLS_BIN)/actionlint || GOBIN=$(TOOLS_BIN) $(GO) install github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION)

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

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## fuzz: each fuzz target for 60s
fuzz:
	./scripts/fuzz.sh 60s
