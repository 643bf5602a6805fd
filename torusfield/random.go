package torusfield

// Random is a pseudo-random generator that yields exactly the sequence of
// CPython's random.Random(seed): the Mersenne Twister MT19937 as written in
// CPython's Modules/_randommodule.c, seeded the way that module seeds itself
// from an int.
//
// It exists because the engine must reproduce the reference implementation's
// draws bit for bit; math/rand and math/rand/v2 use other algorithms and
// would diverge from the first value. Only the subset the engine needs is
// ported: integer seeding, 32-bit outputs and random.random().
//
// A Random is not safe for concurrent use, and MT19937 is predictable from
// its outputs: never use it for cryptography.
type Random struct {
	mt    [mtN]uint32
	index int // next word of mt to temper; mtN means "regenerate first"
}

// MT19937 parameters, named as in the reference C code.
const (
	mtN       = 624
	mtM       = 397
	matrixA   = 0x9908b0df // constant vector a
	upperMask = 0x80000000 // most significant w-r bits
	lowerMask = 0x7fffffff // least significant r bits
)

// NewRandom returns a generator seeded as random.Random(seed) seeds itself
// from a non-negative int: the absolute value is split into 32-bit words,
// least significant first (a zero seed gives the key [0]), and fed to
// init_by_array. So seeds below 2**32 give a one-word key and larger ones a
// two-word key, exactly as CPython does for the same Python int.
func NewRandom(seed uint64) *Random {
	key := []uint32{uint32(seed)}
	if hi := uint32(seed >> 32); hi != 0 {
		key = append(key, hi)
	}
	r := &Random{}
	r.initByArray(key)
	return r
}

// initGenrand is init_genrand: fill the state from a single 32-bit value.
func (r *Random) initGenrand(s uint32) {
	r.mt[0] = s
	for i := 1; i < mtN; i++ {
		r.mt[i] = 1812433253*(r.mt[i-1]^(r.mt[i-1]>>30)) + uint32(i)
	}
	r.index = mtN
}

// initByArray is init_by_array. The loop counts are part of the output
// sequence, so they follow the C code literally: max(N, len(key)) mixing
// steps with the key, then N-1 further steps, wrapping i back to 1 and
// copying mt[N-1] into mt[0] each time i runs off the end.
func (r *Random) initByArray(key []uint32) {
	r.initGenrand(19650218)
	mt := &r.mt
	i, j := 1, 0
	for k := max(mtN, len(key)); k > 0; k-- {
		mt[i] = (mt[i] ^ ((mt[i-1] ^ (mt[i-1] >> 30)) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= mtN {
			mt[0] = mt[mtN-1]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k := mtN - 1; k > 0; k-- {
		mt[i] = (mt[i] ^ ((mt[i-1] ^ (mt[i-1] >> 30)) * 1566083941)) - uint32(i)
		i++
		if i >= mtN {
			mt[0] = mt[mtN-1]
			i = 1
		}
	}
	mt[0] = 0x80000000 // MSB is 1, so the initial state is never all zero
}

// Uint32 returns the next 32-bit output (genrand_uint32). For k <= 32,
// random.getrandbits(k) is this value shifted right by 32-k.
func (r *Random) Uint32() uint32 {
	if r.index >= mtN {
		r.twist()
	}
	y := r.mt[r.index]
	r.index++

	// Tempering: improves the equidistribution of the raw state words.
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// twist regenerates all N state words at once, as genrand_uint32 does when
// the previous block is used up. The three loops mirror the C code, which
// splits the ring so no index needs a modulo; words are updated in place, so
// later steps read words that earlier steps already replaced.
func (r *Random) twist() {
	mt := &r.mt
	k := 0
	for ; k < mtN-mtM; k++ {
		mt[k] = twistWord(mt[k], mt[k+1], mt[k+mtM])
	}
	for ; k < mtN-1; k++ {
		mt[k] = twistWord(mt[k], mt[k+1], mt[k+mtM-mtN])
	}
	mt[mtN-1] = twistWord(mt[mtN-1], mt[0], mt[mtM-1])
	r.index = 0
}

// twistWord combines the top bit of cur with the low 31 bits of next, and
// xors the result (times the matrix A over GF(2)) into the word M ahead.
func twistWord(cur, next, ahead uint32) uint32 {
	y := cur&upperMask | next&lowerMask
	v := ahead ^ y>>1
	if y&1 != 0 {
		v ^= matrixA
	}
	return v
}

// Float64 returns the next value in [0, 1) as random.random() does:
// a = Uint32()>>5 and b = Uint32()>>6 give 27 and 26 bits, and the result is
// (a*67108864 + b) / 9007199254740992, i.e. a 53-bit integer over 2**53.
// The integer is assembled with shifts so the float64 conversion and the
// division by a power of two are both exact: nothing can round differently
// from CPython (and no fused multiply-add can creep in).
func (r *Random) Float64() float64 {
	a := uint64(r.Uint32() >> 5)
	b := uint64(r.Uint32() >> 6)
	return float64(a<<26|b) / (1 << 53)
}
