package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/field"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/relevance"
)

var flushSpec = Spec{
	Output:  flushOutput,
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
	run:      opFlush,
}

// opFlush prepares for compaction: the state is saved, the PP vector
// snapshotted, and the agent is told what to externalize, and where.
func opFlush(s *session, _ Call) (pyjson.Value, error) {
	e := s.engine
	if err := s.snapshotPP(); err != nil {
		return pyjson.Value{}, err
	}
	dir := s.ws.Path(relWorkingState)
	return pyjson.Obj(
		pyjson.KV("torusfield_saved", true),
		pyjson.KV("state_digest", e.Digest()[:16]),
		pyjson.KV("pp_health", pyjson.Round(e.PP.Health(), 4)),
		pyjson.KV("pp_snapshot_saved", true),
		pyjson.KV("artifact_count", e.Artifacts.Len()),
		pyjson.KV("externalization_prompts", relevance.Externalization(dir, isoDate(s.now))),
		pyjson.KV("write_to", dir),
	), nil
}

// flushOutput is the answer of flush.
var flushOutput = []field.Output{
	{Name: "torusfield_saved", Type: field.Bool, Always: true, Doc: "the engine's state was saved"},
	{Name: "state_digest", Type: field.String, Always: true, Doc: "the first 16 hex digits of the engine state's digest"},
	{Name: "pp_health", Type: field.Number, Always: true, Doc: "the health of the engine's PP vector, 0 to 1"},
	{Name: "pp_snapshot_saved", Type: field.Bool, Always: true, Doc: "a PP snapshot was added to the history"},
	{Name: "artifact_count", Type: field.Int, Always: true, Doc: "the artifacts the engine holds"},
	{Name: "externalization_prompts", Type: field.Object, Always: true, Doc: "what to write down before the context is compacted, file by file"},
	{Name: "write_to", Type: field.String, Always: true, Doc: "the directory to write those files in"},
}
