package learnbench

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"
)

var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"}

// A panel is one chart of the plot.
type panel struct {
	title string
	xs    func(p *PolicyResult) []int
	ys    func(p *PolicyResult) []Band
	yMax  float64 // 0: from the data
}

// WriteSVG plots the learning curves, mean and 95% band over seeds, one
// line per policy: per-step success, episode success and cumulative regret
// by episode, and hit@1 of the seen families at the probe points. Dashed
// lines mark the drift and the late families' arrival.
func (r *Results) WriteSVG(w io.Writer) error {
	bins := func(p *PolicyResult) []int { return p.Curves.BinEnd }
	probes := func(p *PolicyResult) []int { return p.Curves.ProbeAt }
	panels := []panel{
		{"per-step success (per bin)", bins, func(p *PolicyResult) []Band { return p.Curves.StepSuccess }, 1},
		{"episode success (per bin)", bins, func(p *PolicyResult) []Band { return p.Curves.EpisodeSuccess }, 1},
		{"cumulative regret vs the oracle", bins, func(p *PolicyResult) []Band { return p.Curves.CumRegret }, 0},
		{"hit@1 of consult's ranking, seen families (probes)", probes, func(p *PolicyResult) []Band { return p.Curves.Hit1Seen }, 1},
	}
	const pw, ph, left, top, gap = 460.0, 260.0, 60.0, 85.0, 70.0
	width, height := left+2*(pw+gap), top+2*(ph+gap)+20
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="12">`+"\n", width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	c := r.Config
	fmt.Fprintf(&b, `<text x="%.0f" y="22" font-size="15">ucs learning benchmark: %d seeds (%s), %d episodes, ucs %s; mean and 95%% interval</text>`+"\n",
		left, len(c.Seeds), seedRange(c.Seeds), c.Episodes, html.EscapeString(c.UCS))
	x := left
	for i, p := range r.Policies {
		col := palette[i%len(palette)]
		name := p.Name
		if p.SameAs != "" {
			name += " (= " + p.SameAs + ")"
		}
		fmt.Fprintf(&b, `<line x1="%.0f" y1="42" x2="%.0f" y2="42" stroke="%s" stroke-width="3"/><text x="%.0f" y="46">%s</text>`+"\n",
			x, x+18, col, x+22, html.EscapeString(name))
		x += 34 + 7*float64(len(name))
	}
	for pi, pn := range panels {
		ox := left + float64(pi%2)*(pw+gap)
		oy := top + float64(pi/2)*(ph+gap)
		xMax := float64(c.Episodes)
		yMax := pn.yMax
		if yMax == 0 {
			for i := range r.Policies {
				for _, band := range pn.ys(&r.Policies[i]) {
					yMax = math.Max(yMax, finite(band.Hi, finite(band.Mean, 0)))
				}
			}
			yMax = niceCeil(yMax)
		}
		sx := func(v float64) float64 { return ox + v/xMax*pw }
		sy := func(v float64) float64 { return oy + ph - v/yMax*ph }
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" font-size="13">%s</text>`+"\n", ox, oy-8, html.EscapeString(pn.title))
		fmt.Fprintf(&b, `<rect x="%.0f" y="%.0f" width="%.0f" height="%.0f" fill="none" stroke="#999"/>`+"\n", ox, oy, pw, ph)
		for t := 0; t <= 4; t++ {
			v := yMax * float64(t) / 4
			fmt.Fprintf(&b, `<line x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke="#eee"/><text x="%.0f" y="%.1f" text-anchor="end">%s</text>`+"\n",
				ox, sy(v), ox+pw, sy(v), ox-4, sy(v)+4, tick(v))
		}
		for t := 0; t <= 6; t++ {
			v := xMax * float64(t) / 6
			fmt.Fprintf(&b, `<text x="%.1f" y="%.0f" text-anchor="middle">%.0f</text>`+"\n", sx(v), oy+ph+15, v)
		}
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" text-anchor="middle" fill="#555">episodes</text>`+"\n", ox+pw/2, oy+ph+30)
		for _, m := range []struct {
			at   int
			what string
		}{{c.DriftAt, "drift"}, {c.LateStart, "late families"}} {
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#888" stroke-dasharray="4,3"/><text x="%.1f" y="%.0f" fill="#888" font-size="10">%s</text>`+"\n",
				sx(float64(m.at)), oy, sx(float64(m.at)), oy+ph, sx(float64(m.at))+3, oy+12, m.what)
		}
		for i := range r.Policies {
			p := &r.Policies[i]
			col := palette[i%len(palette)]
			xs, ys := pn.xs(p), pn.ys(p)
			var line, upper, lower []string
			for j := range min(len(xs), len(ys)) {
				m := float64(ys[j].Mean)
				if math.IsNaN(m) {
					continue
				}
				px := sx(float64(xs[j]))
				line = append(line, fmt.Sprintf("%.1f,%.1f", px, sy(m)))
				upper = append(upper, fmt.Sprintf("%.1f,%.1f", px, sy(math.Min(finite(ys[j].Hi, m), yMax))))
				lower = append([]string{fmt.Sprintf("%.1f,%.1f", px, sy(math.Max(finite(ys[j].Lo, m), 0)))}, lower...)
			}
			if len(line) == 0 {
				continue
			}
			fmt.Fprintf(&b, `<polygon points="%s" fill="%s" fill-opacity="0.15" stroke="none"/>`+"\n", strings.Join(append(upper, lower...), " "), col)
			fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="1.8"/>`+"\n", strings.Join(line, " "), col)
		}
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func finite(v num, def float64) float64 {
	if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
		return def
	}
	return float64(v)
}

// niceCeil rounds up to 1, 2 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

func tick(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.2f", v)
}
