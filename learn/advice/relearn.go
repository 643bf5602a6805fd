package advice

import (
	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
)

// A Report is one report of a workspace's history as Relearn reads it:
// the action, its outcome and evidence weight, and the task and context it
// was made in (its own, else the consult's before it).
type Report struct {
	Action, Success string
	Weight          float64
	Task, Context   string
}

// Relearn teaches a fresh v5 state the reports, in order, each in its
// task and as the agent's own choice: a history says what the agent did,
// not whether it followed advice. A report of a capability the manifest
// lacks is skipped; one that teaches nothing (neutral, or of no weight)
// moves its episode. It returns the state, of the given generation, the
// model whose Records the record log takes, and how many reports taught
// it something. No key is evicted: the model is as one over the record
// log.
func (p Place) Relearn(params nextstep.Params, generation int64, reports []Report) (*Steps, *nextstep.Model, int) {
	v := NewSteps()
	v.Generation = generation
	params.MaxKeys = 0
	m := nextstep.New(params)
	m.Prior = p.Prior
	learned := 0
	for _, r := range reports {
		if !p.Manifest.Has(r.Action) {
			continue
		}
		ep := v.TaskEpisode(r.Task, r.Context)
		y, w := learn.OutcomeValue(r.Success)
		w *= r.Weight
		if w <= 0 {
			ep.Locate(ep.Prev, r.Action)
			continue
		}
		cands, _ := p.Candidates(m, ep.At)
		m.Observe(ep, cands, r.Action, y, w, true)
		learned++
	}
	v.Globals = m.Globals()
	return v, m, learned
}

// RelearnAs teaches a fresh state of model m (one of ucs's own) a
// workspace's history, in order: v5's (Relearn) as of the given
// generation, with the records its record log takes, else package
// learn's (learn.Relearn). It returns the state as a Memory, the records,
// and how many reports taught it something.
func (p Place) RelearnAs(m *Model, generation int64, h History) (Memory, []nextstep.Record, int) {
	if m.NextSteps() {
		v, sm, learned := p.Relearn(*m.Steps, generation, h.StepReports())
		return Memory{Steps: v}, sm.Records(), learned
	}
	v, learned := learn.Relearn(p.Graph, p.Manifest, *m.Params, p.LearnedReports(h))
	return Memory{State: v}, nil, learned
}
