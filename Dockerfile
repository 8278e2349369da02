# Build a static binary, ship it alone with CA certificates.
#
# The Go image is pinned to go.mod's toolchain version (a test keeps them
# equal), so CI and the image build with one Go. The build stage runs on the
# builder's own platform and cross-compiles for each target (linux/amd64,
# linux/arm64): no emulation.
#
# Two builders use this file: the release workflow, which publishes the image
# and pins the tagged commit's action.yml to its digest, and the runner itself
# when a workflow uses the action from a branch (action.yml there says
# `image: Dockerfile`), with no build arguments.
FROM --platform=$BUILDPLATFORM golang:1.26.8-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
ARG TARGETOS=linux
ARG TARGETARCH
RUN CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH go build -trimpath -ldflags="-s -w -X github.com/review-my-code-bot/rmc/internal/version.set=${VERSION}" -o /out/rmc ./cmd/action

FROM scratch
# GHCR links the package to the repository named by the source label. A fork
# that builds its own image passes its own (see the release workflow).
ARG VERSION=dev
ARG REVISION=
ARG SOURCE=https://github.com/review-my-code-bot/rmc
LABEL org.opencontainers.image.title="review-my-code-bot" \
      org.opencontainers.image.description="LLM pull request reviews you can argue with: a GitHub Action that answers every question, tracks every task and keeps the merge gate." \
      org.opencontainers.image.source=$SOURCE \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version=$VERSION \
      org.opencontainers.image.revision=$REVISION
# GitHub mounts the workspace and makes it the working directory: no WORKDIR,
# and the runner runs container actions as root: no USER.
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /out/rmc /rmc
ENTRYPOINT ["/rmc"]
