package workspace

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// Format is the version of the workspace format this ucs writes:
// the state's ucs.format is "ucs.workspace.vN". A workspace of an older
// format is read as it is and migrated by its first change (the
// migrations are the operations' business: package bridge's migrate.go);
// one of a newer format is refused, unchanged.
//
//	1  ucs 0.1.0: no learning model named (the reference's), untyped events
//	2  the state names its learning model (ucs.model); events record their
//	   format, model and agent; files are private to their owner (0600/0700)
const Format = 2

const formatPrefix = "ucs.workspace.v"

func formatName(n int) string { return formatPrefix + strconv.Itoa(n) }

// LegacyModel is the learning model of everything written before models
// had names (format 1 and its events) and of the reference's workspaces:
// the reference's (package bridge's ModelV2).
const LegacyModel = "v2"

// Meta is what the workspace keeps beside the engine in the state file's
// "ucs" member: the format, the commit's sequence number, the reference's
// counters, and for each data file how many lines it holds and the chain
// hash over them. A transaction's caller changes the counters; Commit
// changes Seq and Files.
type Meta struct {
	Format            int    // the workspace format (Format when written by this ucs)
	Model             string // the learning model (LegacyModel for format 1)
	Seq               int64
	AgentID           string
	ReportCounter     int
	LastPhiT          int
	LastSynthesisDate string // "" for none
	Requests          int    // request ids applied so far (see requests.go)
	Files             map[string]FileSum
}

// DataFiles are the data files, in the order the meta lists them.
func DataFiles() []string { return slices.Clone(countedFiles) }

// A FileSum summarizes an append-only data file: its line count and a
// chain hash, h(n) = SHA-256(h(n-1) || line n), over its lines. It lets the
// state hash cover the knowledge without reading it, and lets check prove
// each file holds exactly what was committed.
type FileSum struct {
	Lines int
	Hash  string
}

func (f FileSum) add(line []byte) FileSum {
	h := sha256.New()
	io.WriteString(h, f.Hash)
	h.Write(line)
	return FileSum{Lines: f.Lines + 1, Hash: hex.EncodeToString(h.Sum(nil))}
}

func (m *Meta) clone() Meta {
	c := *m
	c.Files = make(map[string]FileSum, len(m.Files))
	for k, v := range m.Files {
		c.Files[k] = v
	}
	return c
}

// counted files, in the order the meta lists them.
// The model log is optional: the meta names it only once it has a line
// (optionalFile).
var countedFiles = []string{RelActionLog, RelMethodology, RelDeadEnds, RelJudgment, RelAnnotations, RelOverrides, RelPPHistory, RelModelLog}

// optionalFile reports whether the meta leaves a data file out while it is
// empty: a file added after workspaces existed, whose state bytes stay as
// they were until it is used.
func optionalFile(rel string) bool { return rel == RelModelLog }

func (m *Meta) value() pyjson.Value {
	files := make([]pyjson.Member, 0, len(countedFiles))
	for _, f := range countedFiles {
		if optionalFile(f) && m.Files[f].Lines == 0 {
			continue
		}
		files = append(files, pyjson.KV(countName(f), pyjson.Obj(
			pyjson.KV("lines", m.Files[f].Lines), pyjson.KV("hash", m.Files[f].Hash))))
	}
	var last any
	if m.LastSynthesisDate != "" {
		last = m.LastSynthesisDate
	}
	ms := []pyjson.Member{pyjson.KV("format", formatName(m.Format))}
	if m.Format >= 2 {
		ms = append(ms, pyjson.KV("model", m.Model))
	}
	return pyjson.ObjectValue(append(ms,
		pyjson.KV("seq", m.Seq),
		pyjson.KV("agent_id", m.AgentID),
		pyjson.KV("report_counter", m.ReportCounter),
		pyjson.KV("last_phi_t", m.LastPhiT),
		pyjson.KV("last_synthesis_date", last),
		pyjson.KV("requests", m.Requests),
		pyjson.KV("files", files),
	))
}

// countName is the key of a file in meta.files: its base name without
// extension.
func countName(rel string) string {
	base := rel[len(RelStateDir)+1:]
	return base[:len(base)-len(".jsonl")]
}

func (l *Workspace) parseMeta(v pyjson.Value) (Meta, error) {
	m := Meta{Files: map[string]FileSum{}}
	f, _ := v.Get("format")
	n, err := strconv.Atoi(strings.TrimPrefix(f.Str(), formatPrefix))
	switch {
	case !strings.HasPrefix(f.Str(), formatPrefix) || err != nil || n < 1 || formatName(n) != f.Str():
		return m, fmt.Errorf("ucs.format: want %q", formatName(Format))
	case n > Format:
		return m, fault.Unsupported("the workspace is in format %d (%s); this ucs reads formats 1 to %d", n, f.Str(), Format)
	}
	m.Format, m.Model = n, LegacyModel
	if n >= 2 {
		m.Model = v.StrOf("model")
		if models := l.opts.Models; models != nil && !slices.Contains(models(), m.Model) {
			return m, fault.Unsupported("the workspace uses the learning model %q; this ucs knows %s", m.Model, strings.Join(models(), ", "))
		}
	}
	ints := []struct {
		key string
		dst *int
	}{{"report_counter", &m.ReportCounter}, {"last_phi_t", &m.LastPhiT}, {"requests", &m.Requests}}
	for _, f := range ints {
		x, _ := v.Get(f.key)
		i, ok := x.Int()
		if !ok || i < 0 {
			return m, fmt.Errorf("ucs.%s: must be a non-negative integer", f.key)
		}
		*f.dst = int(i)
	}
	seq, _ := v.Get("seq")
	s, ok := seq.Int()
	if !ok || s < 0 {
		return m, fmt.Errorf("ucs.seq: must be a non-negative integer")
	}
	m.Seq = s
	agent, _ := v.Get("agent_id")
	m.AgentID = agent.Str()
	if last, _ := v.Get("last_synthesis_date"); last.Kind() == pyjson.String {
		m.LastSynthesisDate = last.Str()
	} else if !last.IsNull() {
		return m, fmt.Errorf("ucs.last_synthesis_date: must be a date or null")
	}
	files, _ := v.Get("files")
	for _, f := range countedFiles {
		x, ok := files.Get(countName(f))
		if !ok && optionalFile(f) {
			continue // empty
		}
		lines, _ := x.Get("lines")
		n, ok := lines.Int()
		if !ok || n < 0 {
			return m, fmt.Errorf("ucs.files.%s.lines: must be a non-negative integer", countName(f))
		}
		h, _ := x.Get("hash")
		if h.Kind() != pyjson.String || (n > 0 && len(h.Str()) != 64) {
			return m, fmt.Errorf("ucs.files.%s.hash: must be a SHA-256", countName(f))
		}
		m.Files[f] = FileSum{Lines: int(n), Hash: h.Str()}
	}
	return m, nil
}

// metaOf reads the "ucs" member of a state file's bytes: the one reader of
// the meta. ours is false for a state file without one (the reference's).
// The member comes first, so a quick look finds it without reading the
// engine state; when the look fails, a parse tells a reference state from
// a damaged file.
// errNotLead is a state file whose ucs member is not its first: ucs
// always writes it first, and reads it only there.
var errNotLead = errors.New("the state file's ucs member is not its first member")

func (l *Workspace) metaOf(data []byte) (m Meta, ours bool, err error) {
	mv, ours := pyjson.LeadMember(data, "ucs")
	if !ours {
		doc, err := pyjson.Parse(data)
		if err != nil {
			return m, false, err
		}
		if _, ok := doc.Get("ucs"); ok {
			return m, false, errNotLead
		}
		return m, false, nil
	}
	m, err = l.parseMeta(mv)
	return m, true, err
}

// StateMeta reads the meta of the workspace's state file; a reference
// workspace's has none.
func (l *Workspace) StateMeta() (Meta, error) {
	data, err := readFile(l.path(RelState))
	if err != nil {
		return Meta{}, fault.Internal(err, "read %s", RelState)
	}
	m, ours, err := l.metaOf(data)
	if err == nil && !ours {
		err = errors.New("the state file has no ucs member")
	}
	return m, err
}

// RecordedAgent is the agent id the state file's meta records (the one
// init was given), read without judging the rest of the meta: verify
// replays the events of format 1, which did not record theirs, for it.
// A reference workspace records none.
func (l *Workspace) RecordedAgent() (string, error) {
	data, err := readFile(l.path(RelState))
	if err != nil {
		return "", fault.Internal(err, "read %s", RelState)
	}
	// Read as metaOf reads it, a repeated key too; a member the quick look
	// cannot read is not one ucs wrote, and records no agent.
	if mv, ok := pyjson.LeadMember(data, "ucs"); ok {
		agent, _ := mv.Get("agent_id")
		return agent.Str(), nil
	}
	return "", nil
}
