package transfer

import (
	"bytes"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/goal"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
)

// What export and import carry for a v4 workspace besides the reference's
// package: the observations, the goals and the Markdown files
// people read, so an export imported into a fresh workspace and exported
// again gives the same entries, texts and files; and what makes import
// idempotent and honest: a package imported before changes nothing the
// second time (its digest is remembered in the state's "imports" member,
// Imports), a package from another manifest is said to be one, and what
// could not be mapped is counted with the reason.

// MarkdownFiles are the knowledge files export carries, by package key.
var MarkdownFiles = []struct{ Key, Rel string }{
	{"methodology.md", workspace.RelMethodologyMD}, {"dead-ends.md", workspace.RelDeadEndsMD}, {"experiments.md", workspace.RelExperimentsMD},
}

// governed adds the governed knowledge to an export package: the
// observations and goals when there are any, and the Markdown files that
// read returns.
func governed(pkg pyjson.Value, b *belief.Book, gb *goal.Book, read func(rel string) ([]byte, error)) (pyjson.Value, error) {
	if len(b.Observations()) > 0 {
		obs, err := pyjson.Parse(b.AppendJSON(nil))
		if err != nil {
			return pyjson.Value{}, fault.Internal(err, "encode observations")
		}
		pkg = pkg.With("observations", obs)
	}
	if !gb.Empty() {
		goals, err := pyjson.Parse(gb.AppendJSON(nil))
		if err != nil {
			return pyjson.Value{}, fault.Internal(err, "encode goals")
		}
		pkg = pkg.With("goals", goals)
	}
	var md []pyjson.Member
	for _, f := range MarkdownFiles {
		data, err := read(f.Rel)
		if err == nil {
			md = append(md, pyjson.KV(f.Key, string(data)))
		}
	}
	return pkg.With("markdown", pyjson.ObjectValue(md)), nil
}

// unknownCapabilities compares a package's graph with a workspace's
// manifest: the capabilities it names that has does not know.
func unknownCapabilities(pkg pyjson.Value, has func(string) bool) []string {
	g, _ := pkg.Get("routing_graph")
	nodes, _ := g.Get("nodes")
	var missing []string
	for _, n := range nodes.Items() {
		if name := n.Str(); name != "" && !has(name) {
			missing = append(missing, name)
		}
	}
	return missing
}

// markdownBlocks returns the blocks of a package's knowledge file (text,
// split at blank lines) that the workspace's file (have) does not hold,
// trimmed, in order: an import twice appends nothing.
func markdownBlocks(have []byte, text string) []string {
	var out []string
	for _, block := range strings.SplitAfter(text, "\n\n") {
		if strings.TrimSpace(block) == "" || bytes.Contains(have, []byte(strings.TrimSpace(block))) {
			continue
		}
		out = append(out, strings.TrimSpace(block))
		have = append(have, block...)
	}
	return out
}

// importObservations brings the package's believed observations into
// the workspace's book (read only when the package has observations):
// one b has no belief under its key becomes one, with its supporting
// evidence (content ids, so a second import adds nothing); one whose key
// holds the same claim adds its evidence; one whose key holds another
// claim is not imported (a belief is never replaced silently) and is
// counted as a conflict.
func importObservations(book func() (*belief.Book, error), pkg pyjson.Value) (imported, conflicting int, err error) {
	raw, ok := pkg.Get("observations")
	if !ok {
		return 0, 0, nil
	}
	theirs, err := belief.DecodeBook(pyjson.AppendCompact(nil, raw))
	if err != nil {
		return 0, 0, badObservations("the package's observations: %v", err)
	}
	b, err := book()
	if err != nil {
		return 0, 0, err
	}
	for _, o := range theirs.Observations() {
		if !o.Status.Current() {
			continue
		}
		mine := b.Active(o.Key)
		if mine != nil && mine.Claim != o.Claim {
			conflicting++
			continue
		}
		added := false
		for _, ev := range o.Evidence {
			if ev.Stance == belief.Context {
				continue
			}
			var ch belief.Change
			var err error
			switch {
			case ev.Stance == belief.Contradict && b.Active(o.Key) != nil:
				_, ch, err = b.Contradict(b.Active(o.Key).ID, ev, ev.At)
			case ev.Stance == belief.Support:
				_, ch, err = b.Observe(o.Key, o.Claim, ev, ev.At)
			default:
				continue
			}
			if err != nil {
				return 0, 0, badObservations("observation %s: %v", o.ID, err)
			}
			added = added || !ch.Duplicate
		}
		if added {
			imported++
		}
	}
	return imported, conflicting, nil
}

func badObservations(format string, args ...any) error {
	return fault.BadInput(fault.CodeInvalidValue, "observations must be as ucs export writes them", format, args...)
}
