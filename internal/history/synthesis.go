package history

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/goal"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// Prompts are the questions a periodic synthesis answers.
var Prompts = pyjson.Obj(
	pyjson.KV("patterns_emerging", "What themes recur across the action log? What keeps happening?"),
	pyjson.KV("judgment_shifts", "Has your assessment of anything changed? What do you believe now that you didn't before?"),
	pyjson.KV("resource_review", "Is time being spent where value is generated? See resource_allocation."),
	pyjson.KV("whats_working", "Which paths, tools, or approaches are producing reliable results?"),
	pyjson.KV("whats_not", "Which are underperforming or causing friction?"),
	pyjson.KV("recommendations", "Based on all of this: what should change?"),
	pyjson.KV("open_questions", "What don't you know that you need to know?"),
	pyjson.KV("methodology_updates", "Does the methodology need updating based on this period's experience?"),
)

// A Period is the raw material of a synthesis: what the agent did from
// Since to Until and how it went, as the caller gathered it.
type Period struct {
	Since, Until string
	// Actions are the period's action-log lines; Allocations count them.
	Actions     []pyjson.Value
	Allocations []Allocation
	Engine      *torusfield.Engine
	// Trend is the PP trend (PPTrend) and Snapshots the newest PP
	// snapshots.
	Trend     string
	Snapshots []pyjson.Value
	// Wormholes are the top wormholes, enriched with their annotations.
	Wormholes   []pyjson.Value
	Unannotated int
	// Methodology are the newest methodology entries.
	Methodology []pyjson.Value
	// Overrides are the newest policy overrides.
	Overrides     []pyjson.Value
	Misalignments []pyjson.Value
	// Goals are the workspace's goals: a book without any adds nothing.
	Goals *goal.Book
}

// ReadPeriod starts the period from since to until with what it reads of
// the transaction: its actions, counted, the newest methodology entries
// and PP snapshots, and the PP trend. The caller adds the artifacts, the
// overrides and the misalignments.
func ReadPeriod(tx *workspace.Tx, e *torusfield.Engine, since, until string) (Period, error) {
	all, err := tx.List(workspace.RelActionLog)
	if err != nil {
		return Period{}, err
	}
	p := Period{Since: since, Until: until, Actions: InPeriod(all, since), Engine: e}
	p.Allocations = Allocate(p.Actions)
	if p.Methodology, err = tx.Tail(workspace.RelMethodology, 20); err != nil {
		return Period{}, err
	}
	if p.Snapshots, err = tx.Tail(workspace.RelPPHistory, 5); err != nil {
		return Period{}, err
	}
	p.Trend, err = ReadTrend(tx)
	return p, err
}

// Value is the period's synthesis_data: with goals, those closed in the
// period.
func (p Period) Value() pyjson.Value {
	e := p.Engine
	v := pyjson.Obj(
		pyjson.KV("period", pyjson.Obj(pyjson.KV("since", p.Since), pyjson.KV("until", p.Until))),
		pyjson.KV("total_actions", len(p.Actions)),
		pyjson.KV("resource_allocation", AllocationValues(p.Allocations, len(p.Actions))),
		pyjson.KV("pp_health", pyjson.Round(e.PP.Health(), 4)),
		pyjson.KV("pp_trend", p.Trend),
		pyjson.KV("pp_snapshots", p.Snapshots),
		pyjson.KV("artifact_summary", pyjson.Obj(
			pyjson.KV("total", e.Artifacts.Len()),
			pyjson.KV("wormholes", e.Artifacts.CountKind(torusfield.KindWormhole)),
			pyjson.KV("attractors", e.Artifacts.CountKind(torusfield.KindAttractor)),
			pyjson.KV("resonances", e.Artifacts.CountKind(torusfield.KindResonance)),
			pyjson.KV("unannotated", p.Unannotated),
		)),
		pyjson.KV("top_wormholes", p.Wormholes),
		pyjson.KV("recent_methodology", Summaries(p.Methodology)),
		pyjson.KV("policy_overrides", len(p.Overrides)),
		pyjson.KV("override_summary", SummarizeOverrides(p.Overrides)),
		pyjson.KV("misalignments", p.Misalignments),
		pyjson.KV("stale_artifacts", StaleArtifacts(e)),
	)
	if p.Goals != nil && !p.Goals.Empty() {
		v = v.With("goals", ClosedGoals(p.Goals.All(), p.Since))
	}
	return v
}

// StaleArtifacts lists the artifacts not detected for torusfield.StaleAfter
// steps, with their age.
func StaleArtifacts(e *torusfield.Engine) []pyjson.Value {
	stale := []pyjson.Value{}
	for _, a := range e.Artifacts.Stale(e.Grid.T, torusfield.StaleAfter) {
		stale = append(stale, pyjson.Obj(
			pyjson.KV("id", a.ID), pyjson.KV("kind", a.Kind), pyjson.KV("score", pyjson.Round(a.Score, 4)),
			pyjson.KV("last_detected_t", a.LastDetectedT()), pyjson.KV("age_steps", e.Grid.T-a.LastDetectedT()),
		))
	}
	return stale
}

// ClosedGoals are the goals closed at or after since, with how many were
// completed and how many failed.
func ClosedGoals(goals []*goal.Goal, since string) pyjson.Value {
	closed := []pyjson.Value{}
	counts := map[string]int{}
	for _, g := range goals {
		if g.Closed != "" && g.Closed >= since {
			closed = append(closed, pyjson.Obj(pyjson.KV("id", g.ID), pyjson.KV("content", g.Content),
				pyjson.KV("state", g.State), pyjson.KV("closed", g.Closed), pyjson.KV("retries", g.Retries)))
			counts[g.State]++
		}
	}
	return pyjson.Obj(pyjson.KV("completed", counts[goal.Completed]), pyjson.KV("failed", counts[goal.Failed]),
		pyjson.KV("closed", closed))
}

// Summaries lists methodology entries as their summary and date.
func Summaries(entries []pyjson.Value) []pyjson.Value {
	out := []pyjson.Value{}
	for _, m := range entries {
		out = append(out, pyjson.Obj(
			pyjson.KV("summary", m.GetOr("summary", pyjson.StringValue(""))),
			pyjson.KV("date", m.GetOr("date", pyjson.StringValue("")))))
	}
	return out
}

// LastSynthesis returns the newest synthesis file's text, trimmed, or "".
func LastSynthesis(ws *workspace.Workspace) string {
	files, _ := filepath.Glob(filepath.Join(ws.Path(workspace.RelSynthesisDir), "*.md"))
	if len(files) == 0 {
		return ""
	}
	slices.Sort(files)
	data, err := workspace.ReadFile(files[len(files)-1])
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}
