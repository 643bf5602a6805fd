package bridge

import (
	"fmt"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// workspaceFormat marks a workspace in the ucs layout.
const workspaceFormat = "ucs.workspace.v1"

// meta is what the bridge keeps beside the engine in the state file's "ucs"
// member: the commit's sequence number, the reference's counters, how many
// lines each data file holds, and the chain hash over those lines.
type meta struct {
	Seq               int64
	AgentID           string
	ReportCounter     int
	LastPhiT          int
	LastSynthesisDate string // "" for none
	Counts            map[string]int
	DataHash          string
}

// counted files, in the order the meta lists them.
var countedFiles = []string{relActionLog, relMethodology, relDeadEnds, relJudgment, relAnnotations, relOverrides, relPPHistory}

func (m *meta) value() pyjson.Value {
	counts := make([]pyjson.Member, 0, len(countedFiles))
	for _, f := range countedFiles {
		counts = append(counts, pyjson.KV(countName(f), m.Counts[f]))
	}
	var last any
	if m.LastSynthesisDate != "" {
		last = m.LastSynthesisDate
	}
	return pyjson.Obj(
		pyjson.KV("format", workspaceFormat),
		pyjson.KV("seq", m.Seq),
		pyjson.KV("agent_id", m.AgentID),
		pyjson.KV("report_counter", m.ReportCounter),
		pyjson.KV("last_phi_t", m.LastPhiT),
		pyjson.KV("last_synthesis_date", last),
		pyjson.KV("counts", counts),
		pyjson.KV("data_hash", m.DataHash),
	)
}

// countName is the key of a file in meta.counts: its base name without
// extension.
func countName(rel string) string {
	base := rel[len(relStateDir)+1:]
	return base[:len(base)-len(".jsonl")]
}

func parseMeta(v pyjson.Value) (meta, error) {
	m := meta{Counts: map[string]int{}}
	if f, _ := v.Get("format"); f.Str() != workspaceFormat {
		return m, fmt.Errorf("ucs.format: want %q", workspaceFormat)
	}
	ints := []struct {
		key string
		dst *int
	}{{"report_counter", &m.ReportCounter}, {"last_phi_t", &m.LastPhiT}}
	for _, f := range ints {
		x, _ := v.Get(f.key)
		i, ok := x.Int()
		if !ok || i < 0 {
			return m, fmt.Errorf("ucs.%s: must be a non-negative integer", f.key)
		}
		*f.dst = int(i)
	}
	seq, _ := v.Get("seq")
	s, ok := seq.Int()
	if !ok || s < 0 {
		return m, fmt.Errorf("ucs.seq: must be a non-negative integer")
	}
	m.Seq = s
	agent, _ := v.Get("agent_id")
	m.AgentID = agent.Str()
	if last, _ := v.Get("last_synthesis_date"); last.Kind() == pyjson.String {
		m.LastSynthesisDate = last.Str()
	} else if !last.IsNull() {
		return m, fmt.Errorf("ucs.last_synthesis_date: must be a date or null")
	}
	counts, _ := v.Get("counts")
	for _, f := range countedFiles {
		x, _ := counts.Get(countName(f))
		n, ok := x.Int()
		if !ok || n < 0 {
			return m, fmt.Errorf("ucs.counts.%s: must be a non-negative integer", countName(f))
		}
		m.Counts[f] = int(n)
	}
	h, _ := v.Get("data_hash")
	m.DataHash = h.Str()
	return m, nil
}
