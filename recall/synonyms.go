package recall

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/learn"
)

// Synonyms is a table of variant terms and the canonical term each stands
// for, both normalised as learn.Terms normalises words: a table listing
// "repair" under "fix" maps repair, repairs, repaired and repairing to fix.
// It is generic vocabulary for a workspace (fix/repair, error/failure,
// deploy/release), written once in the manifest, not a list of the words
// of particular entries.
//
// The zero Synonyms is the empty table. A table is immutable and safe for
// concurrent use.
type Synonyms struct {
	to map[string]string // variant term → canonical term
}

// A SynonymError says which member of a synonym table is wrong and why.
type SynonymError struct {
	Member string // `"fix"` for a canonical word, `"fix"[1]` for its second variant; "" for the table
	Msg    string
}

func (e *SynonymError) Error() string {
	if e.Member == "" {
		return "synonyms: " + e.Msg
	}
	return "synonyms: " + e.Member + ": " + e.Msg
}

// NewSynonyms builds a table from canonical words to their variants, such
// as {"fix": ["repair", "patch"]}. Each word must normalise to exactly one
// term (not a stop word, not shorter than three letters, not two words).
// A variant may stand for one canonical term only, and a canonical term
// may not be another's variant: terms are mapped once, never in chains. A
// variant that normalises to its own canonical term ("fixes" under "fix")
// is dropped. Errors name the first wrong member in the order of the
// sorted canonical words, so the same table always gives the same error.
func NewSynonyms(table map[string][]string) (Synonyms, error) {
	var b synonymBuilder
	for _, canon := range slices.Sorted(maps.Keys(table)) {
		if err := b.add(canon, table[canon]); err != nil {
			return Synonyms{}, err
		}
	}
	return b.done()
}

// ParseSynonyms reads the manifest member "synonyms": a JSON object from
// canonical words to lists of variants,
//
//	{"fix": ["repair", "patch"], "failure": ["error", "crash"]}
//
// with NewSynonyms' rules, checked in the order the members are written.
// null is the empty table. A duplicate canonical word keeps its last list,
// as a JSON object does.
func ParseSynonyms(raw []byte) (Synonyms, error) {
	v, err := pyjson.Parse(raw)
	if err != nil {
		return Synonyms{}, &SynonymError{Msg: err.Error()}
	}
	switch v.Kind() {
	case pyjson.Null:
		return Synonyms{}, nil
	case pyjson.Object:
	default:
		return Synonyms{}, &SynonymError{Msg: "must be an object of canonical words to lists of variants, got " + v.Kind().Noun()}
	}
	var b synonymBuilder
	for _, m := range v.Members() {
		if m.Value.Kind() != pyjson.Array {
			return Synonyms{}, &SynonymError{Member: strconv.Quote(m.Key), Msg: "must be a list of variant words, got " + m.Value.Kind().Noun()}
		}
		variants := make([]string, 0, len(m.Value.Items()))
		for i, it := range m.Value.Items() {
			if it.Kind() != pyjson.String {
				return Synonyms{}, &SynonymError{Member: fmt.Sprintf("%q[%d]", m.Key, i), Msg: "must be a string, got " + it.Kind().Noun()}
			}
			variants = append(variants, it.Str())
		}
		if err := b.add(m.Key, variants); err != nil {
			return Synonyms{}, err
		}
	}
	return b.done()
}

// Len returns the number of variant terms in the table.
func (s Synonyms) Len() int { return len(s.to) }

// Equal reports whether two tables map the same terms to the same terms:
// whether an index built with one may be searched with the other.
func (s Synonyms) Equal(t Synonyms) bool { return maps.Equal(s.to, t.to) }

// Canonical returns the canonical term of a term: the one it stands for
// when the table lists it as a variant, else the term itself.
func (s Synonyms) Canonical(term string) string { return s.canonical(term) }

func (s Synonyms) canonical(term string) string {
	if c, ok := s.to[term]; ok {
		return c
	}
	return term
}

// synonymBuilder collects a table's members and checks them as they come.
type synonymBuilder struct {
	to     map[string]string
	from   map[string]string // variant term → the canonical word it was listed under, for messages
	canons []string          // canonical terms, in the order they came
	words  map[string]string // canonical term → its word, for messages
}

func (b *synonymBuilder) add(canon string, variants []string) error {
	ct, err := oneTerm(canon)
	if err != nil {
		return &SynonymError{Member: strconv.Quote(canon), Msg: err.Error()}
	}
	if b.to == nil {
		b.to, b.from, b.words = map[string]string{}, map[string]string{}, map[string]string{}
	}
	if _, ok := b.words[ct]; !ok {
		b.words[ct] = canon
		b.canons = append(b.canons, ct)
	}
	for i, v := range variants {
		member := fmt.Sprintf("%q[%d]", canon, i)
		vt, err := oneTerm(v)
		if err != nil {
			return &SynonymError{Member: member, Msg: err.Error()}
		}
		if vt == ct {
			continue
		}
		if prev, ok := b.to[vt]; ok && prev != ct {
			return &SynonymError{Member: member, Msg: fmt.Sprintf("%q is already a variant of %q", v, b.from[vt])}
		}
		b.to[vt], b.from[vt] = ct, canon
	}
	return nil
}

// done checks that no canonical term is also a variant and returns the
// table.
func (b *synonymBuilder) done() (Synonyms, error) {
	for _, ct := range b.canons {
		if c, ok := b.to[ct]; ok && c != ct {
			return Synonyms{}, &SynonymError{Member: strconv.Quote(b.words[ct]),
				Msg: fmt.Sprintf("is a canonical word and a variant of %q: map each word once, to one canonical word", b.from[ct])}
		}
	}
	if len(b.to) == 0 {
		return Synonyms{}, nil
	}
	return Synonyms{to: b.to}, nil
}

// oneTerm returns the term a synonym word normalises to.
func oneTerm(word string) (string, error) {
	switch ts := learn.Terms(word); len(ts) {
	case 1:
		return ts[0], nil
	case 0:
		return "", fmt.Errorf("%q has no content term: a stop word, or shorter than three letters", word)
	default:
		return "", fmt.Errorf("%q is more than one word (%v): a synonym maps one word to one word", word, ts)
	}
}
