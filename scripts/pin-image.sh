#!/usr/bin/env bash
# Points action.yml at one exact image version, as the release workflow does
# in the commit it tags: pinning the action to that tag then pins the code
# that runs.
#
#   scripts/pin-image.sh ghcr.io/OWNER/NAME 1.4.2 [path/to/action.yml]
set -euo pipefail
image=${1:?image, e.g. ghcr.io/review-my-code-bot/rmc}
version=${2:?version, e.g. 1.4.2}
file=${3:-action.yml}
if [[ ! $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  echo "version must be MAJOR.MINOR.PATCH without a leading v, got '$version'" >&2
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
sed -i -E "s#^  image: .*#  image: docker://${image}:${version}#" "$file"
grep '^  image: ' "$file"
