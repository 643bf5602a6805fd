package contract

import (
	"github.com/unified-cognitive-substrate/ucs/internal/field"
)

var Log = Op{
	Output:  LogOutput,
	Name:    "log",
	Summary: "Show the history: what the agent reported and asked, when, and what it changed",
	Long: `Prints the journal's events, oldest first, as JSON lines (the events as stored,
hash-chained) or as a table for people.`,
	Example: "ucs log --format table --limit 20\nucs log --op report --since 2026-11-21T00:00:00Z",
	Fields: []field.Field{
		{Name: "since", Type: field.String, Flag: true, Doc: "from this event (a sequence number) or time (RFC 3339) on"},
		{Name: "op", Type: field.String, Flag: true, Doc: "only events of this operation"},
		{Name: "limit", Type: field.Int, Flag: true, Doc: "only the last N matching events"},
		{Name: "format", Type: field.String, Flag: true, Enum: []string{"json", "table"}, Default: "json", Doc: "json (one event per line) or table"},
	},
	// log streams its events to Options.Output and returns null.
}

// LogOutput is the answer of log.
var LogOutput = []field.Output{
	{Name: "events", Type: field.Objects, Doc: "the events, oldest first, as stored (the command line prints them as JSON lines)"},
	{Name: "count", Type: field.Int, Doc: "how many events"},
	{Name: "table", Type: field.String, Doc: "with format table: the table for people (what the command line prints)"},
}
