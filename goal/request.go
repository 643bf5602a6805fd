package goal

import (
	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// A Request is what goal add asks for: the goal and when it completes.
type Request struct {
	Content, Parent string
	// Count is how many successes complete the goal; nil: one.
	Count *int64
	// Threshold, instead, is the confidence one success needs to complete
	// it; nil: it completes by count.
	Threshold *float64
	// Retries are the failures it tolerates before it fails.
	Retries int64
}

// Check refuses a request that makes no goal (invalid_value, exit 2): both
// criteria, a count below 1, a threshold outside (0, 1], retries below 0.
func (r Request) Check() error {
	bad := func(hint, msg string) error { return fault.BadInput(fault.CodeInvalidValue, hint, "%s", msg) }
	if r.Count != nil {
		if r.Threshold != nil {
			return bad("give --count or --threshold, not both", "a goal has one completion criterion")
		}
		if *r.Count < 1 {
			return bad("give --count 1 or more", "--count must be at least 1")
		}
	}
	if r.Threshold != nil && (*r.Threshold <= 0 || *r.Threshold > 1) {
		return bad("give --threshold between 0 and 1, e.g. 0.9", "--threshold must be in (0, 1]")
	}
	if r.Retries < 0 {
		return bad("give --retries 0 or more", "--retries must not be negative")
	}
	return nil
}

// New makes the active goal r asks for, of that id, created at the time
// created, and adds it to the book (Add: its parent must be a goal).
func (gb *Book) New(id string, r Request, created string) (*Goal, error) {
	g := &Goal{ID: id, Content: r.Content, Parent: r.Parent, Criterion: CriterionCount, Target: 1,
		RetryBudget: r.Retries, RetriesLeft: r.Retries, State: Active, Created: created}
	if r.Threshold != nil {
		g.Criterion, g.Confidence = CriterionThreshold, *r.Threshold
	} else if r.Count != nil {
		g.Target = *r.Count
	}
	if err := gb.Add(g); err != nil {
		return nil, err
	}
	return g, nil
}

// RequestOf reads a goal add call's arguments (content, parent, count,
// threshold, retries) as a request; a criterion absent stays nil.
func RequestOf(args pyjson.Value) Request {
	r := Request{Content: args.StrOf("content"), Parent: args.StrOf("parent")}
	if v, ok := args.Get("retries"); ok {
		r.Retries, _ = v.Int()
	}
	if v, ok := args.Get("count"); ok {
		n, _ := v.Int()
		r.Count = &n
	}
	if v, ok := args.Get("threshold"); ok {
		x, _ := v.Float()
		r.Threshold = &x
	}
	return r
}
