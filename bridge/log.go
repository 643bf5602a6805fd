package bridge

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
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
// and asked, when, and what each call changed.
func (b *Bridge) Log(opts LogOptions, w io.Writer) error {
	if !b.ws.Exists(relState) {
		return fault.NotInitialized(b.ws.Root())
	}
	var sinceSeq int64
	var sinceTime time.Time
	if opts.Since != "" {
		if n, err := strconv.ParseInt(opts.Since, 10, 64); err == nil {
			sinceSeq = n
		} else if t, err := ParseNow(opts.Since); err == nil {
			sinceTime = t
		} else {
			return badInput(fault.CodeInvalidValue, "give --since a sequence number or an RFC 3339 time",
				"--since %q is neither a sequence number nor an RFC 3339 time", opts.Since)
		}
	}
	isGroup := slices.ContainsFunc(registry, func(sp *Spec) bool { return sp.Group() == opts.Op })
	if opts.Op != "" && opts.Op != "adopt" && opts.Op != "check" && !isGroup && !slices.Contains(Operations(), opts.Op) {
		return badInput(fault.CodeInvalidValue, "use one of: "+strings.Join(Operations(), ", ")+", adopt, check (a repair)", "--op %q is not an operation", opts.Op)
	}
	j, ok, err := b.ws.OpenJournal()
	if err != nil || !ok {
		return err
	}
	defer j.Close()
	var kept []pyjson.Value
	for {
		ev, _, ok := j.Next()
		if !ok {
			break // a torn last line is not an event
		}
		if ev.Seq < sinceSeq || (opts.Op != "" && ev.Op != opts.Op && !(isGroup && strings.HasPrefix(ev.Op, opts.Op+" "))) {
			continue
		}
		if !sinceTime.IsZero() {
			if t, err := ParseNow(ev.Now); err != nil || t.Before(sinceTime) {
				continue
			}
		}
		kept = append(kept, ev.Raw())
		if opts.Limit > 0 && len(kept) > opts.Limit {
			kept = kept[1:]
		}
	}
	var le *workspace.LineError
	if errors.As(j.Err(), &le) {
		return corrupt(le, relJournal)
	} else if j.Err() != nil {
		return internal(j.Err(), "read %s", relJournal)
	}
	if !opts.Table {
		bw := bufio.NewWriter(w)
		for _, ev := range kept {
			bw.Write(pyjson.AppendCanonical(nil, ev))
			bw.WriteByte('\n')
		}
		return bw.Flush()
	}
	decls := b.pinnedDeclarations()
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SEQ\tTIME\tOP\tT\tWHAT\tCHANGED")
	for _, ev := range kept {
		seq, _ := ev.GetOr("seq", pyjson.NullValue()).Int()
		tb, _ := ev.GetOr("t_before", pyjson.NullValue()).Int()
		ta, _ := ev.GetOr("t_after", pyjson.NullValue()).Int()
		t := strconv.FormatInt(ta, 10)
		if ta != tb {
			t = fmt.Sprintf("%d→%d", tb, ta)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", seq, ev.StrOf("now"), ev.StrOf("op"), t, summarize(ev, decls), changed(ev))
	}
	return tw.Flush()
}

// summarize says in a few words what a call asked. decls are the
// capabilities' declarations (the pinned manifest's), by which an
// observed result is classified.
func summarize(ev pyjson.Value, decls map[string]policy.Declaration) string {
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
			s = in.StrOf("action") + " " + orDefault(success, outcome.Neutral.String())
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
		s = "report " + strconv.FormatInt(argInt(Call{Args: args}, "seq"), 10) + ":"
		for _, k := range []string{"action", "success"} {
			if v := args.StrOf(k); v != "" {
				s += " " + v
			}
		}
		s += " by " + orDefault(args.StrOf("by"), ev.StrOf("agent_id"))
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
		s = args.StrOf("capability") + " refused, missing " + strings.Join(Call{Args: args}.Args.StrsOf("missing"), ", ")
	case "consult":
		s = args.StrOf("context")
	case "reflect":
		s = orDefault(in.StrOf("type"), "post_task") + ": " + in.StrOf("text")
	case "import":
		s = "from " + orDefault(in.StrOf("agent_id"), "unknown")
	case "init":
		s = "manifest " + runePrefix(args.StrOf("manifest_sha256"), 12)
	}
	s = strings.Join(strings.Fields(s), " ")
	if len([]rune(s)) > 60 {
		s = runePrefix(s, 59) + "…"
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

// pinnedDeclarations are the capabilities' declarations of the pinned
// manifest, read outside a transaction (log reads the journal without
// one); none when it cannot be read (a reference workspace has none
// pinned), which classifies by the rules that need no declaration.
func (b *Bridge) pinnedDeclarations() map[string]policy.Declaration {
	raw, err := b.ws.ReadFile(workspace.RelPinned)
	if err != nil {
		return nil
	}
	d, err := policy.ParseDeclarations(raw)
	if err != nil {
		return nil
	}
	return d
}

// changed lists the data files a call appended to, by short name.
func changed(ev pyjson.Value) string {
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

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
