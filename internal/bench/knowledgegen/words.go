package knowledgegen

import "strings"

// vocabulary is the words keywords and summaries are drawn from: task
// words an agent uses, the words of the Aegis semantic labels, and the
// bridge's synonym words, so consults resolve and match as in real use.
var vocabulary = strings.Fields(`
research search write code debug monitor deploy automate create analyze fetch
browse message delegate optimize learn test publish fix plan audit track
analysis planning artifact creation documentation scripts config updates
surgical fixes hardening patch system diagnostics automation verification
integration long run control exec observability recovery lead discovery market
intel source expansion evidence extraction content interactive web ui
validation rendering visual snapshot light app ops device camera snap remote
notifications user proactive alerts cross channel delivery subagent delegation
design session multi agent tracking context quality review self continuation
coordination handoff worker parallel execution intervention cost runtime status
model vision media understanding docs grounding implementation strategy
capability bootstrap pattern application tools platform extension skill
workflow packaging browser tasks event policy enforcement incremental growth
function injection lifecycle instrumentation guardrails modification meta
inventory state authoritative guidance correctness checks reuse failure
avoidance fitness performance tuning improvement candidates hook lessons
persistence behavioral lock tool upgrade loop learned change refinement outcome
registry experiment real world signal capture hygiene distribution
externalization ability installable activation resume offload scouting voice
audio briefings pricing competitor page pages snippet snippets truncate prices
api rate limit limits scraping login captcha timeout retry cache schema
migration database query index latency memory leak profile benchmark flaky
ci pipeline build release version dependency vendor license security token
secret credential permission sandbox container image kubernetes cluster node
queue worker cron schedule backup restore rollback incident outage alert
dashboard metric log trace span error exception stack crash panic regression
refactor rename module package interface contract client server request
response header payload json yaml csv parse validate sanitize encode decode
compress upload download stream socket proxy dns certificate tls network
latency throughput budget deadline customer report summary draft email slack
meeting calendar invoice contract proposal roadmap milestone estimate
priority backlog ticket issue review approve merge branch commit diff
conflict revert hotfix feature flag toggle experiment cohort funnel
conversion churn retention signup onboarding pricing tier discount quota
usage billing refund support faq tutorial example snippet template prompt
transcript speech translation summary headline article blog newsletter
`)

// openers start the generated sentences.
var openers = []string{
	"When you see", "Always", "Never", "Prefer", "Before you", "After",
	"If the", "Check", "Fetch whole pages when", "Split the work into",
	"Do not trust", "Verify", "Start with", "Measure", "Keep",
}

// artifactIDs are artifact ids of the kind the engine makes (16 hex
// digits); snapshots name a few of them as active.
var artifactIDs = strings.Fields(`
c6b826111c1d656d 64eee9608f0eebb7 628c630d9f0e77c6 306ab760e6fe809f
8a1b659eb9b959c2 1f0d3a52b7e9c4a8 9b7e2c1d04f6a3e5 4d2a8f6c1b3e9075
e0c7b95a2d4f1836 7a3f0e9c5b1d2846 b2d94e1a7c0f6358 5e8c1a3b9d7f2064
`)
