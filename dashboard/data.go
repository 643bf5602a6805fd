package dashboard

import (
	"cmp"
	"slices"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// What the page shows at most of each kind (the rest are counted): on a
// workspace of 100,000 entries the page stays a few hundred KB. The
// bridge reads no more than these.
const (
	MaxContexts     = 50  // consulted contexts, the most recent first, each with consult's advice
	MaxEvents       = 200 // the journal's newest events
	MaxEntries      = 50  // dead ends, annotations: the newest
	MaxObservations = 100 // observations: the believed first, then the newest
	MaxGoalsClosed  = 50  // closed goals: the newest
	MaxPP           = 500 // PP snapshots: the newest
	MaxTasks        = 20  // tasks' chains (show's), the newest first
)

// Data is what the page draws, gathered by the bridge: every number in
// it is ucs's. The values it holds as pyjson are the bridge's own answers
// (a goal, a chain, an observation as their operations give them), which
// the page shows as they are.
type Data struct {
	Generated string // the call's time, ISO 8601
	Since     string // the history's first time, ISO 8601; "" for all of it

	Workspace Workspace
	Tasks     []pyjson.Value // each recent task's chain, as show gives it
	Graph     Graph
	History   *History
	Precision any // the advisory precision, as status gives it (nil for v2)
	PP        []pyjson.Value
	Fields    Fields

	Goals            []pyjson.Value // open goals, then the newest closed
	GoalsTotal       int
	Observations     []Observation  // every one: the page orders and cuts them
	DeadEnds         []pyjson.Value // the newest, oldest first (as the log reads)
	DeadEndsTotal    int
	Annotations      []pyjson.Value // likewise
	AnnotationsTotal int
}

// Workspace is the page's heading: whose workspace, where its engine is.
type Workspace struct {
	AgentID          string
	Model            string
	Seq              int64
	T                int
	Cursor           string
	PPHealth         float64
	ReportsTotal     int
	MethodologyTotal int
	JudgmentTotal    int
}

// Fields are the torus's fields, drawn as heat maps: each field's cells,
// theta-major.
type Fields struct {
	ThetaBins, PhiBins int
	Fields             []Field // in the order the page lists them
}

// A Field is one of the torus's fields by name.
type Field struct {
	Name  string
	Cells []float64
}

// An Observation is one observation of the book, with what the page
// orders them by.
type Observation struct {
	Current       bool   // believed now
	LastSupported string // ISO 8601
	ID            string
	Summary       pyjson.Value // as the observation operations give it
}

// Value is the page's data, the JSON document Render embeds, in the
// member order the page's script and the tests rely on.
func (d *Data) Value() pyjson.Value {
	var since any
	if d.Since != "" {
		since = d.Since
	}
	w := d.Workspace
	return pyjson.Obj(
		pyjson.KV("generated", d.Generated),
		pyjson.KV("since", since),
		pyjson.KV("workspace", pyjson.Obj(pyjson.KV("agent_id", w.AgentID), pyjson.KV("model", w.Model),
			pyjson.KV("seq", w.Seq), pyjson.KV("t", w.T), pyjson.KV("cursor", w.Cursor),
			pyjson.KV("pp_health", pyjson.Round(w.PPHealth, 4)), pyjson.KV("reports_total", w.ReportsTotal),
			pyjson.KV("methodology_total", w.MethodologyTotal), pyjson.KV("judgment_total", w.JudgmentTotal))),
		pyjson.KV("tasks", d.Tasks),
		pyjson.KV("graph", d.Graph.value()),
		pyjson.KV("contexts", d.History.contextValues()),
		pyjson.KV("contexts_total", d.History.ContextsTotal),
		pyjson.KV("advisory_precision", d.Precision),
		pyjson.KV("days", d.History.days()),
		pyjson.KV("pp", d.pp()),
		pyjson.KV("fields", d.Fields.value()),
		pyjson.KV("goals", d.Goals),
		pyjson.KV("goals_total", d.GoalsTotal),
		pyjson.KV("observations", d.observations()),
		pyjson.KV("observations_total", len(d.Observations)),
		pyjson.KV("dead_ends", newestFirst(d.DeadEnds)),
		pyjson.KV("dead_ends_total", d.DeadEndsTotal),
		pyjson.KV("annotations", newestFirst(d.Annotations)),
		pyjson.KV("annotations_total", d.AnnotationsTotal),
		pyjson.KV("events", d.History.Events),
		pyjson.KV("events_total", d.History.EventsTotal),
	)
}

// Shown counts what the page shows of each kind, and of how many: view's
// answer.
func (d *Data) Shown() pyjson.Value {
	h := d.History
	nObs := min(MaxObservations, len(d.Observations))
	return pyjson.Obj(
		pyjson.KV("nodes", len(d.Graph.Nodes)), pyjson.KV("edges", d.Graph.edges()),
		pyjson.KV("tasks", len(d.Tasks)),
		pyjson.KV("contexts", len(h.Contexts)), pyjson.KV("contexts_total", h.ContextsTotal),
		pyjson.KV("events", len(h.Events)), pyjson.KV("events_total", h.EventsTotal),
		pyjson.KV("observations", nObs), pyjson.KV("observations_total", len(d.Observations)),
		pyjson.KV("goals", len(d.Goals)), pyjson.KV("goals_total", d.GoalsTotal),
		pyjson.KV("dead_ends", len(d.DeadEnds)), pyjson.KV("dead_ends_total", d.DeadEndsTotal),
		pyjson.KV("annotations", len(d.Annotations)), pyjson.KV("annotations_total", d.AnnotationsTotal),
	)
}

// Page is the page with d in it.
func (d *Data) Page() []byte { return Render(pyjson.AppendCompact(nil, d.Value())) }

// pp is the PP snapshots since the history's start, each as the curve
// draws it.
func (d *Data) pp() []pyjson.Value {
	out := []pyjson.Value{}
	for _, p := range d.PP {
		if ts := p.StrOf("timestamp"); d.Since == "" || ts >= d.Since {
			t, _ := p.Get("t")
			h, _ := p.Get("health")
			out = append(out, pyjson.Obj(pyjson.KV("t", t), pyjson.KV("timestamp", ts), pyjson.KV("health", h)))
		}
	}
	return out
}

func (f Fields) value() pyjson.Value {
	ms := []pyjson.Member{pyjson.KV("theta_bins", f.ThetaBins), pyjson.KV("phi_bins", f.PhiBins)}
	for _, fd := range f.Fields {
		cells := make([]pyjson.Value, 0, len(fd.Cells))
		for _, x := range fd.Cells {
			cells = append(cells, pyjson.FloatValue(pyjson.Round(x, 4)))
		}
		ms = append(ms, pyjson.KV(fd.Name, cells))
	}
	return pyjson.ObjectValue(ms)
}

// observations lists the believed observations first (the least fresh
// first: they are due soonest), then the others, newest support first.
func (d *Data) observations() []pyjson.Value {
	rs := slices.Clone(d.Observations)
	slices.SortFunc(rs, func(a, b Observation) int {
		if a.Current != b.Current {
			if a.Current {
				return -1
			}
			return 1
		}
		return cmp.Or(strings.Compare(b.LastSupported, a.LastSupported), strings.Compare(a.ID, b.ID))
	})
	out := []pyjson.Value{}
	for _, r := range rs[:min(MaxObservations, len(rs))] {
		out = append(out, r.Summary)
	}
	return out
}

func newestFirst(vs []pyjson.Value) []pyjson.Value {
	out := slices.Clone(vs)
	slices.Reverse(out)
	if out == nil {
		out = []pyjson.Value{}
	}
	return out
}
