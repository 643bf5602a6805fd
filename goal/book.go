package goal

import (
	"slices"
	"strconv"
	"strings"
)

// ClosedKept is how many completed goals a Book keeps.
const ClosedKept = 100

// A Book is a workspace's goals.
type Book struct {
	Open   []*Goal // in creation order
	Closed []*Goal // completed, oldest first, at most ClosedKept
	// Numbered is the highest goal number given (goal gN is number N);
	// 0 in a book written before goals were numbered, which then counts
	// on from its highest id.
	Numbered int64
}

// Number returns N of a goal id gN.
func Number(id string) (int64, bool) {
	n, err := strconv.ParseInt(strings.TrimPrefix(id, "g"), 10, 64)
	return n, err == nil && strings.HasPrefix(id, "g") && n > 0
}

// ID is the id of goal number n.
func ID(n int64) string { return "g" + strconv.FormatInt(n, 10) }

// highest returns the highest goal number given: the book's count, or
// the highest id it holds (ids were once the number of the event that
// added the goal).
func (gb *Book) highest() int64 {
	n := gb.Numbered
	for _, gs := range [][]*Goal{gb.Open, gb.Closed} {
		for _, g := range gs {
			if k, ok := Number(g.ID); ok && k > n {
				n = k
			}
		}
	}
	return n
}

// NextID gives the next goal number and returns its id: one more than the
// highest the book has given, so ids count the workspace's goals (g1, g2,
// ...) and never reuse one, even after a completed goal left the book.
func (gb *Book) NextID() string {
	gb.Numbered = gb.highest() + 1
	return ID(gb.Numbered)
}

// Given records that id was given (a replay of an event that recorded
// it), so the next id counts on from it.
func (gb *Book) Given(id string) {
	if n, ok := Number(id); ok && n > gb.Numbered {
		gb.Numbered = n
	}
}

// Empty says the book holds nothing the state file must keep.
func (gb *Book) Empty() bool {
	return len(gb.Open) == 0 && len(gb.Closed) == 0 && gb.Numbered == 0
}

// All returns the open goals, then the closed ones, in a new slice.
func (gb *Book) All() []*Goal { return append(append([]*Goal{}, gb.Open...), gb.Closed...) }

// Find returns the goal with that id, open or closed, or nil.
func (gb *Book) Find(id string) *Goal {
	for _, g := range gb.Open {
		if g.ID == id {
			return g
		}
	}
	for _, g := range gb.Closed {
		if g.ID == id {
			return g
		}
	}
	return nil
}

// Settle moves a completed goal from Open to Closed, keeping the last
// ClosedKept.
func (gb *Book) Settle(g *Goal) {
	if g.State != Completed {
		return
	}
	if i := slices.Index(gb.Open, g); i >= 0 {
		gb.Open = slices.Delete(gb.Open, i, i+1)
		gb.Closed = append(gb.Closed, g)
		if len(gb.Closed) > ClosedKept {
			gb.Closed = gb.Closed[len(gb.Closed)-ClosedKept:]
		}
	}
}
