package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestServeRunner runs calls through the runner's protocol: stdin from a
// file, stdout and stderr to files, the exit code, a wall time and a peak
// RSS, and a request it cannot run.
func TestServeRunner(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	require.NoError(t, os.WriteFile(in, []byte("ping"), 0o644))
	reqs := []runRequest{
		{Argv: []string{sh, "-c", "cat; echo err >&2"}, Stdin: in, Stdout: filepath.Join(dir, "out1"), Stderr: filepath.Join(dir, "err1")},
		{Argv: []string{sh, "-c", "exit 3"}, Stdout: filepath.Join(dir, "out2"), Stderr: filepath.Join(dir, "err2")},
		{Argv: []string{filepath.Join(dir, "missing")}, Stdout: filepath.Join(dir, "out3"), Stderr: filepath.Join(dir, "err3")},
	}
	var input bytes.Buffer
	for _, q := range reqs {
		line, _ := json.Marshal(q)
		input.Write(append(line, '\n'))
	}
	input.WriteString("not json\n")
	var out bytes.Buffer
	serveRunner(&input, &out)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 4)
	var got []runResponse
	for _, l := range lines {
		var a runResponse
		require.NoError(t, json.Unmarshal([]byte(l), &a))
		got = append(got, a)
	}

	assert.Equal(t, 0, got[0].Code)
	assert.Positive(t, got[0].NS)
	assert.Positive(t, got[0].KB)
	stdout, _ := os.ReadFile(reqs[0].Stdout)
	stderr, _ := os.ReadFile(reqs[0].Stderr)
	assert.Equal(t, "ping", string(stdout))
	assert.Equal(t, "err\n", string(stderr))

	assert.Equal(t, 3, got[1].Code)
	assert.Equal(t, -1, got[2].Code)
	assert.NotEmpty(t, got[2].Err)
	assert.Equal(t, -1, got[3].Code, "a request that is not JSON")
}

// TestMeasureOrder: blocks of runs alternate between implementations, each
// block after a warm-up call whose time is not kept (its memory is); blocks
// of one alternate call by call with no warm-up.
func TestMeasureOrder(t *testing.T) {
	for _, tc := range []struct {
		runs, block int
		want        string
	}{
		{5, 2, "u0w u0 u1 r0w r0 r1 u1w u2 u3 r1w r2 r3 u3w u4 r3w r4"},
		{3, 1, "u0 r0 u1 r1 u2 r2"},
		{2, 10, "u0w u0 u1 r0w r0 r1"},
	} {
		impls := []*impl{{name: "u"}, {name: "r"}}
		// Each call returns its own number as its time, so the calls whose
		// time was kept can be told from the warm-ups.
		var names []string
		call := func(im *impl, i int) (float64, int64, error) {
			names = append(names, fmt.Sprintf("%s%d", im.name, i))
			return float64(len(names)), int64(len(names)), nil
		}
		results := map[key]result{}
		c := config{runs: tc.runs, block: tc.block}
		require.NoError(t, measure(c, "status", size{name: "fresh"}, impls, call, results))
		kept := map[int]bool{}
		for _, r := range results {
			for _, ms := range r.ms {
				kept[int(ms)] = true
			}
		}
		var got []string
		for k, name := range names {
			if !kept[k+1] {
				name += "w"
			}
			got = append(got, name)
		}
		assert.Equal(t, tc.want, strings.Join(got, " "), "runs %d, block %d", tc.runs, tc.block)
		for _, name := range []string{"u", "r"} {
			r := results[key{"status", "fresh", name}]
			assert.Len(t, r.ms, tc.runs)
			assert.Positive(t, r.maxKB)
		}
	}
}

// TestSets: the pooled table keeps every run and the highest peak; the
// sets table gives the range of each set's medians and ratios, and the
// median ratio.
func TestSets(t *testing.T) {
	k := func(impl string) key { return key{"status", "fresh", impl} }
	sets := []map[key]result{
		{k("ucs"): {ms: []float64{2, 2, 3}, maxKB: 100}, k("ref"): {ms: []float64{100}, maxKB: 900}},
		{k("ucs"): {ms: []float64{4}, maxKB: 300}, k("ref"): {ms: []float64{120}, maxKB: 800}},
		{k("ucs"): {ms: []float64{2.5}, maxKB: 200}, k("ref"): {ms: []float64{150}, maxKB: 700}},
	}
	p := pool(sets)
	assert.Len(t, p[k("ucs")].ms, 5)
	assert.Equal(t, int64(300), p[k("ucs")].maxKB)
	assert.Equal(t, int64(900), p[k("ref")].maxKB)

	var out bytes.Buffer
	printSets(&out, config{runs: 3, sizes: []size{{name: "fresh"}}}, sets)
	assert.Contains(t, out.String(), "| status | fresh | 2.00–4.00 | 100–150 | 30–60× | 50× |")
}
