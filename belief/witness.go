package belief

import "time"

// A Witness is the call that gives evidence: the agent it acts for and
// the time it measures against (the caller's clock, never read here).
// bridge's session is one.
type Witness interface {
	Agent() string
	Now() time.Time
}

// NewEvidence is a piece of evidence given by w's call, of weight 1, at
// w's time, by by (w's agent when empty).
func NewEvidence(w Witness, source, kind string, stance Stance, by, note string) Evidence {
	if by == "" {
		by = w.Agent()
	}
	return Evidence{Source: source, SourceKind: kind, Stance: stance, Weight: 1, At: w.Now(), By: by, Note: note}
}

// An ActError is a refusal of an act on the observation ID (a
// reflection's supersession, an outcome's attribution): its message is
// the act's own, and ID says which observation it was about.
type ActError struct {
	ID  string
	Err error
}

func (e *ActError) Error() string { return e.Err.Error() }
func (e *ActError) Unwrap() error { return e.Err }
