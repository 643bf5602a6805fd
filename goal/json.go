package goal

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/quickjson"
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

// Decode reads what AppendJSON wrote. It reads with the parser that reads
// the whole state file (pyjson), so a member repeated in a corrupt file
// means what it means there: the last one counts. It is as lenient as
// its first reader was: a list that is a single value is a list of that
// value, and a count that is not a whole number is cut to one.
func Decode(raw []byte) (*Book, error) {
	doc, err := pyjson.Parse(raw)
	if err != nil {
		return nil, errors.New("goals: not valid JSON")
	}
	gb := &Book{}
	if n, ok := doc.Get("numbered"); ok {
		x, isNum := n.Float()
		if !isNum || x < 1 || x != float64(int64(x)) {
			return nil, errors.New("goals.numbered: want a whole number above 0")
		}
		gb.Numbered = int64(x)
	}
	for _, part := range []struct {
		key string
		dst *[]*Goal
	}{{"open", &gb.Open}, {"closed", &gb.Closed}} {
		for i, r := range list(doc, part.key) {
			g, err := decodeGoal(r)
			if err != nil {
				return nil, fmt.Errorf("goals.%s[%d]: %v", part.key, i, err)
			}
			*part.dst = append(*part.dst, g)
		}
	}
	return gb, nil
}

// list returns the member key of v as a list: its items, nothing for a
// member that is absent or null, the value alone for any other.
func list(v pyjson.Value, key string) []pyjson.Value {
	m, ok := v.Get(key)
	switch {
	case !ok || m.IsNull():
		return nil
	case m.Kind() == pyjson.Array:
		return m.Items()
	}
	return []pyjson.Value{m}
}

// whole reads a count: a number cut to a whole one, a string that spells
// one, true as 1; 0 for anything else.
func whole(v pyjson.Value) int64 {
	if n, ok := v.Int(); ok {
		return n
	}
	if f, ok := v.Float(); ok {
		return int64(f)
	}
	if v.Kind() == pyjson.String {
		n, _ := strconv.ParseInt(v.Str(), 10, 64)
		return n
	}
	if v.Bool() {
		return 1
	}
	return 0
}

func decodeGoal(r pyjson.Value) (*Goal, error) {
	str := func(k string) (string, error) {
		x, _ := r.Get(k)
		if x.Kind() != pyjson.String {
			return "", errors.New(k + ": want a string")
		}
		return x.Str(), nil
	}
	num := func(k string) (float64, error) {
		x, _ := r.Get(k)
		f, ok := x.Float()
		if !ok {
			return 0, errors.New(k + ": want a number")
		}
		return f, nil
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
	counts := list(r, "counts")
	if len(counts) != 5 {
		return nil, errors.New("counts: want 5 numbers")
	}
	for i, p := range []*int64{&g.Successes, &g.Failures, &g.Partials, &g.Timeouts, &g.Retries} {
		*p = whole(counts[i])
	}
	if l, _ := r.Get("last"); l.Kind() == pyjson.Array {
		a := l.Items()
		if len(a) != 4 {
			return nil, errors.New("last: want [seq, action, status, confidence]")
		}
		conf, _ := a[3].Float()
		g.Last = &Outcome{Seq: whole(a[0]), Action: a[1].Str(), Status: a[2].Str(), Confidence: conf}
	}
	if !slices.Contains([]string{Active, Completed, Failed, Suspended}, g.State) {
		return nil, fmt.Errorf("state: %q is no goal state", g.State)
	}
	if g.Criterion != CriterionCount && g.Criterion != CriterionThreshold {
		return nil, fmt.Errorf("criterion: %q is no criterion", g.Criterion)
	}
	return g, nil
}

// Member is the workspace state file's member that holds its goals (a
// Book, as AppendJSON writes it).
const Member = "goals"

// Listed reports whether the state file (its bytes, valid JSON) lists a
// goal of that id, open or closed, without decoding the rest: exec checks
// the goal it names before the tool runs, without the workspace's lock.
//
// A member repeated in a corrupt file counts as the parser of the whole
// state file (pyjson) counts it: the last one.
func Listed(state []byte, id string) bool {
	book := quickjson.Member(gjson.ParseBytes(state), Member)
	for _, part := range []string{"open", "closed"} {
		for _, g := range quickjson.Member(book, part).Array() {
			if quickjson.Member(g, "id").Str == id {
				return true
			}
		}
	}
	return false
}
