// Package outcome owns what ucs concludes from the raw result of an action,
// and the one vocabulary it says it in: Status (success, partial, failure,
// neutral, timeout), with the reward and the learning value of each, which
// reports, goals, the dashboard and the learning models all speak. It
// holds the deterministic classifier (Classify: success, partial, failure or
// timeout, with the rule that decided and how sure it is), the sanitiser
// that keeps secrets out of what ucs records (Sanitize), and the bounded,
// sanitised summary of a result that a journal entry holds (Summarize).
//
// A report's input (what an agent says of an action it took, most of it
// the outcome) is decoded here too (DecodeReport), so its JSON contract
// sits beside the vocabulary it speaks.
//
// Most callers need three functions: ParseResult to read a report's
// "result" object (or build a Result from what ucs exec observed), Classify
// to judge it against the capability's Rules, and Summarize to record it.
// Rules.Validate checks a manifest's rules when the manifest is loaded
// (policy.ParseDeclarations calls it).
//
// Nothing here is random, reads a clock or touches the disk: the same
// result and rules always give the same verdict and the same bytes. The
// package does not run anything; it judges what a runner or an agent saw.
package outcome

// Result is the raw result of one action, as ucs exec observes it or as a
// report's "result" tells it. A zero field is unknown (or none).
type Result struct {
	ExitCode    *int   // nil: unknown (e.g. a report without one)
	Signal      string // the signal that killed the process ("killed", "SIGSEGV", ...); "" if none
	Error       string // an error value the tool or the runner reported ("" if none)
	DurationMS  int64
	TimeoutMS   int64 // the timeout in force (0: none)
	TimedOut    bool  // the runner killed it at the timeout
	HTTPStatus  int   // 0: unknown
	StdoutBytes int64
	StderrBytes int64
	StdoutTail  string // the last bytes of stdout, as captured (may be empty)
	StderrTail  string // the last bytes of stderr
}

// Verdict is the classifier's answer.
type Verdict struct {
	Status     Status  // Success, Partial, Failure or Timeout (Neutral after Judge)
	Confidence float64 // how sure the rule that fired is, in (0, 1]
	Rule       string  // the rule that fired: one of the Rule constants
	Detail     string  // a short human explanation, e.g. "exit code 3", "HTTP 503 in stdout"
}
