package bridge

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// BenchmarkServerReport is a long-lived server's report on a directory
// workspace of the default model: a Bridge per call, as internal/mcpserver
// makes them, without a Warm (cold: every call decodes the state file) and
// with one (warm). cpu-ms/op is the process's CPU time per report, which
// other work on the machine moves less than ns/op. Profile it with
//
//	go test -run X -bench ServerReport/warm -cpuprofile cpu.out ./bridge/
func BenchmarkServerReport(b *testing.B) {
	for _, mode := range []string{"cold", "warm"} {
		b.Run(mode, func(b *testing.B) {
			opts := Options{Workspace: filepath.Join(b.TempDir(), "ws"), Now: testNow}
			if _, err := New(opts).Do(Call{Op: "init"}); err != nil {
				b.Fatal(err)
			}
			if mode == "warm" {
				opts.Warm = NewWarm()
			}
			actions := []string{"read", "web_fetch", "grep"}
			cpu0 := processCPU()
			for i := 0; b.Loop(); i++ {
				in := pyjson.Obj(pyjson.KV("action", actions[i%3]), pyjson.KV("success", "success"), pyjson.KV("context", "read the brief"))
				if _, err := New(opts).Do(Call{Op: "report", Input: in}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

// processCPU is the CPU time this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
