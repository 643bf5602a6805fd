package recall

import (
	"math"
	"slices"
)

// The weights of an entry's fields, as the bridge indexes them: words in a
// title or among the keywords say what the entry is about more than a
// word of its prose does.
const (
	TitleWeight        = 2
	TextWeight         = 1
	KeywordsWeight     = 2
	CapabilitiesWeight = 1
)

// A Field is a piece of a document's text and its weight: each occurrence
// of a term in it counts Weight times towards the term's frequency in the
// document and the document's length. A Weight below 1 leaves the field
// out. Lists (keywords, capabilities) are given as one text, joined with
// spaces.
type Field struct {
	Text   string
	Weight int
}

// A Doc is one entry as the index sees it: an ID unique in the index, its
// kind ("methodology", "dead_end", "judgment", "experiment", "observation"
// or any other name, to filter searches by) and its weighted fields.
type Doc struct {
	ID     string
	Kind   string
	Fields []Field
}

// An Index is an inverted index of documents: for each term, the documents
// that hold it and how often (weighted). A search reads the postings of
// its terms only. Documents are numbered in the order they were added;
// removed ones stay in their postings, marked, until they outnumber the
// live ones and the index is compacted.
type Index struct {
	an    *Analyzer
	ids   map[string]int32     // a live document's number
	docs  []docInfo            // by number
	terms map[string]*postings // by term
	live  int                  // live documents
	total uint64               // the summed length of the live documents (exact: integers)
}

// docInfo is what the index keeps of a document.
type docInfo struct {
	id, kind string
	length   uint64   // weighted number of term occurrences
	terms    []string // its distinct terms, sorted; nil once removed
	dead     bool
}

// postings lists the documents holding a term, by increasing number.
type postings struct {
	list []posting
	df   int // the live documents among them
}

// A posting is a document holding a term and the term's weighted
// frequency in it.
type posting struct {
	doc int32
	tf  uint32
}

// NewIndex returns an empty index whose documents and queries are analysed
// by a (nil for no synonyms).
func NewIndex(a *Analyzer) *Index {
	if a == nil {
		a = NewAnalyzer(Synonyms{})
	}
	return &Index{an: a, ids: map[string]int32{}, terms: map[string]*postings{}}
}

// Analyzer returns the analyzer of the index's documents.
func (ix *Index) Analyzer() *Analyzer { return ix.an }

// Len returns the number of documents in the index.
func (ix *Index) Len() int { return ix.live }

// Add indexes doc, replacing the document of the same ID if there is one.
// A weighted frequency saturates at 2³²−1.
func (ix *Index) Add(doc Doc) {
	ix.Remove(doc.ID)
	tf := map[string]uint64{}
	for _, f := range doc.Fields {
		if f.Weight < 1 {
			continue
		}
		for _, c := range ix.an.Counts(f.Text) {
			tf[c.Term] += uint64(c.N) * uint64(f.Weight)
		}
	}
	n := int32(len(ix.docs))
	d := docInfo{id: doc.ID, kind: doc.Kind, terms: make([]string, 0, len(tf))}
	for t := range tf {
		d.terms = append(d.terms, t)
	}
	slices.Sort(d.terms)
	for _, t := range d.terms {
		f := uint32(min(tf[t], math.MaxUint32))
		d.length += uint64(f)
		ix.post(t).add(posting{n, f})
	}
	ix.docs = append(ix.docs, d)
	ix.ids[doc.ID] = n
	ix.live++
	ix.total += d.length
}

// post returns the postings of term, creating them.
func (ix *Index) post(term string) *postings {
	p := ix.terms[term]
	if p == nil {
		p = &postings{}
		ix.terms[term] = p
	}
	return p
}

func (p *postings) add(x posting) {
	p.list = append(p.list, x)
	p.df++
}

// Remove takes the document id out of the index and reports whether it was
// there. Its postings are dropped when removed documents outnumber live
// ones (Remove then costs the size of the index, rarely enough that a
// removal costs a document's size on average).
func (ix *Index) Remove(id string) bool {
	n, ok := ix.ids[id]
	if !ok {
		return false
	}
	d := &ix.docs[n]
	for _, t := range d.terms {
		ix.terms[t].df--
	}
	delete(ix.ids, id)
	ix.live--
	ix.total -= d.length
	d.dead, d.terms = true, nil
	if dead := len(ix.docs) - ix.live; dead > ix.live && dead >= 32 {
		ix.compact()
	}
	return true
}

// compact renumbers the live documents in their order and rebuilds the
// postings without the removed ones.
func (ix *Index) compact() {
	renum := make([]int32, len(ix.docs))
	docs := make([]docInfo, 0, ix.live)
	for i, d := range ix.docs {
		renum[i] = -1
		if !d.dead {
			renum[i] = int32(len(docs))
			ix.ids[d.id] = renum[i]
			docs = append(docs, d)
		}
	}
	for t, p := range ix.terms {
		if p.df == 0 {
			delete(ix.terms, t)
			continue
		}
		list := make([]posting, 0, p.df)
		for _, x := range p.list {
			if renum[x.doc] >= 0 {
				list = append(list, posting{renum[x.doc], x.tf})
			}
		}
		p.list = list
	}
	ix.docs = docs
}

// Terms returns the distinct terms of the document id, sorted, and whether
// the index holds it: what to compare with a context (Matches) or with
// another entry (NearDuplicate).
func (ix *Index) Terms(id string) ([]string, bool) {
	n, ok := ix.ids[id]
	if !ok {
		return nil, false
	}
	return slices.Clone(ix.docs[n].terms), true
}
