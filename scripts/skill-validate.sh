#!/usr/bin/env bash
# Installs the ucs skill into a temporary skills folder and validates it with
# the Agent Skills reference validator (npm package skills-ref), then with
# `ucs skill check`. Without npm or its registry, only the latter runs.
set -euo pipefail
UCS=${1:-bin/ucs}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$UCS" skill install --dir "$dir/skills" >/dev/null
"$UCS" skill check "$dir/skills/ucs" >/dev/null && echo "ucs skill check: valid"
if command -v npx >/dev/null 2>&1 && timeout 120 npm view skills-ref@0.1.5 version >/dev/null 2>&1; then
  npx --yes skills-ref@0.1.5 validate "$dir/skills/ucs"
else
  echo "skills-ref: npm or its registry is not reachable here; only ucs skill check ran"
fi
