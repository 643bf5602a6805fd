package advice

// Evidence and its weight. An agent's verdict on its own action is the
// weakest evidence there is; an observed result, classified by rules, is
// stronger; an operator's rating the strongest. A report teaches in
// proportion to its evidence's confidence, relative to a self-report's,
// so that a plain report teaches weight 1.
const (
	// SelfReportConfidence is the confidence of an agent's own verdict.
	SelfReportConfidence = 0.7
	// RatingConfidence is the confidence of a rating of an answer.
	RatingConfidence = 1.0
	// ObservedWeight is what an outcome observed by its exit code
	// (confidence 0.95) teaches, relative to a self-report.
	ObservedWeight = 0.95 / SelfReportConfidence
)
