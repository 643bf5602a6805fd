package outcome

import "strings"

// A Status is how an action went: the one vocabulary of outcomes, which a
// report's "success" word, the classifier's Verdict, a goal's progress
// and the learning models all speak. A word that is none of the five is
// kept as spelled (a journal written before its words were checked may
// hold one): it moves no goal, earns the reward model's base of 0 and
// teaches nothing.
type Status string

// The statuses. A report gives success, partial, neutral or failure;
// Classify adds timeout, and an Expectation's Judge neutral.
const (
	Success Status = "success"
	Partial Status = "partial"
	Failure Status = "failure"
	// Neutral says where the agent is without judging the step: the
	// default of a report, and a run that did not do what the agent
	// expected of it but did not fail either (RuleUnexpectedPass).
	Neutral Status = "neutral"
	Timeout Status = "timeout"
)

// Reported are the statuses a report may give, in the order its schema
// lists them.
var Reported = []Status{Success, Partial, Neutral, Failure}

// ParseStatus reads a status word in any case ("Success" is Success); ok
// is false for a word that is none of the five.
func ParseStatus(word string) (s Status, ok bool) {
	for _, s := range [...]Status{Success, Partial, Failure, Neutral, Timeout} {
		if strings.EqualFold(word, string(s)) {
			return s, true
		}
	}
	return "", false
}

// String returns the status's word.
func (s Status) String() string { return string(s) }

// Reward is the base reward of the v2 reward model, the reference's: the
// edge's reward blends it with its utility. A timeout has none, as any
// other word: the reference knows no timeout, and a timeout is learned
// as a failure (Learned).
func (s Status) Reward() float64 {
	switch s {
	case Success:
		return 0.80
	case Partial:
		return 0.45
	case Neutral:
		return 0.30
	case Failure:
		return 0.10
	}
	return 0
}

// rewardEdgeBlend is how much of an edge's reward is the edge's utility:
// the reference's model blends the outcome's base reward (Reward) with
// it, 0.7·base + 0.3·u.
const rewardEdgeBlend = 0.3

// ReferenceReward is the v2 model's reward of the outcome word success on
// an edge of utility u: the reference's. The word is the journal's, as
// spelled: one that is no status has a base of 0.
func ReferenceReward(success string, u float64) float64 {
	return float64((1.0-rewardEdgeBlend)*Status(success).Reward()) + float64(rewardEdgeBlend*u)
}

// Learning is what the status teaches the learning models: the success
// value and how much it counts. Neutral (the agent only says where it
// is), a timeout (learned as a failure first) and any other word teach
// nothing.
func (s Status) Learning() (y, weight float64) {
	switch s {
	case Success:
		return 1, 1
	case Partial:
		return 0.5, 1
	case Failure:
		return 0, 1
	}
	return 0, 0
}

// Learned is the status the models learn from a verdict of s: a timeout
// is a failure of the step (though it never fails a goal); any other
// status is itself.
func (s Status) Learned() Status {
	if s == Timeout {
		return Failure
	}
	return s
}
