package recall

import (
	"fmt"
	"slices"
	"strings"
)

// A Condition is a dead end's reopen condition, evaluated as a condition
// on the terms of a context rather than as words it might share with it:
// "Stripe API v2 released with webhooks" holds for a context that speaks
// of all of stripe, api, released and webhooks, not for "research the
// PayPal API".
//
// The zero Condition never holds.
type Condition struct {
	root *node
	pos  []string // the terms the condition asks for (not under an odd number of NOTs), sorted
}

// A node is a term or an operator over nodes.
type node struct {
	op   byte // 't' a term, '&' all of kids, '|' any of kids, '!' not kids[0]
	term string
	kids []*node
}

// maxDepth bounds the nesting of parentheses and NOTs.
const maxDepth = 64

// ParseCondition reads a reopen condition, analysing its words with a (the
// analyzer of the contexts it will be evaluated on; nil for no synonyms).
//
// A text without the upper-case words AND, OR and NOT is a plain sentence:
// it holds when the context has all of its content terms. A text with one
// of them is an expression: AND, OR and NOT (binding in the order NOT, AND,
// OR) over words, double-quoted phrases and parentheses, as in
//
//	stripe AND (refund OR chargeback) AND NOT test
//
// Words next to each other without an operator are joined by AND. A word or
// phrase stands for all of its terms ("parser_test.go" for parser and
// test; the context's terms are a set, so a phrase's word order is not
// checked), and one without a content term (a stop word) is left out, with
// the operator that applied to it. A condition without a term the context
// must have never holds: "NOT test" alone would reopen a dead end on any
// context at all. Errors, for an expression only, give the byte offset.
func ParseCondition(text string, a *Analyzer) (Condition, error) {
	toks, lexErr := lex(text)
	if !slices.ContainsFunc(toks, func(t token) bool { return t.kind == tokOp }) {
		return newCondition(allOf(a.Terms(text))), nil
	}
	if lexErr != nil {
		return Condition{}, lexErr
	}
	p := condParser{toks: toks, a: a, end: len(text)}
	root, err := p.or(0)
	if err == nil && p.i < len(p.toks) {
		err = condError(p.toks[p.i].off, "unexpected %s", p.toks[p.i])
	}
	if err != nil {
		return Condition{}, err
	}
	return newCondition(root), nil
}

func newCondition(root *node) Condition {
	c := Condition{root: root}
	var walk func(n *node, negated bool)
	walk = func(n *node, negated bool) {
		switch {
		case n == nil:
		case n.op == 't' && !negated:
			c.pos = append(c.pos, n.term)
		case n.op == '!':
			walk(n.kids[0], !negated)
		default:
			for _, k := range n.kids {
				walk(k, negated)
			}
		}
	}
	walk(root, false)
	slices.Sort(c.pos)
	c.pos = slices.Compact(c.pos)
	return c
}

// Holds reports whether the context whose terms are given (analysed by the
// analyzer the condition was parsed with; in any order) meets the
// condition, and has at least one of the terms the condition asks for.
func (c Condition) Holds(contextTerms []string) bool {
	if c.root == nil || len(c.pos) == 0 {
		return false
	}
	has := termSet(contextTerms)
	return slices.ContainsFunc(c.pos, has) && c.root.eval(has)
}

// termSet returns a membership test for terms, by binary search when they
// are sorted.
func termSet(terms []string) func(string) bool {
	if !slices.IsSorted(terms) {
		terms = slices.Clone(terms)
		slices.Sort(terms)
	}
	return func(t string) bool {
		_, ok := slices.BinarySearch(terms, t)
		return ok
	}
}

func (n *node) eval(has func(string) bool) bool {
	switch n.op {
	case 't':
		return has(n.term)
	case '!':
		return !n.kids[0].eval(has)
	case '&':
		for _, k := range n.kids {
			if !k.eval(has) {
				return false
			}
		}
		return true
	default:
		for _, k := range n.kids {
			if k.eval(has) {
				return true
			}
		}
		return false
	}
}

// Terms returns the terms the condition asks for (those not negated),
// sorted: what to show when it holds.
func (c Condition) Terms() []string { return slices.Clone(c.pos) }

// String writes the condition as an expression of its terms, with the
// parentheses around every group in another: "api AND releas AND strip
// AND webhook", "paypal OR (strip AND webhook)". The zero
// Condition is "".
func (c Condition) String() string {
	var b strings.Builder
	c.root.write(&b, 0)
	return b.String()
}

// write writes n; parent is the operator around it, for parentheses.
func (n *node) write(b *strings.Builder, parent byte) {
	if n == nil {
		return
	}
	switch n.op {
	case 't':
		b.WriteString(n.term)
	case '!':
		b.WriteString("NOT ")
		n.kids[0].write(b, '!')
	default:
		// Precedence would do without the parentheses under OR; people
		// reading the condition should not need it.
		paren := parent != 0 && parent != n.op
		if paren {
			b.WriteByte('(')
		}
		sep := " AND "
		if n.op == '|' {
			sep = " OR "
		}
		for i, k := range n.kids {
			if i > 0 {
				b.WriteString(sep)
			}
			k.write(b, n.op)
		}
		if paren {
			b.WriteByte(')')
		}
	}
}

// allOf is the node that holds when all of terms are present; nil for no
// terms.
func allOf(terms []string) *node {
	kids := make([]*node, len(terms))
	for i, t := range terms {
		kids[i] = &node{op: 't', term: t}
	}
	return join('&', kids)
}

// join applies op to the kids that are not nil: nil for none, the kid
// itself for one.
func join(op byte, kids []*node) *node {
	kids = slices.DeleteFunc(kids, func(k *node) bool { return k == nil })
	switch len(kids) {
	case 0:
		return nil
	case 1:
		return kids[0]
	}
	return &node{op: op, kids: kids}
}

// A token of an expression.
type token struct {
	kind byte // tokWord, tokPhrase, tokOp, '(' or ')'
	text string
	off  int
}

const (
	tokWord   = 'w'
	tokPhrase = 'p'
	tokOp     = 'o'
)

func (t token) String() string {
	switch t.kind {
	case tokWord, tokOp:
		return fmt.Sprintf("%q", t.text)
	case tokPhrase:
		return fmt.Sprintf("phrase %q", t.text)
	}
	return fmt.Sprintf("%q", string(t.kind))
}

// lex cuts text into tokens. It returns the tokens it found before an
// unterminated quote, with the error.
func lex(text string) ([]token, error) {
	var toks []token
	for i := 0; i < len(text); {
		switch c := text[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '(' || c == ')':
			toks = append(toks, token{kind: c, off: i})
			i++
		case c == '"':
			end := strings.IndexByte(text[i+1:], '"')
			if end < 0 {
				return toks, condError(i, "a quote that is not closed")
			}
			toks = append(toks, token{kind: tokPhrase, text: text[i+1 : i+1+end], off: i})
			i += end + 2
		default:
			j := i
			for j < len(text) && !strings.ContainsRune(" \t\n\r()\"", rune(text[j])) {
				j++
			}
			w := text[i:j]
			kind := byte(tokWord)
			if w == "AND" || w == "OR" || w == "NOT" {
				kind = tokOp
			}
			toks = append(toks, token{kind: kind, text: w, off: i})
			i = j
		}
	}
	return toks, nil
}

// condParser parses an expression's tokens by recursive descent.
type condParser struct {
	toks []token
	i    int
	a    *Analyzer
	end  int // the text's length, the offset of its end
}

func condError(off int, format string, args ...any) error {
	return fmt.Errorf("condition: at byte %d: %s", off, fmt.Sprintf(format, args...))
}

// peek returns the next token, or one of kind 0 at the end.
func (p *condParser) peek() token {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return token{off: p.end}
}

func (p *condParser) isOp(op string) bool {
	t := p.peek()
	return t.kind == tokOp && t.text == op
}

// or := and { OR and }
func (p *condParser) or(depth int) (*node, error) {
	first, err := p.and(depth)
	if err != nil {
		return nil, err
	}
	kids := []*node{first}
	for p.isOp("OR") {
		p.i++
		n, err := p.and(depth)
		if err != nil {
			return nil, err
		}
		kids = append(kids, n)
	}
	return join('|', kids), nil
}

// and := unary { [AND] unary }
func (p *condParser) and(depth int) (*node, error) {
	first, err := p.unary(depth)
	if err != nil {
		return nil, err
	}
	kids := []*node{first}
	for {
		if p.isOp("AND") {
			p.i++
		} else if t := p.peek(); t.kind == 0 || t.kind == ')' || p.isOp("OR") {
			break
		}
		n, err := p.unary(depth)
		if err != nil {
			return nil, err
		}
		kids = append(kids, n)
	}
	return join('&', kids), nil
}

// unary := NOT unary | ( or ) | word | phrase
func (p *condParser) unary(depth int) (*node, error) {
	t := p.peek()
	if depth >= maxDepth {
		return nil, condError(t.off, "nested deeper than %d", maxDepth)
	}
	switch t.kind {
	case tokWord, tokPhrase:
		p.i++
		return allOf(p.a.Terms(t.text)), nil
	case tokOp:
		if t.text != "NOT" {
			break
		}
		p.i++
		n, err := p.unary(depth + 1)
		if err != nil || n == nil {
			return nil, err
		}
		return &node{op: '!', kids: []*node{n}}, nil
	case '(':
		p.i++
		n, err := p.or(depth + 1)
		if err != nil {
			return nil, err
		}
		if p.peek().kind != ')' {
			return nil, condError(t.off, "a parenthesis that is not closed")
		}
		p.i++
		return n, nil
	}
	if t.kind == 0 {
		return nil, condError(t.off, "the condition ends where a word, a phrase or ( was expected")
	}
	return nil, condError(t.off, "%s where a word, a phrase or ( was expected", t)
}
