#!/usr/bin/env bash
# Pins the Dockerfile's build stage to one Go image by its digest, so that a
# job using the action from a branch (`@main`, where the runner builds the
# image) and the release build start from exactly the same builder, whatever
# later happens to the registry's tag.
#
#   scripts/pin-builder.sh [sha256:<64 hex digits>] [path/to/Dockerfile]
#
# Without a digest it asks the registry for the current digest of the tag on
# the FROM line (docker buildx imagetools inspect: needs Docker and network).
# Run again after changing the tag (go.mod's toolchain moves it): the old
# digest is replaced.
set -euo pipefail
digest=${1:-}
file=${2:-Dockerfile}
from='^FROM --platform=\$BUILDPLATFORM (golang:[0-9]+\.[0-9]+\.[0-9]+-[a-z]+)(@sha256:[0-9a-f]{64})? AS build$'
if [[ $(grep -cE "$from" "$file") != 1 ]]; then
  echo "$file must have exactly one line 'FROM --platform=\$BUILDPLATFORM golang:X.Y.Z-DISTRO[@sha256:…] AS build'" >&2
  exit 1
fi
image=$(grep -E "$from" "$file" | sed -E "s/$from/\\1/")
if [[ -z $digest ]]; then
  # The first Digest: line is the index's (all platforms); the platform
  # manifests below it are named Name: …@sha256:….
  digest=$(docker buildx imagetools inspect "$image" |
    sed -nE 's/^Digest:[[:space:]]+(sha256:[0-9a-f]{64})$/\1/p' | head -n 1)
  if [[ -z $digest ]]; then
    echo "could not read the digest of $image from the registry" >&2
    exit 1
  fi
fi
if [[ ! $digest =~ ^sha256:[0-9a-f]{64}$ ]]; then
  echo "digest must be sha256: and 64 lower-case hex digits, got '$digest'" >&2
  exit 1
fi
sed -i -E "s#$from#FROM --platform=\$BUILDPLATFORM ${image}@${digest} AS build#" "$file"
grep -E "$from" "$file"
