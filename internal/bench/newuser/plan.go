package newuser

import (
	"fmt"
	"math/rand/v2"
)

// A kind is a type of task the agent does, always by the same rule: the
// same tools in the same order, whatever the phrasing of the task.
type kind struct {
	name     string
	rule     []string
	contexts []string
}

// kinds are the session's four task types, each taught by a consistent
// rule. The phrasings vary as a user's requests do; only some of them
// share words with the manifest's labels.
var kinds = []kind{
	{"bugfix", []string{"grep", "read_file", "edit_file", "run_tests", "git_diff", "git_commit"}, []string{
		"fix the failing parser test",
		"fix the crash in the config loader",
		"the login form rejects valid emails, fix the bug",
		"fix the off-by-one bug in pagination",
	}},
	{"incident", []string{"read_logs", "git_log", "read_file", "edit_file", "run_build", "deploy"}, []string{
		"incident: checkout returns 500 errors",
		"production incident, the api latency spiked after the release",
		"incident: the nightly job stopped writing reports",
		"outage incident in the payment service",
	}},
	{"research", []string{"web_search", "web_fetch", "read_file", "write_file"}, []string{
		"research how other libraries handle retries",
		"research competitor pricing on the web",
		"find out which json parser is fastest, research",
		"research the new tls requirements",
	}},
	{"feature", []string{"read_file", "write_file", "run_tests", "git_commit"}, []string{
		"add a csv export feature to the reports page",
		"implement dark mode as a new feature",
		"add a feature flag for the search box",
		"new feature: rate limit the public api",
	}},
}

// The session's shape.
const (
	episodesPerKind = 15   // training episodes of each kind, before the last four
	pConsult        = 0.85 // a step is preceded by a consult
	pGreedy         = 0.35 // a consult is a probe (--greedy)
	pFail           = 0.08 // a step fails and is retried
	pTestsFail      = 0.2  // besides, the tests fail and are run again
	pSkip           = 0.3  // web_search or git_log fails and the agent goes on without it
	pExec           = 0.4  // run_tests is run through ucs exec
	pDetour         = 0.1  // a detour: a grep after read_file, a diff after edit_file
	goalCount       = 4    // the goal g1 completes after this many observed test runs
)

// A step is one call of the agent's tool as the plan has it: the action,
// whether it succeeds, and how the agent asks and tells.
type step struct {
	action  string
	ok      bool
	consult bool // a consult first
	greedy  bool // the consult is a probe
	exec    bool // run through ucs exec rather than reported
}

// An episode is one task: its id, kind, context and steps, in order.
type episode struct {
	id      string
	kind    *kind
	context string
	steps   []step
	final   bool // one of the last four: a probe before every step, no noise
}

// plan draws the session: episodesPerKind training episodes of each kind
// in a shuffled order, then one last episode of each kind, without noise,
// whose probes the script checks.
func plan(r *rand.Rand) []episode {
	var order []*kind
	for i := range kinds {
		for range episodesPerKind {
			order = append(order, &kinds[i])
		}
	}
	r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	n := map[string]int{}
	var eps []episode
	for _, k := range order {
		n[k.name]++
		eps = append(eps, noisyEpisode(r, k, fmt.Sprintf("%s-%d", k.name, n[k.name])))
	}
	for i := range kinds {
		k := &kinds[i]
		ep := episode{id: k.name + "-last", kind: k, context: k.contexts[0], final: true}
		for _, a := range k.rule {
			ep.steps = append(ep.steps, step{action: a, ok: true, consult: true, greedy: true})
		}
		eps = append(eps, ep)
	}
	return eps
}

// noisyEpisode follows the kind's rule as a real agent does: it does not
// always consult, sometimes probes, sometimes fails and retries, skips a
// web search or a look at the history that failed, runs the tests through ucs exec, and now and
// then takes a detour that comes back to the rule.
func noisyEpisode(r *rand.Rand, k *kind, id string) episode {
	ep := episode{id: id, kind: k, context: k.contexts[r.IntN(len(k.contexts))]}
	call := func(action string, ok bool) {
		s := step{action: action, ok: ok, consult: r.Float64() < pConsult}
		s.greedy = s.consult && r.Float64() < pGreedy
		s.exec = action == "run_tests" && r.Float64() < pExec
		ep.steps = append(ep.steps, s)
	}
	for _, a := range k.rule {
		if a == "web_search" && r.Float64() < pSkip {
			call(a, false) // the search engine is down: go on to fetch a known page
			continue
		}
		if a == "git_log" && r.Float64() < pSkip {
			call(a, false) // the history is not there: go on to read the code
			continue
		}
		if r.Float64() < pFail || a == "run_tests" && r.Float64() < pTestsFail {
			call(a, false)
		}
		call(a, true)
		if r.Float64() < pDetour {
			switch a {
			case "read_file":
				call("grep", true) // look for the other uses, then read again
				call("read_file", true)
			case "edit_file":
				call("git_diff", true) // look at the change before testing it
			}
		}
	}
	return ep
}
