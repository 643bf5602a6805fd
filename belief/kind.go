package belief

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// A Kind is what an observation is about; it sets how soon the observation
// must be supported again (its Cadence).
type Kind string

// The kinds of observation.
const (
	ToolingState       Kind = "tooling_state"       // how a capability behaves
	ProjectState       Kind = "project_state"       // where a project stands
	SelfModel          Kind = "self_model"          // what the agent is good or bad at
	OperatorPreference Kind = "operator_preference" // what the operator wants
	RelationshipFact   Kind = "relationship_fact"   // who relates to whom
	WorldFact          Kind = "world_fact"          // anything else that holds outside
)

// Kinds lists the kinds, fastest revalidated first.
var Kinds = []Kind{ToolingState, ProjectState, SelfModel, OperatorPreference, RelationshipFact, WorldFact}

const day = 24 * time.Hour

var cadences = map[Kind]time.Duration{
	ToolingState:       3 * day,
	ProjectState:       7 * day,
	SelfModel:          14 * day,
	OperatorPreference: 30 * day,
	RelationshipFact:   60 * day,
	WorldFact:          90 * day,
}

// Cadence is how long an observation of the kind stays fresh without new
// support: after one cadence its freshness is ½ and it is due for
// revalidation. Tools change fastest (3 days), then projects (7), the
// agent's view of itself (14), the operator's preferences (30),
// relationships (60) and facts about the world (90). An unknown kind has
// the shortest cadence.
func (k Kind) Cadence() time.Duration {
	if c, ok := cadences[k]; ok {
		return c
	}
	return cadences[ToolingState]
}

// Valid reports whether k is one of Kinds.
func (k Kind) Valid() bool { return slices.Contains(Kinds, k) }

// ParseKind reads a kind as a caller names it (case and surrounding space
// ignored).
func ParseKind(s string) (Kind, error) {
	k := Kind(strings.ToLower(strings.TrimSpace(s)))
	if !k.Valid() {
		return "", fmt.Errorf("%w: kind %q is none of %s", ErrInvalid, s, joinKinds())
	}
	return k, nil
}

func joinKinds() string {
	names := make([]string, len(Kinds))
	for i, k := range Kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

// A Stance is how a piece of evidence bears on an observation's claim.
type Stance string

// The stances. Context evidence is kept to explain an observation and
// counts for nothing in its confidence.
const (
	Support    Stance = "support"
	Contradict Stance = "contradict"
	Context    Stance = "context"
)

// Valid reports whether s is one of the three stances.
func (s Stance) Valid() bool { return s == Support || s == Contradict || s == Context }

// A Status is where an observation stands.
type Status string

// The statuses. Active and stale observations are current: believed now,
// at most one per key. Superseded and invalidated are final: the
// observation is kept, with its evidence, and never believed again.
const (
	Active      Status = "active"      // believed, and supported within its cadence
	Stale       Status = "stale"       // believed, but its freshness fell below StaleBelow: revalidation is due
	Superseded  Status = "superseded"  // replaced by a newer observation of the same key (SupersededBy)
	Invalidated Status = "invalidated" // contradiction outweighed support, or retired (Retire)
)

// Valid reports whether s is one of the four statuses.
func (s Status) Valid() bool { return s == Active || s == Stale || s == Superseded || s == Invalidated }

// Current reports whether an observation of this status is believed now.
func (s Status) Current() bool { return s == Active || s == Stale }

// The kinds of raw record evidence comes from. Diversity counts them.
const (
	FromReflection = "reflection" // a reflection the agent stored (reflect)
	FromReport     = "report"     // a report of an action's outcome
	FromExec       = "exec"       // an outcome ucs observed around a wrapped command
	FromRating     = "rating"     // a rating of an answer
	FromOperator   = "operator"   // a statement made with confirm, contradict or retire (By says by whom)
)

// OutcomeKind is the kind of an action's outcome: FromExec when ucs
// observed it (a report carrying a result, a wrapped command), else
// FromReport.
func OutcomeKind(observed bool) string {
	if observed {
		return FromExec
	}
	return FromReport
}

// SourceKinds lists the kinds of raw record.
var SourceKinds = []string{FromReflection, FromReport, FromExec, FromRating, FromOperator}

// Operator is the By of evidence the operator gave (a command called with
// --by operator); it weighs OperatorFactor times an agent's.
const Operator = "operator"
