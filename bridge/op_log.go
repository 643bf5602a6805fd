package bridge

import (
	"errors"
	"io"
	"slices"

	"github.com/unified-cognitive-substrate/ucs/internal/audit"
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

var logSpec = Spec{
	Op: contract.Log,
	tool: func(b *Bridge, c Call) (pyjson.Value, error) {
		if b.opts.Output == nil {
			return pyjson.Value{}, fault.Internal(errors.New("Options.Output is not set"), "log")
		}
		opts := audit.LogOptions{Since: c.Args.StrOf("since"), Op: c.Args.StrOf("op"), Limit: int(argInt(c, "limit")),
			Table: c.Args.StrOf("format") == "table"}
		return pyjson.NullValue(), b.Log(opts, b.opts.Output)
	},
}

// Log prints the journal's events, oldest first (audit.Log).
func (b *Bridge) Log(opts audit.LogOptions, w io.Writer) error {
	return audit.Log(b.ws, opts, w, Operations(), func(op string) bool {
		return slices.ContainsFunc(registry, func(sp *Spec) bool { return sp.Group() == op })
	})
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
