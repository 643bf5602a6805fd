package outcome

import (
	"errors"
	"fmt"
	"regexp"
	"sync"
)

// Rules are what a capability declares for the classifier (from its
// manifest entry). The zero Rules judge by exit code, signal, error and
// timeout alone.
type Rules struct {
	PartialExitCodes  []int  // non-zero exit codes that mean partial success
	HTTPStatusPattern string // a regular expression whose first group captures an HTTP status in the output tails
	ExpectsOutput     bool   // empty stdout is a failure
	PartialPattern    string // a regular expression that, matched in the output tails, means partial
}

// Validate reports what is wrong with the rules, every problem at once,
// each naming its field as a manifest spells it: a pattern that does not
// compile, an HTTP status pattern without a group to capture the status,
// a partial exit code of 0 (which is success). Call it when the manifest
// is loaded; Classify treats a pattern that does not compile as absent.
func (r Rules) Validate() error {
	var errs []error
	if r.HTTPStatusPattern != "" {
		re, err := regexp.Compile(r.HTTPStatusPattern)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("http_status_pattern: %v", err))
		case re.NumSubexp() == 0:
			errs = append(errs, fmt.Errorf("http_status_pattern %q has no group to capture the status: write one, as in `HTTP/[\\d.]+ (\\d{3})`", r.HTTPStatusPattern))
		}
	}
	if r.PartialPattern != "" {
		if _, err := regexp.Compile(r.PartialPattern); err != nil {
			errs = append(errs, fmt.Errorf("partial_pattern: %v", err))
		}
	}
	for i, c := range r.PartialExitCodes {
		if c == 0 {
			errs = append(errs, fmt.Errorf("partial_exit_codes[%d]: 0 is success, not partial", i))
		}
	}
	return errors.Join(errs...)
}

// maxCached bounds the pattern cache: manifests declare a few patterns,
// and a caller passing ever new ones (a fuzzer) must not grow it forever.
const maxCached = 256

// patterns caches compiled patterns by their text; nil marks a pattern
// that does not compile. A *regexp.Regexp is safe for concurrent use.
var patterns struct {
	sync.Mutex
	m map[string]*regexp.Regexp
}

// compiled returns the compiled pattern, nil for "" and for a pattern that
// does not compile.
func compiled(pattern string) *regexp.Regexp {
	if pattern == "" {
		return nil
	}
	patterns.Lock()
	defer patterns.Unlock()
	if re, ok := patterns.m[pattern]; ok {
		return re
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		re = nil
	}
	if patterns.m == nil || len(patterns.m) >= maxCached {
		patterns.m = make(map[string]*regexp.Regexp)
	}
	patterns.m[pattern] = re
	return re
}
