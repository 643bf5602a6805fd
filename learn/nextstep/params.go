package nextstep

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseParams reads overrides "task=0.5,term=2,move=1" onto base. The
// names are the fields' in lower case (prev2w for Prev2Weight, taskw,
// termw, termpow, move for MoveOnFailure: 0 or 1, maxkeys, fleetcap).
func ParseParams(base Params, s string) (Params, error) {
	p := base
	for _, kv := range strings.Split(s, ",") {
		if kv = strings.TrimSpace(kv); kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		x, err := strconv.ParseFloat(v, 64)
		if !ok || err != nil {
			return p, fmt.Errorf("nextstep params: %q is not KEY=NUMBER", kv)
		}
		f, ok := map[string]*float64{"base": &p.Base, "task": &p.Task, "prev2": &p.Prev2, "term": &p.Term,
			"taskw": &p.TaskWeight, "prev2w": &p.Prev2Weight, "termw": &p.TermWeight, "termpow": &p.TermPow,
			"success": &p.Success, "drop": &p.Drop, "explore": &p.Explore, "task2": &p.Task2, "freq": &p.Freq, "decay": &p.Decay, "hedge": &p.Hedge, "fleetcap": &p.FleetCap}[k]
		switch {
		case ok:
			*f = x
		case k == "move":
			p.MoveOnFailure = x != 0
		case k == "mark":
			p.MarkFailed = x != 0
		case k == "logit":
			p.Logit = x != 0
		case k == "lr":
			p.Logistic = x != 0
		case k == "prior":
			p.PriorWeight = x
		case k == "maxkeys":
			p.MaxKeys = int(x)
		default:
			return p, fmt.Errorf("nextstep params: unknown %q", k)
		}
	}
	return p, nil
}

// String is the settings in ParseParams's form, every field, in a fixed
// order.
func (p Params) String() string {
	return fmt.Sprintf("base=%g,task=%g,prev2=%g,term=%g,taskw=%g,prev2w=%g,termw=%g,termpow=%g,task2=%g,freq=%g,success=%g,drop=%g,move=%d,mark=%d,explore=%g,decay=%g,lr=%d,logit=%d,hedge=%g,maxkeys=%d,prior=%g,fleetcap=%g",
		p.Base, p.Task, p.Prev2, p.Term, p.TaskWeight, p.Prev2Weight, p.TermWeight, p.TermPow, p.Task2, p.Freq, p.Success, p.Drop, b2i(p.MoveOnFailure), b2i(p.MarkFailed), p.Explore, p.Decay, b2i(p.Logistic), b2i(p.Logit), p.Hedge, p.MaxKeys, p.PriorWeight, p.FleetCap)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
