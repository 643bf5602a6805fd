package belief

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
)

// TestRefusal: a refusal of the book is bad input whose code says why,
// naming the observation given or the one the ActError names.
func TestRefusal(t *testing.T) {
	notFound := fmt.Errorf("%w: %q", ErrNotFound, "o-1")
	cases := []struct {
		name string
		err  error
		id   string
		code string
		msg  string
	}{
		{"unknown, id given", notFound, "o-1", fault.CodeUnknownObservation, `there is no observation "o-1"`},
		{"unknown, id of the act", &ActError{ID: "o-2", Err: notFound}, "", fault.CodeUnknownObservation, `there is no observation "o-2"`},
		{"unknown, no id", notFound, "", fault.CodeInvalidValue, notFound.Error()},
		{"not current", fmt.Errorf("%w: o-1 is superseded", ErrNotCurrent), "o-1", fault.CodeInvalidState, ErrNotCurrent.Error() + ": o-1 is superseded"},
		{"other", errors.New("belief: empty claim"), "o-1", fault.CodeInvalidValue, "belief: empty claim"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var fe *fault.Error
			require.ErrorAs(t, Refusal(tc.err, tc.id), &fe)
			assert.Equal(t, fault.KindBadInput, fe.Kind)
			assert.Equal(t, tc.code, fe.Code)
			assert.Equal(t, tc.msg, fe.Msg)
		})
	}
}
