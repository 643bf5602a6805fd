package cli

import "github.com/unified-cognitive-substrate/ucs/internal/version"

// The in-process command line of this package's tests is stamped as the
// Makefile stamps a build from the v0.1.0 tag, so the script tests read the
// version they pin whatever the checkout's state.
func init() { version.Stamp = "v0.1.0" }
