package outcome

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The rules of Classify, by the name a Verdict gives them, in the order
// they are tried: the first that applies decides.
const (
	RuleTimeout         = "timeout"           // the runner killed it at the timeout, or it ran as long as the timeout
	RuleKilled          = "killed"            // a signal killed it
	RuleError           = "error"             // the tool or the runner reported an error
	RulePartialExitCode = "partial_exit_code" // a non-zero exit code the capability declares partial
	RuleExitCode        = "exit_code"         // any other non-zero exit code
	RuleHTTPStatus      = "http_status"       // an HTTP status 400-599, known or found in the output
	RuleEmptyOutput     = "empty_output"      // no stdout from a capability that must write some
	RulePartialSignal   = "partial_signal"    // the capability's partial pattern is in the output
	RuleSlowSuccess     = "slow_success"      // no failure, but more than 80% of the timeout used
	RuleSuccess         = "success"           // no failure observed
	RuleUnverified      = "unverified"        // nothing observed at all: success by default, with low confidence
)

// Classify judges a result against a capability's rules. The rules are
// tried in the order of the Rule constants and the first that applies
// decides:
//
//	timeout            timeout  1.0   TimedOut, or TimeoutMS > 0 and DurationMS >= TimeoutMS
//	killed             failure  1.0   Signal is set
//	error              failure  0.95  Error is set
//	partial_exit_code  partial  0.8   a non-zero exit code listed in PartialExitCodes
//	exit_code          failure  0.95  any other non-zero exit code
//	http_status        failure  0.9   HTTPStatus is 400-599, or the last status HTTPStatusPattern finds in stdout's or stderr's tail is
//	empty_output       failure  0.7   ExpectsOutput, and stdout is empty (no bytes, no tail)
//	partial_signal     partial  0.8   PartialPattern matches stdout's or stderr's tail
//	slow_success       success  0.75  TimeoutMS > 0 and DurationMS > 80% of it
//	success            success  0.95  none of the above
//	unverified         success  0.6   none of the above, and nothing observed: no exit code, duration, output or status
//
// A status of 2xx or 3xx found by the pattern does not fire. A pattern
// that does not compile counts as absent (Rules.Validate reports it).
// Classify never panics, whatever the result holds.
func Classify(r Result, rules Rules) Verdict {
	if r.TimedOut || r.TimeoutMS > 0 && r.DurationMS >= r.TimeoutMS {
		detail := "killed at the timeout"
		if r.TimeoutMS > 0 {
			detail += " of " + ms(r.TimeoutMS)
		}
		if !r.TimedOut {
			detail = "ran " + ms(r.DurationMS) + ", the timeout is " + ms(r.TimeoutMS)
		}
		return Verdict{Timeout, 1.0, RuleTimeout, detail}
	}
	if r.Signal != "" {
		return Verdict{Failure, 1.0, RuleKilled, "killed by signal " + brief(r.Signal)}
	}
	if r.Error != "" {
		return Verdict{Failure, 0.95, RuleError, "error: " + brief(r.Error)}
	}
	if r.ExitCode != nil && *r.ExitCode != 0 {
		code := "exit code " + strconv.Itoa(*r.ExitCode)
		if slices.Contains(rules.PartialExitCodes, *r.ExitCode) {
			return Verdict{Partial, 0.8, RulePartialExitCode, code + ", declared partial"}
		}
		return Verdict{Failure, 0.95, RuleExitCode, code}
	}
	if isHTTPError(r.HTTPStatus) {
		return Verdict{Failure, 0.9, RuleHTTPStatus, "HTTP " + strconv.Itoa(r.HTTPStatus)}
	}
	if re := compiled(rules.HTTPStatusPattern); re != nil && re.NumSubexp() > 0 {
		for _, t := range tails(r) {
			if status := lastStatus(re, t.text); isHTTPError(status) {
				return Verdict{Failure, 0.9, RuleHTTPStatus, "HTTP " + strconv.Itoa(status) + " in " + t.name}
			}
		}
	}
	if rules.ExpectsOutput && r.StdoutBytes == 0 && r.StdoutTail == "" {
		return Verdict{Failure, 0.7, RuleEmptyOutput, "no output on stdout"}
	}
	if re := compiled(rules.PartialPattern); re != nil {
		for _, t := range tails(r) {
			if re.MatchString(t.text) {
				return Verdict{Partial, 0.8, RulePartialSignal, "partial pattern matched in " + t.name}
			}
		}
	}
	// DurationMS > 0.8 × TimeoutMS, in integers: here 0 <= DurationMS <
	// TimeoutMS, so nothing overflows, and exactly 80% does not fire.
	if t := r.TimeoutMS; t > 0 && r.DurationMS > 0 && r.DurationMS-4*(t/5) > 4*(t%5)/5 {
		return Verdict{Success, 0.75, RuleSlowSuccess, "took " + ms(r.DurationMS) + " of a " + ms(r.TimeoutMS) + " timeout"}
	}
	if r.ExitCode == nil && r.DurationMS == 0 && r.StdoutBytes == 0 && r.StderrBytes == 0 &&
		r.HTTPStatus == 0 && r.StdoutTail == "" && r.StderrTail == "" {
		return Verdict{Success, 0.6, RuleUnverified, "nothing observed: no exit code, duration, output or status"}
	}
	detail := "no failure observed"
	if r.ExitCode != nil {
		detail = "exit code 0"
	}
	return Verdict{Success, 0.95, RuleSuccess, detail}
}

func isHTTPError(status int) bool { return status >= 400 && status <= 599 }

type tail struct{ name, text string }

func tails(r Result) [2]tail {
	return [2]tail{{"stdout", r.StdoutTail}, {"stderr", r.StderrTail}}
}

// lastStatus returns the status the first group of re captures in its
// last match in s whose group took part, 0 if none is a number.
func lastStatus(re *regexp.Regexp, s string) int {
	ms := re.FindAllStringSubmatchIndex(s, -1)
	for i := len(ms) - 1; i >= 0; i-- {
		if lo, hi := ms[i][2], ms[i][3]; lo >= 0 {
			n, err := strconv.Atoi(strings.TrimSpace(s[lo:hi]))
			if err != nil {
				return 0
			}
			return n
		}
	}
	return 0
}

func ms(n int64) string { return strconv.FormatInt(n, 10) + " ms" }

// maxBrief bounds what a Detail quotes of a signal or an error.
const maxBrief = 120

// brief returns the first line of s, sanitised and cut to maxBrief bytes.
func brief(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	return head(Sanitize(head(s, 4*maxBrief)), maxBrief)
}
