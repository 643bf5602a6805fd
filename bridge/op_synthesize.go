package bridge

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/unified-cognitive-substrate/ucs/goal"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/knowledge"
	"github.com/unified-cognitive-substrate/ucs/outcome"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

var synthesisPrompts = pyjson.Obj(
	pyjson.KV("patterns_emerging", "What themes recur across the action log? What keeps happening?"),
	pyjson.KV("judgment_shifts", "Has your assessment of anything changed? What do you believe now that you didn't before?"),
	pyjson.KV("resource_review", "Is time being spent where value is generated? See resource_allocation."),
	pyjson.KV("whats_working", "Which paths, tools, or approaches are producing reliable results?"),
	pyjson.KV("whats_not", "Which are underperforming or causing friction?"),
	pyjson.KV("recommendations", "Based on all of this: what should change?"),
	pyjson.KV("open_questions", "What don't you know that you need to know?"),
	pyjson.KV("methodology_updates", "Does the methodology need updating based on this period's experience?"),
)

var synthesizeSpec = Spec{
	Output:  synthesizeOutput,
	Name:    "synthesize",
	Summary: "Gather the raw material of a periodic synthesis",
	Long: `What the agent did since the last synthesis and how it went: action
allocation, PP trend, misalignments, stale artifacts, recent methodology, and
the prompts of a synthesis, which the agent writes itself (reflect type
synthesis).`,
	Example: "ucs synthesize\nucs synthesize --since 7d\nucs synthesize --since 2026-11-01",
	Fields: []field.Field{{Name: "since", Type: field.String, Flag: true,
		Doc: "the period's start: a date (2026-11-01), an RFC 3339 time, or a span back from now (7d, 36h); default: the last synthesis, else today"}},
	check: func(c Call) error {
		if v := c.Args.StrOf("since"); v != "" {
			if _, err := parseSince(v, time.Unix(0, 0)); err != nil {
				return err
			}
		}
		return nil
	},
	run: opSynthesize,
}

// parseSince reads a period's start: a date, an RFC 3339 time, or a span
// back from now (a Go duration, or a number of days: 7d).
func parseSince(v string, now time.Time) (time.Time, error) {
	if t, err := time.Parse("2006-01-02", v); err == nil {
		return t.UTC(), nil
	}
	if t, err := ParseNow(v); err == nil {
		return t, nil
	}
	if days, ok := strings.CutSuffix(v, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n >= 0 {
			return now.AddDate(0, 0, -n), nil
		}
	}
	if d, err := time.ParseDuration(v); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, badInput(fault.CodeInvalidValue, "give a date (2026-11-01), an RFC 3339 time, or a span such as 7d or 36h",
		"--since %q is neither a date, a time nor a span", v)
}

// opSynthesize gathers the raw material of a periodic synthesis: what the
// agent did since the last one, how it went, what is unexplained or
// misaligned. The agent writes the synthesis itself (reflect type synthesis).
func opSynthesize(s *session, c Call) (pyjson.Value, error) {
	e := s.engine
	since := s.meta.LastSynthesisDate
	if v := c.Args.StrOf("since"); v != "" {
		t, err := parseSince(v, s.now)
		if err != nil {
			return pyjson.Value{}, err
		}
		since = isoTime(t)
	} else if since == "" {
		// Today at 00:00:00, keeping the sub-second part as the reference's
		// datetime.replace(hour=0, minute=0, second=0) does.
		y, mo, d := s.now.Date()
		since = isoTime(time.Date(y, mo, d, 0, 0, 0, s.now.Nanosecond(), time.UTC))
	}
	all, err := s.list(relActionLog)
	if err != nil {
		return pyjson.Value{}, err
	}
	var actions []pyjson.Value
	for _, a := range all {
		if a.StrOf("timestamp") >= since {
			actions = append(actions, a)
		}
	}

	type alloc struct {
		action string
		count  int
		rate   []pyjson.Member
	}
	var order []*alloc
	byAction := map[string]*alloc{}
	for _, a := range actions {
		name := a.StrOf("action")
		if _, ok := a.Get("action"); !ok {
			name = "unknown"
		}
		al := byAction[name]
		if al == nil {
			al = &alloc{action: name, rate: []pyjson.Member{
				pyjson.KV(outcome.Success.String(), 0), pyjson.KV(outcome.Partial.String(), 0),
				pyjson.KV(outcome.Failure.String(), 0), pyjson.KV(outcome.Neutral.String(), 0)}}
			byAction[name] = al
			order = append(order, al)
		}
		al.count++
		word := a.StrOf("success") // as spelled: an odd word gets a count of its own
		if _, ok := a.Get("success"); !ok {
			word = outcome.Neutral.String()
		}
		al.rate = bump(al.rate, word)
	}
	slices.SortStableFunc(order, func(a, b *alloc) int { return b.count - a.count })
	allocation := []pyjson.Value{}
	for _, al := range order {
		allocation = append(allocation, pyjson.Obj(
			pyjson.KV("action", al.action),
			pyjson.KV("count", al.count),
			pyjson.KV("pct", round(float64(al.count)/float64(max(len(actions), 1))*100, 1)),
			pyjson.KV("success_rate", pyjson.ObjectValue(al.rate)),
		))
	}

	recent, err := s.window(relMethodology, 20)
	if err != nil {
		return pyjson.Value{}, err
	}
	recentOut := summaries(recent)
	snaps, err := s.window(relPPHistory, 5)
	if err != nil {
		return pyjson.Value{}, err
	}
	trend, err := s.ppTrend()
	if err != nil {
		return pyjson.Value{}, err
	}
	wormholes, err := s.enrich(torusfield.KindWormhole, 5)
	if err != nil {
		return pyjson.Value{}, err
	}
	unannotated, err := s.unannotated()
	if err != nil {
		return pyjson.Value{}, err
	}
	overrides, err := s.window(relOverrides, overridesWindow)
	if err != nil {
		return pyjson.Value{}, err
	}
	misalignments := []pyjson.Value{}
	for _, al := range order[:min(5, len(order))] {
		hits, err := s.methodologyByCaps(knowledge.Query{Capabilities: []string{al.action},
			Now: s.now, DecayRate: temporalDecayRate, StructuralWeight: structuralWeight, Max: 1})
		if err != nil {
			return pyjson.Value{}, err
		}
		if len(hits) == 0 {
			misalignments = append(misalignments, pyjson.Obj(
				pyjson.KV("type", "high_traffic_no_methodology"),
				pyjson.KV("action", al.action),
				pyjson.KV("count", al.count),
				pyjson.KV("message", "'"+al.action+"' used "+itoa(al.count)+" times but has no methodology entry."),
			))
		}
	}
	stale := []pyjson.Value{}
	for _, a := range e.Artifacts.Stale(e.Grid.T, torusfield.StaleAfter) {
		stale = append(stale, pyjson.Obj(
			pyjson.KV("id", a.ID), pyjson.KV("kind", a.Kind), pyjson.KV("score", round(a.Score, 4)),
			pyjson.KV("last_detected_t", a.LastDetectedT()), pyjson.KV("age_steps", e.Grid.T-a.LastDetectedT()),
		))
	}
	data := pyjson.Obj(
		pyjson.KV("period", pyjson.Obj(pyjson.KV("since", since), pyjson.KV("until", isoTime(s.now)))),
		pyjson.KV("total_actions", len(actions)),
		pyjson.KV("resource_allocation", allocation),
		pyjson.KV("pp_health", round(e.PP.Health(), 4)),
		pyjson.KV("pp_trend", trend),
		pyjson.KV("pp_snapshots", snaps),
		pyjson.KV("artifact_summary", pyjson.Obj(
			pyjson.KV("total", e.Artifacts.Len()),
			pyjson.KV("wormholes", e.Artifacts.CountKind(torusfield.KindWormhole)),
			pyjson.KV("attractors", e.Artifacts.CountKind(torusfield.KindAttractor)),
			pyjson.KV("resonances", e.Artifacts.CountKind(torusfield.KindResonance)),
			pyjson.KV("unannotated", len(unannotated)),
		)),
		pyjson.KV("top_wormholes", wormholes),
		pyjson.KV("recent_methodology", recentOut),
		pyjson.KV("policy_overrides", len(overrides)),
		pyjson.KV("override_summary", summarizeOverrides(overrides)),
		pyjson.KV("misalignments", misalignments),
		pyjson.KV("stale_artifacts", stale),
	)
	// Goals closed in the period, when the workspace has goals.
	if gb, err := s.goals(); err != nil {
		return pyjson.Value{}, err
	} else if !gb.Empty() {
		closed := []pyjson.Value{}
		counts := map[string]int{}
		for _, g := range gb.All() {
			if g.Closed != "" && g.Closed >= since {
				closed = append(closed, pyjson.Obj(pyjson.KV("id", g.ID), pyjson.KV("content", g.Content),
					pyjson.KV("state", g.State), pyjson.KV("closed", g.Closed), pyjson.KV("retries", g.Retries)))
				counts[g.State]++
			}
		}
		data = data.With("goals", pyjson.Obj(pyjson.KV("completed", counts[goal.Completed]), pyjson.KV("failed", counts[goal.Failed]),
			pyjson.KV("closed", closed)))
	}
	// What the agent believes that needs a decision, in a v4 workspace.
	if s.model.governsKnowledge() {
		obs, err := s.observationReview(since)
		if err != nil {
			return pyjson.Value{}, err
		}
		data = data.With("observations", obs)
	}
	return pyjson.Obj(
		pyjson.KV("synthesis_data", data),
		pyjson.KV("synthesis_prompts", synthesisPrompts),
	), nil
}

// bump adds one to a counter member, appending it when new.
func bump(ms []pyjson.Member, key string) []pyjson.Member {
	for i := range ms {
		if ms[i].Key == key {
			n, _ := ms[i].Value.Int()
			ms[i].Value = pyjson.IntValue(n + 1)
			return ms
		}
	}
	return append(ms, pyjson.KV(key, 1))
}

// summarizeOverrides counts the jumps by from → to, most frequent first,
// at most ten.
func summarizeOverrides(overrides []pyjson.Value) []pyjson.Value {
	var order []string
	counts := map[string]int{}
	for _, o := range overrides {
		from, to := o.StrOf("from"), o.StrOf("to")
		if _, ok := o.Get("from"); !ok {
			from = "?"
		}
		if _, ok := o.Get("to"); !ok {
			to = "?"
		}
		key := from + " → " + to
		if counts[key] == 0 {
			order = append(order, key)
		}
		counts[key]++
	}
	slices.SortStableFunc(order, func(a, b string) int { return counts[b] - counts[a] })
	out := []pyjson.Value{}
	for _, k := range order[:min(10, len(order))] {
		out = append(out, pyjson.Obj(pyjson.KV("jump", k), pyjson.KV("count", counts[k])))
	}
	return out
}

// synthesizeOutput is the answer of synthesize.
var synthesizeOutput = []field.Output{
	{Name: "synthesis_data", Type: field.Object, Always: true, Doc: "the period's actions, outcomes, PP trend and artifacts"},
	{Name: "synthesis_prompts", Type: field.Object, Always: true, Doc: "the questions a synthesis answers"},
}
