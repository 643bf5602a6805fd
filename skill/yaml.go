package skill

// A strict parser for the YAML that SKILL.md frontmatter is written in.
//
// It replaces go.yaml.in/yaml/v3 in the binary: that package compiles two
// regular expressions and fills its tag tables in init, 0.1 to 0.2 ms and
// 276 allocations on every call of every command, and it added 0.3 MB to
// the binary, all for `ucs skill check` and `uninstall`. Frontmatter needs
// a small part of YAML, so this parser accepts that part and rejects the
// rest with the line it is on, in the spirit of StrictYAML:
//
//   - block mappings (key: value), nested by indentation, and block lists
//     (- item), including lists of mappings (- key: value) and lists at
//     their key's indentation;
//   - plain, 'single-quoted' and "double-quoted" scalars (with YAML's
//     escapes); plain ones may continue on more-indented lines;
//   - literal (|) and folded (>) block scalars, clipped or stripped (|-, >-);
//   - one-line flow lists and mappings ([a, "b"], {k: v}), nested;
//   - comments.
//
// Anchors, aliases, tags, directives, complex keys, keep chomping (|+),
// explicit indentation indicators, multi-line quoted scalars and multi-line
// flow collections are rejected, as are tabs outside quoted and block
// scalars. Plain scalars resolve as YAML 1.2's core schema does (null,
// bool, int, float, else string); a plain scalar that YAML parsers would
// read as a number or date in a form outside that schema (0x1F, 1_000,
// 007, 2024-01-02) is rejected: quoting it says what is meant.
//
// Values decode as yaml.v3 decodes into map[string]any: map[string]any,
// []any, string, int, float64, bool and nil. The differential fuzz test
// checks that anything this parser accepts, yaml.v3 accepts with the same
// result.

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// maxYAMLDepth bounds nesting: frontmatter needs three or four levels.
const maxYAMLDepth = 32

// A yamlError is a frontmatter problem and the SKILL.md line it is on.
type yamlError struct {
	line int
	msg  string
}

func (e *yamlError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

type yamlParser struct {
	lines []string // the frontmatter's lines, without line breaks
	first int      // the SKILL.md line number of lines[0]
	n     int      // the next line to read
	depth int
}

// parseYAML parses src, frontmatter whose first line is line firstLine of
// its file, as a mapping.
func parseYAML(src string, firstLine int) (m map[string]any, err error) {
	// Line breaks: \n, \r\n, or a \r ending the text; any other \r is
	// an error.
	src = strings.ReplaceAll(src, "\r\n", "\n")
	if strings.HasSuffix(src, "\r") {
		src = src[:len(src)-1] + "\n"
	}
	p := &yamlParser{lines: strings.Split(src, "\n"), first: firstLine}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*yamlError)
			if !ok {
				panic(r)
			}
			m, err = nil, e
		}
	}()
	for i, l := range p.lines {
		p.checkChars(l, i)
	}
	m = map[string]any{}
	if !p.skipBlank() {
		return m, nil
	}
	ind := p.indent(p.n)
	if isItem(p.lines[p.n][ind:]) {
		p.fail(p.n, "the frontmatter must be a mapping (key: value lines), not a list")
	}
	p.mapping(ind, m)
	if p.skipBlank() {
		p.fail(p.n, "unexpected indentation")
	}
	return m, nil
}

func (p *yamlParser) fail(i int, format string, args ...any) {
	panic(&yamlError{line: p.first + i, msg: fmt.Sprintf(format, args...)})
}

// checkChars rejects what YAML does not allow in a stream, and the line
// breaks other than \n that YAML 1.1 parsers honour and 1.2 ones do not.
func (p *yamlParser) checkChars(l string, i int) {
	if !utf8.ValidString(l) {
		p.fail(i, "invalid UTF-8")
	}
	if isBlankLine(l) && strings.ContainsRune(l, '\t') {
		p.fail(i, "a tab on a blank line: remove it")
	}
	for _, marker := range []string{"---", "..."} {
		if rest, ok := strings.CutPrefix(l, marker); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			p.fail(i, "a YAML document marker (%s) inside the frontmatter", marker)
		}
	}
	for _, r := range l {
		switch {
		case r == '\t':
		case r == '\r':
			p.fail(i, "a carriage return inside a line")
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f, r == 0xfeff, r == 0xfffe, r == 0xffff:
			p.fail(i, "control character %U is not allowed", r)
		case r == 0x2028, r == 0x2029:
			p.fail(i, "line separator %U is not allowed", r)
		}
	}
}

// isBlankLine reports a line of nothing but whitespace (checkChars has
// rejected those holding tabs).
func isBlankLine(l string) bool { return strings.Trim(l, " \t") == "" }

// skipBlank moves past blank and comment lines; it reports whether a line
// of content follows.
func (p *yamlParser) skipBlank() bool {
	for ; p.n < len(p.lines); p.n++ {
		l := p.lines[p.n]
		if isBlankLine(l) {
			continue
		}
		if t := strings.TrimLeft(l, " "); t[0] != '#' {
			return true
		}
	}
	return false
}

// indent is line i's indentation in spaces.
func (p *yamlParser) indent(i int) int {
	l := p.lines[i]
	n := 0
	for n < len(l) && l[n] == ' ' {
		n++
	}
	if n < len(l) && l[n] == '\t' {
		p.fail(i, "a tab in indentation: indent with spaces")
	}
	return n
}

func isItem(t string) bool { return t == "-" || strings.HasPrefix(t, "- ") }

func (p *yamlParser) enter(i int) {
	if p.depth++; p.depth > maxYAMLDepth {
		p.fail(i, "nested more than %d levels deep", maxYAMLDepth)
	}
}

// block parses the mapping or list whose first line, p.n, is indented ind.
func (p *yamlParser) block(ind int) any {
	p.enter(p.n)
	defer func() { p.depth-- }()
	if isItem(p.lines[p.n][ind:]) {
		return p.sequence(ind)
	}
	return p.mapping(ind, map[string]any{})
}

// mapping adds the key: value lines indented ind to m.
func (p *yamlParser) mapping(ind int, m map[string]any) map[string]any {
	for p.skipBlank() {
		i := p.n
		in := p.indent(i)
		if in < ind {
			break
		}
		if in > ind {
			p.fail(i, "unexpected indentation")
		}
		t := p.lines[i][in:]
		if isItem(t) {
			p.fail(i, "a list item where a key: value was expected")
		}
		key, rest, ok := p.key(t, i)
		if !ok {
			p.fail(i, "expected key: value")
		}
		p.n = i + 1
		p.set(m, key, p.value(rest, ind, i, true), i)
	}
	return m
}

func (p *yamlParser) set(m map[string]any, key string, v any, i int) {
	if _, dup := m[key]; dup {
		p.fail(i, "duplicate key %q", key)
	}
	m[key] = v
}

// sequence parses the "- item" lines indented ind.
func (p *yamlParser) sequence(ind int) []any {
	out := []any{}
	for p.skipBlank() {
		i := p.n
		in := p.indent(i)
		if in < ind {
			break
		}
		if in > ind {
			p.fail(i, "unexpected indentation")
		}
		t := p.lines[i][in:]
		if !isItem(t) {
			// A key after a list at its key's indentation ends the list;
			// anywhere else the caller finds the line out of place.
			break
		}
		p.n = i + 1
		rest := t[1:]
		s := strings.TrimLeft(rest, " ")
		if s != "" && s[0] != '#' {
			if isItem(s) {
				p.fail(i, "a list inside a list item on one line (- -): put the inner list on its own lines")
			}
			if strings.ContainsRune("[{|>", rune(s[0])) {
				out = append(out, p.value(rest, ind, i, false))
				continue
			}
			if key, after, ok := p.key(s, i); ok {
				// - key: value, and the mapping's further keys aligned
				// under the first.
				col := in + len(t) - len(s)
				p.enter(i)
				m := map[string]any{}
				p.set(m, key, p.value(after, col, i, true), i)
				out = append(out, p.mapping(col, m))
				p.depth--
				continue
			}
		}
		out = append(out, p.value(rest, ind, i, false))
	}
	return out
}

// key splits a "key: rest" line; ok is false when t is not one.
func (p *yamlParser) key(t string, i int) (key, rest string, ok bool) {
	if t[0] == '"' || t[0] == '\'' {
		k, tail := p.quoted(t, i)
		tail = strings.TrimLeft(tail, " ")
		if strings.HasPrefix(tail, ":") && (len(tail) == 1 || tail[1] == ' ') {
			p.keyLength(len(t)-len(tail), i)
			return k, tail[1:], true
		}
		return "", "", false
	}
	for j := 0; j < len(t); j++ {
		if t[j] == '#' && j > 0 && t[j-1] == ' ' {
			break
		}
		if t[j] != ':' || j+1 < len(t) && t[j+1] != ' ' && t[j+1] != '\t' {
			continue
		}
		if j+1 < len(t) && t[j+1] == '\t' {
			p.fail(i, "a tab after the colon: use a space")
		}
		p.keyLength(j, i)
		key = strings.TrimRight(t[:j], " ")
		switch {
		case key == "":
			p.fail(i, "a key is missing before the colon")
		case strings.ContainsRune(key, '\t'):
			p.fail(i, "a tab in a key")
		case strings.ContainsRune("-?:,[]{}#&*!|>'\"%@`", rune(key[0])) || key == "<<":
			p.fail(i, "the key %q must be quoted (anchors, aliases, tags and complex keys are not supported)", key)
		}
		if v, why := resolvePlain(key); why != "" {
			p.fail(i, "the key %s", why)
		} else if _, isStr := v.(string); !isStr {
			p.fail(i, "the key %q would be read as %s: quote it", key, typeName(v))
		}
		return key, t[j+1:], true
	}
	return "", "", false
}

// keyLength rejects keys YAML does not allow: an implicit key spans at
// most 1024 characters.
func (p *yamlParser) keyLength(n, i int) {
	if n > 1000 {
		p.fail(i, "a key longer than 1000 bytes")
	}
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	}
	return "a number"
}

// value parses what follows "key:" or "-" on line i (rest), and the lines
// that belong to it; ind is the key's or item's indentation. A list may
// stand at its key's indentation (inMap).
func (p *yamlParser) value(rest string, ind, i int, inMap bool) any {
	s := strings.TrimLeft(rest, " ")
	if strings.HasPrefix(s, "\t") {
		p.fail(i, "a tab after the colon or dash: use a space")
	}
	if s == "" || s[0] == '#' {
		if !p.skipBlank() {
			return nil
		}
		in := p.indent(p.n)
		switch {
		case in > ind:
			return p.block(in)
		case in == ind && inMap && isItem(p.lines[p.n][in:]):
			p.enter(p.n)
			defer func() { p.depth-- }()
			return p.sequence(in)
		}
		return nil
	}
	switch c := s[0]; c {
	case '|', '>':
		return p.blockScalar(s, ind, i)
	case '"', '\'':
		v, tail := p.quoted(s, i)
		p.endOfValue(tail, i)
		return v
	case '[', '{':
		v, k := p.flow(s, 0, i)
		p.endOfValue(s[k:], i)
		return v
	case '&', '*', '!', '%', '@', '`', ',', ']', '}':
		p.badStart(c, i)
	case '-', '?', ':':
		if len(s) == 1 || s[1] == ' ' {
			p.fail(i, "%q cannot start a value here: put a list on the lines below its key, or quote the value", c)
		}
	}
	return p.plain(s, ind, i)
}

// badStart rejects a value starting with an indicator YAML gives a meaning
// this parser does not support, or no meaning.
func (p *yamlParser) badStart(c byte, i int) {
	if c == '&' || c == '*' || c == '!' {
		p.fail(i, "anchors (&), aliases (*) and tags (!) are not supported: write the value out, or quote it")
	}
	p.fail(i, "a value cannot start with %q: quote it", c)
}

// endOfValue checks that only a comment follows a value on its line.
func (p *yamlParser) endOfValue(tail string, i int) {
	t := strings.TrimLeft(tail, " ")
	if t == "" || t[0] == '#' && len(t) < len(tail) {
		return
	}
	p.fail(i, "unexpected text after the value: %q", t)
}

// plainLine cuts a comment off one line of a plain scalar.
func (p *yamlParser) plainLine(s string, i int) (text string, commented bool) {
	if k := strings.Index(s, " #"); k >= 0 {
		s, commented = s[:k], true
	}
	s = strings.TrimRight(s, " ")
	switch {
	case strings.ContainsRune(s, '\t'):
		p.fail(i, "a tab in an unquoted value: quote the value")
	case strings.Contains(s, ": ") || strings.HasSuffix(s, ":"):
		p.fail(i, "a value holding \": \" or ending in \":\" must be quoted")
	}
	return s, commented
}

// plain parses a plain scalar starting with s on line i, and its
// continuation lines: those indented more than ind, folded as YAML folds
// them (a line break becomes a space, n blank lines n line breaks).
func (p *yamlParser) plain(s string, ind, i int) any {
	text, commented := p.plainLine(s, i)
	var b strings.Builder
	b.WriteString(text)
	for !commented {
		j, blanks := p.n, 0
		for j < len(p.lines) && isBlankLine(p.lines[j]) {
			j, blanks = j+1, blanks+1
		}
		if j == len(p.lines) {
			break
		}
		in := p.indent(j)
		t := p.lines[j][in:]
		if in <= ind || t[0] == '#' {
			break
		}
		if isItem(t) || (t[0] == '?' || t[0] == ':') && (len(t) == 1 || t[1] == ' ') {
			// YAML reads it as text, but it looks like a list or a key.
			p.fail(j, "a continued unquoted value cannot go on with %q: quote the value", t[:1])
		}
		var cont string
		cont, commented = p.plainLine(t, j)
		if blanks == 0 {
			b.WriteByte(' ')
		} else {
			b.WriteString(strings.Repeat("\n", blanks))
		}
		b.WriteString(cont)
		p.n = j + 1
	}
	v, why := resolvePlain(b.String())
	if why != "" {
		p.fail(i, "the value %s", why)
	}
	return v
}

// blockScalar parses a | or > scalar whose header, s, is on line i.
func (p *yamlParser) blockScalar(s string, ind, i int) string {
	folded, strip := s[0] == '>', false
	h := s[1:]
	if h != "" {
		switch c := h[0]; {
		case c == '-':
			strip, h = true, h[1:]
		case c == '+':
			p.fail(i, "keep chomping (%c+) is not supported: use %c or %c-", s[0], s[0], s[0])
		case c >= '0' && c <= '9':
			p.fail(i, "explicit indentation indicators (%c%c) are not supported", s[0], c)
		}
	}
	if h != "" && h[0] != ' ' {
		p.fail(i, "unexpected text after %q", s[:len(s)-len(h)])
	}
	p.endOfValue(h, i)
	var lines []string
	contentInd, maxBlank, last := -1, 0, -1
	j := p.n
	for ; j < len(p.lines); j++ {
		l := p.lines[j]
		if isBlankLine(l) {
			if contentInd >= 0 && len(l) > contentInd {
				p.fail(j, "a blank line inside a block scalar holds extra spaces: remove them")
			}
			maxBlank = max(maxBlank, len(l))
			lines = append(lines, "")
			continue
		}
		in := 0
		for in < len(l) && l[in] == ' ' {
			in++
		}
		if contentInd < 0 {
			if in <= ind {
				break
			}
			if l[in] == '\t' {
				p.fail(j, "a tab in indentation: indent with spaces")
			}
			if maxBlank > in {
				p.fail(j, "a blank line before the block scalar's first line is indented more than it")
			}
			contentInd = in
		}
		if in < contentInd {
			if l[in] == '\t' {
				p.fail(j, "a tab in indentation: indent with spaces")
			}
			break
		}
		if folded && (l[contentInd] == ' ' || l[contentInd] == '\t') {
			p.fail(j, "an indented line inside a folded (>) scalar: use a literal (|) scalar")
		}
		lines = append(lines, l[contentInd:])
		last = j
	}
	p.n = j
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return ""
	}
	var b strings.Builder
	if !folded {
		b.WriteString(strings.Join(lines, "\n"))
	} else {
		prev, empties := false, 0
		for _, l := range lines {
			if l == "" {
				empties++
				continue
			}
			if prev && empties == 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strings.Repeat("\n", empties))
			b.WriteString(l)
			prev, empties = true, 0
		}
	}
	// Clipping keeps the last line's break, if the frontmatter has one.
	if !strip && last < len(p.lines)-1 {
		b.WriteByte('\n')
	}
	return b.String()
}

// quoted parses the quoted scalar s starts with, which must close on line
// i; tail is what follows it.
func (p *yamlParser) quoted(s string, i int) (v, tail string) {
	q := s[0]
	var b strings.Builder
	for k := 1; k < len(s); k++ {
		c := s[k]
		switch {
		case c == q && q == '\'' && k+1 < len(s) && s[k+1] == '\'':
			b.WriteByte('\'')
			k++
		case c == q:
			return b.String(), s[k+1:]
		case c == '\\' && q == '"':
			r, n := p.escape(s[k+1:], i)
			b.WriteRune(r)
			k += n
		default:
			b.WriteByte(c)
		}
	}
	p.fail(i, "the quoted value does not close on its line (multi-line quoted values are not supported)")
	return "", ""
}

// escape decodes the double-quoted escape after a backslash, s, returning
// the character and how many bytes of s it took.
func (p *yamlParser) escape(s string, i int) (rune, int) {
	if s == "" {
		p.fail(i, "a backslash at the end of the line (multi-line quoted values are not supported)")
	}
	var n int
	switch c := s[0]; c {
	case '0':
		return 0, 1
	case 'a':
		return 7, 1
	case 'b':
		return 8, 1
	case 't', '\t':
		return 9, 1
	case 'n':
		return 10, 1
	case 'v':
		return 11, 1
	case 'f':
		return 12, 1
	case 'r':
		return 13, 1
	case 'e':
		return 0x1b, 1
	case ' ', '"', '\\':
		// Not \/: YAML 1.2 has it, yaml.v3 and libyaml do not.
		return rune(c), 1
	case 'N':
		return 0x85, 1
	case '_':
		return 0xa0, 1
	case 'L':
		return 0x2028, 1
	case 'P':
		return 0x2029, 1
	case 'x':
		n = 2
	case 'u':
		n = 4
	case 'U':
		n = 8
	default:
		p.fail(i, "unknown escape \\%c in a double-quoted value", c)
	}
	if len(s) < 1+n {
		p.fail(i, "a short \\%c escape", s[0])
	}
	code, err := strconv.ParseUint(s[1:1+n], 16, 32)
	if err != nil || strings.ContainsAny(s[1:1+n], "+-_") || !utf8.ValidRune(rune(code)) {
		p.fail(i, "an invalid escape \\%s", s[:1+n])
	}
	return rune(code), 1 + n
}

// flow parses the one-line flow node at s[k:] (after spaces): a list, a
// mapping, a quoted or a plain scalar. It returns the node and where it
// ends.
func (p *yamlParser) flow(s string, k, i int) (any, int) {
	for k < len(s) && s[k] == ' ' {
		k++
	}
	if k == len(s) {
		p.fail(i, "a flow list or mapping must close on its line")
	}
	switch s[k] {
	case '[':
		p.enter(i)
		defer func() { p.depth-- }()
		out := []any{}
		for k++; ; {
			k = p.flowSpace(s, k, i)
			if s[k] == ']' {
				return out, k + 1
			}
			var v any
			v, k = p.flow(s, k, i)
			if k = p.flowSpace(s, k, i); s[k] == ':' {
				p.fail(i, "a key: value inside a flow list: use a flow mapping {key: value}")
			}
			out = append(out, v)
			if k = p.flowNext(s, k, i, ']'); s[k] == ']' {
				return out, k + 1
			}
			k++
		}
	case '{':
		p.enter(i)
		defer func() { p.depth-- }()
		out := map[string]any{}
		for k++; ; {
			k = p.flowSpace(s, k, i)
			if s[k] == '}' {
				return out, k + 1
			}
			key, isStr, keyStart := "", true, k
			if s[k] == '"' || s[k] == '\'' {
				var tail string
				key, tail = p.quoted(s[k:], i)
				k = len(s) - len(tail)
			} else {
				var v any
				start := k
				v, k = p.flow(s, k, i)
				key, isStr = v.(string)
				if !isStr {
					p.fail(i, "the key %q in a flow mapping must be a word or quoted", strings.TrimSpace(s[start:k]))
				}
			}
			if k = p.flowSpace(s, k, i); s[k] != ':' {
				p.fail(i, "each entry of a flow mapping needs key: value")
			}
			p.keyLength(k-keyStart, i)
			k++
			var v any
			if k = p.flowSpace(s, k, i); s[k] != ',' && s[k] != '}' {
				v, k = p.flow(s, k, i)
			}
			p.set(out, key, v, i)
			if k = p.flowNext(s, k, i, '}'); s[k] == '}' {
				return out, k + 1
			}
			k++
		}
	case '"', '\'':
		v, tail := p.quoted(s[k:], i)
		return v, len(s) - len(tail)
	}
	// A plain scalar runs to a flow indicator or ": ".
	start := k
	switch c := s[k]; {
	case c == '-':
		if k+1 == len(s) || strings.ContainsRune(" ,[]{}", rune(s[k+1])) {
			p.badStart(c, i)
		}
	case c == '?' || c == ':':
		p.badStart(c, i) // yaml.v3 rejects them in flow collections
	case strings.ContainsRune(",[]{}#&*!|>'\"%@`", rune(c)):
		p.badStart(c, i)
	}
	for k < len(s) && !strings.ContainsRune(",[]{}", rune(s[k])) && !(s[k] == ':' && k+1 < len(s) && s[k+1] == ' ') {
		// libyaml ends flow scalars at '?' too (YAML 1.1).
		if s[k] == '#' && s[k-1] == ' ' || s[k] == '\t' || s[k] == '?' || s[k] == ':' && k+1 == len(s) {
			p.fail(i, "unexpected %q inside a flow list or mapping", s[k])
		}
		k++
	}
	text := strings.TrimRight(s[start:k], " ")
	v, why := resolvePlain(text)
	if why != "" {
		p.fail(i, "the value %s", why)
	}
	return v, k
}

// flowSpace skips spaces inside a flow collection, which must not end.
func (p *yamlParser) flowSpace(s string, k, i int) int {
	for k < len(s) && s[k] == ' ' {
		k++
	}
	if k == len(s) {
		p.fail(i, "a flow list or mapping must close on its line")
	}
	return k
}

// flowNext expects a comma or the closing bracket after an entry.
func (p *yamlParser) flowNext(s string, k, i int, closer byte) int {
	k = p.flowSpace(s, k, i)
	if s[k] != ',' && s[k] != closer {
		p.fail(i, "expected , or %c in a flow collection, found %q", closer, s[k])
	}
	return k
}

// resolvePlain gives a plain scalar its type as YAML 1.2's core schema
// does. why is non-empty for one in a form parsers disagree on.
func resolvePlain(s string) (v any, why string) {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return nil, ""
	case "true", "True", "TRUE":
		return true, ""
	case "false", "False", "FALSE":
		return false, ""
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return math.Inf(1), ""
	case "-.inf", "-.Inf", "-.INF":
		return math.Inf(-1), ""
	case ".nan", ".NaN", ".NAN":
		return math.NaN(), ""
	}
	// yaml.v3 decides by the first character whether to try numbers.
	if !strings.ContainsRune("+-.0123456789", rune(s[0])) {
		return s, ""
	}
	if body := strings.TrimLeft(s, "+-"); isFloatSyntax(s) && !(len(body) > 1 && body[0] == '0' && isDigit(body[1])) {
		if !strings.ContainsAny(s, ".eE") {
			if n, err := strconv.ParseInt(s, 10, 64); err == nil {
				return int(n), ""
			}
		} else if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f, ""
		}
		return nil, fmt.Sprintf("%q is out of range for a number: quote it", s)
	}
	if looseNumberOrDate(s) {
		return nil, fmt.Sprintf("%q would be read as a number or a date in a form this parser does not support "+
			"(hexadecimal, octal, binary, underscores, leading zeros, dates): quote it, or write a decimal number", s)
	}
	return s, ""
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isFloatSyntax reports whether s matches yaml.v3's pattern for numbers,
// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
func isFloatSyntax(s string) bool {
	k := 0
	digits := func() int {
		n := 0
		for k < len(s) && isDigit(s[k]) {
			k, n = k+1, n+1
		}
		return n
	}
	if k < len(s) && (s[k] == '+' || s[k] == '-') {
		k++
	}
	if k < len(s) && s[k] == '.' {
		k++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if k < len(s) && s[k] == '.' {
			k++
			digits()
		}
	}
	if k < len(s) && (s[k] == 'e' || s[k] == 'E') {
		k++
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if digits() == 0 {
			return false
		}
	}
	return k == len(s)
}

// looseNumberOrDate reports whether yaml.v3, which keeps parts of YAML 1.1,
// reads s as a number or a timestamp: hexadecimal, octal and binary
// integers, underscores between digits, leading zeros, dates. It follows
// yaml.v3's resolve.
func looseNumberOrDate(s string) bool {
	if s[0] == '.' {
		_, err := strconv.ParseFloat(s, 64)
		return err == nil
	}
	if isTimestamp(s) {
		return true
	}
	plain := strings.ReplaceAll(s, "_", "")
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return true
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return true
	}
	if isFloatSyntax(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return true
		}
	}
	// 0b and 0o, which yaml.v3 parses with strconv too (and so allows a
	// sign after the prefix); erring on the side of "a number" only
	// rejects more.
	digits := strings.TrimPrefix(plain, "-")
	for _, b := range []struct {
		prefix string
		base   int
	}{{"0b", 2}, {"0o", 8}} {
		if rest, ok := strings.CutPrefix(digits, b.prefix); ok {
			_, err1 := strconv.ParseInt(rest, b.base, 64)
			_, err2 := strconv.ParseUint(rest, b.base, 64)
			return err1 == nil || err2 == nil
		}
	}
	return false
}

// isTimestamp reports whether yaml.v3 reads s as a timestamp.
func isTimestamp(s string) bool {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, layout := range []string{"2006-1-2T15:4:5.999999999Z07:00", "2006-1-2t15:4:5.999999999Z07:00",
		"2006-1-2 15:4:5.999999999", "2006-1-2"} {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}
