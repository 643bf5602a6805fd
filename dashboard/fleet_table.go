package dashboard

import (
	"strconv"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// FleetTable renders show --fleet's answer (its JSON) for people, in 80
// columns, as ShowTable renders show's: it reads the answer only.
func FleetTable(v pyjson.Value) string {
	var b strings.Builder
	line := func(cells ...string) {
		b.WriteString(strings.TrimRight(strings.Join(cells, " "), " "))
		b.WriteByte('\n')
	}
	num := func(x pyjson.Value) float64 { f, _ := x.Float(); return f }
	get := func(x pyjson.Value, key string) pyjson.Value { y, _ := x.Get(key); return y }
	orDash := func(x pyjson.Value) string {
		if x.IsNull() {
			return "-"
		}
		return jsonText(x)
	}
	rate := func(x pyjson.Value) string {
		if r := get(x, "rate"); !r.IsNull() {
			return strconv.Itoa(int(num(r)*100+0.5)) + "%"
		}
		return "-"
	}

	ws := get(v, "workspaces").Items()
	line(cell("ucs show --fleet — "+strconv.Itoa(len(ws))+" workspaces this caller may read", showWidth))
	b.WriteByte('\n')
	line("WORKSPACES (by fleet; precision: success when advice was followed / not)")
	if len(ws) == 0 {
		line("  none")
	} else {
		line(cell("NAME", 14), cell("FLEET", 10), cell("SHARE", 7), cell("MODEL", 5), cell("REPORTS", 7), cell("PRECISION", 11), "HOLDS m/d/j/o")
	}
	for _, w := range ws {
		share := "shared"
		if get(w, "private").Bool() {
			share = "private"
		}
		if e := w.StrOf("error"); e != "" {
			line(cell(w.StrOf("name"), 14), cell(orDash(get(w, "fleet")), 10), cell(share, 7), cell("unreadable ("+w.StrOf("code")+"): "+e, showWidth-34))
			continue
		}
		prec := "-"
		if p := get(w, "advisory_precision"); !p.IsNull() {
			prec = rate(get(p, "followed")) + "/" + rate(get(p, "not_followed"))
		}
		k := get(w, "knowledge")
		holds := jsonText(get(k, "methodology")) + "/" + jsonText(get(k, "dead_ends")) + "/" + jsonText(get(k, "judgment_nodes")) + "/" + jsonText(get(k, "observations"))
		line(cell(w.StrOf("name"), 14), cell(orDash(get(w, "fleet")), 10), cell(share, 7), cell(w.StrOf("model"), 5),
			cell(jsonText(get(w, "reports")), 7), cell(prec, 11), cell(holds, showWidth-60))
	}

	ts := get(v, "fleet_transitions").Items()
	b.WriteByte('\n')
	line("THE FLEETS' LEARNED TRANSITIONS (" + strconv.Itoa(len(ts)) + " of " + jsonText(get(v, "fleet_transitions_total")) + ", most evidence first)")
	if len(ts) == 0 {
		line("  none yet: the shared workspaces have reported no outcome")
		return b.String()
	}
	line(cell("FLEET", 8), cell("FROM → TO", 24), cell("SUCCESS", 13), "WHOSE EVIDENCE")
	for _, t := range ts {
		var src []string
		for _, e := range get(t, "evidence").Items() {
			src = append(src, e.StrOf("workspace")+" "+outcomeCount(num(get(e, "successes")), num(get(e, "of"))))
		}
		success := outcomeCount(num(get(t, "successes")), num(get(t, "of"))) + " " + rate(t)
		line(cell(orDash(get(t, "fleet")), 8), cell(t.StrOf("from")+" → "+t.StrOf("to"), 24), cell(success, 13),
			cell(strings.Join(src, ", "), showWidth-48))
	}
	return b.String()
}
