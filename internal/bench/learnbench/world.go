package learnbench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Success probabilities of a step, by the role the chosen tool plays in it.
const (
	PBest       = 0.90 // the hidden best step
	PAlt        = 0.60 // an acceptable alternative
	PDistractor = 0.15 // a tool whose name matches the task's words
	PTrap       = 0.10 // a tool with the best prior utility and cost
	POther      = 0.05 // any other out-neighbour
	PDrifted    = 0.20 // a best step that the drift replaced
	FlipProb    = 0.10 // probability that a reported outcome is flipped
	StepSlack   = 3    // an episode may take len(chain) + StepSlack steps
)

// A Role is what a tool is to one step of a family.
type Role int

// Roles, from worst to best. RoleNone: not an out-neighbour of the current
// tool at all (success probability 0).
const (
	RoleNone Role = iota
	RoleOther
	RoleTrap
	RoleDistractor
	RoleDrifted
	RoleAlt
	RoleBest
)

var roleP = [...]float64{RoleNone: 0, RoleOther: POther, RoleTrap: PTrap, RoleDistractor: PDistractor,
	RoleDrifted: PDrifted, RoleAlt: PAlt, RoleBest: PBest}

// Relevance is the graded relevance of a role for ranking metrics: the best
// step 2, an acceptable alternative 1, anything else 0.
func (r Role) Relevance() int {
	switch r {
	case RoleBest:
		return 2
	case RoleAlt:
		return 1
	}
	return 0
}

// A Step is one step of a family's task: the tool that does it best, and
// the other tools that can be tried there.
type Step struct {
	Best        string
	Alts        []string // acceptable alternatives (PAlt)
	Distractors []string // names that match the task's words (PDistractor)
	Traps       []string // best prior utility and cost (PTrap)
	// DriftTo, when set, is one of Alts: from the drift on it is the best
	// step (PBest) and Best drops to PDrifted.
	DriftTo string
}

// A Family is a kind of task: where it starts, its hidden best chain, and
// the word pools its context sentences are drawn from.
type Family struct {
	Name  string
	Start string
	Steps []Step
	Late  bool // first appears in the last third of a run
	// Distractors are tools whose names share words with the family's
	// sentences; every step can be tried with them (PDistractor).
	Distractors []string
	Verbs       []string
	Objects     []string
	Qualifiers  []string
}

// Chain returns the tools of the best chain, start first, before
// (drifted false) or after the drift.
func (f *Family) Chain(drifted bool) []string {
	out := []string{f.Start}
	for _, s := range f.Steps {
		out = append(out, s.best(drifted))
	}
	return out
}

func (s *Step) best(drifted bool) string {
	if drifted && s.DriftTo != "" {
		return s.DriftTo
	}
	return s.Best
}

// Drifts reports whether the family's best chain changes at the drift.
func (f *Family) Drifts() bool {
	for _, s := range f.Steps {
		if s.DriftTo != "" {
			return true
		}
	}
	return false
}

// role is what tool is to step s.
func (s *Step) role(tool string, drifted bool) Role {
	switch {
	case tool == s.best(drifted):
		return RoleBest
	case drifted && s.DriftTo != "" && tool == s.Best:
		return RoleDrifted
	case slices.Contains(s.Alts, tool):
		return RoleAlt
	case slices.Contains(s.Distractors, tool):
		return RoleDistractor
	case slices.Contains(s.Traps, tool):
		return RoleTrap
	}
	return RoleOther
}

// candidates are the tools that step s names, best first.
func (s *Step) candidates() []string {
	out := []string{s.Best}
	for _, l := range [][]string{s.Alts, s.Distractors, s.Traps} {
		for _, t := range l {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// A Tool is one capability of the manifest, with its prior utility and cost.
type Tool struct {
	Name string
	U, C float64
	Kind string // start, chain, distractor or trap: for documentation only
}

// A Label is a semantic_map entry of the manifest.
type Label struct {
	Label   string
	Targets []string
}

// A World is the benchmark's environment: tools, families and the graph
// they imply. It is fixed (NewWorld); seeds vary the episodes drawn in it.
type World struct {
	Tools    []Tool
	Families []Family
	Labels   []Label
	index    map[string]int
	out      map[string][]string // out-neighbours in manifest order, self included where a chain repeats
}

// Out returns the out-neighbours of a tool: the manifest's connects_to.
func (w *World) Out(tool string) []string { return w.out[tool] }

// Adjacent reports whether next is an out-neighbour of cur.
func (w *World) Adjacent(cur, next string) bool { return slices.Contains(w.out[cur], next) }

// Role returns what next is to step k of family f, chosen at cur.
func (w *World) Role(f, k int, drifted bool, cur, next string) Role {
	if !w.Adjacent(cur, next) {
		return RoleNone
	}
	return w.Families[f].Steps[k].role(next, drifted)
}

// P returns the success probability of choosing next at cur for step k of
// family f.
func (w *World) P(f, k int, drifted bool, cur, next string) float64 {
	return roleP[w.Role(f, k, drifted, cur, next)]
}

// BestP returns the oracle's choice at cur for step k of family f and its
// success probability: the out-neighbour with the highest probability,
// ties to the first in manifest order.
func (w *World) BestP(f, k int, drifted bool, cur string) (string, float64) {
	best, bp := "", -1.0
	for _, t := range w.out[cur] {
		if p := w.P(f, k, drifted, cur, t); p > bp {
			best, bp = t, p
		}
	}
	return best, bp
}

// NewWorld builds the benchmark's environment. See docs/learning-benchmark.md
// for the story behind each family.
func NewWorld() *World {
	tools := []Tool{
		{"intake", 0.50, 0.20, "start"},
		{"briefing", 0.50, 0.20, "start"},
		{"pager", 0.50, 0.20, "start"},

		{"code_search", 0.50, 0.40, "chain"},
		{"source_view", 0.45, 0.35, "chain"},
		{"blame_view", 0.50, 0.35, "chain"},
		{"patch_editor", 0.55, 0.45, "chain"},
		{"test_runner", 0.50, 0.40, "chain"},
		{"ci_pipeline", 0.55, 0.45, "chain"},
		{"commit_push", 0.50, 0.35, "chain"},
		{"spec_reader", 0.45, 0.35, "chain"},
		{"scaffold_gen", 0.50, 0.40, "chain"},
		{"profiler", 0.50, 0.45, "chain"},
		{"query_plan", 0.45, 0.40, "chain"},
		{"index_tuner", 0.55, 0.45, "chain"},
		{"benchmark", 0.50, 0.45, "chain"},
		{"query_engine", 0.55, 0.40, "chain"},
		{"archive_search", 0.45, 0.40, "chain"},
		{"page_reader", 0.50, 0.35, "chain"},
		{"notebook", 0.45, 0.30, "chain"},
		{"doc_composer", 0.55, 0.40, "chain"},
		{"table_extract", 0.50, 0.40, "chain"},
		{"spreadsheet", 0.50, 0.35, "chain"},
		{"chart_maker", 0.50, 0.40, "chain"},
		{"log_search", 0.50, 0.40, "chain"},
		{"metrics_view", 0.50, 0.35, "chain"},
		{"status_page", 0.45, 0.35, "chain"},
		{"team_notify", 0.50, 0.30, "chain"},
		{"deploy_history", 0.45, 0.35, "chain"},
		{"rollback_tool", 0.55, 0.45, "chain"},

		{"test_fix_bot", 0.75, 0.15, "distractor"},
		{"bug_tracker", 0.70, 0.15, "distractor"},
		{"export_wizard", 0.75, 0.15, "distractor"},
		{"feature_flags", 0.70, 0.15, "distractor"},
		{"report_builder", 0.75, 0.15, "distractor"},
		{"query_cache", 0.75, 0.15, "distractor"},
		{"dashboard_editor", 0.70, 0.15, "distractor"},
		{"speed_booster", 0.75, 0.15, "distractor"},
		{"research_assistant", 0.75, 0.15, "distractor"},
		{"summary_bot", 0.70, 0.15, "distractor"},
		{"competitor_watch", 0.75, 0.15, "distractor"},
		{"price_alerts", 0.70, 0.15, "distractor"},
		{"incident_bot", 0.75, 0.15, "distractor"},
		{"alert_rules", 0.70, 0.15, "distractor"},
		{"flaky_detector", 0.75, 0.15, "distractor"},
		{"deploy_wizard", 0.75, 0.15, "distractor"},
		{"release_notes", 0.70, 0.15, "distractor"},

		{"autopilot", 0.98, 0.02, "trap"},
		{"quick_answer", 0.97, 0.02, "trap"},
		{"smart_helper", 0.96, 0.03, "trap"},
	}
	l := func(xs ...string) []string { return xs }
	st := func(best string, alts ...string) Step { return Step{Best: best, Alts: alts} }
	drift := func(s Step, to string) Step { s.DriftTo = to; return s }
	families := []Family{
		{
			Name: "bugfix", Start: "intake", Distractors: l("test_fix_bot", "bug_tracker"),
			Steps: []Step{
				st("code_search", "blame_view"),
				st("source_view"),
				st("patch_editor"),
				drift(st("test_runner", "ci_pipeline"), "ci_pipeline"),
				st("commit_push"),
			},
			Verbs:      l("fix", "repair", "debug", "resolve"),
			Objects:    l("the failing unit test", "the broken assertion", "the regression bug", "the crash in the unit test"),
			Qualifiers: l("in the billing module", "in the parser code", "in checkout", "after yesterday's merge"),
		},
		{
			Name: "feature", Start: "intake", Distractors: l("feature_flags", "export_wizard", "report_builder"),
			Steps: []Step{
				st("spec_reader", "source_view"),
				st("scaffold_gen"),
				st("patch_editor"),
				st("test_runner", "ci_pipeline"),
				st("test_runner"),
				st("commit_push"),
			},
			Verbs:      l("add", "implement", "build", "ship"),
			Objects:    l("a new export option", "a csv export feature", "a filter for the monthly report", "a settings toggle"),
			Qualifiers: l("for enterprise customers", "in the admin panel", "behind feature flags", "for the next release"),
		},
		{
			Name: "performance", Start: "intake", Distractors: l("query_cache", "speed_booster", "dashboard_editor"),
			Steps: []Step{
				st("profiler", "metrics_view"),
				st("query_plan"),
				st("index_tuner"),
				st("benchmark", "test_runner"),
				st("benchmark"),
			},
			Verbs:      l("speed up", "optimize", "make faster", "fix the latency of"),
			Objects:    l("the slow dashboard query", "the sluggish report page", "the search endpoint", "the nightly aggregation job"),
			Qualifiers: l("that times out", "under load", "for big accounts", "before the demo"),
		},
		{
			Name: "research", Start: "briefing", Distractors: l("research_assistant", "summary_bot"),
			Steps: []Step{
				drift(st("query_engine", "archive_search"), "archive_search"),
				st("page_reader"),
				st("page_reader"),
				st("notebook"),
				st("doc_composer"),
			},
			Verbs:      l("research", "investigate", "look into", "dig into"),
			Objects:    l("recent papers on vector search", "the state of carbon accounting", "zero trust networking", "open source licensing trends"),
			Qualifiers: l("and write a short summary", "and brief the team", "for a report", "with sources"),
		},
		{
			Name: "pricing", Start: "briefing", Distractors: l("competitor_watch", "price_alerts"),
			Steps: []Step{
				st("page_reader", "query_engine"),
				st("table_extract"),
				st("spreadsheet"),
				st("chart_maker", "doc_composer"),
			},
			Verbs:      l("compare", "benchmark", "contrast", "line up"),
			Objects:    l("competitor pricing", "the price of rival plans", "what similar products cost", "our price against competitors"),
			Qualifiers: l("in a table", "with a chart", "for the sales deck", "by tier"),
		},
		{
			Name: "incident", Start: "pager", Distractors: l("incident_bot", "alert_rules"),
			Steps: []Step{
				st("metrics_view"),
				drift(st("log_search", "deploy_history"), "deploy_history"),
				st("status_page"),
				st("team_notify"),
			},
			Verbs:      l("investigate", "handle", "respond to", "triage"),
			Objects:    l("the outage", "the error spike", "the alert storm", "the incident"),
			Qualifiers: l("on checkout", "in the payments api", "affecting customers", "since the last hour"),
		},
		{
			Name: "flaky_test", Start: "intake", Late: true, Distractors: l("flaky_detector", "test_fix_bot"),
			Steps: []Step{
				st("code_search", "blame_view"),
				st("test_runner", "ci_pipeline"),
				st("test_runner"),
				st("log_search"),
				st("patch_editor"),
				st("commit_push"),
			},
			Verbs:      l("fix", "stabilize", "deflake", "repair"),
			Objects:    l("the flaky integration test", "the intermittent test failure", "the test that fails randomly", "the unstable end to end test"),
			Qualifiers: l("in ci", "in the checkout suite", "on the main branch", "before the release"),
		},
		{
			Name: "rollback", Start: "pager", Late: true, Distractors: l("deploy_wizard", "release_notes"),
			Steps: []Step{
				st("log_search", "metrics_view"),
				st("deploy_history"),
				st("rollback_tool"),
				st("status_page", "team_notify"),
			},
			Verbs:      l("roll back", "revert", "undo", "back out"),
			Objects:    l("the bad deploy", "the broken release", "the last deployment", "yesterday's rollout"),
			Qualifiers: l("that raised errors", "affecting customers", "on the payments api", "right away"),
		},
	}
	// Every step can also be tried with the family's distractors and with
	// every trap.
	var traps []string
	for _, t := range tools {
		if t.Kind == "trap" {
			traps = append(traps, t.Name)
		}
	}
	for i := range families {
		for k := range families[i].Steps {
			families[i].Steps[k].Distractors = families[i].Distractors
			families[i].Steps[k].Traps = traps
		}
	}
	labels := []Label{
		{"code_navigation", l("code_search", "source_view", "blame_view")},
		{"code_change", l("patch_editor", "scaffold_gen", "commit_push")},
		{"verification", l("test_runner", "ci_pipeline", "benchmark")},
		{"profiling", l("profiler", "query_plan", "index_tuner")},
		{"web_retrieval", l("query_engine", "archive_search", "page_reader")},
		{"writing", l("notebook", "doc_composer", "summary_bot", "report_builder")},
		{"data_analysis", l("table_extract", "spreadsheet", "chart_maker")},
		{"observability", l("log_search", "metrics_view", "alert_rules")},
		{"communication", l("status_page", "team_notify", "incident_bot")},
		{"release_management", l("deploy_history", "rollback_tool", "deploy_wizard", "release_notes")},
		{"assistants", l("autopilot", "quick_answer", "smart_helper", "research_assistant")},
	}
	w := &World{Tools: tools, Families: families, Labels: labels, index: map[string]int{}}
	for i, t := range tools {
		w.index[t.Name] = i
	}
	w.buildGraph()
	return w
}

// buildGraph derives the out-neighbours: every tool the agent can be at
// before step k of a family (the chain's tool at position k, or any
// candidate of step k-1 that may have done that step in its place) connects
// to every candidate of step k. A tool connects to itself only where a best
// chain repeats it.
func (w *World) buildGraph() {
	set := map[string]map[string]bool{}
	add := func(a, b string) {
		if set[a] == nil {
			set[a] = map[string]bool{}
		}
		set[a][b] = true
	}
	for _, f := range w.Families {
		for k, s := range f.Steps {
			var from []string
			if k == 0 {
				from = []string{f.Start}
			} else {
				from = f.Steps[k-1].candidates()
			}
			for _, x := range from {
				for _, c := range s.candidates() {
					if x == c && !(c == s.Best && k > 0 && f.Steps[k-1].Best == c) {
						continue
					}
					add(x, c)
				}
			}
		}
	}
	w.out = map[string][]string{}
	for _, t := range w.Tools {
		var out []string
		for _, u := range w.Tools {
			if set[t.Name][u.Name] {
				out = append(out, u.Name)
			}
		}
		w.out[t.Name] = out
	}
}

// ManifestJSON is the ucs manifest of the world: every tool with its
// connects_to (self included where a chain repeats a tool; today's engine
// drops self-loops), its prior u and c, and the semantic map.
func (w *World) ManifestJSON() []byte {
	var b bytes.Buffer
	b.WriteString("{\"capabilities\": [\n")
	for i, t := range w.Tools {
		conn, _ := json.Marshal(append([]string{}, w.out[t.Name]...))
		fmt.Fprintf(&b, "  {\"name\": %q, \"connects_to\": %s, \"u\": %.2f, \"c\": %.2f}", t.Name, conn, t.U, t.C)
		if i < len(w.Tools)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("],\n\"semantic_map\": {\n")
	for i, l := range w.Labels {
		targets, _ := json.Marshal(l.Targets)
		fmt.Fprintf(&b, "  %q: %s", l.Label, targets)
		if i < len(w.Labels)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("}}\n")
	return b.Bytes()
}

// Sentence templates: {p} a prefix, {v} a verb, {o} an object, {q} a
// qualifier, {s} a suffix. Every family uses all of them.
var (
	templates = []string{
		"{p}{v} {o} {q}{s}",
		"{p}we need to {v} {o} {q}{s}",
		"{p}can you {v} {o} {q}{s}",
		"{p}todo: {v} {o} {q}{s}",
		"{p}the goal is to {v} {o} {q}{s}",
	}
	prefixes = []string{"", "quick one: ", "hey, ", "priority: ", "next up: "}
	suffixes = []string{"", " please", " today", " for the team", " asap", " when you get a chance", " as discussed"}
)

// Paraphrase draws a context sentence for family f: a template filled from
// the family's word pools and the shared prefixes and suffixes.
func (w *World) Paraphrase(f int, r *rand.Rand) string {
	fam := &w.Families[f]
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	s := pick(templates)
	s = strings.Replace(s, "{p}", pick(prefixes), 1)
	s = strings.Replace(s, "{v}", pick(fam.Verbs), 1)
	s = strings.Replace(s, "{o}", pick(fam.Objects), 1)
	s = strings.Replace(s, "{q}", pick(fam.Qualifiers), 1)
	s = strings.Replace(s, "{s}", pick(suffixes), 1)
	return s
}

// ParaphraseCount is how many distinct sentences family f can draw.
func (w *World) ParaphraseCount(f int) int {
	fam := &w.Families[f]
	return len(templates) * len(prefixes) * len(suffixes) * len(fam.Verbs) * len(fam.Objects) * len(fam.Qualifiers)
}

// Words splits text into lowercase words of three letters or more (runs
// of a-z; an underscore separates words, so a tool name splits into its
// parts).
func Words(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return r < 'a' || r > 'z' }) {
		if len(w) >= 3 && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// SharedStarts returns the start tools shared by two or more families, in
// manifest order, each with its families.
func (w *World) SharedStarts() []SharedStart {
	var out []SharedStart
	for _, t := range w.Tools {
		var fams []int
		for i, f := range w.Families {
			if f.Start == t.Name {
				fams = append(fams, i)
			}
		}
		if len(fams) >= 2 {
			out = append(out, SharedStart{t.Name, fams})
		}
	}
	return out
}

// A SharedStart is a start tool and the families that start there.
type SharedStart struct {
	Tool     string
	Families []int
}

// DistinctBestFirst is the number of distinct best first steps summed over
// the shared start tools: what distinct top-1 picks should reach.
func (w *World) DistinctBestFirst(drifted bool) int {
	n := 0
	for _, s := range w.SharedStarts() {
		seen := map[string]bool{}
		for _, f := range s.Families {
			seen[w.Families[f].Steps[0].best(drifted)] = true
		}
		n += len(seen)
	}
	return n
}
