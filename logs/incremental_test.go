package logs

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-activity/agent-activity/internal/fixture"
)

// digest renders everything a tool reads from a snapshot, to compare an
// incrementally updated snapshot with a full build.
func digest(sn *Snapshot) string {
	var b strings.Builder
	var total Usage
	n := 0
	for s, r := range sn.AllResponses() {
		total.Add(s.UsageOf(r))
		n++
	}
	fmt.Fprintf(&b, "responses=%d total=%+v coverage_from=%s\n", n, total, sn.CoverageFrom())
	for _, f := range sn.Files { // in order
		fmt.Fprintf(&b, "file %s %d\n", filepath.Base(f.Path), f.Size)
	}
	for _, s := range sn.Sessions {
		fmt.Fprintf(&b, "%s %s %d-%d msgs=%d api=%d skip=%d %s title=%q total=%+v main=%+v side=%+v cost=%.6f calls=%+v\n",
			s.Key, s.Repo, s.Start, s.End, s.MessageCount, s.APIErrors, s.SkippedLines(false), s.SchemaStatus(), s.Title,
			s.Usage.Total.Usage, s.Usage.Main.Usage, s.Usage.Sidechain.Usage, s.Usage.Total.Cost.USD(), CountCalls(s, false).Total)
		byModel := map[string]Usage{}
		for _, mt := range s.Usage.ByModel {
			byModel[mt.Model] = mt.Usage
		}
		if len(byModel) != len(s.Usage.ByModel) {
			fmt.Fprintf(&b, "  a model listed twice: %d entries, %d models\n", len(s.Usage.ByModel), len(byModel))
		}
		for _, m := range sortedKeysOf(byModel) {
			fmt.Fprintf(&b, "  %s %+v\n", m, byModel[m])
		}
		for f, c := range s.Calls() { // in order, with the file that owns each
			fmt.Fprintf(&b, "  call %s %x %s %d %x\n", filepath.Base(f.Path), c.Key, c.Name(), c.Result, c.Msg)
		}
	}
	rep := sn.Report(ReportQuery{GroupBy: []string{"day", "model"}})
	for _, r := range rep.Rows {
		fmt.Fprintf(&b, "%v %v %d %+v %.6f\n", r.GroupBy, r.Vals, r.Sessions, r.Usage.Usage, r.Usage.Cost.USD())
	}
	return b.String()
}

func sortedKeysOf[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := range ks {
		for j := i + 1; j < len(ks); j++ {
			if ks[j] < ks[i] {
				ks[i], ks[j] = ks[j], ks[i]
			}
		}
	}
	return ks
}

// TestIncrementalMatchesFullBuild appends lines of many kinds to files of the
// fixture tree, one look at a time, and checks that the store's incrementally
// extended snapshot always equals a fresh full build of the same disk.
func TestIncrementalMatchesFullBuild(t *testing.T) {
	few := fewChanged
	defer func() { fewChanged = few }()
	for _, n := range []int{few, 0} { // the changed files and sessions found by a scan, then by lookups
		fewChanged = n
		t.Run(fmt.Sprintf("fewChanged=%d", n), testIncrementalMatchesFullBuild)
	}
}

func testIncrementalMatchesFullBuild(t *testing.T) {
	root := filepath.Join(t.TempDir(), "projects")
	if err := fixture.CopyTree(filepath.Join("..", "testdata", "projects"), root); err != nil {
		t.Fatal(err)
	}
	var files []string
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".jsonl") && !strings.Contains(p, "torn") {
			files = append(files, p)
		}
		return nil
	})
	cfg := Config{Agents: testAgents, Roots: []string{root}, Now: func() time.Time { return testNow }, Pricing: testPricing(t)}
	st := NewStore(cfg)
	if _, err := st.Snapshot(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	extended := 0
	type lateResult struct{ path, sid, id string }
	var late []lateResult
	lastMsg := map[string]string{} // file -> the id of its last new response
	for step := 0; step < 100; step++ {
		p := files[rng.IntN(len(files))]
		if rng.IntN(10) < 7 { // mostly a few live files, which a look extends again and again
			p = files[rng.IntN(3)]
		}
		sid := strings.TrimSuffix(filepath.Base(p), ".jsonl")
		ts := fmt.Sprintf("2026-11-29T%02d:%02d:00.000Z", 12+step/60, step%60)
		var line string
		switch rng.IntN(7) {
		case 0: // a new response
			line = asst(sid, fmt.Sprintf("inc-%d", step), ts, fmt.Sprintf("msg_inc_%d", step), "claude-sonnet-4-5", textBlock, 10, int64(step), 100, 1000, "")
			lastMsg[p] = fmt.Sprintf("msg_inc_%d", step)
		case 1: // a later, larger copy of the previous new response
			line = asst(sid, fmt.Sprintf("inc-%d", step), ts, fmt.Sprintf("msg_inc_%d", step-1), "claude-sonnet-4-5", textBlock, 10, int64(step*10), 100, 1000, "")
		case 2: // a tool call and its result
			line = asst(sid, fmt.Sprintf("inc-%d", step), ts, fmt.Sprintf("msg_inc_%d", step), "claude-opus-4-5", toolUse(fmt.Sprintf("t_inc_%d", step), "Bash", `{"command":"ls"}`), 3, 4, 0, 0, "") +
				user(sid, fmt.Sprintf("inc-r-%d", step), ts, toolResult(fmt.Sprintf("t_inc_%d", step), "Exit code 1", yes), "")
		case 3: // a prompt
			line = user(sid, fmt.Sprintf("inc-%d", step), ts, `"keep going"`, "")
		case 5: // a later, larger copy of this file's last new response, read in a look before
			if m, ok := lastMsg[p]; ok {
				line = asst(sid, fmt.Sprintf("inc-%d", step), ts, m, "claude-sonnet-4-5", textBlock, 10, int64(step*100), 100, 1000, "")
			} else {
				line = user(sid, fmt.Sprintf("inc-%d", step), ts, `"next"`, "")
			}
		case 6: // a copy of all-zero usage: a response of its own until a later read takes it back
			block := textBlock
			if step%2 == 0 { // with a call, which moves to the later copy that claims the response
				block = toolUse(fmt.Sprintf("t_zero_%d", step), "Grep", `{"pattern":"x"}`)
			}
			line = asst(sid, fmt.Sprintf("inc-%d", step), ts, fmt.Sprintf("msg_zero_%d", step), "claude-sonnet-4-5", block, 0, 0, 0, 0, "")
			if step%3 == 0 { // no usage object at all: no response until a later copy brings one
				line = noUsage.ReplaceAllString(line, "")
			}
			lastMsg[p] = fmt.Sprintf("msg_zero_%d", step)
		case 4: // a call now, its result in a later step (the call's summary is then shared with the snapshot before)
			id := fmt.Sprintf("t_late_%d", step)
			line = asst(sid, fmt.Sprintf("inc-%d", step), ts, fmt.Sprintf("msg_inc_%d", step), "claude-opus-4-5", toolUse(id, "Read", `{"file_path":"/tmp/x"}`), 3, 4, 0, 0, "")
			late = append(late, lateResult{p, sid, id})
		}
		if len(late) > 0 && rng.IntN(2) == 0 {
			r := late[0]
			late = late[1:]
			appendLine(t, r.path, user(r.sid, "late-"+r.id, ts, toolResult(r.id, "no such file", yes), ""))
		}
		if rng.IntN(5) == 0 { // a file appears: a session or a subagent starting
			np, content := newFileStep(step, rng.IntN(4), p, sid, ts, lastMsg[p])
			writeFile(t, np, content)
			files = append(files, np) // later steps may append to it
		}
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(line)
		f.Close()
		prev := st.snap
		before := digest(prev)
		got, err := st.Snapshot(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if after := digest(prev); after != before {
			t.Fatalf("step %d (%s): extending changed the snapshot before it\n now: %.2000s\nthen: %.2000s", step, filepath.Base(p), after, before)
		}
		if got != prev {
			extended++
		}
		// A report that goes on from the shared runs' memo is the report a
		// walk of everything gives, float for float.
		for _, q := range memoQueries {
			if a, b := got.Report(q), reportUnmemoized(got, q); !reflect.DeepEqual(a, b) {
				t.Fatalf("step %d: report %+v from the runs' memo\n%+v\nwalked\n%+v", step, q, a, b)
			}
		}
		full := NewStore(cfg)
		want, _ := full.Snapshot(context.Background(), nil)
		if g, w := digest(got), digest(want); g != w {
			t.Fatalf("step %d (%s): incremental snapshot differs from a full build\n got: %.2000s\nwant: %.2000s", step, filepath.Base(p), g, w)
		}
	}
	if extended == 0 {
		t.Fatal("no look was answered")
	}
	if st.extensions < 50 {
		t.Errorf("only %d of 100 looks were incremental (%d full builds)", st.extensions, st.fullBuilds)
	}
	t.Logf("%d incremental, %d full builds; sessions continued %d, tallies only %d, in full %d, born %d; files joined %d",
		st.extensions, st.fullBuilds, st.ext.continued, st.ext.tallyOnly, st.ext.retallied, st.ext.born, st.ext.joined)
	if st.ext.continued == 0 || st.ext.retallied == 0 || st.ext.tallyOnly == 0 || st.ext.born == 0 || st.ext.joined == 0 {
		t.Errorf("an extension path was not taken: %+v", st.ext)
	}
}

// newFileStep is a transcript file that appears beside p (of session sid)
// at ts: a session of its own (kind 0), a subagent of sid (1), a session
// holding a copy of p's last new response (2: the copy's owner is decided by
// start order, which a full build decides), or a subagent of another session
// whose response is the message of p's last new line (3: a call of p may go
// with that message).
func newFileStep(step, kind int, p, sid, ts, last string) (path, content string) {
	dir := filepath.Dir(p)
	msg := fmt.Sprintf("msg_new_%d", step)
	if kind >= 2 && last != "" {
		msg = last
	}
	switch kind {
	case 0, 2:
		nsid := fmt.Sprintf("0e%06d-0000-4000-8000-000000000000", step)
		return filepath.Join(dir, nsid+".jsonl"), user(nsid, fmt.Sprintf("new-u-%d", step), ts, `"start"`, "") +
			asst(nsid, fmt.Sprintf("new-a-%d", step), ts, msg, "claude-sonnet-4-5", toolUse(fmt.Sprintf("t_new_%d", step), "Bash", `{"command":"make"}`), 7, 11, 0, 50, "") +
			user(nsid, fmt.Sprintf("new-r-%d", step), ts, toolResult(fmt.Sprintf("t_new_%d", step), "ok", no), "")
	}
	owner := sid
	if kind == 3 {
		owner = fmt.Sprintf("0f%06d-0000-4000-8000-000000000000", step) // a session with no main file
	}
	agent := fmt.Sprintf("zz%d", step)
	side := func(l string) string {
		return strings.Replace(l, `"isSidechain":false`, `"isSidechain":true,"agentId":"`+agent+`"`, 1)
	}
	return filepath.Join(dir, owner, "subagents", "agent-"+agent+".jsonl"),
		side(asst(owner, fmt.Sprintf("sub-a-%d", step), ts, msg, "claude-haiku-4-5", toolUse(fmt.Sprintf("t_sub_%d", step), "Grep", `{"pattern":"y"}`), 5, 9, 20, 0, "")) +
			side(user(owner, fmt.Sprintf("sub-r-%d", step), ts, toolResult(fmt.Sprintf("t_sub_%d", step), "found", no), ""))
}

// memoQueries are report shapes whose runs' memo the extensions reuse.
var memoQueries = []ReportQuery{
	{GroupBy: []string{"day"}},
	{GroupBy: []string{"day", "model"}},
	{GroupBy: []string{"session"}, Model: "sonnet"},
	{GroupBy: []string{"repo"}, Range: TimeRange{Since: time.Date(2026, 11, 29, 12, 20, 0, 0, time.UTC).UnixMilli()}},
}

// reportUnmemoized is snap's report of q walked in full, with a memo of its
// own that it fills but never reads.
func reportUnmemoized(snap *Snapshot, q ReportQuery) Report {
	shared := snap.runsMemo
	defer func() { snap.runsMemo = shared }()
	if shared != nil {
		snap.runsMemo = &runsMemo{}
	}
	return snap.report(q, "unmemoized")
}

var noUsage = regexp.MustCompile(`,"usage":\{[^}]*\}`)

// writeFile writes a file, and the folders it is in.
func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func appendLine(t *testing.T, path, line string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line); err != nil {
		t.Fatal(err)
	}
}

// TestExtensionLeavesEarlierSnapshots reads a snapshot from other goroutines
// while later looks extend the files it holds (their lists are shared with
// the extended summaries): what the readers see must not move, and under
// -race the shared lists must not be written where a reader reads.
func TestExtensionLeavesEarlierSnapshots(t *testing.T) {
	root := filepath.Join(t.TempDir(), "projects")
	dir := filepath.Join(root, "-home-dev-live")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	sid := "5e2f1c1a-0000-4000-8000-00000000live"
	p := filepath.Join(dir, sid+".jsonl")
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Agents: testAgents, Roots: []string{root}, Now: func() time.Time { return testNow }, Pricing: testPricing(t)}
	st := NewStore(cfg)
	step := 0
	grow := func() {
		ts := fmt.Sprintf("2026-11-29T10:%02d:%02d.000Z", step/60, step%60)
		id := fmt.Sprintf("t_%d", step)
		appendLine(t, p, asst(sid, fmt.Sprintf("a-%d", step), ts, fmt.Sprintf("msg_%d", step), "claude-sonnet-4-5", toolUse(id, "Bash", `{"command":"make"}`), 1, int64(step), 0, 0, ""))
		if step > 0 { // the previous step's call gets its result, and its response a larger copy
			appendLine(t, p, user(sid, fmt.Sprintf("r-%d", step), ts, toolResult(fmt.Sprintf("t_%d", step-1), "ok", no), ""))
			appendLine(t, p, asst(sid, fmt.Sprintf("b-%d", step), ts, fmt.Sprintf("msg_%d", step-1), "claude-sonnet-4-5", textBlock, 1, int64(step*10), 0, 0, ""))
		}
		step++
		if _, err := st.Snapshot(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
	}
	for range 5 {
		grow()
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 2 {
		held := st.snap
		msgs := func() string { // the files' open messages, which extensions share too
			var b strings.Builder
			for _, f := range held.Files {
				for i, m := range f.Messages() {
					fmt.Fprintf(&b, "%d %x %d %+v\n", i, m.Key, m.Line, m.Usage)
				}
			}
			return b.String()
		}
		want := digest(held) + msgs()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if got := digest(held) + msgs(); got != want {
					t.Errorf("a held snapshot changed under a reader:\n now: %.1500s\nthen: %.1500s", got, want)
					return
				}
			}
		}()
		for range 15 {
			grow()
		}
	}
	close(stop)
	wg.Wait()
	if st.extensions < 30 {
		t.Errorf("only %d looks were extensions (%d full builds)", st.extensions, st.fullBuilds)
	}
}

// TestBuiltAfterFullBuilds: Config.Built is called after every full build and
// after nothing else (an append extends the snapshot; an unchanged disk
// returns it as it was).
func TestBuiltAfterFullBuilds(t *testing.T) {
	main := asst(sidA, "u1", "2026-11-28T10:00:00.000Z", "msg_1", "claude-sonnet-4-5-20250929", textBlock, 1, 2, 0, 0, "")
	root := writeTree(t, map[string]string{"-home-dev-proj/" + sidA + ".jsonl": main}, old)
	built := 0
	st := NewStore(Config{Agents: testAgents, Roots: []string{root}, Now: func() time.Time { return testNow }, Pricing: testPricing(t), Built: func() { built++ }})
	look := func(want int) {
		t.Helper()
		if _, err := st.Snapshot(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		if built != want || built != st.fullBuilds {
			t.Fatalf("Built called %d times after %d full builds, want %d", built, st.fullBuilds, want)
		}
	}
	look(1)
	look(1)
	p := filepath.Join(root, "-home-dev-proj", sidA+".jsonl")
	fh, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fh.WriteString(asst(sidA, "u2", "2026-11-28T10:00:01.000Z", "msg_2", "claude-sonnet-4-5-20250929", textBlock, 1, 2, 0, 0, ""))
	fh.Close()
	look(1)
	if st.extensions != 1 {
		t.Fatalf("%d extensions, want 1", st.extensions)
	}
	if err := os.WriteFile(filepath.Join(root, "-home-dev-proj", sidB+".jsonl"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	look(2)
}

// TestExtensionAddsFiles: a file that appears (a session or a subagent
// starting) extends the snapshot, unless one of its messages is known
// elsewhere, which takes a full build; either way the snapshot is a full
// build's.
func TestExtensionAddsFiles(t *testing.T) {
	root := filepath.Join(t.TempDir(), "projects")
	dir := filepath.Join(root, "-home-dev-grow")
	sid := "5e2f1c1a-0000-4000-8000-0000000000a1"
	main := filepath.Join(dir, sid+".jsonl")
	write := func(p, content string) { writeFile(t, p, content) }
	ts := "2026-11-29T10:00:00.000Z"
	write(main, user(sid, "u1", ts, `"go"`, "")+
		asst(sid, "a1", ts, "msg_a1", "claude-sonnet-4-5", toolUse("t1", "Bash", `{"command":"ls"}`), 3, 5, 0, 10, "")+
		user(sid, "r1", ts, toolResult("t1", "ok", no), "")+
		// A copy with no usage, and a call: the call goes with whichever
		// file has the message's response.
		noUsage.ReplaceAllString(asst(sid, "a2", ts, "msg_a2", "claude-sonnet-4-5", toolUse("t2", "Read", `{"file_path":"/x"}`), 0, 0, 0, 0, ""), ""))
	cfg := Config{Agents: testAgents, Roots: []string{root}, Now: func() time.Time { return testNow }, Pricing: testPricing(t)}
	st := NewStore(cfg)
	if _, err := st.Snapshot(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	side := func(owner, agent, uuid, msg string, out int64) string {
		return strings.Replace(asst(owner, uuid, ts, msg, "claude-haiku-4-5", textBlock, 1, out, 0, 0, ""),
			`"isSidechain":false`, `"isSidechain":true,"agentId":"`+agent+`"`, 1)
	}
	other := "5e2f1c1a-0000-4000-8000-0000000000b2"
	steps := []struct {
		name     string
		path     string
		content  string
		extended bool
	}{
		{"a subagent of the session", filepath.Join(dir, sid, "subagents", "agent-s1.jsonl"), side(sid, "s1", "s1a", "msg_s1", 4) + side(sid, "s1", "s1b", "msg_s1", 6), true},
		{"a session of its own", filepath.Join(dir, other+".jsonl"), asst(other, "o1", ts, "msg_o1", "claude-opus-4-5", textBlock, 1, 2, 3, 4, ""), true},
		{"a subagent of a session with no main file yet", filepath.Join(dir, "5e2f1c1a-0000-4000-8000-0000000000c3", "subagents", "agent-c1.jsonl"), side("5e2f1c1a-0000-4000-8000-0000000000c3", "c1", "c1a", "msg_c1", 8), true},
		{"that session's main file", filepath.Join(dir, "5e2f1c1a-0000-4000-8000-0000000000c3.jsonl"), asst("5e2f1c1a-0000-4000-8000-0000000000c3", "c0", ts, "msg_c0", "claude-opus-4-5", textBlock, 1, 1, 0, 0, ""), true},
		{"a copy of another file's response", filepath.Join(dir, "5e2f1c1a-0000-4000-8000-0000000000d4.jsonl"), asst("5e2f1c1a-0000-4000-8000-0000000000d4", "d1", ts, "msg_o1", "claude-opus-4-5", textBlock, 1, 9, 3, 4, ""), false},
		{"a session older than every other (synced from another machine)", filepath.Join(dir, "5e2f1c1a-0000-4000-8000-0000000000e5.jsonl"), asst("5e2f1c1a-0000-4000-8000-0000000000e5", "e0", "2026-11-20T08:00:00.000Z", "msg_e0", "claude-opus-4-5", textBlock, 5, 5, 0, 0, ""), true},
		{"a response for the main file's call", filepath.Join(dir, "5e2f1c1a-0000-4000-8000-0000000000f6.jsonl"), asst("5e2f1c1a-0000-4000-8000-0000000000f6", "f1", ts, "msg_a2", "claude-sonnet-4-5", textBlock, 0, 0, 0, 0, ""), false},
		{"a copy of a subagent's response", filepath.Join(dir, sid, "subagents", "agent-s2.jsonl"), side(sid, "s2", "s2a", "msg_s1", 6), false},
		{"a subagent after that full build", filepath.Join(dir, sid, "subagents", "agent-s3.jsonl"), side(sid, "s3", "s3a", "msg_s3", 1), true},
	}
	for _, s := range steps {
		ext, full := st.extensions, st.fullBuilds
		write(s.path, s.content)
		got, err := st.Snapshot(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if extended := st.extensions == ext+1 && st.fullBuilds == full; extended != s.extended {
			t.Errorf("%s: extended %v, want %v (extensions %d→%d, full builds %d→%d)", s.name, extended, s.extended, ext, st.extensions, full, st.fullBuilds)
		}
		want, err := NewStore(cfg).Snapshot(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := digest(got), digest(want); g != w {
			t.Fatalf("%s: snapshot differs from a full build\n got: %s\nwant: %s", s.name, g, w)
		}
	}
	// The files an extension added are found again by the next one.
	for _, p := range []string{steps[len(steps)-1].path, filepath.Join(dir, "5e2f1c1a-0000-4000-8000-0000000000e5.jsonl")} {
		ext := st.extensions
		appendLine(t, p, side(sid, "s3", "s3z", "msg_z_"+filepath.Base(p), 2))
		got, err := st.Snapshot(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if st.extensions != ext+1 {
			t.Errorf("an append to %s took a full build", filepath.Base(p))
		}
		want, _ := NewStore(cfg).Snapshot(context.Background(), nil)
		if g, w := digest(got), digest(want); g != w {
			t.Fatalf("an append to %s: snapshot differs from a full build\n got: %s\nwant: %s", filepath.Base(p), g, w)
		}
	}
	if st.ext.born != 3 || st.ext.joined != 3 {
		t.Errorf("born %d sessions, joined %d files; want 3 and 3", st.ext.born, st.ext.joined)
	}
}

// TestNamedElsewhere: an added file's message named by a call of another
// file, known or grown, takes a full build.
func TestNamedElsewhere(t *testing.T) {
	added := &FileSummary{messages: packMessages([]Message{{Key: 42, HasUsage: true}})}
	other := &FileSummary{Calls: []Call{{Msg: 7}, {Msg: 0}}, namesUncounted: true}
	naming := &FileSummary{Calls: []Call{{Msg: 7}, {Msg: 42}}, namesUncounted: true}
	counted := &FileSummary{Calls: []Call{{Msg: 42}}} // its message is a response: claimAdded's case
	for _, c := range []struct {
		files []*FileSummary
		grown map[*FileSummary]*FileSummary
		want  bool
	}{
		{[]*FileSummary{other}, nil, false},
		{[]*FileSummary{other, naming}, nil, true},
		{[]*FileSummary{other}, map[*FileSummary]*FileSummary{other: naming}, true},
		{[]*FileSummary{counted}, nil, false},
	} {
		if got := namedElsewhere(c.files, c.grown, []*FileSummary{added}); got != c.want {
			t.Errorf("files %v grown %v: %v, want %v", c.files, c.grown, got, c.want)
		}
	}
}
