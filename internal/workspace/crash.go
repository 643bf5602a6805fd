package workspace

import "strings"

// crashPoint is called between the steps of a commit. CrashAt sets
// crashHook to simulate a process killed at that instant; it is nil
// otherwise.
func crashPoint(stage string) {
	if crashHook != nil {
		crashHook(stage)
	}
}

var crashHook func(stage string)

// A crash is the panic CrashAt raises at its stage.
type crash struct{ stage string }

// CrashAt runs fn (which commits) with the commit cut short at stage, as if
// the process were killed there, and reports whether it was. The stages
// are "journal", "append REL" for each file appended to, "prev" and
// "committed"; a stage ending in "*" is any stage it begins. For tests;
// never concurrently with a commit.
func CrashAt(stage string, fn func()) (crashed bool) {
	crashHook = func(s string) {
		if s == stage || (strings.HasSuffix(stage, "*") && strings.HasPrefix(s, strings.TrimSuffix(stage, "*"))) {
			panic(crash{s})
		}
	}
	defer func() {
		crashHook = nil
		if r := recover(); r != nil {
			if _, ok := r.(crash); !ok {
				panic(r)
			}
			crashed = true
		}
	}()
	fn()
	return false
}
