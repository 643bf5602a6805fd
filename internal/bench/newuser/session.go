package newuser

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// manifest is what the session needs of the manifest: its edges.
type manifest struct {
	edges map[[2]string]bool
}

func parseManifest(raw []byte) (manifest, error) {
	var doc struct {
		Capabilities []struct {
			Name       string   `json:"name"`
			ConnectsTo []string `json:"connects_to"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return manifest{}, err
	}
	if len(doc.Capabilities) == 0 {
		return manifest{}, errors.New("no capabilities")
	}
	m := manifest{edges: map[[2]string]bool{}}
	for _, c := range doc.Capabilities {
		for _, to := range c.ConnectsTo {
			m.edges[[2]string{c.Name, to}] = true
		}
	}
	return m, nil
}

// start is how v5 names a task's start in a transition.
const start = "(start)"

// An agent is what the generator knows of the session as v5 should see
// it: where the agent is in its task (the last step that succeeded), and
// the successes counted from each step to another, which decide what is
// discovered.
type agent struct {
	m         manifest
	at        string // the episode's last successful step; start at first
	successes map[[2]string]int
	// pairs are the pairs of steps reported from a step, in the order
	// first reported; discovered those of them that were.
	pairs      [][2]string
	discovered map[[2]string]bool
	last       struct { // the newest report
		action string
		ok     bool
		pair   [2]string
	}
}

// learn records a step's outcome and returns the transition v5 must
// report and whether it must call it discovered: a success the manifest
// lacks, from a step (not the start), the first time.
func (a *agent) learn(action string, ok bool) (string, bool) {
	pair := [2]string{a.at, action}
	transition := a.at + " → " + action
	a.last.action, a.last.ok, a.last.pair = action, ok, pair
	if a.at != start && !slices.Contains(a.pairs, pair) {
		a.pairs = append(a.pairs, pair)
	}
	if !ok {
		return transition, false
	}
	discovered := a.at != start && !a.m.edges[pair] && a.successes[pair] == 0
	if a.at != start {
		a.successes[pair]++
	}
	if discovered {
		a.discovered[pair] = true
	}
	a.at = action
	return transition, discovered
}

// The session's fixed events, by training episode.
const (
	rateAfter    = 24 // the first failure reported from this episode on is rated
	amendAfter   = 30 // the first git_commit reported from this one on is amended
	deadEndAfter = 42 // the dead end is written after this many episodes
	statusEvery  = 20 // status and show between episodes
)

// deadEndContext is the context of the incident that checks the dead end.
const deadEndContext = "outage incident in the payment service"

// session writes the session: init, a goal, the episodes with their
// events, and the final checks.
func session(eps []episode, m manifest, manifestJSON string, probe bool) (*script, error) {
	s := newScript()
	ag := &agent{m: m, successes: map[[2]string]int{}, discovered: map[[2]string]bool{}}
	s.line("env UCS_MODEL=")
	s.ucs(false, true, "init", "--manifest", "coding.json")
	s.jsonpath("stdout", "status", "initialized")
	s.files = append(s.files, "coding.json")
	s.body["coding.json"] = manifestJSON
	s.named[manifestJSON] = "coding.json"

	s.comment("A goal the test runs observed through ucs exec complete.")
	s.ucs(false, true, "goal", "add", "--content", "keep the test suite green", "--count", fmt.Sprint(goalCount))
	s.jsonpath("stdout", "goal.id", "g1")
	goalRuns := 0

	rated, amended, deadEnd, deadEndChecked := false, false, false, false
	first := true
	for i, ep := range eps {
		if !ep.final && i > 0 && i%statusEvery == 0 {
			s.comment(fmt.Sprintf("After %d tasks: status and show read, changing nothing.", i))
			s.ucs(false, false, "status")
			s.jsonpath("stdout", "learning.model", "v5")
			s.ucs(false, false, "show")
			s.jsonpath("stdout", "model", "v5")
		}
		if i == deadEndAfter {
			s.comment("A dead end: editing code first during an incident. It names edit_file\nand the keyword incident, which is also a label of the manifest (read_logs,\ngit_log): it must penalise edit_file alone.")
			s.stdin("deadend.json", object("type", "dead_end", "topic", "hot-patching code during an incident",
				"text", "Editing code before reading the logs during an incident hid the cause twice.",
				"why_closed", "the fix went to the wrong service", "capabilities", `["edit_file"]`, "keywords", `["incident", "outage"]`))
			s.ucs(false, true, "reflect")
			s.jsonpath("stdout", "type", "dead_end")
			deadEnd = true
		}
		if deadEnd && !deadEndChecked && ep.kind.name == "incident" {
			// A phrasing the dead end matches (incident, outage, service):
			// a dead end penalises in the contexts it matches only.
			ep.context = deadEndContext
		}
		if ep.final && ep.kind == &kinds[0] {
			s.comment("The last episodes: a probe before every step of each rule.")
		}
		if ep.final {
			s.comment(fmt.Sprintf("%s: %s.", ep.id, strings.Join(ep.kind.rule, " → ")))
		} else {
			s.comment(fmt.Sprintf("%s: %s", ep.id, ep.context))
		}
		ag.at = start
		ag.last.action = ""
		for j, st := range ep.steps {
			checkDeadEnd := deadEnd && !deadEndChecked && ep.kind.name == "incident" && j == 0
			if checkDeadEnd {
				st.consult, st.greedy = true, false
			}
			if st.consult {
				args := []string{"consult", "--task", ep.id, "--context", ep.context}
				if st.greedy {
					args = append(args, "--greedy")
				}
				s.ucs(false, true, args...)
				if checkDeadEnd {
					s.line("# The dead end penalises edit_file only; read_logs, the rule's first step, leads.")
					s.jsonpath("stdout", "penalty_applied.@keys", `["edit_file"]`)
					s.jsonpath("stdout", "suggested_paths.0.to", "read_logs")
					s.jsonpath("stdout", "suggested_paths.0.components.penalty", "0")
					s.jsonpath("stdout", "dead_ends.0.topic", "hot-patching code during an incident")
					deadEndChecked = true
				}
				if ep.final {
					if probe {
						s.line("cp stdout probe-%s-%d.json", ep.id, j)
					}
					s.jsonpath("stdout", "suggested_paths.0.to", st.action)
				}
			}
			afterFailure := ag.last.action != "" && !ag.last.ok
			transition, discovered := ag.learn(st.action, st.ok)
			out := "stdout"
			if st.exec {
				args := []string{"exec", "--action", st.action, "--context", ep.context, "--result-file", "r.json"}
				if st.ok && goalRuns < goalCount {
					args = append(args, "--goal", "g1")
					goalRuns++
				}
				cmd := "true"
				if !st.ok {
					cmd = "false"
				}
				s.ucs(!st.ok, true, append(args, "--", cmd)...)
				out = "r.json"
			} else {
				verdict := "success"
				if !st.ok {
					verdict = "failure"
				}
				s.stdin(fmt.Sprintf("%s.%s.%s.json", ep.id, st.action, verdict),
					object("action", st.action, "success", verdict, "task", ep.id, "context", ep.context))
				s.ucs(false, true, "report")
			}
			if first {
				s.line("# The workspace's first report is learned from the task's start, not")
				s.line("# from the manifest's first tool.")
				first = false
			} else if afterFailure {
				s.line("# After a failed step: from where the agent was, never the failed tool.")
			}
			s.jsonpath(out, "learning.transition", transition)
			s.jsonpath(out, "learning.discovered", fmt.Sprint(discovered))

			if !rated && !ep.final && i >= rateAfter && !st.ok && !st.exec {
				s.comment("An operator confirms the failure just reported: the strongest evidence.")
				s.ucs(false, false, "log", "--op", "report", "--limit", "1")
				s.jsonpath("stdout", "seq", fmt.Sprint(s.seq))
				s.ucs(false, true, "rate", fmt.Sprint(s.seq), "--success", "failure", "--by", "operator", "--note", "the tool really failed")
				s.jsonpath("stdout", "rated", "failure")
				rated = true
			}
			if !amended && !ep.final && i >= amendAfter && st.ok && !st.exec && st.action == "git_commit" {
				s.comment("A reviewer corrects the commit just reported: the hook rejected it.")
				s.ucs(false, false, "log", "--op", "report", "--limit", "1")
				s.jsonpath("stdout", "seq", fmt.Sprint(s.seq))
				s.ucs(false, true, "amend", fmt.Sprint(s.seq), "--success", "failure", "--by", "reviewer", "--note", "the commit hook rejected it")
				s.jsonpath("stdout", "status", "amended")
				ag.successes[ag.last.pair]--
				amended = true
			}
		}
	}
	if !rated || !amended || !deadEndChecked || goalRuns < goalCount {
		return nil, errors.New("the plan lacks a rating, an amendment, a dead end's check or the goal's runs: try another seed")
	}

	s.comment("The goal completed by its observed test runs.")
	s.ucs(false, false, "goal", "show", "g1")
	s.jsonpath("stdout", "goal.state", "completed")

	s.comment(`At the end, show: as many transitions as the pairs of steps the plan
took from a step (none from the start, none from a failed tool), and of
those it lists, the discovered ones are those the manifest lacks.`)
	s.ucs(false, false, "show")
	s.jsonpath("stdout", "model", "v5")
	s.jsonpath("stdout", "transitions_total", fmt.Sprint(len(ag.pairs)))
	for _, p := range ag.pairs {
		other := "true"
		if ag.discovered[p] {
			other = "false"
		}
		s.jsonpath("stdout", fmt.Sprintf(`transitions.#(from==%q)#|#(to==%q)#|#(discovered==%s)#|#`, p[0], p[1], other), "0")
	}
	s.line("# What v4 learned as junk in issue 27 is not there.")
	for _, p := range [][2]string{{"web_search", "run_tests"}, {"read_file", "git_commit"}} {
		s.jsonpath("stdout", fmt.Sprintf(`transitions.#(from==%q)#|#(to==%q)#|#`, p[0], p[1]), "0")
	}
	s.ucs(false, false, "status")
	s.jsonpath("stdout", "status", "ok")
	s.jsonpath("stdout", "learning.model", "v5")
	s.ucs(false, false, "check")
	s.jsonpath("stdout", "ok", "true")
	s.ucs(false, false, "verify")
	walkRules(s)
	transfer(s)
	return s, nil
}

// walkRules writes, for each task type, a walk along the rule it was
// taught, in the context of its last task: consult --task-start names the
// rule's first tool first, and consult --from each step of the rule names
// the rule's next tool first. These consults are looks: the workspace's
// files are byte for byte what they were before them.
func walkRules(s *script) {
	s.comment(`Along each taught rule, read-only: consult --task-start names the rule's
first tool first, consult --from each step the rule's next one, and the
workspace is unchanged by these looks.`)
	s.line("hashws ws walk-before.txt")
	for _, k := range kinds {
		for i, to := range k.rule {
			args := []string{"consult", "--context", k.contexts[0], "--task-start"}
			if i > 0 {
				args = []string{"consult", "--context", k.contexts[0], "--from", k.rule[i-1]}
			}
			s.ucs(false, false, args...)
			s.jsonpath("stdout", "suggested_paths.0.to", to)
		}
	}
	s.jsonpath("stdout", "advisory_id", "")
	s.line("hashws ws walk-after.txt")
	s.line("cmp walk-after.txt walk-before.txt")
}

// consultParts are the members of a consult answer that a workspace with
// the same model and knowledge gives the same: all but the engine's
// (wormholes, attractors, unannotated_count, pp_health: the reference's
// torus field and its artifacts, which are not the learned model and
// which import does not restore), and advisory_id, which names the call's
// event in each workspace's journal (--fields keeps it; cmpexcept leaves
// its line out).
const consultParts = "cursor,resolved_capabilities,suggested_paths,methodology_hits,dead_ends," +
	"judgment_hits,penalty_applied,open_questions,context_boosted,model,left_out,observations"

// transfer writes the export of ws imported into a fresh workspace of the
// same manifest, and the checks that the learned model travelled: consult
// in each task type's context, at a new task's start and in the last task
// of the type, answers the same in both; a second import changes nothing;
// status, check and verify pass in both.
func transfer(s *script) {
	s.comment(`The learned model travels: ws's export imported into a fresh workspace
of the same manifest restores it, and consult advises there as in ws.`)
	s.ucs(false, false, "export")
	s.jsonpath("stdout", "model.version", "v5")
	s.line("cp stdout export.json")
	s.ucsOn("ws2", false, true, "init", "--manifest", "coding.json")
	s.stdinFile("export.json")
	s.ucsOn("ws2", false, true, "import")
	s.jsonpath("stdout", "model.action", "restored")
	s.jsonpath("stdout", "model.records_left_out", "0")
	s.comment("A second import changes nothing: ws2 exports the same before and after.")
	s.ucsOn("ws2", false, false, "export")
	s.line("cp stdout ws2-before.json")
	s.stdinFile("export.json")
	s.ucsOn("ws2", false, true, "import")
	s.jsonpath("stdout", "model.action", "already_imported")
	s.jsonpath("stdout", "already_imported", "true")
	s.ucsOn("ws2", false, false, "export")
	s.line("cmp stdout ws2-before.json")
	s.comment(`Each task type's context, at a new task's start and in its last task:
the same advice in both: all but the advisory's id, which names the
event in each journal, and the engine's members (wormholes, attractors,
unannotated_count, pp_health), which are not the learned model.`)
	for _, k := range kinds {
		for _, task := range []string{k.name + "-next", k.name + "-last"} {
			args := []string{"consult", "--task", task, "--context", k.contexts[0], "--fields", consultParts}
			s.ucs(false, true, args...)
			s.line("cp stdout consult-ws.json")
			s.ucsOn("ws2", false, true, args...)
			s.line("cmpexcept stdout consult-ws.json advisory_id")
		}
	}
	for _, ws := range []string{"ws", "ws2"} {
		s.ucsOn(ws, false, false, "status")
		s.jsonpath("stdout", "status", "ok")
		s.ucsOn(ws, false, false, "check")
		s.jsonpath("stdout", "ok", "true")
		s.ucsOn(ws, false, false, "verify")
	}
}
