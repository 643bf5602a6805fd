package recall

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func mustSynonyms(t testing.TB, table map[string][]string) Synonyms {
	t.Helper()
	s, err := NewSynonyms(table)
	require.NoError(t, err)
	return s
}

// Both sides are normalised: any form of a variant maps to the canonical
// term, and terms the table does not list are left alone.
func TestSynonymsNormalise(t *testing.T) {
	s := mustSynonyms(t, map[string][]string{"fix": {"repair", "patches", "fixes"}, "Failure": {"errors", "crashing"}})
	assert.Equal(t, 4, s.Len(), "fixes normalises to fix itself and is dropped")
	a := NewAnalyzer(s)
	assert.Equal(t, []string{"failur", "fix", "parser"}, a.Terms("repairing the parser crashed, errors"))
	assert.Equal(t, []TermCount{{"fix", 3}}, a.Counts("patched, repaired, fix"))
	assert.Equal(t, "fix", s.Canonical("repair"))
	assert.Equal(t, "test", s.Canonical("test"))
	assert.Equal(t, s, a.Synonyms())
}

func TestSynonymsEqual(t *testing.T) {
	a := mustSynonyms(t, map[string][]string{"fix": {"repair"}})
	b := mustSynonyms(t, map[string][]string{"fixes": {"repairing", "fixing"}})
	assert.True(t, a.Equal(b), "the same terms")
	assert.False(t, a.Equal(Synonyms{}))
	assert.True(t, Synonyms{}.Equal(mustSynonyms(t, nil)))
}

func TestNewSynonymsErrors(t *testing.T) {
	for _, tc := range []struct {
		table map[string][]string
		want  string
	}{
		{map[string][]string{"the": {"fix"}}, `synonyms: "the": "the" has no content term: a stop word, or shorter than three letters`},
		{map[string][]string{"fix": {"ok"}}, `synonyms: "fix"[0]: "ok" has no content term: a stop word, or shorter than three letters`},
		{map[string][]string{"fix": {"roll back"}}, `synonyms: "fix"[0]: "roll back" is more than one word ([back roll]): a synonym maps one word to one word`},
		{map[string][]string{"fix": {"patch"}, "mend": {"patch"}}, `synonyms: "mend"[0]: "patch" is already a variant of "fix"`},
		{map[string][]string{"fix": {"repair"}, "repair": {"mend"}}, `synonyms: "repair": is a canonical word and a variant of "fix": map each word once, to one canonical word`},
	} {
		_, err := NewSynonyms(tc.table)
		assert.EqualError(t, err, tc.want)
		var se *SynonymError
		assert.ErrorAs(t, err, &se)
	}
}

func TestParseSynonyms(t *testing.T) {
	s, err := ParseSynonyms([]byte(`{"fix": ["repair", "mend"], "deploy": ["release", "ship"]}`))
	require.NoError(t, err)
	assert.True(t, s.Equal(mustSynonyms(t, map[string][]string{"deploy": {"ship", "release"}, "fix": {"mend", "repair"}})))

	s, err = ParseSynonyms([]byte(`null`))
	require.NoError(t, err)
	assert.Equal(t, 0, s.Len())

	for _, tc := range []struct{ raw, want string }{
		{`[]`, `synonyms: must be an object of canonical words to lists of variants, got an array`},
		{`{"fix": "repair"}`, `synonyms: "fix": must be a list of variant words, got a string`},
		{`{"fix": ["repair", 3]}`, `synonyms: "fix"[1]: must be a string, got an int`},
		{`{"fix": ["repair"], "mend": ["repair"]}`, `synonyms: "mend"[0]: "repair" is already a variant of "fix"`},
		{`{"a": []}`, `synonyms: "a": "a" has no content term: a stop word, or shorter than three letters`},
	} {
		_, err := ParseSynonyms([]byte(tc.raw))
		assert.EqualError(t, err, tc.want, tc.raw)
	}
	_, err = ParseSynonyms([]byte(`{"fix": [`))
	assert.ErrorContains(t, err, "synonyms: ")
}

// Map order never reaches the result: the same table always gives the
// same error, the first in the order of the sorted canonical words.
func TestNewSynonymsDeterministic(t *testing.T) {
	table := map[string][]string{"zeta": {"the"}, "alpha": {"an"}, "mid": {"of"}, "beta": {"to"}}
	_, first := NewSynonyms(table)
	for range 50 {
		_, err := NewSynonyms(table)
		assert.Equal(t, first.Error(), err.Error())
	}
	assert.EqualError(t, first, `synonyms: "alpha"[0]: "an" has no content term: a stop word, or shorter than three letters`)
}
