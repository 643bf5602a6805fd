package bridge

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

var resumeSpec = Spec{
	Output:  resumeOutput,
	Name:    "resume",
	Summary: "Session-start briefing: state, health trend, open questions, recommendations",
	Long: `Where the agent is (t, cursor, PP health and trend), its top artifacts, the
open questions of its working state, its recent methodology and what to do
next.`,
	Example: "ucs resume",
	run:     opResume,
}

// opResume briefs the agent at the start of a session: where it is, how
// healthy, what it learned, what is open, and what to do first.
func opResume(s *session, _ Call) (pyjson.Value, error) {
	e := s.engine
	var kinds [3][]pyjson.Value
	for i, k := range []struct {
		kind  string
		limit int
	}{{torusfield.KindWormhole, 5}, {torusfield.KindAttractor, 3}, {torusfield.KindResonance, 3}} {
		var err error
		if kinds[i], err = s.enrich(k.kind, k.limit); err != nil {
			return pyjson.Value{}, err
		}
	}
	unannotated, err := s.unannotated()
	if err != nil {
		return pyjson.Value{}, err
	}
	openQ, err := openQuestions(s.ws, openQuestionsResume, false)
	if err != nil {
		return pyjson.Value{}, err
	}
	recent, err := s.window(relMethodology, 5)
	if err != nil {
		return pyjson.Value{}, err
	}
	recentOut := summaries(recent)
	trend, err := s.ppTrend()
	if err != nil {
		return pyjson.Value{}, err
	}
	var lastSynth any
	if text := lastSynthesis(s.ws); text != "" {
		lastSynth = runePrefix(text, 300)
	}
	recs := []string{}
	if len(unannotated) > 0 {
		recs = append(recs, "Annotate "+itoa(len(unannotated))+" unannotated artifact(s) — their quantitative signal lacks qualitative explanation.")
	}
	if d := s.meta.LastSynthesisDate; d != "" {
		if days, ok := knowledge.DaysSince(s.now, d); ok && days > 7 {
			recs = append(recs, "Synthesis overdue — last was "+itoa(days)+" days ago.")
		}
	} else {
		recs = append(recs, "No synthesis has been performed yet. Consider running one.")
	}
	if trend == "declining" {
		recs = append(recs, "PP health is declining — review recent actions for efficiency.")
	}
	briefing := pyjson.Obj(
		pyjson.KV("t", e.Grid.T),
		pyjson.KV("cursor", e.Cursor.Node),
		pyjson.KV("pp_health", round(e.PP.Health(), 4)),
		pyjson.KV("pp", ppRounded(e.PP)),
		pyjson.KV("pp_trend", trend),
		pyjson.KV("graph", pyjson.Obj(pyjson.KV("nodes", len(e.Graph.Nodes)), pyjson.KV("edges", len(e.Graph.Edges)))),
		pyjson.KV("artifact_count", e.Artifacts.Len()),
		pyjson.KV("artifact_breakdown", breakdown(e)),
		pyjson.KV("top_wormholes", kinds[0]),
		pyjson.KV("top_attractors", kinds[1]),
		pyjson.KV("top_resonances", kinds[2]),
		pyjson.KV("unannotated_count", len(unannotated)),
		pyjson.KV("open_questions", openQ),
		pyjson.KV("recent_methodology", recentOut),
		pyjson.KV("last_synthesis", lastSynth),
		pyjson.KV("recommendations", recs),
	)
	// Goals, when the workspace has any (a workspace without keeps the
	// reference's answer).
	if gb, err := s.goals(); err != nil {
		return pyjson.Value{}, err
	} else if !gb.Empty() {
		active, _ := s.activeGoals()
		briefing = briefing.With("active_goals", active)
		if n := len(active.Items()); n > 0 {
			recs = append(recs, "Work towards "+itoa(n)+" active goal(s): attribute outcomes with goal_id (report) or --goal (exec).")
			briefing = briefing.With("recommendations", recs)
		}
	}
	return pyjson.Obj(pyjson.KV("status", "resumed"), pyjson.KV("session_briefing", briefing)), nil
}

func breakdown(e *torusfield.Engine) pyjson.Value {
	return pyjson.Obj(
		pyjson.KV("wormholes", e.Artifacts.CountKind(torusfield.KindWormhole)),
		pyjson.KV("attractors", e.Artifacts.CountKind(torusfield.KindAttractor)),
		pyjson.KV("resonances", e.Artifacts.CountKind(torusfield.KindResonance)),
	)
}

// ppTrend compares the health of the first and last of the ten newest PP
// snapshots: improving or declining past ±0.05, else stable.
func (s *session) ppTrend() (string, error) {
	snaps, err := s.window(relPPHistory, 10)
	if err != nil {
		return "", err
	}
	if len(snaps) < 2 {
		return "insufficient_data", nil
	}
	first, _ := snaps[0].GetOr("health", pyjson.IntValue(0)).Float()
	last, _ := snaps[len(snaps)-1].GetOr("health", pyjson.IntValue(0)).Float()
	switch delta := last - first; {
	case delta > 0.05:
		return "improving", nil
	case delta < -0.05:
		return "declining", nil
	}
	return "stable", nil
}

// lastSynthesis returns the newest synthesis file's text, trimmed and cut
// to 1000 characters, or "".
func lastSynthesis(ws *workspace.Workspace) string {
	files, _ := filepath.Glob(filepath.Join(ws.Path(relSynthesisDir), "*.md"))
	if len(files) == 0 {
		return ""
	}
	slices.Sort(files)
	data, err := workspace.ReadFile(files[len(files)-1])
	if err != nil {
		return ""
	}
	return runePrefix(strings.TrimSpace(string(data)), 1000)
}

// summaries lists methodology entries as their summary and date.
func summaries(entries []pyjson.Value) []pyjson.Value {
	out := []pyjson.Value{}
	for _, m := range entries {
		out = append(out, pyjson.Obj(
			pyjson.KV("summary", m.GetOr("summary", pyjson.StringValue(""))),
			pyjson.KV("date", m.GetOr("date", pyjson.StringValue("")))))
	}
	return out
}

// resumeOutput is the answer of resume.
var resumeOutput = []field.Output{
	{Name: "status", Type: field.String, Always: true, Doc: "\"resumed\""},
	{Name: "session_briefing", Type: field.Object, Always: true, Doc: "where the agent is, its active goals, recent outcomes, and what to do first"},
}
