package realbench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// JSON is the results of every dataset, indented, with a final newline:
// byte-identical for the same streams and options.
func JSON(rs []*Results) ([]byte, error) {
	b, err := json.MarshalIndent(struct {
		Benchmark string     `json:"benchmark"`
		Datasets  []*Results `json:"datasets"`
	}{"real-trace learning benchmark", rs}, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

func iv(x Interval) string { return fmt.Sprintf("%.3f [%.3f, %.3f]", x.Mean, x.Lo, x.Hi) }

func signed(x Interval) string { return fmt.Sprintf("%+.3f [%+.3f, %+.3f]", x.Mean, x.Lo, x.Hi) }

func dataset(r *Results) string {
	if r.Split != "" && r.Split != "all" {
		return r.Dataset + " (" + r.Split + ")"
	}
	return r.Dataset
}

// Markdown is the tables of every dataset's results, as
// docs/learning-benchmark.md shows them.
func Markdown(rs []*Results) string {
	var b bytes.Buffer
	b.WriteString("Streams (scored: the calls that succeeded in the second half of the stream):\n\n")
	b.WriteString("| dataset | episodes | calls | errors | tools | scored episodes | scored calls |\n")
	b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, r := range rs {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d |\n", dataset(r), r.Episodes, r.Calls, r.Errors, r.Tools, r.ScoredEpisodes, r.ScoredSteps)
	}
	b.WriteString("\nHit rates, mean [95% bootstrap interval over episodes]:\n\n")
	b.WriteString("| dataset | method | hit@1 | hit@3 | first-step hit@1 | top pick failed twice |\n")
	b.WriteString("| --- | --- | ---: | ---: | ---: | ---: |\n")
	for _, r := range rs {
		for _, m := range r.Methods {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %d of %d (%.3f) |\n", dataset(r), m.Method, iv(m.Hit1), iv(m.Hit3),
				iv(m.FirstStep), m.FailedTwice, r.Consults, m.FailedTwiceRate)
		}
	}
	b.WriteString("\nucs − baseline, paired over the same resamples (positive: ucs names the agent's call more often):\n\n")
	b.WriteString("| dataset | ucs | baseline | hit@1 | hit@3 |\n")
	b.WriteString("| --- | --- | --- | ---: | ---: |\n")
	for _, r := range rs {
		for _, p := range r.Paired {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", dataset(r), p.System, p.Baseline, signed(p.Hit1), signed(p.Hit3))
		}
	}
	b.WriteString("\nhit@1 by quarter of the stream (every quarter's succeeded calls; the scored half is Q3 and Q4):\n\n")
	b.WriteString("| dataset | method | Q1 | Q2 | Q3 | Q4 |\n")
	b.WriteString("| --- | --- | ---: | ---: | ---: | ---: |\n")
	for _, r := range rs {
		for _, m := range r.Methods {
			q := make([]string, 4)
			for i, x := range m.ByQuarter {
				q[i] = fmt.Sprintf("%.3f", x)
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", dataset(r), m.Method, strings.Join(q, " | "))
		}
	}
	return b.String()
}
