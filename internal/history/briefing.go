package history

import (
	"strconv"
	"time"

	"github.com/unified-cognitive-substrate/ucs/goal"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

// A Briefing is what resume tells the agent at the start of a session, as
// the caller gathered it.
type Briefing struct {
	Engine *torusfield.Engine
	Trend  string
	// Wormholes, Attractors and Resonances are the top artifacts of each
	// kind, enriched with their annotations.
	Wormholes, Attractors, Resonances []pyjson.Value
	Unannotated                       int
	OpenQuestions                     []string
	// Methodology are the newest methodology entries.
	Methodology []pyjson.Value
	// LastSynthesis is the start of the newest synthesis; "" for none.
	LastSynthesis   string
	Recommendations []string
	// Goals are the workspace's goals: a book without any keeps the
	// reference's answer.
	Goals *goal.Book
}

// Value is the briefing's session_briefing: with goals, the active ones,
// and what to do about them among the recommendations.
func (b Briefing) Value() pyjson.Value {
	e := b.Engine
	var last any
	if b.LastSynthesis != "" {
		last = b.LastSynthesis
	}
	v := pyjson.Obj(
		pyjson.KV("t", e.Grid.T),
		pyjson.KV("cursor", e.Cursor.Node),
		pyjson.KV("pp_health", pyjson.Round(e.PP.Health(), 4)),
		pyjson.KV("pp", e.PP.Rounded()),
		pyjson.KV("pp_trend", b.Trend),
		pyjson.KV("graph", pyjson.Obj(pyjson.KV("nodes", len(e.Graph.Nodes)), pyjson.KV("edges", len(e.Graph.Edges)))),
		pyjson.KV("artifact_count", e.Artifacts.Len()),
		pyjson.KV("artifact_breakdown", breakdown(e)),
		pyjson.KV("top_wormholes", b.Wormholes),
		pyjson.KV("top_attractors", b.Attractors),
		pyjson.KV("top_resonances", b.Resonances),
		pyjson.KV("unannotated_count", b.Unannotated),
		pyjson.KV("open_questions", b.OpenQuestions),
		pyjson.KV("recent_methodology", Summaries(b.Methodology)),
		pyjson.KV("last_synthesis", last),
		pyjson.KV("recommendations", b.Recommendations),
	)
	if b.Goals == nil || b.Goals.Empty() {
		return v
	}
	active := b.Goals.Active()
	v = v.With("active_goals", active)
	if n := len(active.Items()); n > 0 {
		v = v.With("recommendations", append(b.Recommendations, GoalsRecommendation(n)))
	}
	return v
}

// Recommendations are what to do first: annotate what is unannotated, run
// a synthesis when none ran or the last (lastSynthesis, a date) is more
// than a week old at now, and review recent actions when PP health
// declines.
func Recommendations(unannotated int, lastSynthesis string, now time.Time, trend string) []string {
	recs := []string{}
	if unannotated > 0 {
		recs = append(recs, "Annotate "+strconv.Itoa(unannotated)+" unannotated artifact(s) — their quantitative signal lacks qualitative explanation.")
	}
	if lastSynthesis != "" {
		if days, ok := knowledge.DaysSince(now, lastSynthesis); ok && days > 7 {
			recs = append(recs, "Synthesis overdue — last was "+strconv.Itoa(days)+" days ago.")
		}
	} else {
		recs = append(recs, "No synthesis has been performed yet. Consider running one.")
	}
	if trend == TrendDeclining {
		recs = append(recs, "PP health is declining — review recent actions for efficiency.")
	}
	return recs
}

// GoalsRecommendation is what to do about n active goals.
func GoalsRecommendation(n int) string {
	return "Work towards " + strconv.Itoa(n) + " active goal(s): attribute outcomes with goal_id (report) or --goal (exec)."
}

func breakdown(e *torusfield.Engine) pyjson.Value {
	return pyjson.Obj(
		pyjson.KV("wormholes", e.Artifacts.CountKind(torusfield.KindWormhole)),
		pyjson.KV("attractors", e.Artifacts.CountKind(torusfield.KindAttractor)),
		pyjson.KV("resonances", e.Artifacts.CountKind(torusfield.KindResonance)),
	)
}
