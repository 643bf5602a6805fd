package contract

import (
	"github.com/unified-cognitive-substrate/ucs/internal/field"
)

var Observations = Op{
	Output:  ObservationsOutput,
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
}

var ObservationIDField = field.Field{Name: "id", Type: field.String, Flag: true, Positional: true, Required: true,
	Doc: "the observation's id (ucs observations)"}

// ObservationsOutput is the answer of observations.
var ObservationsOutput = []field.Output{
	{Name: "count", Type: field.Int, Always: true, Doc: "how many observations (or, with due, how many are due)"},
	{Name: "observations", Type: field.Objects, Doc: "the observations of the status asked for"},
	{Name: "due", Type: field.Object, Doc: "with due: the observations due for a check, by kind"},
}

// ObservationActOutput is the answer of a verdict on an observation (confirm, contradict, retire).
var ObservationActOutput = []field.Output{
	{Name: "status", Type: field.String, Always: true, Doc: "confirmed, contradicted or retired"},
	{Name: "by", Type: field.String, Always: true, Doc: "whose verdict it is"},
	{Name: "observation", Type: field.Object, Always: true, Doc: "the observation after the verdict, and what changed"},
	{Name: "surface", Type: field.String, Doc: "agent: the verdict came through the agent's tools and weighs as its own"},
}

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

// ObservationActs describe the verdicts on one observation: confirm,
// contradict and retire, in the order help lists them.
func ObservationActs() []Op {
	ops := make([]Op, len(observationActs))
	for i, a := range observationActs {
		note := NoteField
		note.Required = a.noteRequired
		ops[i] = Op{
			Name:     a.name,
			Summary:  a.summary,
			Long:     a.long,
			Example:  "ucs " + a.name + " o-3f2a9c1d --note \"checked against the staging API\" --by operator",
			Mutating: true,
			Verdict:  true,
			// retire invalidates whatever the evidence says.
			Destructive: a.name == "retire",
			Fields:      []field.Field{ObservationIDField, note, ByField},
			Output:      ObservationActOutput,
		}
	}
	return ops
}
