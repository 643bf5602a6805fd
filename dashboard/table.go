package dashboard

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// showWidth is the width show's table fits in: a terminal's default.
const showWidth = 80

// ShowTable renders show's answer (its JSON, as the bridge builds it) for
// people, in 80 columns: one section per part, each cell cut with "…"
// where it would not fit. It reads the answer only, so the table says
// nothing the JSON does not.
func ShowTable(v pyjson.Value) string {
	var b strings.Builder
	line := func(cells ...string) {
		b.WriteString(strings.TrimRight(strings.Join(cells, " "), " "))
		b.WriteByte('\n')
	}
	heading := func(s string) {
		b.WriteByte('\n')
		line(s)
	}
	num := func(x pyjson.Value) float64 { f, _ := x.Float(); return f }
	get := func(x pyjson.Value, key string) pyjson.Value { y, _ := x.Get(key); return y }

	line(cell("ucs show — model "+v.StrOf("model")+", t "+jsonText(get(v, "t"))+", cursor "+v.StrOf("cursor"), showWidth))

	tasks := get(v, "tasks").Items()
	heading("TASKS (" + strconv.Itoa(len(tasks)) + ", newest first): the steps learned from each task's start")
	if len(tasks) == 0 {
		line("  none yet: report actions with a context and ucs learns each task's steps")
	}
	for _, t := range tasks {
		line(cell("\""+t.StrOf("context")+"\"", showWidth))
		steps := get(t, "chain").Items()
		if len(steps) == 0 {
			line("  nothing learned from its start yet")
			continue
		}
		line(" ", cell("FROM", 13), cell("NEXT", 14), "EVIDENCE (and the alternatives there)")
		for _, st := range steps {
			at := "start"
			if x := get(st, "at"); !x.IsNull() {
				at = x.Str()
			}
			var alts []string
			for _, a := range get(st, "alternatives").Items() {
				alts = append(alts, a.StrOf("to"))
			}
			line(" ", cell(at, 13), cell(st.StrOf("to"), 14), cell(stepEvidence(get(st, "evidence")), showWidth-30))
			if len(alts) > 3 {
				alts = append(alts[:3], "and "+strconv.Itoa(len(alts)-3)+" more")
			}
			if len(alts) > 0 {
				line(" ", cell("", 28), cell("else "+strings.Join(alts, ", "), showWidth-30))
			}
		}
	}

	ts := get(v, "transitions").Items()
	heading("LEARNED TRANSITIONS (" + strconv.Itoa(len(ts)) + " of " + jsonText(get(v, "transitions_total")) + ", most evidence first)")
	if len(ts) == 0 {
		line("  none yet: report actions and ucs learns from them")
	} else {
		line(cell("FROM → TO", 28), cell("SUCCESS", 15), cell("LAST SEEN", 16), "CONTEXTS")
		marked := false
		for _, t := range ts {
			rate := outcomeCount(num(get(t, "successes")), num(get(t, "of")))
			if r := get(t, "rate"); !r.IsNull() {
				rate += " " + strconv.Itoa(int(num(r)*100+0.5)) + "%"
			}
			name := t.StrOf("from") + " → " + t.StrOf("to")
			if x := get(t, "discovered"); x.Bool() {
				name += " *"
				marked = true
			}
			last := pyjson.Prefix(strings.Replace(t.StrOf("last_seen"), "T", " ", 1), 16) // to the minute
			last = cell(orDefault(last, "-"), 16)
			var ctxs []string
			for _, c := range get(t, "contexts").Items() {
				ctxs = append(ctxs, c.Str())
			}
			line(cell(name, 28), cell(rate, 15), last, cell(orDefault(strings.Join(ctxs, "; "), "-"), showWidth-62))
		}
		if marked {
			line("  * a step the manifest lacks, learned from the agent's own successful calls")
		}
	}

	if c, ok := v.Get("context"); ok {
		ps := get(v, "suggestions").Items()
		heading(cell("SUGGESTIONS for \""+c.Str()+"\"", showWidth))
		if len(ps) == 0 {
			line("  none: no step leaves the cursor")
		} else {
			line(cell("#", 2), cell("NEXT", 22), cell("SCORE", 7), "WHY")
			for i, p := range ps {
				why := p.StrOf("why")
				if why == "" { // the reference's model: its score's parts
					cs := get(p, "components")
					why = "utility " + jsonText(get(cs, "utility")) + ", weight " + jsonText(get(cs, "weight")) + ", context " + jsonText(get(cs, "context_energy"))
				}
				line(cell(strconv.Itoa(i+1), 2), cell(p.StrOf("to"), 22), cell(jsonText(get(p, "score")), 7), cell(why, showWidth-34))
			}
		}
	}

	gs := get(v, "goals").Items()
	heading("ACTIVE GOALS (" + strconv.Itoa(len(gs)) + ")")
	if len(gs) == 0 {
		line("  none")
	}
	for _, g := range gs {
		pr := get(g, "progress")
		progress := jsonText(get(pr, "successes")) + "/" + jsonText(get(pr, "of"))
		if _, ok := pr.Get("met"); ok {
			progress = "≥ " + jsonText(get(pr, "of"))
		}
		line(cell(g.StrOf("id"), 6), cell(progress, 8), cell(g.StrOf("content"), showWidth-16))
	}

	heading("ADVISORY PRECISION (success when the top suggestion was followed, and not)")
	if p := get(v, "advisory_precision"); p.IsNull() {
		line("  the reference's model keeps no advisory record")
	} else {
		for _, k := range []struct{ key, label string }{{"followed", "followed"}, {"not_followed", "not followed"}} {
			x := get(p, k.key)
			rate := "-"
			if r := get(x, "rate"); !r.IsNull() {
				rate = strconv.Itoa(int(num(r)*100+0.5)) + "%"
			}
			line(" ", cell(k.label, 13), cell(countOf(num(get(x, "successes")), num(get(x, "reports"))), 16), rate)
		}
	}

	os := get(v, "observations_due").Items()
	heading("OBSERVATIONS DUE FOR REVALIDATION (" + jsonText(get(v, "observations_due_count")) + ")")
	if len(os) == 0 {
		line("  none")
	} else {
		line(cell("ID", 10), cell("CONF", 5), cell("FRESH", 5), "CLAIM")
		for _, o := range os {
			line(cell(o.StrOf("id"), 10), cell(jsonText(get(o, "confidence")), 5), cell(jsonText(get(o, "freshness")), 5), cell(o.StrOf("claim"), showWidth-23))
		}
	}
	return b.String()
}

// cell fits s into w columns: padded with spaces, or cut with "…". Line
// breaks become spaces.
func cell(s string, w int) string {
	s = strings.Join(strings.Fields(s), " ")
	n := utf8.RuneCountInString(s)
	if n > w {
		return pyjson.Prefix(s, w-1) + "…"
	}
	return s + strings.Repeat(" ", w-n)
}

// jsonText is a value as JSON writes it (a number, a string without its
// quotes).
func jsonText(v pyjson.Value) string {
	if v.Kind() == pyjson.String {
		return v.Str()
	}
	return string(pyjson.AppendCompact(nil, v))
}

// outcomeCount is a transition's successes of its outcomes for people:
// "9/12" when they are whole counts (v5, v2), else "w 1.5/2": a learning
// model's (v3, v4) weighted counts, where a partial counts half and a
// person's verdict more, marked as weights so no one reads them as
// times.
func outcomeCount(s, n float64) string {
	if s == math.Trunc(s) && n == math.Trunc(n) {
		return fmtCount(s) + "/" + fmtCount(n)
	}
	return "w " + fmtCount(s) + "/" + fmtCount(n)
}

// stepEvidence is a chain step's evidence for people, in whole counts:
// how often the step came next here (v5) and how its calls fared, or a
// learning model's weighted outcomes.
func stepEvidence(ev pyjson.Value) string {
	get := func(x pyjson.Value, key string) pyjson.Value { y, _ := x.Get(key); return y }
	num := func(x pyjson.Value) float64 { f, _ := x.Float(); return f }
	if o, ok := ev.Get("outcomes"); ok { // v5
		out := ""
		if next := get(ev, "next_step"); !next.IsNull() {
			out = "next " + jsonText(get(next, "times")) + " of " + jsonText(get(next, "of"))
			if t := get(next, "term"); !t.IsNull() {
				out += " (" + jsonText(t) + ")"
			}
		}
		if n := num(get(o, "successes")) + num(get(o, "failures")); n > 0 {
			out += ", ok " + jsonText(get(o, "successes")) + " of " + fmtCount(n)
		}
		return strings.TrimPrefix(out, ", ")
	}
	if all, ok := ev.Get("all_contexts"); ok { // v3, v4
		return "ok " + outcomeCount(num(get(all, "successes")), num(get(all, "of")))
	}
	return "-"
}
