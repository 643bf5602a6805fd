package bridge

import (
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/audit"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/policy"
)

var logSpec = Spec{
	Output:  logOutput,
	Name:    "log",
	Summary: "Show the history: what the agent reported and asked, when, and what it changed",
	Long: `Prints the journal's events, oldest first, as JSON lines (the events as stored,
hash-chained) or as a table for people.`,
	Example: "ucs log --format table --limit 20\nucs log --op report --since 2026-11-21T00:00:00Z",
	Fields: []Field{
		{Name: "since", Type: TypeString, Flag: true, Doc: "from this event (a sequence number) or time (RFC 3339) on"},
		{Name: "op", Type: TypeString, Flag: true, Doc: "only events of this operation"},
		{Name: "limit", Type: TypeInt, Flag: true, Doc: "only the last N matching events"},
		{Name: "format", Type: TypeString, Flag: true, Enum: []string{"json", "table"}, Default: "json", Doc: "json (one event per line) or table"},
	},
	// log streams its events to Options.Output and returns null.
	tool: func(b *Bridge, c Call) (pyjson.Value, error) {
		if b.opts.Output == nil {
			return pyjson.Value{}, internal(errors.New("Options.Output is not set"), "log")
		}
		opts := LogOptions{Since: c.Args.StrOf("since"), Op: c.Args.StrOf("op"), Limit: int(argInt(c, "limit")),
			Table: c.Args.StrOf("format") == "table"}
		return pyjson.NullValue(), b.Log(opts, b.opts.Output)
	},
}

// logOutput is the answer of log.
var logOutput = []OutputField{
	{Name: "events", Type: TypeObjects, Doc: "the events, oldest first, as stored (the command line prints them as JSON lines)"},
	{Name: "count", Type: TypeInt, Doc: "how many events"},
	{Name: "table", Type: TypeString, Doc: "with format table: the table for people (what the command line prints)"},
}

// LogOptions select and format the events Log prints.
type LogOptions struct {
	Since string // a seq ("120") or an RFC 3339 time: events from there on
	Op    string // only events of this operation, or of this group of operations ("goal", "policy")
	Limit int    // only the last Limit matching events (0: all)
	Table bool   // a table for people instead of JSON lines
}

// Log prints the journal's events, oldest first: what the agent reported
// and asked, when, and what each call changed.
func (b *Bridge) Log(opts LogOptions, w io.Writer) error {
	if !b.ws.Exists(relState) {
		return fault.NotInitialized(b.ws.Root())
	}
	f := audit.Filter{Op: opts.Op, Limit: opts.Limit}
	var err error
	if f.SinceSeq, f.SinceTime, err = audit.ParseSince(opts.Since); err != nil {
		return err
	}
	f.Group = slices.ContainsFunc(registry, func(sp *Spec) bool { return sp.Group() == opts.Op })
	if opts.Op != "" && opts.Op != "adopt" && opts.Op != "check" && !f.Group && !slices.Contains(Operations(), opts.Op) {
		return badInput(fault.CodeInvalidValue, "use one of: "+strings.Join(Operations(), ", ")+", adopt, check (a repair)", "--op %q is not an operation", opts.Op)
	}
	events, ok, err := audit.Events(b.ws, f)
	switch {
	case err != nil || !ok:
		return err
	case !opts.Table:
		return audit.WriteLines(w, events)
	}
	return audit.WriteTable(w, events, audit.PinnedDeclarations(b.ws))
}

// summarize says in a few words what a call asked (audit.Summarize).
func summarize(ev pyjson.Value, decls map[string]policy.Declaration) string {
	return audit.Summarize(ev, decls)
}

// changed lists the data files a call appended to (audit.Changed).
func changed(ev pyjson.Value) string { return audit.Changed(ev) }

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
