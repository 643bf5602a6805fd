#!/usr/bin/env bash
# Runs every fuzz target of the module for a while each: make fuzz FUZZTIME=5m
# The fuzz targets' seed corpora also run as plain tests in `make test`.
set -euo pipefail
time=${1:-30s}
# Fuzzing writes and syncs workspaces thousands of times a second: use
# memory-backed scratch space where the machine has it.
[ -d /dev/shm ] && export TMPDIR=${TMPDIR:-/dev/shm}
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
    echo "== $pkg $target ($time)"
    go test -run '^$' -fuzz "^${target}\$" -fuzztime "$time" "$pkg" 2>&1 | grep -E 'elapsed|PASS|FAIL|ok|panic' | tail -3
  done
done
