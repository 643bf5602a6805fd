package bridge

import (
	"slices"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// The observation operations: list what the agent believes (and what is
// due for revalidation), and act on one: confirm, contradict, retire.

var observationsSpec = Spec{
	Op:  contract.Observations,
	run: opObservations,
}

func opObservations(s *session, c Call) (pyjson.Value, error) {
	b, err := s.book()
	if err != nil {
		return pyjson.Value{}, err
	}
	return belief.Listing(b, c.Args.StrOf("status"), argBool(c, "due"), s.now), nil
}

func observationActSpec(op contract.Op) *Spec {
	return &Spec{
		Op: op,
		run: func(s *session, c Call) (pyjson.Value, error) {
			b, err := s.book()
			if err != nil {
				return pyjson.Value{}, err
			}
			v := belief.Verdict{Act: op.Name, ID: c.Args.StrOf("id"), By: s.by(c), Note: c.Args.StrOf("note"), Agent: !person(c)}
			o, ch, err := b.Judge(s, v)
			if err != nil {
				return pyjson.Value{}, belief.Refusal(err, v.ID)
			}
			return viaAgent(pyjson.Obj(pyjson.KV("status", v.Status()), pyjson.KV("by", v.By), pyjson.KV("observation", belief.ChangeValue(o, ch))), c), nil
		},
	}
}

func observationSpecs() []*Spec {
	specs := []*Spec{&observationsSpec}
	for _, op := range contract.ObservationActs() {
		specs = append(specs, observationActSpec(op))
	}
	return slices.Clip(specs)
}
