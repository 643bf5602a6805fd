package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/dashboard"
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

var showSpec = Spec{
	Op:    contract.Show,
	run:   opShow,
	table: dashboard.ShowTable,
	fleet: fleetShow,
}

func opShow(s *session, c Call) (pyjson.Value, error) {
	sh, err := dashboard.GatherShow(s.engine, s.meta.Model, dashboardSource{s}, c.Args.StrOf("context"), s.now)
	if err != nil {
		return pyjson.Value{}, err
	}
	return sh.Value(), nil
}
