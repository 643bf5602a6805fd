// Package dashboard is the page `ucs view` writes: one self-contained HTML
// file, with its style, its script and its data inside, that opens from
// disk with no network. Render puts the data (the JSON the bridge
// computes: every number the page shows is ucs's, the script only draws)
// into the page. The page's three parts are files of this package, kept
// readable: page.html, page.css and page.js, a small hand-written script
// that draws SVG and uses no library.
package dashboard

import (
	"bytes"
	_ "embed"
)

var (
	//go:embed page.html
	pageHTML []byte
	//go:embed page.css
	pageCSS []byte
	//go:embed page.js
	pageJS []byte
)

// The page's placeholders, each replaced once.
var (
	cssMark  = []byte("/*UCS:CSS*/")
	jsMark   = []byte("/*UCS:JS*/")
	dataMark = []byte("UCS:DATA")
)

// Render returns the page with data, a JSON document, embedded. The data
// is made safe inside a script element: every "<" is written \u003c (a
// JSON escape: the document parses the same).
func Render(data []byte) []byte {
	safe := bytes.ReplaceAll(data, []byte("<"), []byte(`\u003c`))
	css, rest, _ := bytes.Cut(pageHTML, cssMark)
	mid, rest, _ := bytes.Cut(rest, dataMark)
	mid2, tail, _ := bytes.Cut(rest, jsMark)
	out := make([]byte, 0, len(pageHTML)+len(pageCSS)+len(pageJS)+len(safe))
	out = append(out, css...)
	out = append(out, pageCSS...)
	out = append(out, mid...)
	out = append(out, safe...)
	out = append(out, mid2...)
	out = append(out, pageJS...)
	return append(out, tail...)
}
