package torusfield

// ordered is a map that remembers insertion order, as a Python dict does.
// The reference iterates its dicts (ports, edge bias) and their order reaches
// the state file and the digest, so a Go map would not do.
type ordered[K comparable] struct {
	keys []K
	vals []float64
	pos  map[K]int
}

func newOrdered[K comparable]() *ordered[K] {
	return &ordered[K]{pos: make(map[K]int)}
}

func (o *ordered[K]) Len() int { return len(o.keys) }

func (o *ordered[K]) Get(k K) (float64, bool) {
	if i, ok := o.pos[k]; ok {
		return o.vals[i], true
	}
	return 0, false
}

// Set replaces the value of an existing key in place or appends a new key.
func (o *ordered[K]) Set(k K, v float64) {
	if i, ok := o.pos[k]; ok {
		o.vals[i] = v
		return
	}
	o.pos[k] = len(o.keys)
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, v)
}

// Add adds v to the key's value (zero when absent): `d[k] = d.get(k, 0.0) + v`.
func (o *ordered[K]) Add(k K, v float64) {
	old, _ := o.Get(k)
	o.Set(k, old+v)
}

// Filter keeps the entries for which keep returns true, in order.
func (o *ordered[K]) Filter(keep func(k K, v float64) bool) {
	n := 0
	for i, k := range o.keys {
		if keep(k, o.vals[i]) {
			o.keys[n], o.vals[n] = k, o.vals[i]
			o.pos[k] = n
			n++
		} else {
			delete(o.pos, k)
		}
	}
	o.keys, o.vals = o.keys[:n], o.vals[:n]
}
