package outcome

import (
	"strings"
	"testing"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// maxFuzzInput bounds the texts FuzzSanitize tries.
const maxFuzzInput = 4 << 10

// plantedSecrets are recognised by their shape alone, whatever surrounds
// them once a space separates them from it.
var plantedSecrets = []string{
	"ghp_16C7e42F292c6912E7710c838347Ae178B4a",
	"sk-proj-Ab3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5zA7bC9",
	"sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8Ba7_xY6wV5",
	"AKIAIOSFODNN7EXAMPLE",
	"AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY",
	"xoxb-2048671365-4096185312867-AbCdEfGhIjKlMnOpQrStUvWx",
	"sk_live_4eC39HqLyjWDarjtT1zdp7dc",
	"github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv",
	jwt,
}

// FuzzSanitize: Sanitize never panics and is idempotent; a planted secret
// set apart by spaces never survives, whatever comes before and after it.
func FuzzSanitize(f *testing.F) {
	for _, tc := range sanitizeCases {
		f.Add(tc.in, "", uint8(0))
	}
	for i, s := range sanitizeNegatives {
		f.Add(s, "password=", uint8(i))
	}
	f.Add("-----BEGIN RSA PRIVATE KEY-----\n", "\n-----END RSA PRIVATE KEY-----", uint8(1))
	f.Add(`{"token": "`, `"}`, uint8(2))
	f.Add("https://u:", "@host/", uint8(3))
	f.Add("Authorization: Basic", "==", uint8(4))
	f.Add("https://eyJzdWIiOiIxapi_key:Authorization?{;Authorization,@[REDACTED]", "", uint8(5))
	f.Fuzz(func(t *testing.T, prefix, suffix string, pick uint8) {
		if len(prefix)+len(suffix) > maxFuzzInput {
			return // long inputs find nothing short ones do not, and stall the fuzzer
		}
		for _, s := range []string{prefix, prefix + suffix} {
			got := Sanitize(s)
			if again := Sanitize(got); again != got {
				t.Fatalf("not idempotent:\n in   %q\n once %q\n twice %q", s, got, again)
			}
		}
		secret := plantedSecrets[int(pick)%len(plantedSecrets)]
		if strings.Contains(prefix, secret) || strings.Contains(suffix, secret) {
			return
		}
		in := prefix + " " + secret + " " + suffix
		if got := Sanitize(in); strings.Contains(got, secret) {
			t.Fatalf("the secret survives:\n in  %q\n out %q", in, got)
		}
	})
}

// FuzzClassify: Classify never panics and always gives a status, a rule
// and a confidence in (0, 1].
func FuzzClassify(f *testing.F) {
	f.Add(int64(0), true, "", "", int64(10), int64(100), false, 200, int64(5), int64(0), "HTTP/1.1 500", "", `HTTP/[\d.]+ (\d+)`, "skipped", true)
	f.Add(int64(3), true, "SIGKILL", "boom", int64(-1), int64(0), true, 0, int64(0), int64(-4), "", "x", `(`, `[`, false)
	f.Fuzz(func(t *testing.T, exit int64, hasExit bool, signal, errText string, dur, timeout int64, timedOut bool,
		status int, outBytes, errBytes int64, outTail, errTail, httpPattern, partialPattern string, expects bool) {
		r := Result{Signal: signal, Error: errText, DurationMS: dur, TimeoutMS: timeout, TimedOut: timedOut, HTTPStatus: status,
			StdoutBytes: outBytes, StderrBytes: errBytes, StdoutTail: outTail, StderrTail: errTail}
		if hasExit {
			c := int(exit)
			r.ExitCode = &c
		}
		rules := Rules{PartialExitCodes: []int{int(exit % 7)}, HTTPStatusPattern: httpPattern, ExpectsOutput: expects, PartialPattern: partialPattern}
		_ = rules.Validate()
		v := Classify(r, rules)
		switch v.Status {
		case Success, Partial, Failure, Timeout:
		default:
			t.Fatalf("status %q", v.Status)
		}
		if v.Rule == "" || !(v.Confidence > 0 && v.Confidence <= 1) {
			t.Fatalf("verdict %+v", v)
		}
		_ = pyjson.AppendCompact(nil, Summarize(r).JSON())
	})
}

// FuzzParseResult: ParseResult never panics; what it accepts summarises,
// and the summary's JSON reads back to the same summary.
func FuzzParseResult(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"exit_code": 3, "duration_ms": 12.5, "timed_out": true, "stderr_tail": "x\ny"}`,
		`{"exit_code": "1"}`, `{"unknown": 1}`, `[]`, `{"http_status": 700}`, `{"stdout_bytes": -1}`,
		`{"error": "password=hunter2", "signal": null, "stdout_tail": "ok", "stderr_bytes": 4}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := pyjson.Parse(data)
		if err != nil {
			return
		}
		r, err := ParseResult(v)
		if err != nil {
			return
		}
		s := Summarize(r)
		back, err := pyjson.Parse(pyjson.AppendCompact(nil, s.JSON()))
		if err != nil {
			t.Fatalf("summary JSON does not parse: %v", err)
		}
		r2, err := ParseResult(back)
		if err != nil {
			t.Fatalf("summary JSON does not read back: %v", err)
		}
		if s2 := Summarize(r2); s2.StderrTail != s.StderrTail || s2.Error != s.Error || s2.Signal != s.Signal {
			t.Fatalf("summary changes on a second pass:\n %+v\n %+v", s, s2)
		}
	})
}
