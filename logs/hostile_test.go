package logs

// Hostile input: every test builds a log tree holding one well-formed
// "neighbour" session and one hostile file or folder, and asserts that reading
// it neither panics nor hangs, that the hostile session degrades to a flagged
// result (skipped_lines, schema_status "unverified", or absent when it is not a
// transcript), and that nothing about the neighbour changes compared with a
// run without the hostile input.

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

const (
	hostileSID   = "dddddddd-4444-4444-8444-444444444444"
	neighbourSID = "eeeeeeee-5555-4555-8555-555555555555"
	hostileProj  = "-home-dev-hostile"
	neighProj    = "-home-dev-neighbour"
)

// neighbourMain is a well-formed session: a prompt, a response split over two
// lines (usage taken from the larger copy), one failing and one rejected call.
const neighbourMain = `{"type":"user","sessionId":"eeeeeeee-5555-4555-8555-555555555555","uuid":"n1","timestamp":"2026-11-27T09:00:00.000Z","cwd":"/home/dev/neighbour","version":"2.1.0","message":{"role":"user","content":"refactor the parser"}}
{"type":"assistant","sessionId":"eeeeeeee-5555-4555-8555-555555555555","uuid":"n2","timestamp":"2026-11-27T09:00:01.000Z","cwd":"/home/dev/neighbour","message":{"id":"msg_n1","model":"claude-sonnet-4-5-20250929","role":"assistant","content":[{"type":"tool_use","id":"toolu_n1","name":"Bash","input":{"command":"go test ./..."}}],"usage":{"input_tokens":10,"output_tokens":5,"cache_creation_input_tokens":100,"cache_read_input_tokens":1000}}}
{"type":"user","sessionId":"eeeeeeee-5555-4555-8555-555555555555","uuid":"n3","timestamp":"2026-11-27T09:00:02.000Z","cwd":"/home/dev/neighbour","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_n1","content":"FAIL parser_test.go","is_error":true}]}}
{"type":"assistant","sessionId":"eeeeeeee-5555-4555-8555-555555555555","uuid":"n4","timestamp":"2026-11-27T09:00:03.000Z","cwd":"/home/dev/neighbour","message":{"id":"msg_n2","model":"claude-sonnet-4-5-20250929","role":"assistant","content":[{"type":"text","text":"Fixing the parser."}],"usage":{"input_tokens":20,"output_tokens":50,"cache_creation_input_tokens":0,"cache_read_input_tokens":2000}}}
{"type":"assistant","sessionId":"eeeeeeee-5555-4555-8555-555555555555","uuid":"n5","timestamp":"2026-11-27T09:00:04.000Z","cwd":"/home/dev/neighbour","message":{"id":"msg_n2","model":"claude-sonnet-4-5-20250929","role":"assistant","content":[{"type":"tool_use","id":"toolu_n2","name":"Edit","input":{"file_path":"/home/dev/neighbour/parser.go","old_string":"a","new_string":"b"}}],"usage":{"input_tokens":20,"output_tokens":80,"cache_creation_input_tokens":0,"cache_read_input_tokens":2000}}}
{"type":"user","sessionId":"eeeeeeee-5555-4555-8555-555555555555","uuid":"n6","timestamp":"2026-11-27T09:00:05.000Z","cwd":"/home/dev/neighbour","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_n2","content":"The user doesn't want to proceed with this tool use.","is_error":true}]}}
`

const neighbourAgent = `{"type":"assistant","sessionId":"eeeeeeee-5555-4555-8555-555555555555","isSidechain":true,"agentId":"n1","uuid":"s1","timestamp":"2026-11-27T09:00:02.500Z","cwd":"/home/dev/neighbour","message":{"id":"msg_s1","model":"claude-haiku-4-5-20251001","role":"assistant","content":[{"type":"tool_use","id":"toolu_s1","name":"Read","input":{"file_path":"/home/dev/neighbour/go.mod"}}],"usage":{"input_tokens":3,"output_tokens":4,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}
{"type":"user","sessionId":"eeeeeeee-5555-4555-8555-555555555555","isSidechain":true,"agentId":"n1","uuid":"s2","timestamp":"2026-11-27T09:00:02.600Z","cwd":"/home/dev/neighbour","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_s1","content":"module x"}]}}
`

// hostileLines is a small well-formed session body for the hostile session:
// a prompt and one response with a successful call.
var hostileLines = []string{
	`{"type":"user","sessionId":"dddddddd-4444-4444-8444-444444444444","uuid":"h1","timestamp":"2026-11-26T10:00:00.000Z","cwd":"/home/dev/hostile","message":{"role":"user","content":"list the files"}}`,
	`{"type":"assistant","sessionId":"dddddddd-4444-4444-8444-444444444444","uuid":"h2","timestamp":"2026-11-26T10:00:01.000Z","cwd":"/home/dev/hostile","message":{"id":"msg_h1","model":"claude-sonnet-4-5-20250929","role":"assistant","content":[{"type":"tool_use","id":"toolu_h1","name":"Bash","input":{"command":"ls"}}],"usage":{"input_tokens":7,"output_tokens":3,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}`,
	`{"type":"user","sessionId":"dddddddd-4444-4444-8444-444444444444","uuid":"h3","timestamp":"2026-11-26T10:00:02.000Z","cwd":"/home/dev/hostile","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_h1","content":"a b c"}]}}`,
}

// hostileAgent is a subagent file of the hostile session with its own ids.
func hostileAgent(tag string) string {
	return strings.NewReplacer(neighbourSID, hostileSID, "msg_s1", "msg_"+tag, "toolu_s1", "toolu_"+tag).Replace(neighbourAgent)
}

var hostileOld = testNow.Add(-72 * time.Hour) // not live

func hostileBody(sep string) string { return strings.Join(hostileLines, sep) + sep }

// sessionView is everything an answer says about one session.
type sessionView struct {
	Repo, Title, Status       string
	Start, End                int64
	MessageCount, Subagents   int
	APIErrors, Skipped        int
	Total, Main, Sidechain    Usage
	Cost                      float64
	ByModel                   map[string]Usage
	Calls, MainC, SideC       OutcomeCounts
	PerTool                   map[string]OutcomeCounts
	FirstPrompt               string
	FileActions, Versions     string
	CallsDump, MessagesDump   string
	TailTotal, TailWithUsage  int
	RecapPrompts, RecapFiles  int
	RecapCommands, RecapAgent int
	ReadErrors                string // errors of the readers that reopen files (tail, recap)
}

func viewOf(t *testing.T, snap *Snapshot, s *Session) sessionView {
	t.Helper()
	live := snap.IsLive(s)
	v := sessionView{Repo: s.Repo, Title: s.Title, Status: s.SchemaStatus(), Start: s.Start, End: s.End,
		MessageCount: s.MessageCount, Subagents: len(s.Subagents), APIErrors: s.APIErrors, Skipped: s.SkippedLines(live),
		Total: s.Usage.Total.Usage, Main: s.Usage.Main.Usage, Sidechain: s.Usage.Sidechain.Usage,
		Cost: s.Usage.Total.Cost.USD(), ByModel: map[string]Usage{}, PerTool: map[string]OutcomeCounts{},
		FirstPrompt: s.FirstPrompt()}
	for _, tl := range s.Usage.ByModel {
		v.ByModel[tl.Model] = tl.Usage
	}
	cs := CountCalls(s, live)
	v.Calls, v.MainC, v.SideC = cs.Total, cs.Main, cs.Sidechain
	for k, c := range cs.PerTool {
		v.PerTool[k] = *c
	}
	var calls, msgs, vers strings.Builder
	for _, f := range s.Files() {
		for _, c := range f.Calls {
			fmt.Fprintf(&calls, "%x %s %s %s %v|", c.Key, c.Name(), c.Path(), c.Action, c.Result)
		}
		for _, m := range f.Messages() {
			fmt.Fprintf(&msgs, "%x %s %d %+v %v|", m.Key, m.Model, m.Time, m.Usage, m.Sidechain)
		}
		fmt.Fprint(&vers, f.Versions)
	}
	v.CallsDump, v.MessagesDump, v.Versions = calls.String(), msgs.String(), vers.String()
	entries, total, err := snap.Tail(context.Background(), s, 1000)
	if err != nil {
		v.ReadErrors += "tail: " + err.Error() + "; "
	}
	v.TailTotal = total
	for _, e := range entries {
		if e.Usage != nil {
			v.TailWithUsage++
		}
	}
	r, err := snap.Recap(context.Background(), s, 20)
	if err != nil {
		v.ReadErrors += "recap: " + err.Error() + "; "
	} else {
		v.RecapPrompts, v.RecapFiles, v.RecapCommands, v.RecapAgent = r.PromptCount, len(r.Files), r.CommandTotal, len(r.Subagents)
	}
	return v
}

// hostileEnv is a log root with the neighbour session and a baseline view of it.
type hostileEnv struct {
	t        *testing.T
	root     string
	baseline sessionView
	store    *Store
	now      time.Time // the clock; zero means testNow
}

func newHostileEnv(t *testing.T) *hostileEnv {
	t.Helper()
	root := t.TempDir()
	writeFileTime(t, filepath.Join(root, neighProj, neighbourSID+".jsonl"), []byte(neighbourMain), hostileOld)
	writeFileTime(t, filepath.Join(root, neighProj, neighbourSID, "subagents", "agent-n1.jsonl"), []byte(neighbourAgent), hostileOld)
	e := &hostileEnv{t: t, root: root}
	snap := e.snapshotFresh()
	n := findSession(snap, neighbourSID)
	if n == nil {
		t.Fatal("neighbour session missing from its own baseline")
	}
	e.baseline = viewOf(t, snap, n)
	// The baseline itself must be right, or comparing with it proves nothing.
	b := e.baseline
	if b.MessageCount != 3 || b.Skipped != 0 || b.ReadErrors != "" || b.Status != "verified" || b.Subagents != 1 ||
		b.Total != (Usage{Input: 33, Output: 89, CacheCreate5m: 100, CacheRead: 3000}) ||
		b.Calls != (OutcomeCounts{OK: 1, Error: 1, Rejected: 1, Total: 3}) || b.Repo != "neighbour" {
		t.Fatalf("neighbour baseline is wrong: %+v", b)
	}
	return e
}

func writeFileTime(t *testing.T, p string, b []byte, mt time.Time) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mt, mt); err != nil {
		t.Fatal(err)
	}
}

func (e *hostileEnv) hostile(name string) string { return filepath.Join(e.root, hostileProj, name) }

// write puts a file of the hostile session (path relative to its project).
func (e *hostileEnv) write(rel string, b []byte) string {
	p := e.hostile(rel)
	writeFileTime(e.t, p, b, hostileOld)
	return p
}

func (e *hostileEnv) config(roots ...string) Config {
	if len(roots) == 0 {
		roots = []string{e.root}
	}
	now := testNow
	if !e.now.IsZero() {
		now = e.now
	}
	return Config{Agents: testAgents, Roots: roots, Now: func() time.Time { return now }, Pricing: testPricing(e.t), Location: time.UTC}
}

// snapshotFresh reads the tree with a new store, failing on a panic or a hang.
func (e *hostileEnv) snapshotFresh() *Snapshot {
	e.t.Helper()
	return e.snapshotWith(NewStore(e.config()))
}

// snapshot reads the tree with the env's long-lived store (for change tests).
func (e *hostileEnv) snapshot() *Snapshot {
	e.t.Helper()
	if e.store == nil {
		e.store = NewStore(e.config())
	}
	return e.snapshotWith(e.store)
}

func (e *hostileEnv) snapshotWith(st *Store) *Snapshot {
	e.t.Helper()
	return noHang(e.t, 20*time.Second, "Snapshot", func() *Snapshot {
		snap, err := st.Snapshot(context.Background(), nil)
		if err != nil {
			e.t.Errorf("Snapshot: %v", err)
		}
		return snap
	})
}

// checkNeighbour asserts the neighbour session reads exactly as in the baseline,
// and runs every reader over the whole snapshot (search, report, coverage, file
// activity) to show none of them falls over on the hostile input.
func (e *hostileEnv) checkNeighbour(snap *Snapshot) {
	e.t.Helper()
	n := findSession(snap, neighbourSID)
	if n == nil {
		e.t.Fatal("the neighbour session disappeared")
	}
	got := noHang(e.t, 60*time.Second, "neighbour readers", func() sessionView { return viewOf(e.t, snap, n) })
	if !reflect.DeepEqual(got, e.baseline) {
		e.t.Errorf("the neighbour's answers changed:\n got %+v\nwant %+v", got, e.baseline)
	}
	noHang(e.t, 60*time.Second, "whole-history readers", func() bool {
		for _, s := range snap.Sessions {
			if s != n {
				viewOf(e.t, snap, s)
			}
		}
		for _, q := range []struct {
			p  string
			re bool
		}{{"parser", false}, {"list", false}, {`(?i)f[a-z]+s`, true}, {`\x00`, true}} {
			m, err := CompileSearch(q.p, q.re)
			if err != nil {
				e.t.Fatal(err)
			}
			if _, err := snap.Search(context.Background(), SearchQuery{Sessions: snap.Sessions, Limit: 200}, m); err != nil {
				e.t.Errorf("search %q: %v", q.p, err)
			}
		}
		snap.Report(ReportQuery{GroupBy: []string{"day", "model"}})
		snap.Report(ReportQuery{GroupBy: []string{"session"}})
		snap.Pace(0, "")
		snap.Coverage()
		pm, err := CompilePath("**/*")
		if err != nil {
			e.t.Fatal(err)
		}
		for range snap.FileTouches(pm, snap.Sessions, TimeRange{}) {
		}
		return true
	})
}

func findSession(snap *Snapshot, id string) *Session {
	if snap == nil {
		return nil
	}
	for _, s := range snap.Sessions {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// noHang runs fn on its own goroutine and fails the test when it panics or
// takes longer than d. A hung goroutine is abandoned (the test binary ends).
func noHang[T any](t *testing.T, d time.Duration, what string, fn func() T) T {
	t.Helper()
	type result struct {
		v     T
		panic any
		stack []byte
	}
	ch := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ch <- result{panic: r, stack: debug.Stack()}
			}
		}()
		ch <- result{v: fn()}
	}()
	select {
	case r := <-ch:
		if r.panic != nil {
			t.Fatalf("%s panicked: %v\n%s", what, r.panic, r.stack)
		}
		return r.v
	case <-time.After(d):
		t.Fatalf("%s hung: no answer within %v; stuck in:\n%s", what, d, stuckStacks())
	}
	var zero T
	return zero
}

// stuckStacks returns the goroutine stacks that are inside non-test code of
// this package: where a hang sits.
func stuckStacks() string {
	buf := make([]byte, 8<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if inPackageCode.MatchString(g) {
			out = append(out, g)
		}
	}
	s := strings.Join(out, "\n\n")
	if len(s) > 3000 {
		s = s[:3000] + "\n..."
	}
	return s
}

var inPackageCode = regexp.MustCompile(`/logs/[a-z]+\.go:\d+`)

// wantFlags checks the hostile session's flags.
func wantFlags(t *testing.T, snap *Snapshot, id string, skipped int, status string) *Session {
	t.Helper()
	s := findSession(snap, id)
	if s == nil {
		t.Fatalf("session %s is not listed", id)
	}
	live := snap.IsLive(s)
	if got := s.SkippedLines(live); got != skipped {
		t.Errorf("skipped_lines = %d, want %d", got, skipped)
	}
	if got := s.SchemaStatus(); got != status {
		t.Errorf("schema_status = %s, want %s", got, status)
	}
	if !utf8.ValidString(s.Title) || !utf8.ValidString(s.FirstPrompt()) {
		t.Errorf("title/first prompt not valid UTF-8: %q %q", s.Title, s.FirstPrompt())
	}
	return s
}

func TestHostileTornLines(t *testing.T) {
	torn := hostileLines[0] + "\n" +
		`{"type":"assistant","sessionId":"dddddddd-4444-4444-8444-444444444444","message":{"id":` + "\n" + // torn in the middle
		hostileLines[1] + "\n" + hostileLines[2] + "\n" +
		`{"type":"user","sessionId":"dddddddd-4444-4444-8444-444444444444","uuid":"h4","timestamp":"2026-11-26T10:00:03.000Z","message":{"role":"user","content":"mo` // being written

	t.Run("finished", func(t *testing.T) {
		e := newHostileEnv(t)
		e.write(hostileSID+".jsonl", []byte(torn))
		snap := e.snapshotFresh()
		s := wantFlags(t, snap, hostileSID, 2, "unverified") // the middle line and the torn tail
		if s.MessageCount != 2 || s.Usage.Total.Output != 3 {
			t.Errorf("message_count %d output %d, want 2 3", s.MessageCount, s.Usage.Total.Output)
		}
		e.checkNeighbour(snap)
	})
	t.Run("live, then completed", func(t *testing.T) {
		e := newHostileEnv(t)
		p := e.write(hostileSID+".jsonl", []byte(torn))
		// Live: the file changed a moment ago and its lines are from now.
		e.now = time.Date(2026, 11, 26, 10, 1, 0, 0, time.UTC)
		os.Chtimes(p, e.now, e.now)
		snap := e.snapshot()
		if s := wantFlags(t, snap, hostileSID, 1, "unverified"); s.MessageCount != 2 { // torn tail pending, not skipped
			t.Errorf("message_count %d, want 2", s.MessageCount)
		}
		e.checkNeighbour(snap)
		// The writer finishes the line: it becomes an entry, nothing else changes.
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(`re"}}` + "\n")
		f.Close()
		later := testNow.Add(time.Second)
		os.Chtimes(p, later, later)
		snap = e.snapshot()
		s := wantFlags(t, snap, hostileSID, 1, "unverified")
		if s.MessageCount != 3 || s.Main.Entries != 4 {
			t.Errorf("after completing the torn line: message_count %d entries %d, want 3 4", s.MessageCount, s.Main.Entries)
		}
		e.checkNeighbour(snap)
	})
}

func TestHostileInvalidUTF8(t *testing.T) {
	e := newHostileEnv(t)
	body := strings.Replace(hostileLines[0], "list the files", "list \xff\xfe the \xc3 files \xed\xa0\x80", 1) + "\n" +
		strings.Replace(hostileLines[1], `"command":"ls"`, `"command":"ls \xff"`, 1) + "\n" +
		hostileLines[2] + "\n" +
		"{\"type\":\"user\",\xff\xfe}\n" + // invalid UTF-8 outside a string: not JSON
		"\xff\xfe\xfd\xfc\n"
	e.write(hostileSID+".jsonl", []byte(body))
	snap := e.snapshotFresh()
	s := wantFlags(t, snap, hostileSID, 2, "unverified")
	if s.MessageCount != 2 || s.Usage.Total.Input != 7 {
		t.Errorf("message_count %d input %d, want 2 7", s.MessageCount, s.Usage.Total.Input)
	}
	e.checkNeighbour(snap)
}

func TestHostileNULBytes(t *testing.T) {
	e := newHostileEnv(t)
	body := hostileLines[0] + "\n" +
		"\x00\x00\x00\x00\x00\x00\x00\x00\n" + // a NUL line
		strings.Replace(hostileLines[1], `"command":"ls"`, "\"command\":\"l\x00s\"", 1) + "\n" + // raw NUL inside a string
		hostileLines[2] + "\n" +
		strings.Repeat("\x00", 4096) // a crash left the tail zero-filled, without a newline
	e.write(hostileSID+".jsonl", []byte(body))
	snap := e.snapshotFresh()
	s := wantFlags(t, snap, hostileSID, 2, "unverified")
	if s.Usage.Total.Output != 3 || s.MessageCount != 2 {
		t.Errorf("output %d message_count %d, want 3 2", s.Usage.Total.Output, s.MessageCount)
	}
	e.checkNeighbour(snap)
}

func TestHostileBOM(t *testing.T) {
	e := newHostileEnv(t)
	e.write(hostileSID+".jsonl", []byte("\xEF\xBB\xBF"+hostileBody("\n")))
	snap := e.snapshotFresh()
	s := findSession(snap, hostileSID)
	if s == nil {
		t.Fatal("session with a BOM is not listed")
	}
	// Either the BOM is tolerated (the first line is read) or the line is
	// flagged; never a silently missing prompt.
	live := snap.IsLive(s)
	switch {
	case s.SkippedLines(live) == 0 && s.MessageCount == 2 && s.FirstPrompt() == "list the files":
	case s.SkippedLines(live) == 1 && s.SchemaStatus() == "unverified" && s.MessageCount == 1:
		t.Logf("a BOM makes the first line undecodable: flagged (skipped_lines=1, unverified)")
	default:
		t.Errorf("BOM: skipped %d status %s message_count %d first prompt %q", s.SkippedLines(live), s.SchemaStatus(), s.MessageCount, s.FirstPrompt())
	}
	e.checkNeighbour(snap)
}

func TestHostileCRLF(t *testing.T) {
	lf := newHostileEnv(t)
	lf.write(hostileSID+".jsonl", []byte(hostileBody("\n")))
	lfSnap := lf.snapshotFresh()
	want := viewOf(t, lfSnap, findSession(lfSnap, hostileSID))

	e := newHostileEnv(t)
	e.write(hostileSID+".jsonl", []byte(hostileBody("\r\n")+"\r\n\r\n"))
	snap := e.snapshotFresh()
	s := wantFlags(t, snap, hostileSID, 0, "verified")
	if got := viewOf(t, snap, s); !reflect.DeepEqual(got, want) {
		t.Errorf("CRLF reads differently from LF:\n got %+v\nwant %+v", got, want)
	}
	e.checkNeighbour(snap)
}

func TestHostileDeepNesting(t *testing.T) {
	const depth = 100_000
	e := newHostileEnv(t)
	body := hostileLines[0] + "\n" +
		strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth) + "\n" +
		`{"type":"user","sessionId":"dddddddd-4444-4444-8444-444444444444","timestamp":"2026-11-26T10:00:00.500Z","message":{"role":"user","content":` +
		strings.Repeat("[", depth) + strings.Repeat("]", depth) + "}}\n" +
		`{"type":"assistant","sessionId":"dddddddd-4444-4444-8444-444444444444","timestamp":"2026-11-26T10:00:00.600Z","message":{"id":"msg_deep","content":[{"type":"tool_use","id":"toolu_deep","name":"Write","input":` +
		strings.Repeat(`{"file_path":`, depth) + `"x"` + strings.Repeat("}", depth) + "}]}}\n" +
		strings.Repeat("[", depth) + "\n" + // unbalanced
		hostileLines[1] + "\n" + hostileLines[2] + "\n"
	e.write(hostileSID+".jsonl", []byte(body))
	snap := e.snapshotFresh()
	s := findSession(snap, hostileSID)
	if s == nil {
		t.Fatal("not listed")
	}
	if s.SchemaStatus() != "unverified" || s.SkippedLines(false) < 2 {
		t.Errorf("deep nesting: skipped %d status %s, want >= 2 unverified", s.SkippedLines(false), s.SchemaStatus())
	}
	if s.Usage.Total.Input != 7 {
		t.Errorf("input %d, want 7", s.Usage.Total.Input)
	}
	e.checkNeighbour(snap)
}

func TestHostileWrongTypes(t *testing.T) {
	const sid = `"sessionId":"dddddddd-4444-4444-8444-444444444444"`
	lines := []string{
		hostileLines[0],
		`{"type":"user",` + sid + `,"timestamp":5,"message":"str"}`,
		`{"type":"assistant",` + sid + `,"timestamp":"2026-11-26T10:00:05.000Z","message":{"id":"msg_w1","usage":"x","content":7}}`,
		`{"type":"assistant",` + sid + `,"timestamp":"2026-11-26T10:00:06.000Z","message":{"id":"msg_w2","model":5,"usage":{"input_tokens":"100","output_tokens":[1],"cache_read_input_tokens":{"n":1},"cache_creation":"all"},"content":{"type":"text","text":"obj"}}}`,
		`{"type":"assistant",` + sid + `,"timestamp":"2026-11-26T10:00:07.000Z","message":{"id":6,"content":[{"type":"tool_use","id":7,"name":["Bash"],"input":"ls"},{"type":"tool_use","id":"toolu_w","name":"Edit","input":{"file_path":9}}]}}`,
		`{"type":"user",` + sid + `,"timestamp":"2026-11-26T10:00:08.000Z","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_w","is_error":"true","content":{"x":1}}]}}`,
		`{"type":7,"sessionId":8,"uuid":[],"cwd":{"x":1},"isSidechain":"yes","isMeta":1,"timestamp":"not a time","message":null}`,
		`{"type":"summary","summary":5,"leafUuid":true}`,
		`{"type":"cost-state","modelUsage":{"m":{"inputTokens":"9"}},"totalCostUSD":"free"}`,
		`{"type":"custom-title","customTitle":["t"]}`,
		`{"type":"assistant",` + sid + `,"timestamp":"2026-11-26T10:00:09.000Z","message":{"id":"msg_w3","usage":{"input_tokens":1e3,"output_tokens":-5,"cache_read_input_tokens":1.5}}}`,
		`["an","array","line"]`,
		`"a string line"`,
		`12345`,
		`null`,
		`true`,
		hostileLines[1], hostileLines[2],
	}
	e := newHostileEnv(t)
	e.write(hostileSID+".jsonl", []byte(strings.Join(lines, "\n")+"\n"))
	snap := e.snapshotFresh()
	s := findSession(snap, hostileSID)
	if s == nil {
		t.Fatal("not listed")
	}
	if s.SchemaStatus() != "unverified" {
		t.Errorf("schema_status %s, want unverified", s.SchemaStatus())
	}
	if s.Repo != "hostile" || !utf8.ValidString(s.Title) {
		t.Errorf("repo %q title %q", s.Repo, s.Title)
	}
	// Tokens of mistyped fields are not invented; the well-formed response counts.
	for rs, r := range snap.AllResponses() {
		if u := rs.UsageOf(r); rs == s && (u.Input < 0 || u.Output < 0 || u.CacheRead < 0) {
			t.Errorf("negative tokens reach the totals: %+v", u)
		}
	}
	t.Logf("wrong types: skipped %d, usage %+v, calls %+v", s.SkippedLines(false), s.Usage.Total.Usage, CountCalls(s, false).Total)
	e.checkNeighbour(snap)
}

func TestHostileHugeLine(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 100 MB line; skipped with -short")
	}
	e := newHostileEnv(t)
	p := e.hostile(hostileSID + ".jsonl")
	os.MkdirAll(filepath.Dir(p), 0o755)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(hostileLines[0] + "\n")
	// One assistant line of 100 MB: an image block (base64) then a tool call.
	f.WriteString(`{"type":"assistant","sessionId":"dddddddd-4444-4444-8444-444444444444","uuid":"big","timestamp":"2026-11-26T10:00:00.500Z","cwd":"/home/dev/hostile","message":{"id":"msg_big","model":"claude-sonnet-4-5-20250929","role":"assistant","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"`)
	chunk := bytes.Repeat([]byte("QUJDRA=="), 1<<17) // 1 MiB
	for i := 0; i < 100; i++ {
		f.Write(chunk)
	}
	f.WriteString(`"}},{"type":"text","text":"needle-in-a-huge-line"},{"type":"tool_use","id":"toolu_big","name":"Read","input":{"file_path":"/home/dev/hostile/big.png"}}],"usage":{"input_tokens":1000,"output_tokens":20,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}` + "\n")
	f.WriteString(hostileLines[1] + "\n" + hostileLines[2] + "\n")
	f.Close()
	os.Chtimes(p, hostileOld, hostileOld)

	snap := e.snapshotFresh()
	s := wantFlags(t, snap, hostileSID, 0, "verified")
	if s.Usage.Total.Input != 1007 || s.MessageCount != 3 || CountCalls(s, false).Total.Total != 2 {
		t.Errorf("huge line: input %d message_count %d calls %d, want 1007 3 2", s.Usage.Total.Input, s.MessageCount, CountCalls(s, false).Total.Total)
	}
	m, _ := CompileSearch("needle-in-a-huge-line", false)
	res, err := snap.Search(context.Background(), SearchQuery{Sessions: []*Session{s}, Limit: 5}, m)
	if err != nil || res.Total != 1 {
		t.Errorf("search in the huge line: total %d err %v, want 1", res.Total, err)
	}
	e.checkNeighbour(snap)
}

func TestHostileEmptyFiles(t *testing.T) {
	e := newHostileEnv(t)
	e.write(hostileSID+".jsonl", nil) // zero-length main file
	blank := "ffffffff-6666-4666-8666-666666666666"
	e.write(blank+".jsonl", []byte("\n\n   \n\t\n\r\n"))                        // blank lines only
	e.write(hostileSID+"/subagents/agent-empty.jsonl", nil)                     // empty subagent file
	e.write(hostileSID+"/subagents/agent-empty.meta.json", nil)                 // empty meta
	e.write(hostileSID+"/tool-results/toolu_x.txt", nil)                        // empty spill
	os.MkdirAll(filepath.Join(e.root, "-home-dev-emptyproject"), 0o755)         // empty project
	os.MkdirAll(filepath.Join(e.root, hostileProj, "no-subagents-here"), 0o755) // empty session dir
	snap := e.snapshotFresh()
	for _, id := range []string{hostileSID, blank} {
		s := wantFlags(t, snap, id, 0, "unverified") // no line carries sessionId+timestamp
		if s.MessageCount != 0 || s.Usage.Total.Total() != 0 || s.Start != 0 {
			t.Errorf("%s: message_count %d tokens %d start %d, want zeros", id, s.MessageCount, s.Usage.Total.Total(), s.Start)
		}
	}
	if s := findSession(snap, hostileSID); len(s.Subagents) != 1 {
		t.Errorf("subagent_count %d, want 1 (the empty file is still a file)", len(s.Subagents))
	}
	e.checkNeighbour(snap)
}

func TestHostileBinaryGarbage(t *testing.T) {
	e := newHostileEnv(t)
	rng := rand.New(rand.NewSource(1))
	garbage := make([]byte, 1<<20)
	rng.Read(garbage)
	e.write(hostileSID+".jsonl", append([]byte(hostileBody("\n")), garbage...))
	snap := e.snapshotFresh()
	s := findSession(snap, hostileSID)
	if s == nil || s.SchemaStatus() != "unverified" || s.SkippedLines(false) == 0 || s.Usage.Total.Input != 7 {
		t.Errorf("binary garbage: %+v", s)
	}
	e.checkNeighbour(snap)
}

// TestHostileChangingFiles changes a file between two Snapshot calls of one
// store: the second snapshot must read as a fresh store reads the disk.
func TestHostileChangingFiles(t *testing.T) {
	four := hostileBody("\n") + `{"type":"user","sessionId":"dddddddd-4444-4444-8444-444444444444","uuid":"h4","timestamp":"2026-11-26T10:00:03.000Z","cwd":"/home/dev/hostile","message":{"role":"user","content":"and the hidden ones"}}` + "\n"
	step := hostileOld
	touch := func(p string) {
		step = step.Add(time.Second)
		os.Chtimes(p, step, step)
	}
	// agree asserts the long-lived store reads what a fresh store reads.
	agree := func(t *testing.T, e *hostileEnv) *Snapshot {
		t.Helper()
		cached := e.snapshot()
		fresh := e.snapshotFresh()
		cs, fs := findSession(cached, hostileSID), findSession(fresh, hostileSID)
		if (cs == nil) != (fs == nil) {
			t.Fatalf("cached store lists the session: %v, the disk: %v", cs != nil, fs != nil)
		}
		if cs != nil {
			if got, want := viewOf(t, cached, cs), viewOf(t, fresh, fs); !reflect.DeepEqual(got, want) {
				t.Errorf("the cached store does not reflect the disk:\n got %+v\nwant %+v", got, want)
			}
		}
		e.checkNeighbour(cached)
		return cached
	}
	t.Run("deleted", func(t *testing.T) {
		e := newHostileEnv(t)
		p := e.write(hostileSID+".jsonl", []byte(four))
		agree(t, e)
		os.Remove(p)
		if findSession(agree(t, e), hostileSID) != nil {
			t.Error("a deleted session is still listed")
		}
	})
	t.Run("truncated at a line end", func(t *testing.T) {
		e := newHostileEnv(t)
		p := e.write(hostileSID+".jsonl", []byte(four))
		agree(t, e)
		os.Truncate(p, int64(len(hostileLines[0])+1))
		touch(p)
		if s := findSession(agree(t, e), hostileSID); s == nil || s.MessageCount != 1 || s.Usage.Total.Total() != 0 {
			t.Errorf("after truncation to one prompt: %+v", s)
		}
	})
	t.Run("truncated mid-line", func(t *testing.T) {
		e := newHostileEnv(t)
		p := e.write(hostileSID+".jsonl", []byte(four))
		agree(t, e)
		os.Truncate(p, int64(len(hostileLines[0])+1+len(hostileLines[1])/2))
		touch(p)
		agree(t, e)
	})
	t.Run("truncated to zero then regrown", func(t *testing.T) {
		e := newHostileEnv(t)
		p := e.write(hostileSID+".jsonl", []byte(four))
		agree(t, e)
		os.Truncate(p, 0)
		touch(p)
		agree(t, e)
		os.WriteFile(p, []byte(strings.Replace(four, "list the files", "LIST THE FILES", 1)), 0o644)
		touch(p)
		if s := findSession(agree(t, e), hostileSID); s == nil || s.FirstPrompt() != "LIST THE FILES" {
			t.Errorf("regrown file not re-read: %+v", s)
		}
	})
	t.Run("replaced by another file", func(t *testing.T) {
		e := newHostileEnv(t)
		p := e.write(hostileSID+".jsonl", []byte(hostileBody("\n")))
		agree(t, e)
		tmp := p + ".tmp"
		other := strings.NewReplacer(neighbourSID, hostileSID, "msg_n", "msg_r", "toolu_n", "toolu_r").Replace(neighbourMain)
		os.WriteFile(tmp, []byte(other), 0o644)
		os.Rename(tmp, p)
		touch(p)
		agree(t, e)
	})
	// Claude Code rewrites a session file with the same first line: a
	// replacement whose head matches, of the same size, must still be re-read.
	t.Run("replaced, same head and size", func(t *testing.T) {
		e := newHostileEnv(t)
		p := e.write(hostileSID+".jsonl", []byte(hostileBody("\n")))
		agree(t, e)
		changed := strings.Replace(hostileBody("\n"), `"output_tokens":3,`, `"output_tokens":9,`, 1)
		changed = strings.Replace(changed, `"content":"a b c"`, `"content":"x y z"`, 1)
		if len(changed) != len(hostileBody("\n")) {
			t.Fatal("test bug: sizes differ")
		}
		tmp := p + ".tmp"
		os.WriteFile(tmp, []byte(changed), 0o644)
		os.Rename(tmp, p)
		touch(p)
		if s := findSession(agree(t, e), hostileSID); s != nil && s.Usage.Total.Output != 9 {
			t.Errorf("output_tokens %d after the rewrite, want 9", s.Usage.Total.Output)
		}
	})
	t.Run("replaced, same head, longer", func(t *testing.T) {
		e := newHostileEnv(t)
		p := e.write(hostileSID+".jsonl", []byte(hostileBody("\n")))
		agree(t, e)
		changed := strings.Replace(four, `"output_tokens":3,`, `"output_tokens":9,`, 1)
		tmp := p + ".tmp"
		os.WriteFile(tmp, []byte(changed), 0o644)
		os.Rename(tmp, p)
		touch(p)
		if s := findSession(agree(t, e), hostileSID); s != nil && s.Usage.Total.Output != 9 {
			t.Errorf("output_tokens %d after the rewrite, want 9", s.Usage.Total.Output)
		}
	})
	// Churn: a writer appends, truncates, replaces and deletes the file while
	// snapshots are taken; afterwards the store must agree with the disk.
	t.Run("changed while being read", func(t *testing.T) {
		e := newHostileEnv(t)
		p := e.write(hostileSID+".jsonl", []byte(four))
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			rng := rand.New(rand.NewSource(7))
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				switch rng.Intn(5) {
				case 0:
					if f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644); err == nil {
						f.WriteString(strings.Replace(hostileLines[1], "msg_h1", fmt.Sprintf("msg_c%d", i), 1) + "\n")
						f.Close()
					}
				case 1:
					if st, err := os.Stat(p); err == nil && st.Size() > 0 {
						os.Truncate(p, rng.Int63n(st.Size()))
					}
				case 2:
					tmp := p + ".tmp"
					os.WriteFile(tmp, []byte(four[:rng.Intn(len(four))]), 0o644)
					os.Rename(tmp, p)
				case 3:
					os.Remove(p)
				case 4:
					os.WriteFile(p, []byte(four), 0o644)
				}
			}
		}()
		deadline := time.Now().Add(time.Second)
		for time.Now().Before(deadline) {
			e.snapshot()
		}
		close(stop)
		<-done
		// Give the final state its own mtime so no cache key can be stale by a coincidence of clocks.
		os.WriteFile(p, []byte(four), 0o644)
		touch(p)
		agree(t, e)
	})
}

// permissionsIgnored reports whether permission bits fail to stop reads (root).
func permissionsIgnored(t *testing.T) bool {
	p := filepath.Join(t.TempDir(), "probe")
	os.WriteFile(p, []byte("x"), 0o000)
	f, err := os.Open(p)
	if err == nil {
		f.Close()
		return true
	}
	return false
}

func TestHostileUnreadable(t *testing.T) {
	if isolate(t, 60*time.Second) {
		return
	}
	if permissionsIgnored(t) {
		t.Skip("running with privileges that ignore permission bits (root?): chmod 000 does not block reads here")
	}
	e := newHostileEnv(t)
	p := e.write(hostileSID+".jsonl", []byte(hostileBody("\n")))
	locked := "ffffffff-7777-4777-8777-777777777777"
	e.write("../-home-dev-locked/"+locked+".jsonl", []byte(hostileBody("\n")))
	sub := e.write(hostileSID+"/subagents/agent-x.jsonl", []byte(neighbourAgent))
	lockedDir := filepath.Join(e.root, "-home-dev-locked")
	os.Chmod(p, 0)
	os.Chmod(sub, 0)
	os.Chmod(lockedDir, 0)
	t.Cleanup(func() { os.Chmod(lockedDir, 0o755); os.Chmod(p, 0o644); os.Chmod(sub, 0o644) })
	snap := e.snapshotFresh()
	if s := findSession(snap, hostileSID); s == nil || s.SchemaStatus() != "unverified" {
		t.Errorf("an unreadable main file: %+v, want listed unverified", s)
	} else if s.Main.ReadError == "" {
		t.Errorf("the read error is not recorded")
	}
	if findSession(snap, locked) != nil {
		t.Errorf("a session in an unreadable folder is listed")
	}
	e.checkNeighbour(snap)
	// Made readable again, it reads in full.
	os.Chmod(p, 0o644)
	os.Chmod(sub, 0o644)
	os.Chmod(lockedDir, 0o755)
	snap = e.snapshot()
	snap = e.snapshot()
	if s := findSession(snap, hostileSID); s == nil || s.MessageCount != 2 {
		t.Errorf("after chmod back: %+v", s)
	}
}

func TestHostileSymlinksOutside(t *testing.T) {
	if isolate(t, 60*time.Second) {
		return
	}
	e := newHostileEnv(t)
	e.write(hostileSID+".jsonl", []byte(hostileBody("\n")))
	e.write(hostileSID+"/subagents/agent-x.jsonl", []byte(hostileAgent("x")))

	// Outside the root: a whole project, a session file, a subagent file, a
	// subagents folder and a meta file, each reachable only through a symlink.
	outside := t.TempDir()
	outSID := "ffffffff-bbbb-4bbb-8bbb-bbbbbbbbbbbb"
	outBody := strings.ReplaceAll(hostileBody("\n"), hostileSID, outSID)
	writeFileTime(t, filepath.Join(outside, "proj", outSID+".jsonl"), []byte(outBody), hostileOld)
	writeFileTime(t, filepath.Join(outside, "agent-out.jsonl"), []byte(hostileAgent("out")), hostileOld)
	writeFileTime(t, filepath.Join(outside, "subs", "agent-out2.jsonl"), []byte(hostileAgent("out2")), hostileOld)
	writeFileTime(t, filepath.Join(outside, "agent-x.meta.json"), []byte(`{"agentType":"OUTSIDE-THE-ROOT","description":"read through a symlink"}`), hostileOld)
	link(t, filepath.Join(outside, "proj"), filepath.Join(e.root, "-outside-project"))
	link(t, filepath.Join(outside, "proj", outSID+".jsonl"), e.hostile(outSID+".jsonl"))
	link(t, filepath.Join(outside, "agent-out.jsonl"), e.hostile(hostileSID+"/subagents/agent-out.jsonl"))
	link(t, filepath.Join(outside, "subs"), e.hostile(hostileSID+"/subagents/outside"))
	link(t, filepath.Join(outside, "agent-x.meta.json"), e.hostile(hostileSID+"/subagents/agent-x.meta.json"))
	link(t, "../../../..", e.hostile(hostileSID+"/subagents/up")) // out of the root by a relative path

	snap := e.snapshotFresh()
	s := findSession(snap, hostileSID)
	if s == nil {
		t.Fatal("hostile session missing")
	}
	checkOneSubagent(t, e, s)
	for _, f := range s.Subagents {
		if typ, _ := f.SubagentMeta(); typ == "OUTSIDE-THE-ROOT" {
			t.Errorf("agent meta read through a symlink leading outside the root: %s", f.Path)
		}
	}
	if findSession(snap, outSID) != nil {
		t.Errorf("a session file symlinked from outside the root is listed")
	}
	for _, f := range snap.Files {
		if real, err := filepath.EvalSymlinks(f.Path); err == nil && !strings.HasPrefix(real, e.root) {
			t.Errorf("file outside the root read: %s -> %s", f.Path, real)
		}
	}
	e.checkNeighbour(snap)
}

func TestHostileSymlinkLoops(t *testing.T) {
	if isolate(t, 60*time.Second) {
		return
	}
	e := newHostileEnv(t)
	e.write(hostileSID+".jsonl", []byte(hostileBody("\n")))
	e.write(hostileSID+"/subagents/agent-x.jsonl", []byte(hostileAgent("x")))
	// A file pointing at itself, two files pointing at each other, folders
	// pointing at themselves and at their parents, at every level.
	link(t, "ffffffff-cccc-4ccc-8ccc-cccccccccccc.jsonl", e.hostile("ffffffff-cccc-4ccc-8ccc-cccccccccccc.jsonl"))
	link(t, "agent-b.jsonl", e.hostile("agent-a.jsonl"))
	link(t, "agent-a.jsonl", e.hostile("agent-b.jsonl"))
	link(t, ".", filepath.Join(e.root, "root-loop"))
	link(t, ".", e.hostile("proj-loop"))
	link(t, "..", e.hostile(hostileSID+"/up"))
	for _, n := range []string{"l1", "l2", "l3", "l4", "l5"} {
		link(t, ".", e.hostile(hostileSID+"/subagents/"+n))
	}
	link(t, "..", e.hostile(hostileSID+"/subagents/parent"))

	snap := e.snapshotFresh()
	s := findSession(snap, hostileSID)
	if s == nil {
		t.Fatal("hostile session missing")
	}
	checkOneSubagent(t, e, s)
	if len(snap.Sessions) != 2 {
		t.Errorf("%d sessions, want 2 (loops must not create sessions)", len(snap.Sessions))
	}
	e.checkNeighbour(snap)
}

func link(t *testing.T, target, name string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(name), 0o755)
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}

// checkOneSubagent: the hostile session has exactly its one real subagent file.
func checkOneSubagent(t *testing.T, e *hostileEnv, s *Session) {
	t.Helper()
	if len(s.Subagents) != 1 {
		var paths []string
		for _, f := range s.Subagents {
			rel, _ := filepath.Rel(e.root, f.Path)
			paths = append(paths, rel)
		}
		t.Errorf("subagent_count %d, want 1 (symlinked or looped copies counted); e.g. %v", len(s.Subagents), paths[:min(len(paths), 4)])
	}
	if s.Usage.Total.Input != 7+3 || CountCalls(s, false).Total.Total != 2 {
		t.Errorf("usage input %d calls %d, want 10 2", s.Usage.Total.Input, CountCalls(s, false).Total.Total)
	}
}

// isolate runs the calling test in a child process, so that a hang in the
// code under test is killed after timeout instead of spinning on in the
// background of later tests. It returns true in the parent (the test is
// done), false in the child (run the body).
func isolate(t *testing.T, timeout time.Duration) bool {
	t.Helper()
	const key = "AGENT_ACTIVITY_HOSTILE_CHILD"
	if os.Getenv(key) == t.Name() {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	args := []string{"-test.run=^" + t.Name() + "$", "-test.count=1", "-test.v"}
	if testing.Short() {
		args = append(args, "-test.short")
	}
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), key+"="+t.Name())
	out, err := cmd.CombinedOutput()
	report := string(out)
	if len(report) > 8000 {
		report = report[:4000] + "\n...\n" + report[len(report)-4000:]
	}
	switch {
	case ctx.Err() != nil:
		t.Fatalf("hung: killed after %v; output:\n%s", timeout, report)
	case err != nil:
		t.Fatalf("failed:\n%s", report)
	case strings.Contains(report, "--- SKIP"):
		t.Skipf("%s", report)
	}
	return true
}

func TestHostileRootIsAFile(t *testing.T) {
	e := newHostileEnv(t)
	file := filepath.Join(t.TempDir(), "projects")
	os.WriteFile(file, []byte(neighbourMain), 0o644)
	st := NewStore(e.config(file))
	snap := e.snapshotWith(st)
	if len(snap.Sessions) != 0 || !snap.RootsMissing() {
		t.Errorf("root that is a file: %d sessions, missing %v; want 0, true", len(snap.Sessions), snap.RootsMissing())
	}
	snap = e.snapshotWith(NewStore(e.config(file, e.root, filepath.Join(file, "sub"))))
	if snap.RootsMissing() || snap.Roots[0].Exists || !snap.Roots[1].Exists || snap.Roots[2].Exists {
		t.Errorf("roots: %+v", snap.Roots)
	}
	e.checkNeighbour(snap)
}

func TestHostileManyTinyFiles(t *testing.T) {
	n := 5000
	e := newHostileEnv(t)
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("%08x-0000-4000-8000-%012x", i, i)
		line := strings.ReplaceAll(hostileLines[0], hostileSID, id)
		p := filepath.Join(e.root, fmt.Sprintf("-home-dev-tiny%02d", i%50), id+".jsonl")
		if i%50 == 0 || i < 50 {
			os.MkdirAll(filepath.Dir(p), 0o755)
		}
		if err := os.WriteFile(p, []byte(line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, hostileOld, hostileOld)
	}
	snap := e.snapshotFresh()
	if len(snap.Sessions) != n+1 {
		t.Fatalf("%d sessions, want %d", len(snap.Sessions), n+1)
	}
	for _, s := range snap.Sessions {
		if s.ID != neighbourSID && (s.MessageCount != 1 || s.SkippedLines(false) != 0 || s.SchemaStatus() != "verified") {
			t.Fatalf("tiny session %s: message_count %d skipped %d %s", s.ID, s.MessageCount, s.SkippedLines(false), s.SchemaStatus())
		}
	}
	e.checkNeighbour(snap)
	// A second look with nothing changed returns the same snapshot.
	st := NewStore(e.config())
	a := e.snapshotWith(st)
	if b := e.snapshotWith(st); a != b {
		t.Errorf("nothing changed, but the snapshot was rebuilt")
	}
}

// TestAppendAfterBufferReuse: a response split over lines that arrive in two
// looks (a live session) is one message, even when other files were read in
// between with the same pooled reader buffer. Map keys that alias the reader's
// buffer (rather than copies) would count it twice.
func TestAppendAfterBufferReuse(t *testing.T) {
	e := newHostileEnv(t)
	p := e.write(hostileSID+".jsonl", []byte(hostileLines[0]+"\n"+hostileLines[1]+"\n"))
	os.Chtimes(p, testNow, testNow)
	// Other files, read in the same look, reuse the reader buffers.
	var big strings.Builder
	for i := 0; big.Len() < 1<<20; i++ {
		big.WriteString(strings.NewReplacer(neighbourSID, "ffffffff-dddd-4ddd-8ddd-dddddddddddd", "msg_n", fmt.Sprintf("msg_%d_", i), "toolu_n", fmt.Sprintf("toolu_%d_", i)).Replace(neighbourMain))
	}
	for i := 0; i < 8; i++ {
		e.write(fmt.Sprintf("ffffffff-dddd-4ddd-8ddd-%012d.jsonl", i), []byte(big.String()))
	}
	e.snapshot()
	for round := 1; round <= 3; round++ {
		// The next copy of msg_h1 (larger output) and an API error repeated.
		f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(strings.Replace(hostileLines[1], `"output_tokens":3`, fmt.Sprintf(`"output_tokens":%d`, 3+round), 1) + "\n")
		f.WriteString(`{"type":"assistant","sessionId":"dddddddd-4444-4444-8444-444444444444","timestamp":"2026-11-26T10:00:05.000Z","isApiErrorMessage":true,"message":{"id":"msg_err","model":"<synthetic>","content":[{"type":"text","text":"API Error: 529"}]}}` + "\n")
		f.Close()
		mt := testNow.Add(time.Duration(round) * time.Second)
		os.Chtimes(p, mt, mt)
		snap := e.snapshot()
		s := findSession(snap, hostileSID)
		// message_count: the prompt, msg_h1 and msg_err (a <synthetic> reply is an
		// assistant message with an id, counted as the file shows it; see testdata case 9).
		if s.MessageCount != 3 || s.APIErrors != 1 || s.Usage.Total.Output != int64(3+round) {
			t.Errorf("round %d: message_count %d api_errors %d output %d, want 3 1 %d", round, s.MessageCount, s.APIErrors, s.Usage.Total.Output, 3+round)
		}
	}
}
