package skill

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	ucs "github.com/unified-cognitive-substrate/ucs"
)

// yamlSeeds are frontmatter forms the parser accepts, and a few it rejects.
var yamlSeeds = []string{
	"name: ucs\ndescription: d\n",
	"name: ucs # a comment\n# a comment line\ndescription: 'it''s'\n",
	"description: \"tab\\there \\u00e9 \\x41 \\U0001F9ED \\\" \\\\ \\/ \\N \\_\"\n",
	"a: 1\nb: -2\nc: +3\nd: 1.5\ne: .5\nf: 1e3\ng: -.inf\nh: .nan\ni: true\nj: False\nk: ~\nl: null\nm:\nn: 0\no: 1.\n",
	"version: 1.0.0\nv: 0.1.0\nw: 1.2.3-rc1\nx: -x\ny: ?y\nz: :z\n",
	"a: 0x1F\n", "a: 1_000\n", "a: 007\n", "a: 08\n", "a: 2024-01-02\n", "a: 0b101\n", "a: 0o17\n", "a: 99999999999999999999\n", "a: 1e999\n",
	"metadata:\n  version: \"0.1.0\"\n  openclaw:\n    emoji: \"🧭\"\n    requires:\n      bins: [\"ucs\"]\n",
	"install:\n  - id: go\n    kind: go\n    bins: [\"ucs\"]\n  - id: other\n    label: x\n",
	"key:\n- a\n- b\nnext: c\n",
	"key:\n- a: 1\n  b:\n  - x\n  - y\n  c: 2\nnext: c\n",
	"list:\n  -\n    a: b\n  - c\n  -\n  - [1, 2]\n",
	"description: a long\n  description that\n\n  goes on\nnext: x\n",
	"description: |\n  line one\n    indented\n\n  line three\n",
	"description: |-\n  a\n  b\n\n",
	"description: >\n  folded\n  text\n\n  new paragraph\nnext: x\n",
	"description: >-\n\n  a\n  b\n",
	"description: |\n\nnext: x\n",
	"m: {a: b, \"c\": 'd', e: [1, two, {f: g}], h: }\n",
	"m: [a, b,]\nn: []\no: {}\n",
	"  indented: top\n  level: mapping\n",
	"\"quoted key\": v\n'single': w\n",
	"a: b\r\nc: d\r\n",
	"a: &x b\n", "a: *x\n", "a: !!str b\n", "? a\n: b\n", "a: |+\n  x\n", "a: |2\n  x\n", "a: 'x\n  y'\n", "a: [x,\n  y]\n",
	"a:\tb\n", "\ta: b\n", "\t", "A: >\n 0", "A: 0b+0", "A: +_0", "A: |\n 0\r", "A: [:0]", "A: [-x, -1]", "... :", "a:\n... x", "A: [0?]", "A: [http://x.y/z, a:b]", `"` + strings.Repeat("0", 1100) + `":`, "a: b\n  c: d\n", "a: b: c\n", "- a\n", "a: x\n  - y\n", "a: b\na: c\n", "null: x\n", "1: x\n", "<<: x\n",
}

func FuzzFrontmatterYAML(f *testing.F) {
	for _, s := range yamlSeeds {
		f.Add(s)
	}
	fm, _, _ := strings.Cut(strings.TrimPrefix(string(ucs.SkillMD), "---"), "---")
	f.Add(fm)
	f.Fuzz(func(t *testing.T, src string) {
		got, err := parseYAML(src, 1)
		if err != nil {
			var ye *yamlError
			require.True(t, errors.As(err, &ye), "%v", err)
			assert.True(t, ye.line >= 1 && ye.line <= strings.Count(src, "\n")+1, "line %d of %q", ye.line, src)
			return
		}
		requireAsYAMLv3(t, src, got)
	})
}

// sameYAML is reflect.DeepEqual with NaN equal to NaN.
// requireAsYAMLv3 fails unless yaml.v3 accepts src, which parseYAML
// accepted, and reads the same document as got.
func requireAsYAMLv3(t testing.TB, src string, got map[string]any) {
	t.Helper()
	var want map[string]any
	if err := yaml.Unmarshal([]byte(src), &want); err != nil {
		t.Fatalf("accepted %q, which yaml.v3 rejects: %v", src, err)
	}
	if want == nil {
		want = map[string]any{}
	}
	if !sameYAML(got, want) {
		t.Fatalf("%q:\n got %#v\nwant %#v (yaml.v3)", src, got, want)
	}
}

func sameYAML(a, b any) bool {
	switch a := a.(type) {
	case float64:
		b, ok := b.(float64)
		return ok && (a == b || math.IsNaN(a) && math.IsNaN(b))
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, v := range a {
			w, ok := b[k]
			if !ok || !sameYAML(v, w) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !sameYAML(a[i], b[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// TestYAMLAccepts: the forms frontmatter is written in parse to what
// YAML means by them.
func TestYAMLAccepts(t *testing.T) {
	cases := []struct {
		src  string
		want map[string]any
	}{
		{"", map[string]any{}},
		{"# only a comment\n\n", map[string]any{}},
		{"name: ucs # why\ndescription: 'it''s: fine'\n", map[string]any{"name": "ucs", "description": "it's: fine"}},
		{"a: 1\nb: 1.5\nc: true\nd: ~\ne:\nf: 1.0.0\ng: yes\n",
			map[string]any{"a": 1, "b": 1.5, "c": true, "d": nil, "e": nil, "f": "1.0.0", "g": "yes"}},
		{"d: \"\\u00e9\\t\\\"x\\\"\"\n", map[string]any{"d": "é\t\"x\""}},
		{"d: a long\n  value\n\n  goes on\n", map[string]any{"d": "a long value\ngoes on"}},
		{"d: |\n  one\n    two\n\n  three\n\nnext: x\n", map[string]any{"d": "one\n  two\n\nthree\n", "next": "x"}},
		{"d: >-\n  one\n  two\n\n  three\n", map[string]any{"d": "one two\nthree"}},
		{"m:\n  k: [a, \"b\", {c: 1}]\n  l:\n  - x\n  - y: z\n    w: v\n",
			map[string]any{"m": map[string]any{"k": []any{"a", "b", map[string]any{"c": 1}}, "l": []any{"x", map[string]any{"y": "z", "w": "v"}}}}},
	}
	for _, c := range cases {
		got, err := parseYAML(c.src, 1)
		require.NoError(t, err, "%q", c.src)
		assert.Equal(t, c.want, got, "%q", c.src)
		var want map[string]any
		require.NoError(t, yaml.Unmarshal([]byte(c.src), &want))
		if want == nil {
			want = map[string]any{}
		}
		assert.True(t, sameYAML(got, want), "%q: yaml.v3 reads %#v", c.src, want)
	}
}

// TestYAMLRejects: what is outside the subset is an error naming the line
// (counted from the frontmatter's "---", line 1) and what to do.
func TestYAMLRejects(t *testing.T) {
	cases := []struct{ src, want string }{
		{"\nname: ucs\nv: &a x\n", "line 3: anchors"},
		{"\nv: *a\n", "line 2: anchors (&), aliases (*)"},
		{"\nv: !!str x\n", "tags"},
		{"\nv: 0x1F\n", "line 2: the value \"0x1F\" would be read as a number or a date in a form this parser does not support"},
		{"\nv: 2024-01-02\n", "quote it"},
		{"\nv: 007\n", "quote it"},
		{"\nv: 1_000\n", "quote it"},
		{"\nv: |+\n  x\n", "keep chomping"},
		{"\nv: 'x\n  y'\n", "line 2: the quoted value does not close"},
		{"\nv: [a,\n  b]\n", "must close on its line"},
		{"\nv:\tx\n", "tab"},
		{"\n\tv: x\n", "line 2: a tab in indentation"},
		{"\nv: a: b\n", "must be quoted"},
		{"\nv: a\nv: b\n", "line 3: duplicate key \"v\""},
		{"\n- a\n", "not a list"},
		{"\nv: x\n  w: y\n", "line 3: a value holding"},
		{"\nv: \"x\"\n  w: y\n", "line 3: unexpected indentation"},
		{"\n1: x\n", "quote it"},
		{"\n? a\n", "expected key: value"},
		{"\nv: x\u2028y\n", "line separator"},
		{"\nv: \"\\ud800\"\n", "invalid escape"},
	}
	for _, c := range cases {
		_, err := parseYAML(c.src, 1)
		if assert.Error(t, err, "%q", c.src) {
			assert.Contains(t, err.Error(), c.want, "%q", c.src)
		}
	}
	_, _, err := ParseFrontmatter([]byte("---\nname: ucs\nmetadata: {a: &x b}\n---\nbody\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "SKILL.md frontmatter, line 3: anchors")
}

// TestYAMLGenerated compares with yaml.v3 on documents generated from the
// pieces frontmatter is made of, nested and indented at random (mutation
// fuzzing rarely produces a document this parser accepts).
func TestYAMLGenerated(t *testing.T) {
	scalars := []string{"x", "a b", "1", "-2", "+3", "1.5", ".5", "1e3", "1.", "0", "007", "0x1F", "1_0", "2024-01-02", "1.0.0",
		"true", "False", "yes", "~", "null", ".inf", "-.Inf", ".nan", "'q'", "'it''s'", `"d\tq\u00e9"`, `"a: b"`, "a:b", "-x", "?x", ":x",
		"x # c", "a #b", "a#b", "é🧭", "[]", "{}", "[a, 'b', 1]", "[a, [b, c], {d: e}]", "{a: b, 'c': 1, e: }", "[a,]", "{a: [1, 2]}", "&a x", "a: b"}
	keys := []string{"name", "description", "metadata", "k", "allowed-tools", "'q k'", `"d k"`, "a b", "x.y", "v", "w", "label", "id", "bins"}
	r := rand.New(rand.NewPCG(1, 2))
	var gen func(b *strings.Builder, ind, depth int, inSeq bool)
	pad := func(n int) string { return strings.Repeat(" ", n) }
	value := func(b *strings.Builder, ind, depth int) {
		switch n := r.IntN(10); {
		case n < 5 || depth > 3:
			b.WriteString(" " + scalars[r.IntN(len(scalars))] + "\n")
			if r.IntN(6) == 0 { // a continuation line
				b.WriteString(pad(ind+1+r.IntN(3)) + scalars[r.IntN(len(scalars))] + "\n")
			}
		case n < 7:
			b.WriteString(" " + []string{"|", ">", "|-", ">-"}[r.IntN(4)] + "\n")
			in := ind + 1 + r.IntN(3)
			for range 1 + r.IntN(4) {
				if r.IntN(4) == 0 {
					b.WriteString("\n")
				} else {
					b.WriteString(pad(in+r.IntN(2)*r.IntN(3)) + scalars[r.IntN(len(scalars))] + "\n")
				}
			}
		default:
			b.WriteString("\n")
			gen(b, ind+r.IntN(4), depth+1, false)
		}
	}
	gen = func(b *strings.Builder, ind, depth int, inSeq bool) {
		seq := depth > 0 && r.IntN(3) == 0
		for range 1 + r.IntN(4) {
			if r.IntN(8) == 0 {
				b.WriteString(pad(r.IntN(4)) + "# comment\n")
			}
			if seq {
				b.WriteString(pad(ind) + "-")
				if r.IntN(3) == 0 {
					b.WriteString(" " + keys[r.IntN(len(keys))] + ":")
					value(b, ind+2, depth+1)
					if r.IntN(2) == 0 {
						b.WriteString(pad(ind+2) + keys[r.IntN(len(keys))] + ":")
						value(b, ind+2, depth+1)
					}
				} else {
					value(b, ind, depth+1)
				}
				continue
			}
			b.WriteString(pad(ind) + keys[r.IntN(len(keys))] + ":")
			value(b, ind, depth)
		}
	}
	accepted := 0
	for range 20000 {
		var b strings.Builder
		gen(&b, 0, 0, false)
		src := b.String()
		got, err := parseYAML(src, 1)
		if err != nil {
			continue
		}
		accepted++
		requireAsYAMLv3(t, src, got)
	}
	t.Logf("%d of 20000 generated documents accepted", accepted)
	assert.Greater(t, accepted, 2000)
}
