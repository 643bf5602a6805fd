package contract

import (
	"unicode"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// Outcomes and significances of a report, as the reference defines them.
var (
	outcomes      = statusWords(outcome.Reported...)
	significances = []string{"routine", "notable", "critical"}
	reflectTypes  = []string{"post_task", "annotation", "experiment", "dead_end", "synthesis"}
)

// statusWords are the words of statuses, for a field's Enum.
func statusWords(statuses ...outcome.Status) []string {
	words := make([]string, len(statuses))
	for i, s := range statuses {
		words[i] = s.String()
	}
	return words
}

// taskID checks a task id an agent sent: no control characters, which
// v5's keys use to join their parts (a task id holding one could name
// another task's evidence).
func taskID(key, id string) error {
	for _, r := range id {
		if unicode.IsControl(r) {
			return fault.BadInput(fault.CodeInvalidValue, "a task id is plain text", "field %q holds a control character", key)
		}
	}
	return nil
}

// flag reads a boolean flag of a call's args.
func flag(args pyjson.Value, key string) bool {
	v, _ := args.Get(key)
	return v.Bool()
}
