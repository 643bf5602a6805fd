package torusfield

import (
	"bytes"
	_ "embed"
	"fmt"
	"math"
	"strings"
	"unicode"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

//go:embed aegis-manifest.json
var aegisManifest []byte

// A Capability is one tool of the agent: a node of the graph.
type Capability struct {
	Name string
	// ConnectsTo holds capability names or semantic labels, in manifest order.
	ConnectsTo []string
	U, C, N    float64      // utility, cost and novelty; defaults 0.5, 0.2, 0.1
	Meta       pyjson.Value // copied onto every edge leaving the capability
	// NIsInt records that n was written as an integer: Python keeps it an
	// int, and the state file writes it back as one ("n": 0, not 0.0).
	NIsInt bool
}

// A Manifest describes an agent's capabilities and the semantic labels that
// resolve to them. It is the external format
//
//	{"capabilities": [{"name", "connects_to", "u", "c"}], "semantic_map": {label: [capability]}}
//
// with optional "n" (novelty) and "meta" per capability.
type Manifest struct {
	Capabilities []Capability
	// SemanticMap keeps the manifest's label order, which the keyword map of
	// the bridge depends on.
	SemanticMap []SemanticLabel

	raw    []byte
	labels map[string]int
	byName map[string]int
}

// A SemanticLabel resolves an outcome label to capabilities.
type SemanticLabel struct {
	Label   string
	Targets []string
}

// DefaultManifest returns the embedded Aegis manifest: 45 capabilities that
// resolve to 249 edges. It is parsed on each call, so a command that does not
// need it pays nothing.
func DefaultManifest() *Manifest {
	m, err := ParseManifest(aegisManifest)
	if err != nil {
		panic("torusfield: embedded manifest is invalid: " + err.Error())
	}
	return m
}

// DefaultManifestJSON returns the bytes of the embedded Aegis manifest.
func DefaultManifestJSON() []byte { return append([]byte(nil), aegisManifest...) }

// Bytes returns the manifest document the Manifest was parsed from.
func (m *Manifest) Bytes() []byte { return m.raw }

// Names returns the capability names in manifest order.
func (m *Manifest) Names() []string {
	out := make([]string, len(m.Capabilities))
	for i, c := range m.Capabilities {
		out[i] = c.Name
	}
	return out
}

// Has reports whether name is a capability of the manifest.
func (m *Manifest) Has(name string) bool {
	_, ok := m.byName[name]
	return ok
}

// Index returns the position of a capability in the manifest, or -1.
func (m *Manifest) Index(name string) int {
	if i, ok := m.byName[name]; ok {
		return i
	}
	return -1
}

// Targets returns the capabilities a semantic label resolves to.
func (m *Manifest) Targets(label string) ([]string, bool) {
	i, ok := m.labels[label]
	if !ok {
		return nil, false
	}
	return m.SemanticMap[i].Targets, true
}

// A ManifestError says which entry of a manifest is wrong.
type ManifestError struct {
	Entry string // e.g. `capabilities[3] "exec"` or `semantic_map["audit"]`
	Msg   string
}

func (e *ManifestError) Error() string {
	if e.Entry == "" {
		return "manifest: " + e.Msg
	}
	return "manifest: " + e.Entry + ": " + e.Msg
}

// ParseManifest parses and validates a manifest. It rejects what the
// reference would silently accept and later mis-handle: no capabilities,
// duplicate or malformed names, u, c or n that are not numbers in [0, 1],
// connects_to labels that are neither a capability nor a semantic label, and
// semantic labels that name unknown capabilities. A manifest without a
// semantic_map resolves its labels through the Aegis map, as the reference
// does, keeping only the targets it has.
func ParseManifest(data []byte) (*Manifest, error) {
	if bytes.Equal(data, aegisManifest) {
		// Every call on a default workspace loads this manifest: build it
		// from its compiled form (aegis_compiled.go) instead of parsing.
		return aegisCompiled(data), nil
	}
	return parseManifest(data)
}

func parseManifest(data []byte) (*Manifest, error) {
	doc, err := pyjson.Parse(data)
	if err != nil {
		return nil, &ManifestError{Msg: err.Error()}
	}
	if doc.Kind() != pyjson.Object {
		return nil, &ManifestError{Msg: "the document must be a JSON object"}
	}
	m := &Manifest{raw: data, labels: map[string]int{}, byName: map[string]int{}}
	caps, ok := doc.Get("capabilities")
	if !ok || caps.Kind() != pyjson.Array || len(caps.Items()) == 0 {
		return nil, &ManifestError{Entry: "capabilities", Msg: "must be a non-empty list"}
	}
	for i, cv := range caps.Items() {
		c, err := parseCapability(i, cv)
		if err != nil {
			return nil, err
		}
		if _, dup := m.byName[c.Name]; dup {
			return nil, &ManifestError{Entry: entryName(i, c.Name), Msg: "duplicate capability name"}
		}
		m.byName[c.Name] = i
		m.Capabilities = append(m.Capabilities, c)
	}
	sm, ok := doc.Get("semantic_map")
	fallback := !ok || sm.IsNull()
	if fallback {
		// Without a semantic map the reference resolves labels through the
		// Aegis one, dropping targets the manifest lacks; so do we.
		aegis, err := pyjson.Parse(aegisManifest)
		if err != nil {
			return nil, &ManifestError{Msg: "embedded manifest: " + err.Error()}
		}
		sm, _ = aegis.Get("semantic_map")
	}
	if sm.Kind() != pyjson.Object {
		return nil, &ManifestError{Entry: "semantic_map", Msg: "must be an object of label to capability list"}
	}
	{
		for _, mem := range sm.Members() {
			entry := func() string { return fmt.Sprintf("semantic_map[%q]", mem.Key) } // for errors only
			if mem.Value.Kind() != pyjson.Array {
				return nil, &ManifestError{Entry: entry(), Msg: "must be a list of capability names"}
			}
			targets := make([]string, 0, len(mem.Value.Items()))
			for _, t := range mem.Value.Items() {
				if t.Kind() != pyjson.String {
					return nil, &ManifestError{Entry: entry(), Msg: "must be a list of capability names"}
				}
				if !m.Has(t.Str()) {
					if fallback {
						continue
					}
					return nil, &ManifestError{Entry: entry(), Msg: fmt.Sprintf("unknown capability %q", t.Str())}
				}
				targets = append(targets, t.Str())
			}
			m.labels[mem.Key] = len(m.SemanticMap)
			m.SemanticMap = append(m.SemanticMap, SemanticLabel{Label: mem.Key, Targets: targets})
		}
	}
	for i, c := range m.Capabilities {
		for _, label := range c.ConnectsTo {
			if !m.Has(label) {
				if _, ok := m.labels[label]; !ok {
					return nil, &ManifestError{Entry: entryName(i, c.Name),
						Msg: fmt.Sprintf("connects_to %q is neither a capability nor a semantic_map label", label)}
				}
			}
		}
	}
	return m, nil
}

func entryName(i int, name string) string {
	if name == "" {
		return fmt.Sprintf("capabilities[%d]", i)
	}
	return fmt.Sprintf("capabilities[%d] %q", i, name)
}

func parseCapability(i int, v pyjson.Value) (Capability, error) {
	c := Capability{U: 0.5, C: 0.2, N: 0.1, Meta: pyjson.ObjectValue(nil)}
	if v.Kind() != pyjson.Object {
		return c, &ManifestError{Entry: entryName(i, ""), Msg: "must be an object"}
	}
	nv, _ := v.Get("name")
	if nv.Kind() != pyjson.String {
		return c, &ManifestError{Entry: entryName(i, ""), Msg: "name must be a string"}
	}
	c.Name = nv.Str()
	if err := checkName(c.Name); err != nil {
		return c, &ManifestError{Entry: entryName(i, c.Name), Msg: err.Error()}
	}
	entry := func() string { return entryName(i, c.Name) } // for errors only
	if ct, ok := v.Get("connects_to"); ok && !ct.IsNull() {
		if ct.Kind() != pyjson.Array {
			return c, &ManifestError{Entry: entry(), Msg: "connects_to must be a list of strings"}
		}
		for _, l := range ct.Items() {
			if l.Kind() != pyjson.String {
				return c, &ManifestError{Entry: entry(), Msg: "connects_to must be a list of strings"}
			}
			c.ConnectsTo = append(c.ConnectsTo, l.Str())
		}
	}
	for _, f := range []struct {
		key string
		dst *float64
	}{{"u", &c.U}, {"c", &c.C}, {"n", &c.N}} {
		fv, ok := v.Get(f.key)
		if !ok {
			continue
		}
		x, isNum := fv.Float()
		if !isNum {
			return c, &ManifestError{Entry: entry(), Msg: f.key + " must be a number"}
		}
		if math.IsNaN(x) || x < 0 || x > 1 {
			return c, &ManifestError{Entry: entry(), Msg: fmt.Sprintf("%s must be in [0, 1], got %v", f.key, x)}
		}
		*f.dst = x
		if f.key == "n" {
			c.NIsInt = fv.Kind() == pyjson.Int
		}
	}
	if mv, ok := v.Get("meta"); ok && !mv.IsNull() {
		if mv.Kind() != pyjson.Object {
			return c, &ManifestError{Entry: entry(), Msg: "meta must be an object"}
		}
		c.Meta = mv
	}
	return c, nil
}

// checkName rejects names an agent could not type back: empty, padded, or
// holding control characters.
func checkName(name string) error {
	if name == "" {
		return fmt.Errorf("name must not be empty")
	}
	if strings.TrimSpace(name) != name {
		return fmt.Errorf("name must not start or end with white space")
	}
	for _, r := range name {
		if unicode.IsControl(r) {
			return fmt.Errorf("name must not contain control characters")
		}
	}
	return nil
}
