package goal

import (
	"errors"
	"fmt"
	"slices"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// AppendJSON writes the book as the state's "goals" member: compact, in a
// fixed member order.
func (gb *Book) AppendJSON(dst []byte) []byte {
	list := func(gs []*Goal) pyjson.Value {
		out := make([]pyjson.Value, len(gs))
		for i, g := range gs {
			var last any
			if g.Last != nil {
				last = []pyjson.Value{pyjson.From(g.Last.Seq), pyjson.From(g.Last.Action), pyjson.From(g.Last.Status), pyjson.From(g.Last.Confidence)}
			}
			counts := []pyjson.Value{pyjson.From(g.Successes), pyjson.From(g.Failures), pyjson.From(g.Partials), pyjson.From(g.Timeouts), pyjson.From(g.Retries)}
			out[i] = pyjson.Obj(
				pyjson.KV("id", g.ID), pyjson.KV("content", g.Content), pyjson.KV("parent", g.Parent),
				pyjson.KV("criterion", g.Criterion), pyjson.KV("target", g.Target), pyjson.KV("confidence", g.Confidence),
				pyjson.KV("retry_budget", g.RetryBudget), pyjson.KV("retries_left", g.RetriesLeft),
				pyjson.KV("state", g.State), pyjson.KV("created", g.Created), pyjson.KV("closed", g.Closed),
				pyjson.KV("counts", counts),
				pyjson.KV("last", last), pyjson.KV("note", g.Note),
			)
		}
		return pyjson.ArrayValue(out)
	}
	members := []pyjson.Member{pyjson.KV("closed", list(gb.Closed))}
	if gb.Numbered > 0 { // a book written before goals were numbered keeps its bytes
		members = append(members, pyjson.KV("numbered", gb.Numbered))
	}
	members = append(members, pyjson.KV("open", list(gb.Open)))
	return pyjson.AppendDumps(dst, pyjson.Obj(members...))
}

// Decode reads what AppendJSON wrote.
func Decode(raw []byte) (*Book, error) {
	if !gjson.ValidBytes(raw) {
		return nil, errors.New("goals: not valid JSON")
	}
	doc := gjson.ParseBytes(raw)
	gb := &Book{}
	if n := doc.Get("numbered"); n.Exists() {
		if n.Type != gjson.Number || n.Num < 1 || n.Num != float64(int64(n.Num)) {
			return nil, errors.New("goals.numbered: want a whole number above 0")
		}
		gb.Numbered = int64(n.Num)
	}
	for _, part := range []struct {
		key string
		dst *[]*Goal
	}{{"open", &gb.Open}, {"closed", &gb.Closed}} {
		for i, r := range doc.Get(part.key).Array() {
			g, err := decodeGoal(r)
			if err != nil {
				return nil, fmt.Errorf("goals.%s[%d]: %v", part.key, i, err)
			}
			*part.dst = append(*part.dst, g)
		}
	}
	return gb, nil
}

func decodeGoal(r gjson.Result) (*Goal, error) {
	str := func(k string) (string, error) {
		x := r.Get(k)
		if x.Type != gjson.String {
			return "", errors.New(k + ": want a string")
		}
		return x.Str, nil
	}
	num := func(k string) (float64, error) {
		x := r.Get(k)
		if x.Type != gjson.Number {
			return 0, errors.New(k + ": want a number")
		}
		return x.Num, nil
	}
	g := &Goal{}
	var err error
	for _, f := range []struct {
		k string
		p *string
	}{{"id", &g.ID}, {"content", &g.Content}, {"parent", &g.Parent}, {"criterion", &g.Criterion},
		{"state", &g.State}, {"created", &g.Created}, {"closed", &g.Closed}, {"note", &g.Note}} {
		if *f.p, err = str(f.k); err != nil {
			return nil, err
		}
	}
	var target, budget, left float64
	for _, f := range []struct {
		k string
		p *float64
	}{{"target", &target}, {"confidence", &g.Confidence}, {"retry_budget", &budget}, {"retries_left", &left}} {
		if *f.p, err = num(f.k); err != nil {
			return nil, err
		}
	}
	g.Target, g.RetryBudget, g.RetriesLeft = int64(target), int64(budget), int64(left)
	counts := r.Get("counts").Array()
	if len(counts) != 5 {
		return nil, errors.New("counts: want 5 numbers")
	}
	for i, p := range []*int64{&g.Successes, &g.Failures, &g.Partials, &g.Timeouts, &g.Retries} {
		*p = counts[i].Int()
	}
	if l := r.Get("last"); l.IsArray() {
		a := l.Array()
		if len(a) != 4 {
			return nil, errors.New("last: want [seq, action, status, confidence]")
		}
		g.Last = &Outcome{Seq: a[0].Int(), Action: a[1].Str, Status: a[2].Str, Confidence: a[3].Num}
	}
	if !slices.Contains([]string{Active, Completed, Failed, Suspended}, g.State) {
		return nil, fmt.Errorf("state: %q is no goal state", g.State)
	}
	if g.Criterion != CriterionCount && g.Criterion != CriterionThreshold {
		return nil, fmt.Errorf("criterion: %q is no criterion", g.Criterion)
	}
	return g, nil
}
