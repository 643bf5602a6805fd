package pyjson

import "unicode/utf8"

// LeadMember returns the value of a document's first member if that member
// is named key, parsed as Parse parses it (a repeated key inside takes its
// last value). ucs writes its "ucs" meta first in the state file and needs
// it (it names the manifest) before it can build the engine that restores
// the rest. It is a quick look, not a parse: the rest of the document is
// not read, and false means only that the look failed (the document is not
// an object, the member is not first, its key is escaped, its value is
// malformed); a caller that must know parses the document.
func LeadMember(data []byte, key string) (Value, bool) {
	p := parser{src: data}
	p.skipWS()
	if p.pos >= len(data) || data[p.pos] != '{' {
		return Value{}, false
	}
	p.pos++
	p.depth = 1 // the member's value nests inside the document's object
	p.skipWS()
	// The key as written, quotes and all: an escaped spelling is not it.
	if !hasPrefixAt(data, p.pos, `"`) || !hasPrefixAt(data, p.pos+1, key) || !hasPrefixAt(data, p.pos+1+len(key), `"`) {
		return Value{}, false
	}
	p.pos += len(key) + 2
	p.skipWS()
	if p.pos >= len(data) || data[p.pos] != ':' {
		return Value{}, false
	}
	p.pos++
	p.skipWS()
	start := p.pos
	v, err := p.value()
	// Parse checks the whole document's UTF-8 before it scans; the look
	// checks the member's bytes, the only ones it read.
	if err != nil || !utf8.Valid(data[start:p.pos]) {
		return Value{}, false
	}
	return v, true
}
