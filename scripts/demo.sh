#!/usr/bin/env bash
# The main job of ucs, end to end: an agent's session on the embedded Aegis
# manifest, in a fresh temporary workspace (learning model v5, the default).
# Each step says what the agent is doing, then prints the call's JSON result.
# Usage: scripts/demo.sh [path/to/ucs]   (make demo builds it first)
set -euo pipefail
UCS=${1:-bin/ucs}
[ -x "$UCS" ] || { echo "build ucs first: make build" >&2; exit 1; }
# UCS_DEMO_WORKSPACE=DIR runs it in DIR and keeps it (the browser test
# does); UCS_DEMO_DASHBOARD=FILE is where the session's dashboard goes.
if [ -n "${UCS_DEMO_WORKSPACE:-}" ]; then
  export UCS_WORKSPACE=$UCS_DEMO_WORKSPACE
else
  export UCS_WORKSPACE=$(mktemp -d "${TMPDIR:-/tmp}/ucs-demo.XXXXXX")
  trap 'rm -rf "$UCS_WORKSPACE"' EXIT
fi
DASHBOARD=${UCS_DEMO_DASHBOARD:-${TMPDIR:-/tmp}/ucs-demo-dashboard.html}

n=0
step() { n=$((n + 1)); printf '\n\033[1m[%d] %s\033[0m\n\033[2m$ %s\033[0m\n' "$n" "$1" "$2" >&2; }
run() { local label=$1; shift; step "$label" "ucs $*"; "$UCS" "$@"; }
report() { step "$1" "echo '$2' | ucs report"; printf '%s' "$2" | "$UCS" report; }

run "Once: create the workspace (v5 learns from real actions only: no warm-up)" init
run "A goal to work towards: done after two observed successes" goal add --content "compare competitor pricing" --count 2
run "Session start: where am I, what is open, the active goals" resume
run "Before the task: advice for this context, each suggestion with its reasons and an advisory id" \
  consult --context "research competitor pricing on the web"
# The agent acts, then reports each action; the first report after the
# consult is attributed to its advice.
report "After each action: report it (attributed to the advice above)" \
  '{"action": "web_fetch", "outcome": "fetched the pricing page", "success": "success"}'
report "A partial result lowers nothing it should not: it counts half" \
  '{"action": "read", "outcome": "read the vendor docs", "success": "partial", "context": "research competitor pricing on the web"}'
report "A notable step with its reasoning asks for a reflection" \
  '{"action": "web_fetch", "outcome": "pricing table extracted", "success": "success", "significance": "notable", "context": "research competitor pricing on the web", "reasoning_trace": {"constraints": "one hour", "alternatives": "web_search snippets truncate prices", "decisive_factor": "full pages carry the whole table"}}'
step "Reflect when a report asks for it: methodology for next time" "echo '{\"type\": \"post_task\", ...}' | ucs reflect"
printf '%s' '{"type": "post_task", "text": "### Pricing research\nFetch full pages: search snippets truncate price tables.", "capabilities": ["web_fetch", "read"], "keywords": ["pricing", "research"]}' | "$UCS" reflect
step "Run a tool through ucs: it observes the outcome itself (exit code, output), no report needed" "ucs exec --action web_fetch --goal g1 --context ... -- sh -c 'echo ...'"
"$UCS" exec --action web_fetch --goal g1 --context "research competitor pricing on the web" -- sh -c 'echo "<table>prices</table>"'
run "The same kind of task, worded differently: the advice has learned, and what the agent believes comes with it" \
  consult --greedy --compact --fields suggested_paths,observations --context "find what competitors charge; check their pricing pages"
run "What the agent believes: observations with evidence, confidence and freshness" observations
run "Quick check: health, counts, how advice fared when followed" status
run "Prove the whole history by replaying it" verify
run "For a person: what it learned and why it advises what it does, in 80 columns" \
  show --format table --context "research competitor pricing on the web"
run "For a person: the whole session as one HTML page (no network needed)" view --out "$DASHBOARD"
[ -n "${UCS_DEMO_WORKSPACE:-}" ] || printf '\nworkspace was %s (removed)\n' "$UCS_WORKSPACE" >&2
printf '\ndashboard: %s\n' "$DASHBOARD"
