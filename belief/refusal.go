package belief

import (
	"errors"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// Refusal is the book's refusal err of an act on the observation id, as
// the bad input (exit 2) a call answers: unknown_observation for an id the
// book does not hold, invalid_state for an observation no longer
// believed, invalid_value for the rest. An empty id is the one err names
// when it is an ActError.
func Refusal(err error, id string) error {
	var ae *ActError
	if id == "" && errors.As(err, &ae) {
		id = ae.ID
	}
	switch {
	case id != "" && strings.Contains(err.Error(), ErrNotFound.Error()):
		return fault.BadInput(fault.CodeUnknownObservation, "list them with: ucs observations", "there is no observation %s", pyjson.Quote(id))
	case strings.Contains(err.Error(), ErrNotCurrent.Error()):
		return fault.BadInput(fault.CodeInvalidState, "a superseded or invalidated observation is final; act on the one that replaced it", "%v", err)
	}
	return fault.BadInput(fault.CodeInvalidValue, "see ucs observations", "%v", err)
}
