package nextstep

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// What a model's records are when they travel to another workspace (an
// export imported elsewhere): each key names the states it is learned in
// (a capability, a capability marked failed, or Start) and each value the
// next tools it counts or weighs, so a record can be checked, restricted
// to the capabilities another manifest has, and pooled with the record of
// the same key another agent learned.

// keyStates returns the states a record key names (the last parts of the
// key, after the table and any task or term), and whether it is a key of
// the count tables ("c") rather than of the success model ("s"). A task
// id may hold the separator, so the states are counted from the end.
func keyStates(key string) (states []string, counts bool, err error) {
	parts := strings.Split(key, sep)
	if len(parts) < 2 {
		return nil, false, errors.New("not a key of the model")
	}
	var n, least int // the states that end the key, and the key's fewest parts
	switch parts[0] + sep + parts[1] {
	case keyAll():
		n, least = 0, 2
	case "c" + sep + "1", "s" + sep + "1":
		n, least = 1, 3
	case "c" + sep + "2", "s" + sep + "2":
		n, least = 2, 4
	case "c" + sep + "t", "c" + sep + "w", "s" + sep + "w":
		n, least = 1, 4
	case "c" + sep + "T":
		n, least = 2, 5
	default:
		return nil, false, errors.New("not a key of the model")
	}
	variable := parts[1] == "t" || parts[1] == "T" // a task id
	if len(parts) < least || !variable && len(parts) != least {
		return nil, false, errors.New("not a key of the model")
	}
	return parts[len(parts)-n:], parts[0] == "c", nil
}

// CheckRecord reports whether value is a record the model can read under
// key: a counts record under a count table's key, a weights record under
// the success model's, every number finite and no count negative.
func CheckRecord(key string, value []byte) error {
	_, isCounts, err := keyStates(key)
	if err != nil {
		return err
	}
	if isCounts {
		c, err := decodeCounts(value)
		if err != nil {
			return err
		}
		if c.M < 0 || c.U < 0 || !finite(c.N) || c.To == nil {
			return errors.New("a counts record wants m, n, u and to, none negative")
		}
		for to, o := range c.To {
			if to == "" || o.NS < 0 || o.NF < 0 || o.U < 0 || !finite(o.S) || !finite(o.F) || o.S < 0 || o.F < 0 {
				return fmt.Errorf("the outcomes of %q are not counts", to)
			}
		}
		return nil
	}
	g, err := decodeWeights(value)
	if err != nil {
		return err
	}
	for to, w := range g {
		if to == "" || !finite(w.M) || !finite(w.V) || w.V <= 0 || !finite(w.N) || w.N < 0 {
			return fmt.Errorf("the weight of %q is not a belief", to)
		}
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// ProjectRecord restricts a record to the capabilities has knows: a key
// that names a state of an unknown capability is dropped whole (nil), and
// a next tool has does not know is dropped from the value (and from a
// count's totals). unknown lists the capabilities left out, sorted. The
// value must pass CheckRecord.
func ProjectRecord(key string, value []byte, has func(string) bool) (out []byte, unknown []string, err error) {
	states, isCounts, err := keyStates(key)
	if err != nil {
		return nil, nil, err
	}
	for _, st := range states {
		if tool, _ := FailedState(st); tool != Start && !has(tool) {
			unknown = append(unknown, tool)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return nil, slices.Compact(unknown), nil
	}
	if isCounts {
		c, err := decodeCounts(value)
		if err != nil {
			return nil, nil, err
		}
		for _, to := range sortedKeys(c.To) {
			if !has(to) {
				o := c.To[to]
				c.N = math.Max(0, c.N-o.S*c.fade(o.U, 0))
				c.M = max(0, c.M-o.NS)
				delete(c.To, to)
				unknown = append(unknown, to)
			}
		}
		return c.appendJSON(nil, nil), unknown, nil
	}
	g, err := decodeWeights(value)
	if err != nil {
		return nil, nil, err
	}
	for _, to := range sortedKeys(g) {
		if !has(to) {
			delete(g, to)
			unknown = append(unknown, to)
		}
	}
	return appendWeights(nil, g, nil), unknown, nil
}

// PoolRecord pools the record mine (this model's, nil when it has none)
// with theirs, another agent's record of the same key, counted at weight
// w, for a model whose numbers are g:
//   - counts are summed: each tool's weighted outcomes as they are worth
//     now (faded to their key's last update), the whole counts and the
//     totals, stored at mine's update;
//   - the success model's beliefs of a tool both hold are combined by
//     precision (each mean weighed by the inverse of its variance; the
//     variance is that of the two beliefs' information added, less the
//     prior's they share, and no more than the smaller of the two), a belief
//     only theirs holds is taken as it is; either is stamped with g's
//     clock, since theirs was stamped with their own.
//
// Both values must pass CheckRecord.
func PoolRecord(p Params, key string, mine, theirs []byte, w float64, g Globals) ([]byte, error) {
	states, isCounts, err := keyStates(key)
	if err != nil {
		return nil, err
	}
	if isCounts {
		b, err := decodeCounts(theirs)
		if err != nil {
			return nil, err
		}
		if mine == nil {
			if w == 1 {
				return b.appendJSON(nil, nil), nil
			}
			mine = []byte(`{"m":0,"n":0,"t":0,"to":{},"u":0}`)
		}
		a, err := decodeCounts(mine)
		if err != nil {
			return nil, err
		}
		for _, to := range sortedKeys(b.To) {
			ob := b.To[to]
			kb := b.fade(ob.U, p.Decay)
			oa := a.To[to]
			if oa == nil {
				oa = &outcomes{U: a.U}
				a.To[to] = oa
			}
			ka := a.fade(oa.U, p.Decay)
			oa.S, oa.F = oa.S*ka+w*ob.S*kb, oa.F*ka+w*ob.F*kb
			oa.NS += int64(math.Round(w * float64(ob.NS)))
			oa.NF += int64(math.Round(w * float64(ob.NF)))
			oa.U = a.U
		}
		a.N += w * b.N
		a.M += int64(math.Round(w * float64(b.M)))
		return a.appendJSON(nil, nil), nil
	}
	v0 := priorVar
	if len(states) == 1 && strings.HasPrefix(key, "s"+sep+"1"+sep) {
		v0 = biasVar // a transition's own weight (sfeatures' bias)
	}
	gb, err := decodeWeights(theirs)
	if err != nil {
		return nil, err
	}
	ga := map[string]*weight{}
	if mine != nil {
		if ga, err = decodeWeights(mine); err != nil {
			return nil, err
		}
	}
	for _, to := range sortedKeys(gb) {
		b := gb[to]
		a := ga[to]
		if a == nil {
			ga[to] = &weight{M: b.M, V: b.V, T: g.Clock, N: w * b.N}
			continue
		}
		pa, pb := 1/a.V, w/b.V
		m := (pa*a.M + pb*b.M) / (pa + pb)
		v := math.Min(a.V, b.V)
		if info := pa + w*math.Max(0, 1/b.V-1/v0); info > 0 {
			v = math.Min(v, 1/info)
		}
		ga[to] = &weight{M: m, V: v, T: g.Clock, N: a.N + w*b.N}
	}
	return appendWeights(nil, ga, nil), nil
}
