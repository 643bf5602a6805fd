package knowledge

import (
	"slices"
	"sort"
	"strings"
	"unsafe"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// Features: an entry's features are what its score depends on. Every
// search scores features, by one routine (Prepared.score): the searches
// take them from decoded entries (featuresOf), and the bridge's index keeps
// them, digested once when an entry is stored, so that a consult over
// thousands of entries decodes none but its hits. On the index they are
// one line of ten tab-separated fields:
//
//	date        "" when the entry has none (not a non-empty string)
//	keywords    lowercased, without repeats
//	capabilities  without repeats
//	snapshot    "1" when the entry has a routing snapshot, else ""
//	cursor      the snapshot's cursor ("" for none)
//	targets     the targets of its top paths, without repeats ("" for an
//	            item without a string "to")
//	energy      its context-energy keys
//	hot         those with more than 0.01
//	active      its active artifacts, without repeats
//	reopen      the words of a dead end's reopen conditions
//
// A string is written as the inside of its JSON string (so it holds no
// tab, newline or other control character), and a list as its items each
// preceded by \x1f. A Prepared query scores these lines as the searches
// score the entries, cutting strings out of the line instead of decoding
// it, so a caller picks the best lines, decodes only those entries and
// runs the search on them: hits, scores and order stay those of a search
// over every entry (TestFeatureScoresMatch, and the bridge's scale test).

// FeatureFields is how many fields AppendFeatures writes.
const FeatureFields = 10

// AppendFeatures appends an entry's features to dst.
func AppendFeatures(dst []byte, e Entry) []byte {
	var f features
	featuresOf(e, &f)
	dst = appendInner(dst, f.date)
	dst = appendList(dst, '\t', f.kw)
	dst = appendList(dst, '\t', f.caps)
	if f.hasSnap {
		dst = append(dst, "\t1"...)
	} else {
		dst = append(dst, '\t')
	}
	dst = appendField(dst, f.cursor)
	for _, l := range [][]string{f.targets, f.keys, f.hot, f.active, f.reopen} {
		dst = appendList(dst, '\t', l)
	}
	return dst
}

// featuresOf reads an entry's features into f, reusing its lists.
func featuresOf(e Entry, f *features) {
	*f = features{kw: f.kw[:0], caps: f.caps[:0], targets: f.targets[:0], keys: f.keys[:0],
		hot: f.hot[:0], active: f.active[:0], reopen: f.reopen[:0]}
	f.date = e.StrOf("date")
	forStrings(e, "keywords", func(k string) { f.kw = appendDistinct(f.kw, strings.ToLower(k)) })
	forStrings(e, "capabilities", func(c string) { f.caps = appendDistinct(f.caps, c) })
	snap, ok := e.Get("routing_snapshot")
	f.hasSnap = ok
	f.readSnapshot(snap)
	f.reopen = append(f.reopen, Words(e.StrOf("reopen_conditions"))...)
}

// readSnapshot reads the features of a routing snapshot (an entry's, or
// the query's) into f.
func (f *features) readSnapshot(snap pyjson.Value) {
	f.cursor = snap.StrOf("cursor")
	paths, _ := snap.Get("top_paths")
	for _, p := range paths.Items() {
		to, _ := p.Get("to")
		f.targets = appendDistinct(f.targets, to.Str())
	}
	ce, _ := snap.Get("context_energy")
	for _, m := range ce.Members() {
		f.keys = append(f.keys, m.Key)
		if x, ok := m.Value.Float(); ok && x > 0.01 {
			f.hot = append(f.hot, m.Key)
		}
	}
	forStrings(snap, "active_artifacts", func(a string) { f.active = appendDistinct(f.active, a) })
}

// forStrings calls fn with each string item of a list field of e, as
// Strings lists them.
func forStrings(e Entry, key string, fn func(string)) {
	v, _ := e.Get(key)
	for _, it := range v.Items() {
		if it.Kind() == pyjson.String {
			fn(it.Str())
		}
	}
}

// appendDistinct appends x unless xs holds it: lists keep the first of
// repeated strings.
func appendDistinct(xs []string, x string) []string {
	if slices.Contains(xs, x) {
		return xs
	}
	return append(xs, x)
}

func appendField(dst []byte, s string) []byte {
	return appendInner(append(dst, '\t'), s)
}

func appendList(dst []byte, sep byte, xs []string) []byte {
	dst = append(dst, sep)
	for _, x := range xs {
		dst = appendInner(append(dst, 0x1f), x)
	}
	return dst
}

// appendInner appends s as the inside of its JSON string.
func appendInner(dst []byte, s string) []byte {
	n := len(dst)
	dst = pyjson.AppendString(dst, s)
	copy(dst[n:], dst[n+1:len(dst)-1])
	return dst[:len(dst)-2]
}

// A Prepared query scores lines of features.
type Prepared struct {
	q          Query
	kw, caps   lookup
	routing    *snapshot
	hasRouting bool
	ctxWords   lookup
	decay      map[string]float64
	f          features // scratch
	rest       string   // what read has not read of the line
}

// Prepare readies q for scoring lines of features. context is the text
// whose words trigger dead ends' reopen conditions.
func (q Query) Prepare(context string) *Prepared {
	p := &Prepared{q: q, decay: map[string]float64{}, hasRouting: len(q.Routing.Members()) > 0,
		kw: lookupOf(lowerSet(q.Keywords)), caps: lookupOf(setOf(q.Capabilities))}
	if q.Routing.Kind() == pyjson.Object {
		p.routing = snapshotOf(q.Routing)
	}
	if context != "" {
		p.ctxWords = lookupOf(setOf(Words(context)))
	}
	return p
}

// Clone returns a Prepared for the same query with scratch space of its
// own. A Prepared scores one line at a time, reusing its scratch; each
// goroutine that scores lines needs its own Prepared.
func (p *Prepared) Clone() *Prepared {
	return &Prepared{q: p.q, kw: p.kw, caps: p.caps, routing: p.routing, hasRouting: p.hasRouting,
		ctxWords: p.ctxWords, decay: map[string]float64{}}
}

// features holds an entry's features: read from an entry, or as pieces of
// an index line (decoded only when escaped).
type features struct {
	date               string
	kw, caps           []string
	hasSnap            bool
	cursor             string
	targets, keys, hot []string
	active, reopen     []string
	// head is set while only the date, keywords and capabilities of a
	// line are read (see read); complete reads the rest.
	head bool
}

// read reads a line's features; with head, only the date, keywords and
// capabilities, so that a line that matches nothing costs little. more
// reads the rest.
func (p *Prepared) read(line []byte, head bool) *features {
	f := &p.f
	*f = features{kw: f.kw[:0], caps: f.caps[:0], targets: f.targets[:0], keys: f.keys[:0],
		hot: f.hot[:0], active: f.active[:0], reopen: f.reopen[:0]}
	p.rest = unsafe.String(unsafe.SliceData(line), len(line))
	f.date = unescape(p.field())
	f.kw = splitList(p.field(), f.kw)
	f.caps = splitList(p.field(), f.caps)
	f.head = true
	if !head {
		p.complete(f)
	}
	return f
}

// complete reads the rest of a line whose head only was read.
func (p *Prepared) complete(f *features) {
	if !f.head {
		return
	}
	f.head = false
	f.hasSnap = p.field() == "1"
	f.cursor = unescape(p.field())
	f.targets = splitList(p.field(), f.targets)
	f.keys = splitList(p.field(), f.keys)
	f.hot = splitList(p.field(), f.hot)
	f.active = splitList(p.field(), f.active)
	f.reopen = splitList(p.field(), f.reopen)
}

// field cuts the next tab-separated field off the line.
func (p *Prepared) field() string {
	i := strings.IndexByte(p.rest, '\t')
	if i < 0 {
		f := p.rest
		p.rest = ""
		return f
	}
	f := p.rest[:i]
	p.rest = p.rest[i+1:]
	return f
}

// splitList appends the items of a list field to dst.
func splitList(field string, dst []string) []string {
	for len(field) > 0 && field[0] == 0x1f {
		esc := false
		i := 1
		for ; i < len(field) && field[i] != 0x1f; i++ {
			if field[i] == '\\' {
				esc = true
			}
		}
		item := field[1:i]
		if esc {
			item = unescape(item)
		}
		dst = append(dst, item)
		field = field[i:]
	}
	return dst
}

// unescape decodes the inside of a JSON string.
func unescape(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	v, err := pyjson.Parse([]byte(`"` + s + `"`))
	if err != nil {
		return s
	}
	return v.Str()
}

// overlap is overlapScore: 2 points per shared keyword, 3 per capability.
func (p *Prepared) overlap(f *features) float64 {
	return float64(count(p.kw, f.kw))*2 + float64(count(p.caps, f.caps))*3
}

// A lookup is a set of strings, searched by comparison when it is small
// (a query's few keywords and capabilities) and hashed when it is not.
type lookup struct {
	small []string
	m     set
}

func lookupOf(s set) lookup {
	if len(s) > 16 {
		return lookup{m: s}
	}
	l := lookup{small: make([]string, 0, len(s))}
	for x := range s {
		l.small = append(l.small, x)
	}
	return l
}

func (l lookup) has(x string) bool {
	if l.m != nil {
		return l.m[x]
	}
	for _, y := range l.small {
		if len(y) == len(x) && y == x {
			return true
		}
	}
	return false
}

func (l lookup) len() int { return len(l.small) + len(l.m) }

// count counts the members of xs (distinct) in l.
func count(l lookup, xs []string) int {
	n := 0
	if l.len() == 0 {
		return 0
	}
	for _, x := range xs {
		if l.has(x) {
			n++
		}
	}
	return n
}

func (p *Prepared) decayOf(date string) float64 {
	if d, ok := p.decay[date]; ok {
		return d
	}
	d := Decay(date, p.q.Now, p.q.DecayRate)
	p.decay[strings.Clone(date)] = d
	return d
}

func (p *Prepared) structural(f *features) float64 {
	if !f.hasSnap {
		return 0
	}
	return p.q.StructuralWeight * p.routing.similarity(f)
}

// A Kind is a kind of entry, which decides how it is scored.
type Kind int

const (
	MethodologyKind Kind = iota // as SearchMethodology scores
	JudgmentKind                // as SearchJudgmentNodes scores
	DeadEndKind                 // as SearchDeadEnds scores, with Prepare's context
)

// Score scores a line of features as the search for entries of kind k
// scores the entry; false when the search skips the entry.
func (p *Prepared) Score(k Kind, line []byte) (float64, bool) {
	return p.score(k, p.read(line, true))
}

// ScoreEntry scores an entry as the search for entries of kind k does;
// false when the search skips it.
func (p *Prepared) ScoreEntry(k Kind, e Entry) (float64, bool) {
	featuresOf(e, &p.f)
	return p.score(k, &p.f)
}

// score is the one scoring rule, for every kind of entry, from its
// features; false when the search skips the entry:
//
//   - overlap: 2 points per keyword shared with the query (case
//     insensitive), 3 per capability;
//   - methodology: entries without overlap are skipped; the overlap is
//     scaled by the entry's temporal decay, and the structural similarity
//     of its routing snapshot to the query's, times StructuralWeight, is
//     added;
//   - judgment nodes: as methodology, but with a routing snapshot in the
//     query every node is scored, so a structural match alone can surface
//     one (a node scoring 0 is skipped);
//   - dead ends: a dead end whose reopen conditions share words with the
//     context (Prepare's) scores 1.5 per shared word when nothing else
//     overlaps; without either it is skipped; the score is scaled by decay.
func (p *Prepared) score(k Kind, f *features) (float64, bool) {
	score := p.overlap(f)
	switch k {
	case MethodologyKind:
		if score <= 0 {
			return 0, false
		}
	case JudgmentKind:
		if score <= 0 && !p.hasRouting {
			return 0, false
		}
	case DeadEndKind:
		p.complete(f)
		if matched := count(p.ctxWords, f.reopen); matched > 0 && score <= 0 {
			score = float64(matched) * 1.5 // reopen conditions met (no context: no words)
		}
		if score <= 0 {
			return 0, false
		}
		return score * p.decayOf(f.date), true
	}
	score *= p.decayOf(f.date)
	if p.routing != nil {
		p.complete(f)
		score += p.structural(f)
	}
	return score, score > 0
}

// reopenMatched returns the words of the last scored dead end's reopen
// conditions that the context holds, sorted.
func (p *Prepared) reopenMatched() []string {
	var out []string
	for _, w := range p.f.reopen {
		if p.ctxWords.has(w) {
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}

// Methodology scores a methodology entry's features as SearchMethodology
// scores the entry; false when the search skips it.
func (p *Prepared) Methodology(line []byte) (float64, bool) { return p.Score(MethodologyKind, line) }

// JudgmentNode scores a judgment node's features as SearchJudgmentNodes
// scores the node.
func (p *Prepared) JudgmentNode(line []byte) (float64, bool) { return p.Score(JudgmentKind, line) }

// DeadEnd scores a dead end's features as SearchDeadEnds scores the dead
// end (with the context given to Prepare).
func (p *Prepared) DeadEnd(line []byte) (float64, bool) { return p.Score(DeadEndKind, line) }

// A RawHit is a line picked by its score: its position among the lines
// scored.
type RawHit struct {
	Index int
	Score float64
}

// TopRaw returns the positions of the best n hits by descending score,
// and every hit tied with the n-th, in position order: the entries a
// search returning n hits could return.
func TopRaw(hits []RawHit, n int) []int {
	n = min(max(n, 0), len(hits))
	if n == 0 {
		return []int{}
	}
	scores := make([]float64, len(hits))
	for i, h := range hits {
		scores[i] = h.Score
	}
	slices.Sort(scores)
	least := scores[len(scores)-n] // the n-th best
	out := make([]int, 0, n)
	for _, h := range hits {
		if h.Score >= least {
			out = append(out, h.Index)
		}
	}
	slices.Sort(out)
	return out
}

// snapshot is the current routing snapshot, prepared for comparison.
type snapshot struct {
	cursor    string
	targets   lookup
	energyAll lookup // keys of context_energy
	energized lookup
	hasEnergy bool
	active    lookup
}

func snapshotOf(v pyjson.Value) *snapshot {
	var f features
	f.readSnapshot(v)
	return &snapshot{cursor: f.cursor, targets: lookupOf(setOf(f.targets)), energyAll: lookupOf(setOf(f.keys)),
		energized: lookupOf(setOf(f.hot)), hasEnergy: len(f.keys) > 0, active: lookupOf(setOf(f.active))}
}

// similarity is the structural similarity of a historical routing
// snapshot (its features) to the current one, the "pattern of the
// pattern": the same cursor, the overlap of the top paths' destinations
// (Jaccard), the capabilities energized by context in both over all
// capabilities with context energy in either, and the overlap of active
// artifacts (Jaccard). Each comparable component scores in [0, 1]; the
// result is their mean, 0 when none compares.
func (cur *snapshot) similarity(f *features) float64 {
	score := 0.0
	components := 0
	if cur.cursor != "" && f.cursor != "" {
		components++
		if cur.cursor == f.cursor {
			score += 1.0
		}
	}
	if cur.targets.len() > 0 && len(f.targets) > 0 {
		components++
		inter := count(cur.targets, f.targets)
		score += float64(inter) / float64(max(cur.targets.len()+len(f.targets)-inter, 1))
	}
	if cur.hasEnergy && len(f.keys) > 0 {
		components++
		all := cur.energyAll.len() + len(f.keys) - count(cur.energyAll, f.keys)
		score += float64(count(cur.energized, f.hot)) / float64(all)
	}
	if cur.active.len() > 0 || len(f.active) > 0 {
		components++
		if cur.active.len() > 0 && len(f.active) > 0 {
			inter := count(cur.active, f.active)
			score += float64(inter) / float64(max(cur.active.len()+len(f.active)-inter, 1))
		}
	}
	return score / float64(max(components, 1))
}
