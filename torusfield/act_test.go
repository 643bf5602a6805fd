package torusfield

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCountReport: the PhiReportInterval-th report since the last φ-cycle
// runs one (a φ record is logged) and starts the count again; the others
// only count.
func TestCountReport(t *testing.T) {
	for _, tc := range []struct {
		n, want int
		fired   bool
	}{
		{0, 1, false},
		{PhiReportInterval - 2, PhiReportInterval - 1, false},
		{PhiReportInterval - 1, 0, true},
		{PhiReportInterval + 3, 0, true}, // a count past the interval (a hand-edited state) fires too
	} {
		e := New(DefaultManifest(), Options{})
		before := len(e.Trace.Phi)
		n, fired := e.CountReport(tc.n)
		assert.Equal(t, tc.want, n, "n %d", tc.n)
		assert.Equal(t, tc.fired, fired, "n %d", tc.n)
		assert.Equal(t, tc.fired, len(e.Trace.Phi) > before, "n %d: a φ record exactly when fired", tc.n)
	}
}
