package belief

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// Version is the version of the format AppendJSON writes.
const Version = 1

// AppendJSON appends the book as one compact JSON object, members in a
// fixed order:
//
//	{"version":1,"observations":[{"id","kind","subject","slot","claim","status",
//	  "supersedes","superseded_by","retired","created","last_supported",
//	  "confidence":{"value","sources","diversity","support","contradiction","recency","operator","at"},
//	  "evidence":[{"source","source_kind","stance","weight","at","by","note"},…]},…]}
//
// Observations in the order they were created, evidence in the order it
// arrived, every member present ("" for an empty link), times in RFC 3339
// UTC with as many fractional digits as they need, numbers in Go's
// shortest round-tripping form, strings as Python's json.dumps writes
// them. The same book always gives the same bytes, and DecodeBook gives
// back the same book.
func (b *Book) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"version":`...)
	dst = strconv.AppendInt(dst, Version, 10)
	dst = append(dst, `,"observations":[`...)
	for i, o := range b.obs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendObservation(dst, o)
	}
	return append(dst, "]}"...)
}

func appendObservation(dst []byte, o *Observation) []byte {
	str := func(name, s string) {
		dst = append(dst, name...)
		dst = pyjson.AppendString(dst, s)
	}
	str(`{"id":`, o.ID)
	str(`,"kind":`, string(o.Key.Kind))
	str(`,"subject":`, o.Key.Subject)
	str(`,"slot":`, o.Key.Slot)
	str(`,"claim":`, o.Claim)
	str(`,"status":`, string(o.Status))
	str(`,"supersedes":`, o.Supersedes)
	str(`,"superseded_by":`, o.SupersededBy)
	str(`,"retired":`, o.Retired)
	str(`,"created":`, formatTime(o.Created))
	str(`,"last_supported":`, formatTime(o.LastSupported))
	c := o.Confidence
	dst = append(dst, `,"confidence":{`...)
	for i, x := range [...]float64{c.Value, c.Sources, c.Diversity, c.Support, c.Contradiction, c.Recency, c.Operator} {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '"')
		dst = append(dst, confidenceMembers[i]...)
		dst = append(dst, `":`...)
		dst = appendFloat(dst, x)
	}
	str(`,"at":`, formatTime(c.At))
	dst = append(dst, `},"evidence":[`...)
	for i, e := range o.Evidence {
		if i > 0 {
			dst = append(dst, ',')
		}
		str(`{"source":`, e.Source)
		str(`,"source_kind":`, e.SourceKind)
		str(`,"stance":`, string(e.Stance))
		dst = append(dst, `,"weight":`...)
		dst = appendFloat(dst, e.Weight)
		str(`,"at":`, formatTime(e.At))
		str(`,"by":`, e.By)
		str(`,"note":`, e.Note)
		dst = append(dst, '}')
	}
	return append(dst, "]}"...)
}

var (
	bookMembers        = []string{"version", "observations"}
	observationMembers = []string{"id", "kind", "subject", "slot", "claim", "status", "supersedes", "superseded_by", "retired", "created", "last_supported", "confidence", "evidence"}
	confidenceMembers  = []string{"value", "sources", "diversity", "support", "contradiction", "recency", "operator", "at"}
	evidenceMembers    = []string{"source", "source_kind", "stance", "weight", "at", "by", "note"}
)

func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func appendFloat(dst []byte, x float64) []byte {
	if x == 0 {
		return append(dst, '0') // never "-0"
	}
	return strconv.AppendFloat(dst, x, 'g', -1, 64)
}

// DecodeBook reads a book written by AppendJSON. It refuses anything else,
// with an error that names the member, and a book that breaks an
// invariant (Check): a stored book is input like any other. It never
// panics.
func DecodeBook(data []byte) (*Book, error) {
	if !gjson.ValidBytes(data) {
		return nil, errors.New("belief: not valid JSON")
	}
	doc, err := members(gjson.ParseBytes(data), "book", bookMembers)
	if err != nil {
		return nil, err
	}
	if v := doc["version"]; v.Type != gjson.Number || v.Raw != strconv.Itoa(Version) {
		return nil, fmt.Errorf("belief: version must be %d", Version)
	}
	list := doc["observations"]
	if !list.IsArray() {
		return nil, errors.New("belief: observations must be an array")
	}
	b := NewBook()
	b.init()
	for i, r := range list.Array() {
		o, err := decodeObservation(r, fmt.Sprintf("observations[%d]", i))
		if err != nil {
			return nil, err
		}
		b.obs = append(b.obs, o)
		b.byID[o.ID] = o
		if o.Status.Current() {
			b.current[o.Key] = o
		}
	}
	if errs := b.Check(); len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return b, nil
}

// A decoder reads the members of one object, remembering the first error.
type decoder struct {
	where string
	m     map[string]gjson.Result
	err   error
}

func (d *decoder) fail(name, want string) {
	if d.err == nil {
		d.err = fmt.Errorf("belief: %s.%s must be %s", d.where, name, want)
	}
}

func (d *decoder) str(name string) string {
	v := d.m[name]
	if v.Type != gjson.String || !utf8.ValidString(v.Str) {
		d.fail(name, "a string of valid UTF-8")
		return ""
	}
	return v.Str
}

func (d *decoder) num(name string) float64 {
	v := d.m[name]
	if v.Type != gjson.Number || math.IsInf(v.Num, 0) || math.IsNaN(v.Num) {
		d.fail(name, "a finite number")
		return 0
	}
	return v.Num
}

func (d *decoder) time(name string) time.Time {
	s := d.str(name)
	t, err := time.Parse(time.RFC3339Nano, s)
	if d.err == nil && (err != nil || formatTime(t) != s) {
		d.fail(name, "a time in RFC 3339 UTC (2006-01-02T15:04:05.999999999Z)")
	}
	return t.UTC()
}

func decodeObservation(r gjson.Result, where string) (*Observation, error) {
	m, err := members(r, where, observationMembers)
	if err != nil {
		return nil, err
	}
	d := &decoder{where: where, m: m}
	o := &Observation{
		ID:            d.str("id"),
		Key:           Key{Kind: Kind(d.str("kind")), Subject: d.str("subject"), Slot: d.str("slot")},
		Claim:         d.str("claim"),
		Status:        Status(d.str("status")),
		Supersedes:    d.str("supersedes"),
		SupersededBy:  d.str("superseded_by"),
		Retired:       d.str("retired"),
		Created:       d.time("created"),
		LastSupported: d.time("last_supported"),
	}
	if d.err != nil {
		return nil, d.err
	}
	cm, err := members(m["confidence"], where+".confidence", confidenceMembers)
	if err != nil {
		return nil, err
	}
	cd := &decoder{where: where + ".confidence", m: cm}
	o.Confidence = Confidence{
		Value: cd.num("value"), Sources: cd.num("sources"), Diversity: cd.num("diversity"),
		Support: cd.num("support"), Contradiction: cd.num("contradiction"),
		Recency: cd.num("recency"), Operator: cd.num("operator"), At: cd.time("at"),
	}
	if cd.err != nil {
		return nil, cd.err
	}
	ev := m["evidence"]
	if !ev.IsArray() {
		return nil, fmt.Errorf("belief: %s.evidence must be an array", where)
	}
	for j, r := range ev.Array() {
		ew := fmt.Sprintf("%s.evidence[%d]", where, j)
		em, err := members(r, ew, evidenceMembers)
		if err != nil {
			return nil, err
		}
		ed := &decoder{where: ew, m: em}
		e := Evidence{
			Source: ed.str("source"), SourceKind: ed.str("source_kind"), Stance: Stance(ed.str("stance")),
			Weight: ed.num("weight"), At: ed.time("at"), By: ed.str("by"), Note: ed.str("note"),
		}
		if ed.err != nil {
			return nil, ed.err
		}
		o.Evidence = append(o.Evidence, e)
	}
	return o, nil
}

// members returns an object's members by name. Each of names must be
// there, once, and nothing else.
func members(r gjson.Result, where string, names []string) (map[string]gjson.Result, error) {
	if !r.IsObject() {
		return nil, fmt.Errorf("belief: %s must be an object", where)
	}
	m := make(map[string]gjson.Result, len(names))
	var err error
	r.ForEach(func(k, v gjson.Result) bool {
		switch _, dup := m[k.Str]; {
		case !slices.Contains(names, k.Str):
			err = fmt.Errorf("belief: %s: unknown member %q", where, k.Str)
		case dup:
			err = fmt.Errorf("belief: %s: member %q twice", where, k.Str)
		default:
			m[k.Str] = v
			return true
		}
		return false
	})
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		if _, ok := m[n]; !ok {
			return nil, fmt.Errorf("belief: %s: no member %q", where, n)
		}
	}
	return m, nil
}
