package relevance

import (
	"strconv"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// Coverage tells how ready the memory is for a task before the agent
// starts it (OpenSentience's coverage check): what knowledge it holds for
// the task (methodology, judgment, dead ends, found as consult finds them)
// and how much experience (reported outcomes of the capabilities the task
// evokes), as a score, the gaps and a recommendation.

// Tuning of coverage: how much of each counts as full.
const (
	coverageKnowledgeFull  = 3 // methodology, judgment and dead-end hits
	coverageExperienceFull = 5 // weighted outcomes of one capability
)

// Found counts what a consult would show of the knowledge for a task, and
// the dead ends that still hold (not reopened).
type Found struct{ Methodology, Judgment, DeadEnds, Closed int }

// Found finds the knowledge for a task as consult does: a v4 workspace's
// knowledge context (governs), or the reference's search over the last
// judgmentWindow judgment nodes.
func (s *Source) Found(context string, resolved []string, governs bool, judgmentWindow int) (Found, error) {
	var f Found
	if governs {
		kc, err := s.Context(context)
		if err != nil {
			return f, err
		}
		f.Methodology, f.Judgment, f.DeadEnds = len(kc.Methodology), len(kc.Judgment), len(kc.DeadEnds)
		for _, d := range kc.DeadEnds {
			if v, _ := d.Get("reopen_triggered"); !v.Bool() {
				f.Closed++
			}
		}
		return f, nil
	}
	q := s.Query(context, resolved)
	q.Max = MaxMethodologyHits
	methodology, nodes, err := s.referenceHits(q, judgmentWindow)
	if err != nil {
		return f, err
	}
	deadHits, err := s.ReferenceDeadEnds(context, q)
	if err != nil {
		return f, err
	}
	f.Methodology, f.Judgment, f.DeadEnds = len(methodology), len(nodes), len(deadHits)
	for _, h := range deadHits {
		if !h.ReopenTriggered {
			f.Closed++
		}
	}
	return f, nil
}

// Coverage is the answer of coverage for a context, the capabilities it
// resolved to and the knowledge found. outcomes gives the (weighted)
// successes and outcomes reported of reaching a capability; nil for a
// model that learns none (v2), whose score is the knowledge's alone.
func Coverage(context string, resolved []string, found Found, outcomes func(to string) (succ, n float64)) pyjson.Value {
	hits := found.Methodology + found.Judgment + found.DeadEnds
	knowScore := min(1, float64(hits)/coverageKnowledgeFull)

	var gaps []string
	if len(resolved) == 0 {
		gaps = append(gaps, "no capability of the manifest matches the task: name the ones it uses with --capabilities")
	}
	if found.Methodology == 0 {
		gaps = append(gaps, "no methodology for this kind of task")
	}
	if found.Judgment == 0 {
		gaps = append(gaps, "no judgment recorded for this kind of task")
	}

	experience := pyjson.NullValue()
	score := knowScore
	if outcomes != nil {
		caps := []pyjson.Value{}
		var none, little []string
		sum := 0.0
		for _, to := range resolved {
			succ, n := outcomes(to)
			sum += min(1, n/coverageExperienceFull)
			caps = append(caps, pyjson.Obj(pyjson.KV("capability", to),
				pyjson.KV("outcomes", pyjson.Round(n, 2)), pyjson.KV("successes", pyjson.Round(succ, 2))))
			switch {
			case n == 0:
				none = append(none, to)
			case n < coverageExperienceFull:
				little = append(little, to+" ("+pyjson.FormatFloat(pyjson.Round(n, 2))+")")
			}
		}
		if none != nil {
			gaps = append(gaps, "no reported outcome of "+strings.Join(none, ", "))
		}
		if little != nil {
			gaps = append(gaps, "few outcomes (under "+strconv.Itoa(coverageExperienceFull)+") of "+strings.Join(little, ", "))
		}
		expScore := 0.0
		if len(resolved) > 0 {
			expScore = sum / float64(len(resolved))
		}
		score = (knowScore + expScore) / 2
		experience = pyjson.Obj(pyjson.KV("score", pyjson.Round(expScore, 4)), pyjson.KV("capabilities", caps))
	}
	score = pyjson.Round(score, 4)

	var rec string
	switch {
	case score >= 0.7:
		rec = "well covered: consult and follow its advice, report each action"
	case score >= 0.3:
		rec = "partly covered: consult, then proceed carefully and report every action, so the gaps fill"
	default:
		rec = "little covered: explore, report every action, and reflect afterwards (post_task) to record what worked"
	}
	if found.Closed > 0 {
		rec += "; " + strconv.Itoa(found.Closed) + " dead end(s) apply: read them (consult) before trying those avenues again"
	}
	if gaps == nil {
		gaps = []string{}
	}
	if resolved == nil {
		resolved = []string{}
	}
	return pyjson.Obj(
		pyjson.KV("context", context),
		pyjson.KV("score", score),
		pyjson.KV("resolved_capabilities", resolved),
		pyjson.KV("knowledge", pyjson.Obj(pyjson.KV("score", pyjson.Round(knowScore, 4)),
			pyjson.KV("methodology", found.Methodology), pyjson.KV("judgment", found.Judgment), pyjson.KV("dead_ends", found.DeadEnds))),
		pyjson.KV("experience", experience),
		pyjson.KV("gaps", gaps),
		pyjson.KV("recommendation", rec),
	)
}
