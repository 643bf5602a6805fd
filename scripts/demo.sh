#!/usr/bin/env bash
# The main job of ucs, end to end: an agent's session on the embedded Aegis
# manifest, in a fresh temporary workspace. Prints each call's JSON result.
# Usage: scripts/demo.sh [path/to/ucs]   (make demo builds it first)
set -euo pipefail
UCS=${1:-bin/ucs}
[ -x "$UCS" ] || { echo "build ucs first: make build" >&2; exit 1; }
export UCS_WORKSPACE=$(mktemp -d "${TMPDIR:-/tmp}/ucs-demo.XXXXXX")
trap 'rm -rf "$UCS_WORKSPACE"' EXIT

step() { printf '\n\033[1m$ %s\033[0m\n' "$*" >&2; }
run() { step "ucs $*"; "$UCS" "$@"; }
report() { step "echo '$1' | ucs report"; printf '%s' "$1" | "$UCS" report; }

run init
run resume
run consult --context "research competitor pricing on the web"
# The agent acts, then reports each action; the engine reinforces the edge it took.
report '{"action": "read", "outcome": "read the brief", "success": "success", "significance": "routine"}'
report '{"action": "web_fetch", "outcome": "fetched the pricing page", "success": "success", "significance": "routine"}'
report '{"action": "foundry_research", "outcome": "compared three vendors", "success": "partial", "significance": "routine"}'
report '{"action": "read", "outcome": "read the vendor docs", "success": "success", "significance": "routine"}'
report '{"action": "web_fetch", "outcome": "pricing table extracted", "success": "success", "significance": "notable", "reasoning_trace": {"constraints": "one hour", "alternatives": "web_search snippets truncate prices", "decisive_factor": "full pages carry the whole table"}}'
report '{"action": "foundry_record_feedback", "outcome": "recorded what worked", "success": "success", "significance": "routine"}'
step "echo '{\"type\": \"post_task\", ...}' | ucs reflect"
printf '%s' '{"type": "post_task", "text": "### Pricing research\nFetch full pages: search snippets truncate price tables.", "capabilities": ["web_fetch", "read"], "keywords": ["pricing", "research"]}' | "$UCS" reflect
run status
printf '\nworkspace was %s (removed)\n' "$UCS_WORKSPACE" >&2
