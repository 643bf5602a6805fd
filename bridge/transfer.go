package bridge

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/belief"
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// What export and import carry for a v4 workspace besides the reference's
// package: the observations, the goals and the Markdown files
// people read, so an export imported into a fresh workspace and exported
// again gives the same entries, texts and files; and what makes import
// idempotent and honest: a package imported before changes nothing the
// second time (its digest is remembered in the state's "imports" member),
// a package from another manifest is said to be one, and what could not
// be mapped is counted with the reason.

const importsMember = "imports"

// importsKept is how many imported packages' digests a workspace remembers.
const importsKept = 100

// markdownFiles are the knowledge files export carries, by package key.
var markdownFiles = []struct{ key, rel string }{
	{"methodology.md", relMethodologyMD}, {"dead-ends.md", relDeadEndsMD}, {"experiments.md", relExperimentsMD},
}

// exportGoverned adds the governed knowledge to an export package.
func (s *session) exportGoverned(pkg pyjson.Value) (pyjson.Value, error) {
	b, err := s.book()
	if err != nil {
		return pyjson.Value{}, err
	}
	if len(b.Observations()) > 0 {
		obs, err := pyjson.Parse(b.AppendJSON(nil))
		if err != nil {
			return pyjson.Value{}, internal(err, "encode observations")
		}
		pkg = pkg.With("observations", obs)
	}
	if gb, err := s.goals(); err != nil {
		return pyjson.Value{}, err
	} else if !gb.Empty() {
		goals, err := pyjson.Parse(gb.AppendJSON(nil))
		if err != nil {
			return pyjson.Value{}, internal(err, "encode goals")
		}
		pkg = pkg.With("goals", goals)
	}
	var md []pyjson.Member
	for _, f := range markdownFiles {
		data, err := s.ws.ReadFile(f.rel)
		if err == nil {
			md = append(md, pyjson.KV(f.key, string(data)))
		}
	}
	return pkg.With("markdown", pyjson.ObjectValue(md)), nil
}

// packageDigest identifies a package's content, whenever it was exported.
func packageDigest(pkg pyjson.Value) string {
	sum := sha256.Sum256(pyjson.Canonical(withoutMember(withoutMember(pkg, "exported_at"), "request_id")))
	return hex.EncodeToString(sum[:12])
}

func withoutMember(v pyjson.Value, key string) pyjson.Value {
	var ms []pyjson.Member
	for _, m := range v.Members() {
		if m.Key != key {
			ms = append(ms, m)
		}
	}
	return pyjson.ObjectValue(ms)
}

// importedBefore reports whether a package of that digest was imported,
// and remembers it.
func (s *session) importedBefore(digest string) bool {
	var seen []string
	if s.state.imports.raw != nil {
		v, err := pyjson.Parse(s.state.imports.raw)
		if err == nil {
			for _, it := range v.Items() {
				seen = append(seen, it.Str())
			}
		}
	}
	for _, d := range seen {
		if d == digest {
			return true
		}
	}
	seen = append(seen, digest)
	if len(seen) > importsKept {
		seen = seen[len(seen)-importsKept:]
	}
	s.state.imports.raw = pyjson.AppendCompact(nil, pyjson.From(seen))
	return false
}

// manifestReport compares a package's graph with the workspace's manifest:
// the capabilities it names that this workspace lacks.
func (s *session) manifestReport(pkg pyjson.Value) []string {
	g, _ := pkg.Get("routing_graph")
	nodes, _ := g.Get("nodes")
	var missing []string
	for _, n := range nodes.Items() {
		if name := n.Str(); name != "" && !s.manifest.Has(name) {
			missing = append(missing, name)
		}
	}
	return missing
}

// importMarkdown appends to the knowledge files the text the package's
// files hold that this workspace's do not (an import twice appends
// nothing).
func (s *session) importMarkdown(pkg pyjson.Value, counts map[string]int) {
	md, _ := pkg.Get("markdown")
	for _, f := range markdownFiles {
		x, ok := md.Get(f.key)
		if !ok || x.Kind() != pyjson.String {
			continue
		}
		have, _ := s.ws.ReadFile(f.rel)
		for _, block := range strings.SplitAfter(x.Str(), "\n\n") {
			if strings.TrimSpace(block) == "" || bytes.Contains(have, []byte(strings.TrimSpace(block))) {
				continue
			}
			s.appendText(f.rel, strings.TrimSpace(block))
			have = append(have, block...)
			counts["markdown_blocks"]++
		}
	}
}

// importObservations brings the package's believed observations in: one
// this workspace has no belief under its key becomes one, with its
// supporting evidence (content ids, so a second import adds nothing);
// one whose key holds the same claim here adds its evidence; one whose key
// holds another claim here is not imported (a belief is never replaced
// silently) and is counted as a conflict.
func (s *session) importObservations(pkg pyjson.Value, counts map[string]int) error {
	raw, ok := pkg.Get("observations")
	if !ok {
		return nil
	}
	theirs, err := belief.DecodeBook(pyjson.AppendCompact(nil, raw))
	if err != nil {
		return badInput(fault.CodeInvalidValue, "observations must be as ucs export writes them", "the package's observations: %v", err)
	}
	b, err := s.book()
	if err != nil {
		return err
	}
	for _, o := range theirs.Observations() {
		if !o.Status.Current() {
			continue
		}
		mine := b.Active(o.Key)
		if mine != nil && mine.Claim != o.Claim {
			counts["observations_conflicting"]++
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
				return badInput(fault.CodeInvalidValue, "observations must be as ucs export writes them", "observation %s: %v", o.ID, err)
			}
			added = added || !ch.Duplicate
		}
		if added {
			counts["observations"]++
		}
	}
	return nil
}
