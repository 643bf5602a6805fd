package bridge

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/unified-cognitive-substrate/ucs/dashboard"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/policy"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// What the dashboard shows at most of each kind (the rest are counted):
// on a workspace of 100,000 entries the page stays a few hundred KB.
const (
	viewContexts     = 50  // consulted contexts, the most recent first, each with consult's advice
	viewEvents       = 200 // the journal's newest events
	viewEntries      = 50  // dead ends, annotations: the newest
	viewObservations = 100 // observations: the believed first, then the newest
	viewGoalsClosed  = 50  // closed goals: the newest
	viewPP           = 500 // PP snapshots: the newest
	viewTasks        = 20  // tasks' chains (show's, taskChain), the newest first
)

var viewSpec = Spec{
	Output:  viewOutput,
	Name:    "view",
	Summary: "Write a self-contained HTML dashboard of what ucs has learned, and say where",
	Long: `One HTML file that opens from disk, with no network: first each recent
task's chain of steps learned from its start (show's), with the
alternatives at each step; the capability graph
with the learned transitions (thickness: evidence, colour: success rate),
filterable by context, the artifacts marked; for each context consulted (the
50 most recent) the suggestions with every component of their score, as
consult gives them now (computed by ucs on a copy: nothing is kept); advisory
precision, PP health and reports per day; the torus's fields as heat maps;
goals, observations, dead ends, annotations and the journal's newest events.
Each kind is bounded, with counts of the rest. It changes nothing in the
workspace; the answer says the file's path, size and what it holds.`,
	Example: "ucs view --out /tmp/ucs.html\nucs view --since 7d",
	Fields: []Field{
		{Name: "out", Type: TypeString, Flag: true, Path: true, Default: "ucs-dashboard.html", Doc: "the HTML file to write"},
		{Name: "inline", Type: TypeBool, Flag: true, Doc: "answer the page itself (member html) and write no file (always, as an MCP tool)"},
		{Name: "since", Type: TypeString, Flag: true, Doc: "only the history (events, contexts, curves) from this date, time or span (7d, 24h) on"},
	},
	run: opView,
}

func opView(s *session, c Call) (pyjson.Value, error) {
	var since time.Time
	if arg := argString(c, "since"); arg != "" {
		t, err := parseSince(arg, s.now)
		if err != nil {
			return pyjson.Value{}, err
		}
		since = t
	}
	data, counts, err := s.dashboardData(since)
	if err != nil {
		return pyjson.Value{}, err
	}
	page := dashboard.Render(pyjson.AppendCompact(nil, data))
	if argBool(c, "inline") {
		return pyjson.Obj(pyjson.KV("html", string(page)), pyjson.KV("bytes", len(page)), pyjson.KV("shown", counts)), nil
	}
	path := argString(c, "out")
	// The page holds what the workspace holds, which is kept private: it
	// is written 0600, to a new file renamed into place, so a link at
	// --out is replaced, never written through.
	if err := workspace.WritePrivate(path, page); err != nil {
		return pyjson.Value{}, badInput("unwritable_output", "give --out a file in a directory you can write", "cannot write %s: %v", path, err)
	}
	return pyjson.Obj(pyjson.KV("path", path), pyjson.KV("bytes", len(page)), pyjson.KV("shown", counts)), nil
}

// dashboardData is what the page draws, and the counts of what it shows.
func (s *session) dashboardData(since time.Time) (pyjson.Value, pyjson.Value, error) {
	e := s.engine
	hist, err := s.history(since)
	if err != nil {
		return pyjson.Value{}, pyjson.Value{}, err
	}
	graph, nEdges, err := s.viewGraph(hist.reports)
	if err != nil {
		return pyjson.Value{}, pyjson.Value{}, err
	}
	contexts := []pyjson.Value{}
	for _, hc := range hist.contexts {
		advice, err := s.consultNow(hc.text)
		if err != nil {
			return pyjson.Value{}, pyjson.Value{}, err
		}
		get := func(k string) pyjson.Value { v, _ := advice.Get(k); return v }
		contexts = append(contexts, pyjson.Obj(pyjson.KV("context", hc.text), pyjson.KV("seq", hc.seq), pyjson.KV("now", hc.now),
			pyjson.KV("cursor", get("cursor")), pyjson.KV("resolved", get("resolved_capabilities")),
			pyjson.KV("suggested_paths", get("suggested_paths")), pyjson.KV("penalty_applied", get("penalty_applied")),
			pyjson.KV("dead_ends", get("dead_ends"))))
	}
	tasks, err := s.taskChains(hist.reports, viewTasks)
	if err != nil {
		return pyjson.Value{}, pyjson.Value{}, err
	}
	precision, err := s.precision()
	if err != nil {
		return pyjson.Value{}, pyjson.Value{}, err
	}
	pp, err := s.window(relPPHistory, viewPP)
	if err != nil {
		return pyjson.Value{}, pyjson.Value{}, err
	}
	ppOut := []pyjson.Value{}
	for _, p := range pp {
		if ts := strField(p, "timestamp"); since.IsZero() || ts >= isoTime(since) {
			t, _ := p.Get("t")
			h, _ := p.Get("health")
			ppOut = append(ppOut, pyjson.Obj(pyjson.KV("t", t), pyjson.KV("timestamp", ts), pyjson.KV("health", h)))
		}
	}
	fields := []pyjson.Member{pyjson.KV("theta_bins", e.Grid.ThetaBins), pyjson.KV("phi_bins", e.Grid.PhiBins)}
	for _, name := range []string{torusfield.FieldEnergy, torusfield.FieldMemory, torusfield.FieldSalience} {
		cells := make([]pyjson.Value, 0, e.Grid.Size())
		for _, x := range e.Grid.Field(name) {
			cells = append(cells, pyjson.FloatValue(round(x, 4)))
		}
		fields = append(fields, pyjson.KV(name, cells))
	}
	goals, nGoals, err := s.viewGoals()
	if err != nil {
		return pyjson.Value{}, pyjson.Value{}, err
	}
	obs, nObs, err := s.viewObservations()
	if err != nil {
		return pyjson.Value{}, pyjson.Value{}, err
	}
	deadEnds, err := s.window(relDeadEnds, viewEntries)
	if err != nil {
		return pyjson.Value{}, pyjson.Value{}, err
	}
	anns, err := s.window(relAnnotations, viewEntries)
	if err != nil {
		return pyjson.Value{}, pyjson.Value{}, err
	}
	total := func(rel string) int { return s.meta.Files[rel].Lines }
	reports, err := s.reportsTotal()
	if err != nil {
		return pyjson.Value{}, pyjson.Value{}, err
	}
	var sinceOut any
	if !since.IsZero() {
		sinceOut = isoTime(since)
	}
	data := pyjson.Obj(
		pyjson.KV("generated", isoTime(s.now)),
		pyjson.KV("since", sinceOut),
		pyjson.KV("workspace", pyjson.Obj(pyjson.KV("agent_id", s.meta.AgentID), pyjson.KV("model", s.meta.Model),
			pyjson.KV("seq", s.meta.Seq), pyjson.KV("t", e.Grid.T), pyjson.KV("cursor", e.Cursor.Node),
			pyjson.KV("pp_health", round(e.PP.Health(), 4)), pyjson.KV("reports_total", reports),
			pyjson.KV("methodology_total", total(relMethodology)), pyjson.KV("judgment_total", total(relJudgment)))),
		pyjson.KV("tasks", tasks),
		pyjson.KV("graph", graph),
		pyjson.KV("contexts", contexts),
		pyjson.KV("contexts_total", hist.contextsTotal),
		pyjson.KV("advisory_precision", precision),
		pyjson.KV("days", hist.days()),
		pyjson.KV("pp", ppOut),
		pyjson.KV("fields", pyjson.ObjectValue(fields)),
		pyjson.KV("goals", goals),
		pyjson.KV("goals_total", nGoals),
		pyjson.KV("observations", obs),
		pyjson.KV("observations_total", nObs),
		pyjson.KV("dead_ends", newestFirst(deadEnds)),
		pyjson.KV("dead_ends_total", total(relDeadEnds)),
		pyjson.KV("annotations", newestFirst(anns)),
		pyjson.KV("annotations_total", total(relAnnotations)),
		pyjson.KV("events", hist.events),
		pyjson.KV("events_total", hist.eventsTotal),
	)
	counts := pyjson.Obj(
		pyjson.KV("nodes", len(e.Graph.Nodes)), pyjson.KV("edges", nEdges),
		pyjson.KV("tasks", len(tasks)),
		pyjson.KV("contexts", len(contexts)), pyjson.KV("contexts_total", hist.contextsTotal),
		pyjson.KV("events", len(hist.events)), pyjson.KV("events_total", hist.eventsTotal),
		pyjson.KV("observations", len(obs)), pyjson.KV("observations_total", nObs),
		pyjson.KV("goals", len(goals)), pyjson.KV("goals_total", nGoals),
		pyjson.KV("dead_ends", len(deadEnds)), pyjson.KV("dead_ends_total", total(relDeadEnds)),
		pyjson.KV("annotations", len(anns)), pyjson.KV("annotations_total", total(relAnnotations)),
	)
	return data, counts, nil
}

func newestFirst(vs []pyjson.Value) []pyjson.Value {
	out := slices.Clone(vs)
	slices.Reverse(out)
	if out == nil {
		out = []pyjson.Value{}
	}
	return out
}

// viewGraph is the capability graph: every capability, every edge of the
// graph and every transition learned beside it, each with what was
// learned of it and the artifacts on it. It returns the number of edges.
func (s *session) viewGraph(contexts []reportContext) (pyjson.Value, int, error) {
	e := s.engine
	ts, err := s.transitions(transitionWindow, contexts)
	if err != nil {
		return pyjson.Value{}, 0, err
	}
	learned := map[[2]string]*learn.Transition{}
	for _, t := range ts {
		learned[[2]string{t.From, t.To}] = t
	}
	anns, err := s.annotations()
	if err != nil {
		return pyjson.Value{}, 0, err
	}
	onEdge := map[int][]string{}
	onNode := map[string][]string{}
	arts := []pyjson.Value{}
	all := e.Artifacts.All()
	slices.SortStableFunc(all, func(a, b *torusfield.Artifact) int { return cmp.Compare(b.Score, a.Score) })
	for _, a := range all {
		ms := []pyjson.Member{pyjson.KV("id", a.ID), pyjson.KV("kind", a.Kind), pyjson.KV("score", round(a.Score, 4))}
		if ei, ok := a.EdgeIndex(); ok && ei < len(e.Graph.Edges) {
			onEdge[ei] = append(onEdge[ei], a.Kind)
			ms = append(ms, pyjson.KV("from", e.Graph.Edges[ei].Src), pyjson.KV("to", e.Graph.Edges[ei].Dst))
		} else if node, ok := a.Node(); ok {
			onNode[node] = append(onNode[node], a.Kind)
			ms = append(ms, pyjson.KV("node", node))
		}
		var text any
		if ann, ok := anns[a.ID]; ok {
			text, _ = ann.Get("text")
		}
		arts = append(arts, pyjson.ObjectValue(append(ms, pyjson.KV("annotation", text))))
	}
	nodes := make([]pyjson.Value, len(e.Graph.Nodes))
	for i, n := range e.Graph.Nodes {
		nodes[i] = pyjson.Obj(pyjson.KV("id", n), pyjson.KV("artifacts", orEmptyStrings(onNode[n])))
	}
	edge := func(from, to string, w, prior float64, t *learn.Transition, kinds []string) pyjson.Value {
		ms := []pyjson.Member{pyjson.KV("from", from), pyjson.KV("to", to), pyjson.KV("w", round(w, 4)), pyjson.KV("prior", round(prior, 4))}
		if t != nil && t.N > 0 {
			v := transitionValue(t)
			for _, k := range []string{"successes", "of", "rate", "contexts", "last_seen", "discovered"} {
				x, _ := v.Get(k)
				ms = append(ms, pyjson.KV(k, x))
			}
		}
		return pyjson.ObjectValue(append(ms, pyjson.KV("artifacts", orEmptyStrings(kinds))))
	}
	edges := []pyjson.Value{}
	for i, ed := range e.Graph.Edges {
		edges = append(edges, edge(ed.Src, ed.Dst, ed.W, ed.U-ed.C, learned[[2]string{ed.Src, ed.Dst}], onEdge[i]))
	}
	for _, t := range ts { // learned beside the graph: discovered, or a manifest's self-loop
		if t.Edge < 0 && t.N > 0 {
			edges = append(edges, edge(t.From, t.To, 0, 0, t, nil))
		}
	}
	return pyjson.Obj(pyjson.KV("nodes", nodes), pyjson.KV("edges", edges), pyjson.KV("artifacts", arts)), len(edges), nil
}

// viewGoals lists the open goals and the newest closed ones, with the
// number of goals.
func (s *session) viewGoals() ([]pyjson.Value, int, error) {
	gb, err := s.goals()
	if err != nil {
		return nil, 0, err
	}
	out := []pyjson.Value{}
	for _, g := range gb.Open {
		out = append(out, g.Value())
	}
	closed := gb.Closed[max(0, len(gb.Closed)-viewGoalsClosed):]
	for i := len(closed) - 1; i >= 0; i-- {
		out = append(out, closed[i].Value())
	}
	return out, len(gb.Open) + len(gb.Closed), nil
}

// viewObservations lists the believed observations first (the least fresh
// first: they are due soonest), then the others, newest support first.
func (s *session) viewObservations() ([]pyjson.Value, int, error) {
	if !s.model.governsKnowledge() {
		return []pyjson.Value{}, 0, nil
	}
	b, err := s.book()
	if err != nil {
		return nil, 0, err
	}
	all := b.Observations()
	type ranked struct {
		current bool
		last    string
		id      string
		v       pyjson.Value
	}
	rs := make([]ranked, len(all))
	for i, o := range all {
		rs[i] = ranked{o.Status.Current(), isoTime(o.LastSupported), o.ID, observationSummary(o, s.now)}
	}
	slices.SortFunc(rs, func(a, b ranked) int {
		if a.current != b.current {
			if a.current {
				return -1
			}
			return 1
		}
		return cmp.Or(strings.Compare(b.last, a.last), strings.Compare(a.id, b.id))
	})
	out := []pyjson.Value{}
	for _, r := range rs[:min(viewObservations, len(rs))] {
		out = append(out, r.v)
	}
	return out, len(all), nil
}

// A history is what view reads of the journal, in one pass: the contexts
// consulted (the most recent first, distinct), the reports per day, the
// newest events, and every report's context (reportContexts').
type history struct {
	reports       []reportContext
	contexts      []consulted
	contextsTotal int
	perDay        map[string]*[4]int // reports, successes, partials, failures
	events        []pyjson.Value
	eventsTotal   int
}

type consulted struct {
	text, now string
	seq       int64
}

func (s *session) history(since time.Time) (*history, error) {
	h := &history{perDay: map[string]*[4]int{}}
	j, ok, err := s.ws.OpenJournal()
	if err != nil || !ok {
		return h, err
	}
	defer j.Close()
	var all []consulted
	var rc reportContexter
	sinceISO := ""
	if !since.IsZero() {
		sinceISO = isoTime(since)
	}
	for {
		ev, _, ok := j.Next()
		if !ok {
			break
		}
		if r, ok := rc.next(ev); ok { // every report's context, whatever --since says
			h.reports = append(h.reports, r)
		}
		if sinceISO != "" && ev.Now < sinceISO {
			continue
		}
		h.eventsTotal++
		switch ev.Op {
		case "consult":
			all = append(all, consulted{text: strField(ev.Args, "context"), now: ev.Now, seq: ev.Seq})
		case "report":
			day := runePrefix(ev.Now, 10)
			d := h.perDay[day]
			if d == nil {
				d = &[4]int{}
				h.perDay[day] = d
			}
			d[0]++
			switch orDefault(strings.ToLower(strField(ev.Input, "success")), "neutral") {
			case "success":
				d[1]++
			case "partial":
				d[2]++
			case "failure":
				d[3]++
			}
		}
		h.events = append(h.events, viewEvent(ev.Raw(), s.declarations()))
		if len(h.events) > 2*viewEvents {
			h.events = slices.Clone(h.events[len(h.events)-viewEvents:])
		}
	}
	if err := j.Err(); err != nil {
		return nil, corrupt(err, relJournal)
	}
	h.events = newestFirst(h.events[max(0, len(h.events)-viewEvents):])
	seen := map[string]bool{}
	for i := len(all) - 1; i >= 0; i-- {
		c := all[i]
		if strings.TrimSpace(c.text) == "" || seen[c.text] {
			continue
		}
		seen[c.text] = true
		h.contextsTotal++
		if len(h.contexts) < viewContexts {
			h.contexts = append(h.contexts, c)
		}
	}
	return h, nil
}

// days lists the reports per day, oldest first.
func (h *history) days() []pyjson.Value {
	keys := make([]string, 0, len(h.perDay))
	for k := range h.perDay {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := []pyjson.Value{}
	for _, k := range keys {
		d := h.perDay[k]
		out = append(out, pyjson.Obj(pyjson.KV("day", k), pyjson.KV("reports", d[0]), pyjson.KV("successes", d[1]),
			pyjson.KV("partials", d[2]), pyjson.KV("failures", d[3])))
	}
	return out
}

// viewEvent is one journal event as the page lists it: what it asked and
// what it changed, with what it names (a capability, a goal, an
// observation, an artifact) for the page to link to its entry.
func viewEvent(ev pyjson.Value, decls map[string]policy.Declaration) pyjson.Value {
	args, _ := ev.Get("args")
	in, _ := ev.Get("input")
	var target []pyjson.Member
	switch op := strField(ev, "op"); {
	case op == "report":
		target = append(target, pyjson.KV("capability", strField(in, "action")))
		if g := strField(in, "goal_id"); g != "" {
			target = append(target, pyjson.KV("goal", g))
		}
	case strings.HasPrefix(op, "goal ") && strField(args, "id") != "":
		target = append(target, pyjson.KV("goal", strField(args, "id")))
	case op == "confirm" || op == "contradict" || op == "retire":
		target = append(target, pyjson.KV("observation", strField(args, "id")))
	case op == "consult":
		target = append(target, pyjson.KV("context", strField(args, "context")))
	case op == "reflect":
		target = append(target, pyjson.KV("reflect", orDefault(strField(in, "type"), "post_task")))
		if a := strField(in, "artifact_id"); a != "" {
			target = append(target, pyjson.KV("artifact", a))
		}
	}
	seq, _ := ev.Get("seq")
	return pyjson.Obj(pyjson.KV("seq", seq), pyjson.KV("now", strField(ev, "now")), pyjson.KV("op", strField(ev, "op")),
		pyjson.KV("what", summarize(ev, decls)), pyjson.KV("changed", changed(ev)), pyjson.KV("links", pyjson.ObjectValue(target)))
}

// viewOutput is the answer of view.
var viewOutput = []OutputField{
	{Name: "bytes", Type: TypeInt, Always: true, Doc: "the page's size in bytes"},
	{Name: "shown", Type: TypeObject, Always: true, Doc: "what the page shows, counted"},
	{Name: "html", Type: TypeString, Doc: "with inline (always through a tool): the page itself"},
	{Name: "path", Type: TypeString, Doc: "the file the page was written to"},
}
