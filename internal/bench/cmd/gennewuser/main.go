// Command gennewuser writes testdata/script/newuser_session.txtar, the
// session of a new user replayed on ucs's default model (v5), as package
// internal/bench/newuser draws it. From the repository's root:
//
//	go run ./internal/bench/cmd/gennewuser > testdata/script/newuser_session.txtar
//
// The output is deterministic: the same flags and manifest give the same
// bytes; go generate ./internal/bench/cmd/gennewuser runs the line above, and
// this package's test fails while the committed script is not what it
// writes. -probe also copies each answer of the last episodes' probes to a
// file (probe-TASK-N.json), to see with go test's -testwork what v5
// suggests there.
package main

//go:generate sh -c "cd ../../../.. && go run ./internal/bench/cmd/gennewuser > testdata/script/newuser_session.txtar"

import (
	"flag"
	"fmt"
	"os"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/newuser"
)

func main() {
	manifestPath := flag.String("manifest", "testdata/manifests/coding.json", "the session's manifest, embedded in the script")
	seed := flag.Uint64("seed", newuser.DefaultSeed, "random seed of the plan")
	probe := flag.Bool("probe", false, "copy the last episodes' probe answers to files")
	flag.Parse()
	out, err := generate(*manifestPath, *seed, *probe)
	if err == nil {
		_, err = os.Stdout.WriteString(out)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gennewuser:", err)
		os.Exit(1)
	}
}

// generate returns the script of the session drawn from seed on the
// manifest at manifestPath.
func generate(manifestPath string, seed uint64, probe bool) (string, error) {
	raw, err := os.ReadFile(manifestPath)
	if err != nil {
		return "", err
	}
	s, err := newuser.Generate(raw, seed, probe)
	if err != nil {
		return "", fmt.Errorf("%s: %w", manifestPath, err)
	}
	return s.Script, nil
}
