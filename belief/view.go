package belief

import (
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// The views of observations that answers show: one observation with its
// confidence components, what a change did, what is due by kind, and a
// review of a period. Numbers are rounded as Python's round does, times
// are written as Python's isoformat, so answers stay byte for byte those
// of the reference's JSON contract.

// Summary is an observation with its confidence components, its evidence
// counted by stance, and (when now is not zero) its freshness and when it
// is due for revalidation.
func Summary(o *Observation, now time.Time) pyjson.Value {
	c := o.Confidence
	support, contradict := 0, 0
	for _, e := range o.Evidence {
		switch e.Stance {
		case Support:
			support++
		case Contradict:
			contradict++
		}
	}
	ms := []pyjson.Member{
		pyjson.KV("id", o.ID),
		pyjson.KV("key", o.Key.String()),
		pyjson.KV("claim", o.Claim),
		pyjson.KV("status", string(o.Status)),
		pyjson.KV("confidence", round4(c.Value)),
		pyjson.KV("components", pyjson.Obj(pyjson.KV("sources", round4(c.Sources)), pyjson.KV("diversity", round4(c.Diversity)),
			pyjson.KV("support", round4(c.Support)), pyjson.KV("contradiction", round4(c.Contradiction)),
			pyjson.KV("recency", round4(c.Recency)), pyjson.KV("operator", round4(c.Operator)))),
		pyjson.KV("evidence", pyjson.Obj(pyjson.KV("support", support), pyjson.KV("contradict", contradict))),
		pyjson.KV("last_supported", pyjson.ISOTime(o.LastSupported)),
	}
	if !now.IsZero() {
		ms = append(ms, pyjson.KV("freshness", round4(Freshness(o, now))), pyjson.KV("due", pyjson.ISOTime(DueAt(o))))
	}
	for _, l := range []struct{ k, v string }{{"supersedes", o.Supersedes}, {"superseded_by", o.SupersededBy}} {
		if l.v != "" {
			ms = append(ms, pyjson.KV(l.k, l.v))
		}
	}
	return pyjson.ObjectValue(ms)
}

// ChangeValue is an observation as an answer that changed it shows it:
// its Summary (without freshness) and what the change did.
func ChangeValue(o *Observation, ch Change) pyjson.Value {
	v := Summary(o, time.Time{})
	var change any
	switch {
	case ch.Duplicate:
		change = "duplicate evidence, ignored"
	case ch.Superseded != "":
		change = "superseded " + ch.Superseded
	case ch.Created:
		change = "created"
	case ch.Before != ch.After:
		change = string(ch.Before) + " → " + string(ch.After)
	default:
		change = "evidence added"
	}
	return v.With("change", change)
}

// Listing is the observations of b at now as the observations operation
// answers them: with due, the believed ones due for revalidation by kind
// (DueByKind) and how many; else those of status (Book.Select), each its
// Summary, and how many.
func Listing(b *Book, status string, due bool, now time.Time) pyjson.Value {
	if due {
		byKind, n := DueByKind(b, now)
		return pyjson.Obj(pyjson.KV("due", byKind), pyjson.KV("count", n))
	}
	out := []pyjson.Value{}
	for _, o := range b.Select(status) {
		out = append(out, Summary(o, now))
	}
	return pyjson.Obj(pyjson.KV("observations", out), pyjson.KV("count", len(out)))
}

// DueByKind lists the believed observations of b due for revalidation at
// now, by kind (in Kinds' order, kinds with none left out), and how many
// there are.
func DueByKind(b *Book, now time.Time) (pyjson.Value, int) {
	due := b.Due(now)
	var kinds []pyjson.Member
	for _, k := range Kinds {
		var list []pyjson.Value
		for _, o := range due {
			if o.Key.Kind == k {
				list = append(list, Summary(o, now))
			}
		}
		if list != nil {
			kinds = append(kinds, pyjson.KV(string(k), list))
		}
	}
	return pyjson.ObjectValue(kinds), len(due)
}

// DueFirst is the first n of the believed observations of b due for
// revalidation at now (each its Summary), and how many are due.
func DueFirst(b *Book, now time.Time, n int) ([]pyjson.Value, int) {
	due := b.Due(now)
	out := []pyjson.Value{}
	for _, o := range due[:min(n, len(due))] {
		out = append(out, Summary(o, now))
	}
	return out, len(due)
}

// Review is a period's view of the book (since: an isoformat time, the
// period's start): the believed observations due for revalidation (by
// kind), those superseded or invalidated since the period began, and the
// believed ones with contradicting evidence, which need a decision
// (confirm, contradict, retire).
func Review(b *Book, since string, now time.Time) pyjson.Value {
	due, _ := DueByKind(b, now)
	superseded, invalidated, contested := []pyjson.Value{}, []pyjson.Value{}, []pyjson.Value{}
	for _, o := range b.Observations() {
		switch {
		case o.Status == Superseded:
			if n := b.Get(o.SupersededBy); n != nil && pyjson.ISOTime(n.Created) >= since {
				superseded = append(superseded, Summary(o, time.Time{}))
			}
		case o.Status == Invalidated:
			if last := o.Evidence[len(o.Evidence)-1]; pyjson.ISOTime(last.At) >= since {
				invalidated = append(invalidated, Summary(o, time.Time{}))
			}
		case o.Confidence.Contradiction > 0:
			contested = append(contested, Summary(o, now))
		}
	}
	return pyjson.Obj(pyjson.KV("due", due), pyjson.KV("superseded", superseded),
		pyjson.KV("invalidated", invalidated), pyjson.KV("contested", contested))
}

// KindNames are the observation kinds' names, in Kinds' order.
func KindNames() []string {
	out := make([]string, len(Kinds))
	for i, k := range Kinds {
		out[i] = string(k)
	}
	return out
}

func round4(x float64) float64 { return pyjson.Round(x, 4) }
