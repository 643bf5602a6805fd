package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/relevance"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

var flushSpec = Spec{
	Op:  contract.Flush,
	run: opFlush,
}

// opFlush prepares for compaction: the state is saved, the PP vector
// snapshotted, and the agent is told what to externalize, and where.
func opFlush(s *session, _ Call) (pyjson.Value, error) {
	e := s.engine
	if err := s.snapshotPP(); err != nil {
		return pyjson.Value{}, err
	}
	dir := s.ws.Path(workspace.RelWorkingState)
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
