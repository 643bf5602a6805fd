package audit

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/phrase"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
	"github.com/unified-cognitive-substrate/ucs/outcome"
	"github.com/unified-cognitive-substrate/ucs/policy"
)

// LogOptions select and format the events Log prints.
type LogOptions struct {
	Since string // a seq ("120") or an RFC 3339 time: events from there on
	Op    string // only events of this operation, or of this group of operations ("goal", "policy")
	Limit int    // only the last Limit matching events (0: all)
	Table bool   // a table for people instead of JSON lines
}

// Log prints the journal's events, oldest first: what the agent reported
// and asked, when, and what each call changed. ops are the operations
// --op may name besides adopt and check (a repair), and isGroup tells a
// group of them ("goal": "goal add", ...).
func Log(ws *workspace.Workspace, opts LogOptions, w io.Writer, ops []string, isGroup func(string) bool) error {
	if !ws.Exists(workspace.RelState) {
		return fault.NotInitialized(ws.Root())
	}
	f := filter{op: opts.Op, limit: opts.Limit}
	var err error
	if f.sinceSeq, f.sinceTime, err = parseSince(opts.Since); err != nil {
		return err
	}
	f.group = isGroup(opts.Op)
	if opts.Op != "" && opts.Op != "adopt" && opts.Op != "check" && !f.group && !slices.Contains(ops, opts.Op) {
		return fault.BadInput(fault.CodeInvalidValue, "use one of: "+strings.Join(ops, ", ")+", adopt, check (a repair)", "--op %q is not an operation", opts.Op)
	}
	events, ok, err := f.events(ws)
	switch {
	case err != nil || !ok:
		return err
	case !opts.Table:
		return writeLines(w, events)
	}
	return writeTable(w, events, pinnedDeclarations(ws))
}

// A filter selects the journal's events log prints.
type filter struct {
	sinceSeq  int64     // events from this seq on
	sinceTime time.Time // events from this time on (zero: any)
	op        string    // only events of this operation (empty: all)
	group     bool      // op names a group of operations
	limit     int       // only the last limit matching events (0: all)
}

// parseSince reads log's --since: a seq ("120") or an RFC 3339 time.
func parseSince(s string) (seq int64, t time.Time, err error) {
	if s == "" {
		return 0, time.Time{}, nil
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return 0, t.UTC(), nil
	}
	return 0, time.Time{}, fault.BadInput(fault.CodeInvalidValue, "give --since a sequence number or an RFC 3339 time",
		"--since %q is neither a sequence number nor an RFC 3339 time", s)
}

// events reads the journal's events f selects, oldest first, as stored;
// ok is false when the workspace has no journal. A torn last line is not
// an event.
func (f filter) events(ws *workspace.Workspace) (events []pyjson.Value, ok bool, err error) {
	j, ok, err := ws.OpenJournal()
	if err != nil || !ok {
		return nil, false, err
	}
	defer j.Close()
	var kept []pyjson.Value
	for {
		ev, _, ok := j.Next()
		if !ok {
			break
		}
		if ev.Seq < f.sinceSeq || (f.op != "" && ev.Op != f.op && !(f.group && strings.HasPrefix(ev.Op, f.op+" "))) {
			continue
		}
		if !f.sinceTime.IsZero() {
			if t, err := time.Parse(time.RFC3339Nano, ev.Now); err != nil || t.Before(f.sinceTime) {
				continue
			}
		}
		kept = append(kept, ev.Raw())
		if f.limit > 0 && len(kept) > f.limit {
			kept = kept[1:]
		}
	}
	var le *workspace.LineError
	if errors.As(j.Err(), &le) {
		return nil, true, fault.Corrupt(le, workspace.RelJournal)
	} else if j.Err() != nil {
		return nil, true, fault.Internal(j.Err(), "read %s", workspace.RelJournal)
	}
	return kept, true, nil
}

// writeLines writes events as JSON lines, each as stored (canonical).
func writeLines(w io.Writer, events []pyjson.Value) error {
	bw := bufio.NewWriter(w)
	for _, ev := range events {
		bw.Write(pyjson.AppendCanonical(nil, ev))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// writeTable writes events as a table for people. decls are the
// capabilities' declarations (the pinned manifest's), by which an
// observed result is classified.
func writeTable(w io.Writer, events []pyjson.Value, decls map[string]policy.Declaration) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SEQ\tTIME\tOP\tT\tWHAT\tCHANGED")
	for _, ev := range events {
		seq, _ := ev.GetOr("seq", pyjson.NullValue()).Int()
		tb, _ := ev.GetOr("t_before", pyjson.NullValue()).Int()
		ta, _ := ev.GetOr("t_after", pyjson.NullValue()).Int()
		t := strconv.FormatInt(ta, 10)
		if ta != tb {
			t = fmt.Sprintf("%d→%d", tb, ta)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", seq, ev.StrOf("now"), ev.StrOf("op"), t, Summarize(ev, decls), Changed(ev))
	}
	return tw.Flush()
}

// Summarize says in a few words what a call asked. decls are the
// capabilities' declarations (the pinned manifest's), by which an
// observed result is classified.
func Summarize(ev pyjson.Value, decls map[string]policy.Declaration) string {
	args, _ := ev.Get("args")
	in, _ := ev.Get("input")
	var s string
	switch ev.StrOf("op") {
	case "report":
		r, observed := in.Get("result")
		switch success := in.StrOf("success"); {
		case observed && success == "":
			// The outcome is the result's, classified when it was applied
			// (the action log has it): not a self-reported neutral.
			s = in.StrOf("action")
		default:
			s = in.StrOf("action") + " " + cmp.Or(success, outcome.Neutral.String())
		}
		if sig := in.StrOf("significance"); sig != "" && sig != "routine" {
			s += " (" + sig + ")"
		}
		if o := in.StrOf("outcome"); o != "" {
			s += ": " + o
		}
		if observed {
			x, _ := in.Get("expect")
			s += " [observed: " + observedVerdict(r, x, decls[in.StrOf("action")]) + "]"
		}
		if g := in.StrOf("goal_id"); g != "" {
			s += " for " + g
		}
	case "rate", "amend":
		v, _ := args.Get("seq")
		seq, _ := v.Int()
		s = "report " + strconv.FormatInt(seq, 10) + ":"
		for _, k := range []string{"action", "success"} {
			if v := args.StrOf(k); v != "" {
				s += " " + v
			}
		}
		s += " by " + cmp.Or(args.StrOf("by"), ev.StrOf("agent_id"))
		if n := args.StrOf("note"); n != "" {
			s += ": " + n
		}
	case "goal add":
		s = args.StrOf("content")
	case "goal done", "goal fail", "goal suspend", "goal resume", "goal retry", "goal show":
		s = args.StrOf("id") + " " + args.StrOf("note")
	case "policy grant", "policy revoke":
		s = args.StrOf("permission")
	case "policy block":
		s = args.StrOf("capability") + " refused, missing " + strings.Join(args.StrsOf("missing"), ", ")
	case "consult":
		s = args.StrOf("context")
	case "reflect":
		s = cmp.Or(in.StrOf("type"), "post_task") + ": " + in.StrOf("text")
	case "import":
		s = "from " + cmp.Or(in.StrOf("agent_id"), "unknown")
	case "init":
		s = "manifest " + phrase.RunePrefix(args.StrOf("manifest_sha256"), 12)
	}
	s = strings.Join(strings.Fields(s), " ")
	if len([]rune(s)) > 60 {
		s = phrase.RunePrefix(s, 59) + "…"
	}
	return s
}

// observedVerdict says how a report's recorded result was classified
// when it was applied, with d's rules: the status, the rule that decided,
// and the exit code when there was one ("failure (rule exit_code, exit
// 1)"). The raw exit code alone hides the verdict: a timeout has none, a
// declared partial exit reads as a failure. A report that expected its
// step to fail says so and is judged by it ("success, expected a failure:
// exit 1").
func observedVerdict(r, expect pyjson.Value, d policy.Declaration) string {
	res, err := outcome.ParseResult(r)
	if err != nil {
		return "unreadable result" // the report was refused; never in a journal
	}
	x, err := outcome.ParseExpectation(expect)
	if err != nil {
		return "unreadable expectation" // likewise
	}
	v := x.Judge(res, outcome.Classify(res, d.Rules))
	if !x.IsZero() && res.ExitCode != nil {
		// Short enough for the table's column: "success, expected a
		// failure: exit 1".
		return v.Status.String() + ", expected " + x.String() + ": exit " + strconv.Itoa(*res.ExitCode)
	}
	s := v.Status.String() + " (rule " + v.Rule
	if res.ExitCode != nil {
		s += ", exit " + strconv.Itoa(*res.ExitCode)
	}
	s += ")"
	if !x.IsZero() {
		s += ", expected " + x.String()
	}
	return s
}

// pinnedDeclarations are the capabilities' declarations of ws's pinned
// manifest, read outside a transaction (log reads the journal without
// one); none when it cannot be read (a reference workspace has none
// pinned), which classifies by the rules that need no declaration.
func pinnedDeclarations(ws *workspace.Workspace) map[string]policy.Declaration {
	raw, err := ws.ReadFile(workspace.RelPinned)
	if err != nil {
		return nil
	}
	d, err := policy.ParseDeclarations(raw)
	if err != nil {
		return nil
	}
	return d
}

// Changed lists the data files a call appended to, by short name.
func Changed(ev pyjson.Value) string {
	files, _ := ev.Get("files")
	var names []string
	for _, m := range files.Members() {
		name := m.Key[strings.LastIndexByte(m.Key, '/')+1:]
		if strings.HasSuffix(name, ".json") && strings.Contains(m.Key, "/requests/") {
			name = "request"
		}
		names = append(names, name)
	}
	return strings.Join(names, " ")
}
