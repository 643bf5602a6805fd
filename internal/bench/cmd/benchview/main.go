// Command benchview measures ucs view on a large workspace: how long
// writing the dashboard takes, how big the page is, and how long a real
// headless browser (chromium, through chromedp) takes to open it from
// disk and draw it (the page sets data-ready on its body when it has):
//
//	go run ./internal/bench/cmd/benchview -ucs bin/ucs -workspace DIR
//
// Without -workspace it builds one of 100,000 knowledge entries (80,000
// methodology, 12,000 judgment nodes, 8,000 dead ends, generated and
// imported) with 60 consults and reports, as benchcalls does.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/unified-cognitive-substrate/ucs/internal/bench/knowledgegen"
)

func main() {
	ucs := flag.String("ucs", "bin/ucs", "the ucs binary")
	ws := flag.String("workspace", "", "a populated workspace (default: build one of 100,000 entries)")
	loads := flag.Int("loads", 5, "page loads measured")
	flag.Parse()
	bin, err := filepath.Abs(*ucs)
	check(err)
	root, err := os.MkdirTemp("", "ucs-benchview-")
	check(err)
	defer os.RemoveAll(root)
	run := func(stdin []byte, args ...string) []byte {
		cmd := exec.Command(bin, append([]string{"--workspace", *ws, "--compact"}, args...)...)
		cmd.Stdin = bytes.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		if err != nil {
			check(fmt.Errorf("ucs %v: %v: %s", args, err, out))
		}
		return out
	}
	if *ws == "" {
		*ws = filepath.Join(root, "ws")
		fmt.Fprintln(os.Stderr, "benchview: building a workspace of 100,000 entries")
		run(nil, "init")
		const parts = 8
		for p := range parts {
			run(knowledgegen.Bytes(knowledgegen.Options{Seed: 1, Part: p, Parts: parts, Methodology: 80000, Judgment: 12000, DeadEnds: 8000}), "import")
		}
		contexts := []string{"research competitor pricing on the web", "debug the flaky ci pipeline timeout", "write documentation for the api release", "deploy the hotfix and monitor errors"}
		for i := range 60 {
			run(nil, "consult", "--context", fmt.Sprintf("%s %d", contexts[i%len(contexts)], i%15))
			run([]byte(`{"action": "web_fetch", "success": "success", "context": "research pricing"}`), "report")
		}
	}
	page := filepath.Join(root, "dashboard.html")
	t0 := time.Now()
	run(nil, "view", "--out", page)
	write := time.Since(t0)
	st, err := os.Stat(page)
	check(err)
	fmt.Printf("ucs view: %.2f s to write; the page is %.0f KB\n", write.Seconds(), float64(st.Size())/1024)

	browser := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		fmt.Println("no browser (chromium) on PATH: render time not measured")
		return
	}
	alloc, cancel := chromedp.NewExecAllocator(context.Background(),
		append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.WindowSize(1280, 1000))...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	check(chromedp.Do(ctx))
	var times []float64
	for range *loads + 1 {
		step, cancel := context.WithTimeout(ctx, time.Minute)
		t := time.Now()
		err := chromedp.Do(step, chromedp.Navigate("file://"+page), chromedp.WaitVisible(`body[data-ready="1"]`))
		cancel()
		check(err)
		times = append(times, float64(time.Since(t).Milliseconds()))
	}
	times = times[1:] // the first load starts the renderer
	slices.Sort(times)
	fmt.Printf("chromium: opened and drawn in %.0f ms (median of %d loads; min %.0f, max %.0f)\n",
		times[len(times)/2], len(times), times[0], times[len(times)-1])
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchview:", err)
		os.Exit(1)
	}
}
