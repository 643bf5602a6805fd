package contract

import (
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/history"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

var Synthesize = Op{
	Output:  SynthesizeOutput,
	Name:    "synthesize",
	Summary: "Gather the raw material of a periodic synthesis",
	Long: `What the agent did since the last synthesis and how it went: action
allocation, PP trend, misalignments, stale artifacts, recent methodology, and
the prompts of a synthesis, which the agent writes itself (reflect type
synthesis).`,
	Example: "ucs synthesize\nucs synthesize --since 7d\nucs synthesize --since 2026-11-01",
	Fields: []field.Field{{Name: "since", Type: field.String, Flag: true,
		Doc: "the period's start: a date (2026-11-01), an RFC 3339 time, or a span back from now (7d, 36h); default: the last synthesis, else today"}},
	Across: func(args, input pyjson.Value) error {
		if v := args.StrOf("since"); v != "" {
			if _, err := history.ParseSince(v, time.Unix(0, 0)); err != nil {
				return err
			}
		}
		return nil
	},
}

// SynthesizeOutput is the answer of synthesize.
var SynthesizeOutput = []field.Output{
	{Name: "synthesis_data", Type: field.Object, Always: true, Doc: "the period's actions, outcomes, PP trend and artifacts"},
	{Name: "synthesis_prompts", Type: field.Object, Always: true, Doc: "the questions a synthesis answers"},
}
