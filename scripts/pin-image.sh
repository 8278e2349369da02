#!/usr/bin/env bash
# Points action.yml at one published image by its digest, as the release
# workflow does in the commit it tags: a digest names exactly one image, so
# pinning the action to that tag (or its commit) pins the code that runs,
# even if someone pushes the registry tag again.
#
#   scripts/pin-image.sh ghcr.io/OWNER/NAME sha256:<64 hex digits> [path/to/action.yml]
#
# On a branch, action.yml says `image: Dockerfile` and the runner builds the
# image from the checked-out source instead.
set -euo pipefail
image=${1:?image, e.g. ghcr.io/review-my-code-bot/rmc}
digest=${2:?digest, e.g. sha256:0123...}
file=${3:-action.yml}
if [[ ! $digest =~ ^sha256:[0-9a-f]{64}$ ]]; then
  echo "digest must be sha256: and 64 lower-case hex digits, got '$digest'" >&2
  exit 1
fi
if [[ ! $image =~ ^[a-z0-9.-]+(:[0-9]+)?(/[a-z0-9._-]+)+$ ]]; then
  echo "image must be a lower-case registry path such as ghcr.io/owner/name, got '$image'" >&2
  exit 1
fi
if [[ $(grep -c '^  image: ' "$file") != 1 ]]; then
  echo "$file must have exactly one 'image:' line under runs:" >&2
  exit 1
fi
sed -i -E "s#^  image: .*#  image: docker://${image}@${digest}#" "$file"
grep '^  image: ' "$file"
