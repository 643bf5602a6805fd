package contract

import (
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

var SeqField = field.Field{Name: "seq", Type: field.Int, Flag: true, Positional: true, Required: true,
	Doc: "the journal sequence number of the report (ucs log --op report)"}

var ByField = field.Field{Name: "by", Type: field.String, Flag: true, Text: true, Max: 256, Doc: "who makes it (default: UCS_AGENT_ID)"}

var Rate = Op{
	Output:  RateOutput,
	Name:    "rate",
	Summary: "Record an operator's verdict on an earlier action: the strongest evidence",
	Long: `An operator (or a reviewing agent) says how an earlier action really went. The
verdict is learned on that action's transition, in its task's context, with
the confidence of a person's judgment (more than an observed result, more than
the agent's own report); the earlier evidence stays. The report is named by
its journal sequence number (ucs log --op report).`,
	Example:  "ucs rate 42 --success failure --note \"the page was a captcha\"",
	Mutating: true,
	Verdict:  true,
	Fields: []field.Field{SeqField,
		{Name: "success", Type: field.String, Flag: true, Required: true, Enum: statusWords(outcome.Success, outcome.Partial, outcome.Failure), Doc: "the verdict"},
		{Name: "note", Type: field.String, Flag: true, Text: true, Max: field.NoteCap, Doc: "why"},
		ByField,
	},
}

var Amend = Op{
	Output:  AmendOutput,
	Name:    "amend",
	Summary: "Correct a wrong report: another capability, another verdict",
	Long: `The report named by its journal sequence number was wrong: it named the wrong
capability (--action) or the wrong verdict (--success). A compensating event
takes the original outcome back from the learning model and learns the
corrected one in its place; the original stays in the journal, and log shows
both. (The reference's model, v2, cannot take an outcome back: the correction
is learned as a new outcome.)`,
	Example:  "ucs amend 42 --success failure --note \"the tests did not run\"\nucs amend 42 --action web_search",
	Mutating: true,
	Fields: []field.Field{SeqField,
		{Name: "success", Type: field.String, Flag: true, Enum: statusWords(outcome.Success, outcome.Partial, outcome.Failure, outcome.Neutral), Doc: "the corrected verdict (default: the original's)"},
		{Name: "action", Type: field.String, Flag: true, Doc: "the capability actually used (default: the original's)"},
		{Name: "note", Type: field.String, Flag: true, Text: true, Max: field.NoteCap, Doc: "why"},
		ByField,
	},
	Across: func(args, input pyjson.Value) error {
		if args.StrOf("success") == "" && args.StrOf("action") == "" {
			return fault.BadInput(fault.CodeMissingField, "give --success, --action or both", "amend needs a correction")
		}
		return nil
	},
}

// RateOutput is the answer of rate.
var RateOutput = []field.Output{
	{Name: "status", Type: field.String, Always: true, Doc: "\"rated\""},
	{Name: "seq", Type: field.Int, Always: true, Doc: "the journal sequence number of the report rated"},
	{Name: "action", Type: field.String, Always: true, Doc: "the capability the report named"},
	{Name: "reported", Type: field.String, Always: true, Doc: "the outcome reported"},
	{Name: "rated", Type: field.String, Always: true, Doc: "the outcome the verdict gives"},
	{Name: "by", Type: field.String, Always: true, Doc: "whose verdict it is (a verdict through the agent's tools is the agent's own)"},
	{Name: "learning", Type: field.Object, Always: true, Doc: "what the verdict changed in learning"},
	{Name: "observations", Type: field.Objects, Doc: "models v4 and later: the observations the verdict bears on"},
	{Name: "surface", Type: field.String, Doc: "agent: the verdict came through the agent's tools and weighs as its own"},
}

// AmendOutput is the answer of amend.
var AmendOutput = []field.Output{
	{Name: "status", Type: field.String, Always: true, Doc: "\"amended\""},
	{Name: "seq", Type: field.Int, Always: true, Doc: "the journal sequence number of the report amended"},
	{Name: "original", Type: field.Object, Always: true, Doc: "the action and outcome as reported"},
	{Name: "corrected", Type: field.Object, Always: true, Doc: "the action and outcome as corrected"},
	{Name: "by", Type: field.String, Always: true, Doc: "who amended it"},
	{Name: "retracted", Type: field.Object, Always: true, Doc: "what of the original outcome's learning was taken back"},
	{Name: "learning", Type: field.Object, Always: true, Doc: "what the corrected outcome taught"},
	{Name: "surface", Type: field.String, Doc: "agent: the correction came through the agent's tools"},
}
