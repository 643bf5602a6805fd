package policy

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/suggest"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// A Declaration is what a manifest capability declares about itself besides
// its place in the graph: the permissions it needs, its side effects, and
// how to read its outcome. The zero Declaration declares nothing.
type Declaration struct {
	// Permissions are what the capability needs to run, in the manifest's
	// order without duplicates; each names a domain and an action (no "*").
	Permissions []Permission
	// SideEffect is "pure" (it changes nothing outside itself), "impure",
	// or "" (undeclared).
	SideEffect string
	// Deterministic is whether the same input always gives the same output;
	// nil when undeclared.
	Deterministic *bool
	// TimeoutMS is how long a run may take, in milliseconds; 0 when
	// undeclared.
	TimeoutMS int64

	// Rules are the "outcome" object: how the classifier reads the
	// capability's result. A manifest holds them stricter than the
	// classifier needs: partial exit codes from 1 to 255, and an HTTP
	// status pattern with exactly one capturing group.
	outcome.Rules
}

// Side effects a capability may declare.
const (
	Pure   = "pure"
	Impure = "impure"
)

// A DeclarationError says which capability of a manifest declares what
// wrongly.
type DeclarationError struct {
	Entry  string // e.g. `capabilities[3] "exec"`, as torusfield names entries
	Member string // e.g. "permissions[1]", "outcome.partial_pattern"; "" for the entry
	Msg    string
}

func (e *DeclarationError) Error() string {
	s := "manifest"
	for _, part := range []string{e.Entry, e.Member} {
		if part != "" {
			s += ": " + part
		}
	}
	return s + ": " + e.Msg
}

// DeclarationKeys are the members of a manifest capability that declare
// something (ParseDeclarations reads them); its other members are the
// graph's (torusfield.CapabilityKeys).
var DeclarationKeys = []string{"permissions", "side_effect", "deterministic", "timeout_ms", "outcome"}

// outcomeMembers are the members an "outcome" object may have.
var outcomeMembers = []string{"partial_exit_codes", "http_status_pattern", "expects_output", "partial_pattern"}

// ParseDeclarations reads the declarations of every capability of a
// manifest ({"capabilities": [{"name": ..., ...}], ...}): its optional
// members "permissions" (a list of permission strings), "side_effect"
// ("pure" or "impure"), "deterministic" (a boolean), "timeout_ms" (a
// positive integer) and "outcome", an object of "partial_exit_codes" (a
// list of integers from 1 to 255), "http_status_pattern" (a regular
// expression with exactly one capturing group), "expects_output" (a
// boolean) and "partial_pattern" (a regular expression). A member that is
// null counts as absent. The capability's other members (name,
// connects_to, u, c, n, meta) are torusfield's and are left alone, as is a
// member nobody knows: torusfield.CheckKeys refuses those when a manifest
// is pinned, and a workspace pinned before then must still load. An
// outcome member not listed here is refused, with the one it likely
// misspells, so it is not silently ignored.
//
// The map holds every capability of the manifest by name, with the zero
// Declaration for one that declares nothing: a name missing from the map is
// not a capability. Anything malformed, and a manifest whose capabilities
// cannot be named (not a list of objects with string names, or a name
// repeated), is a *DeclarationError naming the entry (index and name) and
// the member.
func ParseDeclarations(manifest []byte) (map[string]Declaration, error) {
	doc, err := pyjson.Parse(manifest)
	if err != nil {
		return nil, &DeclarationError{Msg: err.Error()}
	}
	if doc.Kind() != pyjson.Object {
		return nil, &DeclarationError{Msg: "the document must be a JSON object"}
	}
	caps, ok := doc.Get("capabilities")
	if !ok || caps.Kind() != pyjson.Array {
		return nil, &DeclarationError{Entry: "capabilities", Msg: "must be a list"}
	}
	out := make(map[string]Declaration, len(caps.Items()))
	for i, cv := range caps.Items() {
		if cv.Kind() != pyjson.Object {
			return nil, &DeclarationError{Entry: entryName(i, ""), Msg: "must be an object"}
		}
		nv, _ := cv.Get("name")
		if nv.Kind() != pyjson.String {
			return nil, &DeclarationError{Entry: entryName(i, ""), Msg: "name must be a string"}
		}
		name := nv.Str()
		if _, dup := out[name]; dup {
			return nil, &DeclarationError{Entry: entryName(i, name), Msg: "duplicate capability name"}
		}
		d, err := parseDeclaration(cv)
		if err != nil {
			err.Entry = entryName(i, name)
			return nil, err
		}
		out[name] = d
	}
	return out, nil
}

// entryName names a capability entry as torusfield's ManifestError does.
func entryName(i int, name string) string {
	if name == "" {
		return fmt.Sprintf("capabilities[%d]", i)
	}
	return fmt.Sprintf("capabilities[%d] %q", i, name)
}

// member returns a member of an object, treating null as absent.
func member(v pyjson.Value, key string) (pyjson.Value, bool) {
	m, ok := v.Get(key)
	return m, ok && !m.IsNull()
}

// parseDeclaration reads one capability object; the error lacks its Entry.
func parseDeclaration(cv pyjson.Value) (Declaration, *DeclarationError) {
	var d Declaration
	bad := func(member, format string, args ...any) (Declaration, *DeclarationError) {
		return Declaration{}, &DeclarationError{Member: member, Msg: fmt.Sprintf(format, args...)}
	}
	if v, ok := member(cv, "permissions"); ok {
		if v.Kind() != pyjson.Array {
			return bad("permissions", "must be a list of permission strings, got %s", v.Kind().Noun())
		}
		for j, item := range v.Items() {
			at := fmt.Sprintf("permissions[%d]", j)
			if item.Kind() != pyjson.String {
				return bad(at, "must be a string, got %s", item.Kind().Noun())
			}
			p, err := ParsePermission(item.Str())
			if err != nil {
				return bad(at, "%v", err)
			}
			if p.IsWildcard() {
				return bad(at, "permission %q: a capability must name the domain and the action it needs, not *", item.Str())
			}
			if !slices.Contains(d.Permissions, p) {
				d.Permissions = append(d.Permissions, p)
			}
		}
	}
	if v, ok := member(cv, "side_effect"); ok {
		if v.Kind() != pyjson.String || v.Str() != Pure && v.Str() != Impure {
			return bad("side_effect", "must be %q or %q, got %s", Pure, Impure, pyjson.AppendCompact(nil, v))
		}
		d.SideEffect = v.Str()
	}
	if v, ok := member(cv, "deterministic"); ok {
		if v.Kind() != pyjson.Bool {
			return bad("deterministic", "must be true or false, got %s", v.Kind().Noun())
		}
		b := v.Bool()
		d.Deterministic = &b
	}
	if v, ok := member(cv, "timeout_ms"); ok {
		n, isInt := v.Int()
		if v.Kind() != pyjson.Int || !isInt || n <= 0 {
			return bad("timeout_ms", "must be a positive integer (milliseconds), got %s", pyjson.AppendCompact(nil, v))
		}
		d.TimeoutMS = n
	}
	if v, ok := member(cv, "outcome"); ok {
		if err := parseOutcome(v, &d); err != nil {
			return Declaration{}, err
		}
	}
	return d, nil
}

// parseOutcome reads the "outcome" object into d.
func parseOutcome(v pyjson.Value, d *Declaration) *DeclarationError {
	bad := func(member, format string, args ...any) *DeclarationError {
		return &DeclarationError{Member: "outcome" + member, Msg: fmt.Sprintf(format, args...)}
	}
	if v.Kind() != pyjson.Object {
		return bad("", "must be an object, got %s", v.Kind().Noun())
	}
	for _, m := range v.Members() {
		if !slices.Contains(outcomeMembers, m.Key) {
			msg := "unknown member"
			if near := suggest.Near(m.Key, outcomeMembers); near != "" {
				msg += fmt.Sprintf("; did you mean %q?", near)
			}
			return bad(fmt.Sprintf("[%q]", m.Key), "%s (known: %s)", msg, strings.Join(outcomeMembers, ", "))
		}
	}
	if codes, ok := member(v, "partial_exit_codes"); ok {
		if codes.Kind() != pyjson.Array {
			return bad(".partial_exit_codes", "must be a list of exit codes, got %s", codes.Kind().Noun())
		}
		for j, c := range codes.Items() {
			n, isInt := c.Int()
			if c.Kind() != pyjson.Int || !isInt || n < 1 || n > 255 {
				return bad(fmt.Sprintf(".partial_exit_codes[%d]", j), "must be an integer from 1 to 255, got %s", pyjson.AppendCompact(nil, c))
			}
			d.PartialExitCodes = append(d.PartialExitCodes, int(n))
		}
	}
	for _, f := range []struct {
		key    string
		dst    *string
		groups int // the capturing groups required, or -1
	}{{"http_status_pattern", &d.HTTPStatusPattern, 1}, {"partial_pattern", &d.PartialPattern, -1}} {
		pv, ok := member(v, f.key)
		if !ok {
			continue
		}
		if pv.Kind() != pyjson.String || pv.Str() == "" {
			return bad("."+f.key, "must be a non-empty regular expression string, got %s", pyjson.AppendCompact(nil, pv))
		}
		re, err := regexp.Compile(pv.Str())
		if err != nil {
			return bad("."+f.key, "%v", err)
		}
		if f.groups >= 0 && re.NumSubexp() != f.groups {
			return bad("."+f.key, "must have exactly %d capturing group (the status code), %q has %d", f.groups, pv.Str(), re.NumSubexp())
		}
		*f.dst = pv.Str()
	}
	if ev, ok := member(v, "expects_output"); ok {
		if ev.Kind() != pyjson.Bool {
			return bad(".expects_output", "must be true or false, got %s", ev.Kind().Noun())
		}
		d.ExpectsOutput = ev.Bool()
	}
	// The checks above are the manifest's, with its messages, and
	// stricter; the classifier's own (Validate) hold of every declaration
	// all the same, so a rule it comes to require is never skipped here.
	if err := d.Rules.Validate(); err != nil {
		return bad("", "%v", err)
	}
	return nil
}
