// Package browsertest opens ucs's pages in a real headless browser for
// tests: Debian's chromium (or a Chrome) found on PATH, a page opened until
// its script says it is ready, the console errors and exceptions it logs,
// and screenshots kept where CI collects them.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// Find returns a Chromium or Chrome on PATH, or skips the test (fails it
// where UCS_REQUIRE_BROWSER=1, as in CI).
func Find(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "no headless browser: install Debian's chromium (apt-get install chromium) to run the pages' browser tests"
	if os.Getenv("UCS_REQUIRE_BROWSER") == "1" {
		t.Fatal(msg + " (UCS_REQUIRE_BROWSER=1)")
	}
	t.Skip(msg)
	return ""
}

// Open opens the page (a file) in a headless browser of the given
// window size, waits until its script says it is ready, and returns a
// context to run in it (a minute at most) and a function that returns the
// console errors and exceptions seen so far.
func Open(t testing.TB, browser, page string, width, height int) (context.Context, func() []string) {
	allocCtx, cancel := chromedp.NewExecAllocator(context.Background(),
		append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox,
			chromedp.WindowSize(width, height))...)
	t.Cleanup(cancel)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(cancel)
	require.NoError(t, chromedp.Do(ctx)) // start the browser and open the tab before listening
	var mu sync.Mutex
	var problems []string
	require.NoError(t, chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range e.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				problems = append(problems, "console."+string(e.Type)+": "+strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			d := e.ExceptionDetails
			if d.Exception != nil {
				d.Text += " " + d.Exception.Description
			}
			problems = append(problems, fmt.Sprintf("exception at %d:%d: %s", d.LineNumber, d.ColumnNumber, d.Text))
		}
	}))
	step, stop := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(stop)
	require.NoError(t, chromedp.Do(step, chromedp.Navigate("file://"+page), chromedp.WaitVisible(`body[data-ready="1"]`)))
	return step, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(problems)
	}
}

// KeepShot writes a screenshot to UCS_BROWSER_ARTIFACTS (a directory),
// else to the test's temporary directory, and logs where.
func KeepShot(t testing.TB, name string, shot []byte) {
	t.Helper()
	artifacts := os.Getenv("UCS_BROWSER_ARTIFACTS")
	if artifacts == "" {
		artifacts = t.TempDir()
	}
	require.NoError(t, os.MkdirAll(artifacts, 0o755))
	png := filepath.Join(artifacts, name)
	require.NoError(t, os.WriteFile(png, shot, 0o644))
	t.Logf("screenshot: %s (%d bytes)", png, len(shot))
}
