package bridge

import (
	"slices"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// The observation operations: list what the agent believes (and what is
// due for revalidation), and act on one: confirm, contradict, retire.

var observationsSpec = Spec{
	Output:  observationsOutput,
	Name:    "observations",
	Summary: "What the agent believes: observations with their confidence, freshness and evidence",
	Long: `Each observation with its key (kind/subject/slot), claim, status (active,
stale, superseded, invalidated), confidence and its components, freshness and
when it is due for revalidation. --due lists the believed ones due now, by kind.`,
	Example: "ucs observations\nucs observations --due\nucs observations --status all",
	Fields: []field.Field{
		{Name: "status", Type: field.String, Flag: true, Enum: []string{"believed", "active", "stale", "superseded", "invalidated", "all"},
			Default: "believed", Doc: "which observations (believed: active or stale)"},
		{Name: "due", Type: field.Bool, Flag: true, Doc: "only the believed ones due for revalidation, grouped by kind"},
	},
	run: opObservations,
}

func opObservations(s *session, c Call) (pyjson.Value, error) {
	b, err := s.book()
	if err != nil {
		return pyjson.Value{}, err
	}
	return belief.Listing(b, c.Args.StrOf("status"), argBool(c, "due"), s.now), nil
}

var observationIDField = field.Field{Name: "id", Type: field.String, Flag: true, Positional: true, Required: true,
	Doc: "the observation's id (ucs observations)"}

// An observationAct is confirm, contradict or retire.
type observationAct struct {
	name, summary, long string
	noteRequired        bool
}

var observationActs = []observationAct{
	{"confirm", "Confirm an observation: supporting evidence (an operator's weighs three times)",
		"Someone checked it and it holds: supporting evidence, which also makes a stale observation fresh again. With --by operator it weighs three times an ordinary piece of evidence: one operator's confirmation outweighs two contradictions.", false},
	{"contradict", "Contradict an observation: contradicting evidence, kept",
		"It does not hold, or not always: contradicting evidence, kept with the rest. When contradiction weighs at least as much as support, the observation is invalidated.", true},
	{"retire", "Invalidate an observation by hand (an operator's invalidation, recorded as such)",
		"The observation no longer holds, whatever its evidence: it is invalidated, with who retired it and why. It is kept, never returned as believed.", false},
}

func observationActSpec(a observationAct) *Spec {
	note := noteField
	note.Required = a.noteRequired
	return &Spec{
		Name:     a.name,
		Summary:  a.summary,
		Long:     a.long,
		Example:  "ucs " + a.name + " o-3f2a9c1d --note \"checked against the staging API\" --by operator",
		Mutating: true,
		Verdict:  true,
		// retire invalidates whatever the evidence says.
		Destructive: a.name == "retire",
		Fields:      []field.Field{observationIDField, note, byField},
		Output:      observationActOutput,
		run: func(s *session, c Call) (pyjson.Value, error) {
			b, err := s.book()
			if err != nil {
				return pyjson.Value{}, err
			}
			v := belief.Verdict{Act: a.name, ID: c.Args.StrOf("id"), By: s.by(c), Note: c.Args.StrOf("note"), Agent: !person(c)}
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
	for _, a := range observationActs {
		specs = append(specs, observationActSpec(a))
	}
	return slices.Clip(specs)
}

// observationsOutput is the answer of observations.
var observationsOutput = []field.Output{
	{Name: "count", Type: field.Int, Always: true, Doc: "how many observations (or, with due, how many are due)"},
	{Name: "observations", Type: field.Objects, Doc: "the observations of the status asked for"},
	{Name: "due", Type: field.Object, Doc: "with due: the observations due for a check, by kind"},
}

// observationActOutput is the answer of a verdict on an observation (confirm, contradict, retire).
var observationActOutput = []field.Output{
	{Name: "status", Type: field.String, Always: true, Doc: "confirmed, contradicted or retired"},
	{Name: "by", Type: field.String, Always: true, Doc: "whose verdict it is"},
	{Name: "observation", Type: field.Object, Always: true, Doc: "the observation after the verdict, and what changed"},
	{Name: "surface", Type: field.String, Doc: "agent: the verdict came through the agent's tools and weighs as its own"},
}
