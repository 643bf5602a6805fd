// Package dashboard presents what ucs has learned to people: the page
// `ucs view` writes and the table `ucs show --format table` prints.
//
// The page is one self-contained HTML file, with its style, its script
// and its data inside, that opens from disk with no network. Data is its
// model: Gather collects it from the call's transaction (the journal's
// history, ReadHistory; the logs' newest lines and counts) and from a
// Source, the session's cached values (the learned transitions, consult's
// advice, goals, observations), and the dashboard lays it out, orders
// and bounds each kind (the Max constants) and counts what it shows;
// every number the page shows is ucs's, the script only draws. Render puts the data into the page. The
// page's three parts are files of this package, kept readable:
// page.html, page.css and page.js, a small hand-written script that draws
// SVG and uses no library.
//
// Show is show's answer, collected by GatherShow from the same Source
// (LearnedFirst picks its transitions), and ShowTable writes it in 80
// columns. NewGraph, FieldsOf, GoalsOf and ObservationsOf make the parts of Data that come from the domain's
// values (the engine, the learned transitions, the goal and observation
// books); History.Record counts the journal's events. Gather and
// ReadHistory only read: the page is a function of the workspace, the
// Source and the clock the caller hands over.
//
// The fleet view (view --fleet, show --fleet) is Fleet: NewFleet joins the
// workspaces of a store the bridge read (FleetWorkspace) into the fleets'
// learned transitions with their provenance; Fleet.Page is its own page
// (fleet.html, fleet.js, the same style), FleetTable its table.
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
	//go:embed fleet.html
	fleetHTML []byte
	//go:embed fleet.js
	fleetJS []byte
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
func Render(data []byte) []byte { return render(pageHTML, pageJS, data) }

// RenderFleet returns the fleet page (view --fleet) with data embedded as
// Render embeds it; it shares the workspace page's style.
func RenderFleet(data []byte) []byte { return render(fleetHTML, fleetJS, data) }

func render(pageHTML, pageJS, data []byte) []byte {
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
