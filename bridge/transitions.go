package bridge

import (
	"cmp"
	"slices"
	"strings"
)

// A transition is what the workspace has learned of one step from → to:
// the weighted successes S of N weighted outcomes (a partial counts half),
// the contexts it was reported in and when it was last reported.
type transition struct {
	From, To   string
	S, N       float64
	Discovered bool     // learned from reports, not in the manifest
	Edge       int      // the graph's edge index, -1 for none
	Contexts   []string // the newest first, distinct, at most maxContexts
	LastSeen   string   // the newest report's timestamp ("" when outside the window)
}

// rate is the success rate, or -1 without outcomes.
func (t *transition) rate() float64 {
	if t.N <= 0 {
		return -1
	}
	return t.S / t.N
}

const maxContexts = 3 // contexts kept per transition

// transitions lists what the workspace learned of each step: a learning
// model's own counts, else those of the action log's last window lines.
// Contexts and last-seen times come from the last window reports (the
// action log's lines, with contexts, the journal's: reportContexts).
// Ordered by from, then to.
func (s *session) transitions(window int, contexts []reportContext) ([]*transition, error) {
	byPair := map[[2]string]*transition{}
	get := func(from, to string) *transition {
		k := [2]string{from, to}
		if t := byPair[k]; t != nil {
			return t
		}
		t := &transition{From: from, To: to, Edge: s.engine.Graph.Find(from, to)}
		byPair[k] = t
		return t
	}
	v, err := s.learned()
	if err != nil {
		return nil, err
	}
	if v != nil {
		for _, p := range v.model.Pairs() {
			t := get(p.From, p.To)
			t.S, t.N, t.Discovered = p.S, p.N, p.Discovered
		}
	}
	sv, err := s.steps()
	if err != nil {
		return nil, err
	}
	if sv != nil {
		// The agent's own steps from each capability, in whole counts.
		m := s.stepsModel(sv)
		for _, from := range s.manifest.Names() {
			for _, c := range m.Successors(from) {
				if !s.manifest.Has(c.To) {
					continue
				}
				t := get(from, c.To)
				t.S, t.N = float64(c.Successes), float64(c.Successes+c.Failures)
				t.Discovered = c.Successes > 0 && t.Edge < 0 && !(from == c.To && hasSelfLoop(s, from))
			}
		}
		if err := modelErr(m); err != nil {
			return nil, err
		}
	}
	// A learning model's counts are its own: the window adds contexts and
	// times only.
	modelCounts := v != nil || sv != nil
	lines, err := s.window(relActionLog, window)
	if err != nil {
		return nil, err
	}
	total, err := s.reportsTotal()
	if err != nil {
		return nil, err
	}
	// The journal's reports are the action log's last lines (relearn).
	offset := total - len(contexts)
	first := total - len(lines)
	for i := len(lines) - 1; i >= 0; i-- { // newest first
		line := lines[i]
		from, to := strField(line, "cursor_before"), strField(line, "action")
		if !s.manifest.Has(from) || !s.manifest.Has(to) {
			continue
		}
		t := byPair[[2]string{from, to}]
		if !modelCounts {
			t = get(from, to)
			y, w := outcomeValue(strField(line, "success"))
			t.S += w * y
			t.N += w
		} else if t == nil {
			continue
		}
		if t.LastSeen == "" {
			t.LastSeen = strField(line, "timestamp")
		}
		if j := first + i - offset; j >= 0 && j < len(contexts) {
			if c := strings.TrimSpace(contexts[j].text); c != "" && len(t.Contexts) < maxContexts && !slices.Contains(t.Contexts, c) {
				t.Contexts = append(t.Contexts, c)
			}
		}
	}
	out := make([]*transition, 0, len(byPair))
	for _, t := range byPair {
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b *transition) int {
		return cmp.Or(strings.Compare(a.From, b.From), strings.Compare(a.To, b.To))
	})
	return out, nil
}

// byEvidence orders transitions by weighted outcomes, most first, then by
// the newest report, then by name.
func byEvidence(ts []*transition) []*transition {
	out := slices.Clone(ts)
	slices.SortStableFunc(out, func(a, b *transition) int {
		return cmp.Or(cmp.Compare(b.N, a.N), strings.Compare(b.LastSeen, a.LastSeen))
	})
	return out
}
