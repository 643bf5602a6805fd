package contract

import (
	"github.com/unified-cognitive-substrate/ucs/internal/field"
)

var Flush = Op{
	Output:  FlushOutput,
	Name:    "flush",
	Summary: "Save before context compaction and get the prompts of what to externalize",
	Long: `Snapshots the PP vector and names the files the agent should write into
ucs/working-state/ before its context is compacted: hypotheses, reasoning,
open questions, confidence, dependencies. The next resume and consult show
its open questions. The directory is private (0700, made by init), so the
files may have any mode (0644 as usual): check judges the directory's mode,
not theirs.`,
	Example:  "ucs flush",
	Mutating: true,
}

// FlushOutput is the answer of flush.
var FlushOutput = []field.Output{
	{Name: "torusfield_saved", Type: field.Bool, Always: true, Doc: "the engine's state was saved"},
	{Name: "state_digest", Type: field.String, Always: true, Doc: "the first 16 hex digits of the engine state's digest"},
	{Name: "pp_health", Type: field.Number, Always: true, Doc: "the health of the engine's PP vector, 0 to 1"},
	{Name: "pp_snapshot_saved", Type: field.Bool, Always: true, Doc: "a PP snapshot was added to the history"},
	{Name: "artifact_count", Type: field.Int, Always: true, Doc: "the artifacts the engine holds"},
	{Name: "externalization_prompts", Type: field.Object, Always: true, Doc: "what to write down before the context is compacted, file by file"},
	{Name: "write_to", Type: field.String, Always: true, Doc: "the directory to write those files in"},
}
