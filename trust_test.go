package main

// Trust tests: the guarantees of SPEC §1 checked on the real binary over
// stdio, through mcp-go's client (internal/stdiotest records every stdout line
// that is not JSON-RPC; every server started here fails its test on one).
//
//   - TestTrustReadOnly: every tool over a read-only tree changes no content,
//     mtime, mode or file list, and leaves nothing beside the root.
//   - TestTrustNoNetwork: under strace, answering every tool makes no network
//     syscall and no write-ish file syscall on the log root.
//   - TestTrustLoad: 16 concurrent calls of every tool, then 2,000 sequential
//     calls: no error, no protocol error, RSS growth under 20 MB.
//   - TestTrustCancel: a long search cancelled after 100 ms returns at once,
//     the server stops scanning and answers the next call.
//   - TestTrustHostileArguments: hostile sessions, patterns, limits at and
//     beyond every bound, unknown fields and wrong types are invalid_argument,
//     and (under strace) no hostile value ever reaches a path syscall.
//
// strace is optional: tests that need it skip with a message when it is absent
// (CI installs it: apt-get install -y strace).

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
)

// startTrust starts bin (the binary or a wrapper around it) on root, with
// time for the heavy trust runs.
func startTrust(t *testing.T, bin, root string, env ...string) *testServer {
	t.Helper()
	return startServer(t, bin, root, 10*time.Minute, env...)
}

// script writes an executable shell script into a temp dir.
func script(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "wrapper.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// pidWrapper returns a wrapper that records the server's pid, and a function
// reading it (the shell execs the binary, so its pid is the server's).
func pidWrapper(t *testing.T) (string, func() int) {
	t.Helper()
	pidFile := filepath.Join(t.TempDir(), "pid")
	bin := script(t, fmt.Sprintf("echo $$ > %q\nexec %q \"$@\"", pidFile, testBinary))
	return bin, func() int {
		b, err := os.ReadFile(pidFile)
		if err != nil {
			t.Fatal(err)
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			t.Fatal(err)
		}
		return pid
	}
}

// straceWrapper returns a wrapper running the binary under strace, writing
// the trace of the given syscall classes to the returned file; it skips the
// test when strace is missing or cannot trace here.
func straceWrapper(t *testing.T, trace string) (bin, traceFile string) {
	t.Helper()
	path, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace is not installed (apt-get install -y strace); skipping the syscall proof")
	}
	if out, err := exec.Command(path, "-f", "-qq", "-o", "/dev/null", "true").CombinedOutput(); err != nil {
		t.Skipf("strace cannot trace here (%v: %s); skipping the syscall proof", err, out)
	}
	traceFile = filepath.Join(t.TempDir(), "trace")
	bin = script(t, fmt.Sprintf("exec %q -f -qq -s 65536 -y -e trace=%s -o %q %q \"$@\"", path, trace, traceFile, testBinary))
	return bin, traceFile
}

func readTrace(t *testing.T, file string) []string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

// toolCall is one tool call.
type toolCall struct {
	tool string
	args map[string]any
}

// heavyCalls are calls of every tool with arguments that make them read a
// lot: every session by id, "latest", searches over everything, every grouping.
func heavyCalls(ts *testServer) []toolCall {
	ls := ts.call("list_recent_sessions", map[string]any{"limit": 200})
	count := map[string]int{}
	var ids []string
	for _, s := range ls["sessions"].([]any) {
		id := s.(map[string]any)["session_id"].(string)
		if count[id]++; count[id] == 1 {
			ids = append(ids, id)
		}
	}
	calls := []toolCall{
		{"list_recent_sessions", map[string]any{"limit": 200}},
		{"list_recent_sessions", map[string]any{"limit": 5, "repo": "dev", "since": "30d"}},
		{"summarize_work", map[string]any{"since": "2000-01-01", "limit": 50}},
		{"tail_agent_log", map[string]any{"session": "latest", "limit": 1000}},
		{"summarize_tool_calls", map[string]any{"session": "latest"}},
		{"session_recap", map[string]any{"session": "latest", "include_current": true}},
		{"search_transcripts", map[string]any{"query": "e", "limit": 200}},
		{"search_transcripts", map[string]any{"query": `(?i)(error|fail|todo)`, "regex": true, "limit": 200}},
		{"search_transcripts", map[string]any{"query": "ZANZIBAR-marker", "roles": []string{"tool_result"}}},
		{"file_activity", map[string]any{"path": "**/*", "limit": 500}},
		{"file_activity", map[string]any{"path": "api.ts"}},
		{"pacing_window", map[string]any{"hours": 168}},
		{"coverage_stats", map[string]any{}},
		{"scan_secrets", map[string]any{"max_findings": 1000}},
	}
	for _, g := range []string{"day", "week", "month", "session", "model", "repo", "day,model", "repo,week"} {
		calls = append(calls, toolCall{"usage_report", map[string]any{"group_by": g}})
	}
	for _, id := range ids {
		if count[id] > 1 {
			continue // the same id under two folders: ambiguous by design
		}
		calls = append(calls,
			toolCall{"tail_agent_log", map[string]any{"session": id, "limit": 1000}},
			toolCall{"summarize_tool_calls", map[string]any{"session": id}},
			toolCall{"session_recap", map[string]any{"session": id}},
			toolCall{"search_transcripts", map[string]any{"query": "the", "session": id, "limit": 200}})
	}
	// Every tool the server lists must be exercised; calls of tools it does
	// not list (not built yet) are dropped.
	listed := map[string]bool{}
	for _, tool := range ts.tools {
		listed[tool.Name] = true
	}
	var out []toolCall
	used := map[string]bool{}
	for _, c := range calls {
		if listed[c.tool] {
			out = append(out, c)
			used[c.tool] = true
		}
	}
	for name := range listed {
		if !used[name] {
			ts.t.Errorf("tool %s is listed but no trust test calls it: add it to heavyCalls", name)
		}
	}
	return out
}

// fileState is what must not change about one path.
type fileState struct {
	mode  fs.FileMode
	size  int64
	mtime int64
	hash  string
}

func treeState(t *testing.T, dir string) map[string]fileState {
	t.Helper()
	out := map[string]fileState{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		st, err := os.Lstat(p)
		if err != nil {
			return err
		}
		s := fileState{mode: st.Mode(), size: st.Size(), mtime: st.ModTime().UnixNano()}
		if st.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			s.hash = hex.EncodeToString(sum[:])
		}
		out[p] = s
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// makeReadOnly sets dirs to 0555 and files to 0444, restored at cleanup.
func makeReadOnly(t *testing.T, root string) {
	t.Helper()
	var dirs []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs = append(dirs, p)
		} else if d.Type().IsRegular() {
			os.Chmod(p, 0o444)
		}
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		os.Chmod(dirs[i], 0o555)
	}
	t.Cleanup(func() {
		for _, d := range dirs {
			os.Chmod(d, 0o755)
		}
	})
}

func TestTrustReadOnly(t *testing.T) {
	root := fixtureRoot(t)
	parent := filepath.Dir(root) // anything created beside the root counts too
	makeReadOnly(t, root)
	before := treeState(t, parent)

	ts := startTrust(t, testBinary, root)
	calls := heavyCalls(ts)
	for _, c := range calls {
		ts.call(c.tool, c.args)
	}
	ts.close() // a write at exit counts too
	after := treeState(t, parent)

	for p, b := range before {
		a, ok := after[p]
		switch {
		case !ok:
			t.Errorf("%s disappeared", p)
		case a != b:
			t.Errorf("%s changed: before %+v after %+v", p, b, a)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s appeared", p)
		}
	}
	t.Logf("%d calls over %d paths: nothing changed", len(calls), len(before))
}

var (
	// writeOpen matches an open with a flag that can change a file.
	writeOpen = regexp.MustCompile(`O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND`)
	// mutating syscalls on paths or descriptors.
	mutating = regexp.MustCompile(`^(\d+ +)?(rename|renameat2?|unlink|unlinkat|mkdir|mkdirat|rmdir|truncate|ftruncate|link|linkat|symlink|symlinkat|chmod|fchmod|fchmodat|chown|fchown|fchownat|lchown|utimensat|utimes|futimesat|flock|setxattr|lsetxattr|fsetxattr|removexattr|lremovexattr|fremovexattr|mknod|mknodat)\(`)
	// syscallName extracts the name of a traced call.
	syscallName = regexp.MustCompile(`^(?:\d+ +)?([a-z0-9_]+)\(`)
)

func TestTrustNoNetwork(t *testing.T) {
	root := fixtureRoot(t)
	bin, trace := straceWrapper(t, "%network,openat,open,creat,rename,renameat,renameat2,unlink,unlinkat,mkdir,mkdirat,rmdir,truncate,ftruncate,link,linkat,symlink,symlinkat,chmod,fchmod,fchmodat,chown,fchown,fchownat,lchown,utimensat,utimes,flock,setxattr,fsetxattr,lsetxattr,mknodat")
	ts := startTrust(t, bin, root)
	for _, c := range heavyCalls(ts) {
		ts.call(c.tool, c.args)
	}
	ts.close()

	lines := readTrace(t, trace)
	seen := map[string]int{}
	var network []string
	for _, l := range lines {
		m := syscallName.FindStringSubmatch(l)
		if m == nil {
			continue // "+++ exited" and resumed lines
		}
		seen[m[1]]++
		switch m[1] {
		case "socket", "connect", "bind", "listen", "accept", "accept4", "sendto", "sendmsg", "sendmmsg", "recvfrom",
			"recvmsg", "recvmmsg", "getsockname", "getpeername", "setsockopt", "getsockopt", "shutdown", "socketpair":
			if m[1] == "socketpair" && strings.Contains(l, "AF_UNIX") {
				continue
			}
			network = append(network, l)
		}
		inRoot := strings.Contains(l, root)
		if inRoot && (m[1] == "openat" || m[1] == "open" || m[1] == "creat") && (m[1] == "creat" || writeOpen.MatchString(l)) {
			t.Errorf("the log root was opened for writing: %s", l)
		}
		if inRoot && mutating.MatchString(l) {
			t.Errorf("a mutating syscall on the log root: %s", l)
		}
	}
	for _, l := range network {
		t.Errorf("network syscall: %s", l)
	}
	// Canary: the same trace filter does show a socket when one is made, so
	// an empty result above is evidence, not a broken filter.
	if py, err := exec.LookPath("python3"); err == nil {
		canary := filepath.Join(t.TempDir(), "canary")
		cmd := exec.Command("strace", "-f", "-qq", "-e", "trace=%network", "-o", canary, py, "-c", "import socket; socket.socket().close()")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Logf("canary did not run: %v %s", err, out)
		} else if b, _ := os.ReadFile(canary); !strings.Contains(string(b), "socket(") {
			t.Errorf("the network trace filter missed python's socket(): %q", b)
		}
	}
	var summary []string
	for name, n := range seen {
		summary = append(summary, fmt.Sprintf("%s=%d", name, n))
	}
	sort.Strings(summary)
	t.Logf("strace: %d lines; calls seen: %s; network calls: %d", len(lines), strings.Join(summary, " "), len(network))
}

// rssKB reads VmRSS of a process.
func rssKB(t *testing.T, pid int) int {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc here: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return kb
		}
	}
	t.Fatalf("no VmRSS for pid %d", pid)
	return 0
}

// cpuTicks reads utime+stime of a process in clock ticks (1/100 s).
func cpuTicks(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	u, _ := strconv.Atoi(fields[11])
	st, _ := strconv.Atoi(fields[12])
	return u + st
}

// callOK calls a tool that must succeed, returning a problem as an error
// (safe from any goroutine).
func (ts *testServer) callOK(ctx context.Context, c toolCall) error {
	out, isErr, err := ts.srv.Call(ctx, c.tool, c.args)
	if err != nil {
		return fmt.Errorf("%s %v: protocol error: %v", c.tool, c.args, err)
	}
	if isErr {
		return fmt.Errorf("%s %v: error result: %v", c.tool, c.args, out)
	}
	return nil
}

func TestTrustLoad(t *testing.T) {
	root := fixtureRoot(t)
	bin, pid := pidWrapper(t)
	ts := startTrust(t, bin, root)
	calls := heavyCalls(ts)
	for _, c := range calls { // warm: the first scan and every code path once
		if err := ts.callOK(ts.ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	p := pid()
	before := rssKB(t, p)

	// 16 concurrent calls of every tool (the heaviest call of each).
	perTool := map[string]toolCall{}
	for _, c := range calls {
		if _, ok := perTool[c.tool]; !ok {
			perTool[c.tool] = c
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16*len(perTool))
	start := time.Now()
	for _, c := range perTool {
		for i := 0; i < 16; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := ts.callOK(ts.ctx, c); err != nil {
					errs <- err
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	concurrent := time.Since(start)
	mid := rssKB(t, p)

	// 2,000 sequential calls, mixing every call.
	start = time.Now()
	for i := 0; i < 2000; i++ {
		if err := ts.callOK(ts.ctx, calls[i%len(calls)]); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	sequential := time.Since(start)
	after := rssKB(t, p)
	peak := after
	if mid > peak {
		peak = mid
	}
	growth := peak - before
	t.Logf("RSS: %d kB after warm-up, %d kB after %d concurrent calls (%v), %d kB after 2000 sequential calls (%v); growth %d kB",
		before, mid, 16*len(perTool), concurrent.Round(time.Millisecond), after, sequential.Round(time.Millisecond), growth)
	if growth > 20<<10 {
		t.Errorf("RSS grew by %d kB (limit 20 MB)", growth)
	}
}

// writeBigTree writes about mb megabytes of realistic transcript lines: one
// big session file (60%) and eight smaller ones.
func writeBigTree(t *testing.T, root string, mb int) {
	t.Helper()
	proj := filepath.Join(root, "-home-dev-big")
	os.MkdirAll(proj, 0o755)
	text := strings.Repeat("The parser handles nested blocks; the tests pass after the refactor of the tokenizer. ", 12)
	write := func(id string, bytes int) {
		f, err := os.Create(filepath.Join(proj, id+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriterSize(f, 1<<20)
		n := 0
		for i := 0; n < bytes; i++ {
			ts := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second).Format("2006-01-02T15:04:05.000Z")
			var line string
			if i%2 == 0 {
				line = fmt.Sprintf(`{"type":"user","sessionId":%q,"uuid":"u%d","timestamp":%q,"cwd":"/home/dev/big","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_%d","content":%q}]}}`, id, i, ts, i-1, text)
			} else {
				line = fmt.Sprintf(`{"type":"assistant","sessionId":%q,"uuid":"a%d","timestamp":%q,"cwd":"/home/dev/big","message":{"id":"msg_%s_%d","model":"claude-sonnet-4-5-20250929","role":"assistant","content":[{"type":"text","text":%q},{"type":"tool_use","id":"toolu_%d","name":"Bash","input":{"command":"go test ./..."}}],"usage":{"input_tokens":10,"output_tokens":20,"cache_creation_input_tokens":0,"cache_read_input_tokens":100}}}`, id, i, ts, id[:8], i, text, i)
			}
			w.WriteString(line + "\n")
			n += len(line) + 1
		}
		w.Flush()
		f.Close()
		old := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
		os.Chtimes(f.Name(), old, old)
	}
	write("b16b16b1-0000-4000-8000-000000000000", mb*6/10<<20)
	for i := 1; i <= 8; i++ {
		write(fmt.Sprintf("b16b16b1-0000-4000-8000-%012d", i), mb*4/10<<20/8)
	}
}

func TestTrustCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 200 MB of transcripts; skipped with -short")
	}
	root := filepath.Join(t.TempDir(), "projects")
	writeBigTree(t, root, 200)
	bin, pid := pidWrapper(t)
	ts := startTrust(t, bin, root)
	ctx, cancel := context.WithTimeout(ts.ctx, 2*time.Minute)
	defer cancel()
	if err := ts.callOK(ctx, toolCall{"coverage_stats", map[string]any{}}); err != nil { // the first scan, done
		t.Fatal(err)
	}
	p := pid()

	// A regex without a literal prefix decodes every line: seconds of work.
	search := toolCall{"search_transcripts", map[string]any{"query": `(?i)q[x]+z`, "regex": true}}
	callCtx, callCancel := context.WithCancel(ts.ctx)
	done := make(chan error, 1)
	go func() {
		_, _, err := ts.srv.Call(callCtx, search.tool, search.args)
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	callCancel()
	cancelled := time.Now()
	select {
	case err := <-done:
		if err == nil {
			t.Log("the search finished within 100 ms; cancellation not exercised")
		}
		t.Logf("cancelled call returned after %v: %v", time.Since(cancelled).Round(time.Millisecond), err)
	case <-time.After(2 * time.Second):
		t.Fatal("the cancelled call did not return within 2 s")
	}

	// The server must stop scanning: its CPU use stops growing.
	time.Sleep(300 * time.Millisecond)
	c0 := cpuTicks(t, p)
	time.Sleep(time.Second)
	busy := cpuTicks(t, p) - c0
	t.Logf("server CPU in the second after cancellation (+0.3 s .. +1.3 s): %d ms", busy*10)
	if busy > 30 {
		t.Errorf("the server kept working after the search was cancelled: %d ms of CPU in 1 s", busy*10)
	}

	// And answer the next calls promptly.
	next, nextCancel := context.WithTimeout(ts.ctx, 2*time.Second)
	defer nextCancel()
	start := time.Now()
	if err := ts.callOK(next, toolCall{"list_recent_sessions", map[string]any{}}); err != nil {
		t.Errorf("after cancellation: %v", err)
	}
	t.Logf("next call answered in %v", time.Since(start).Round(time.Millisecond))
	full, fullCancel := context.WithTimeout(ts.ctx, time.Minute)
	defer fullCancel()
	start = time.Now()
	if err := ts.callOK(full, search); err != nil {
		t.Errorf("the same search, not cancelled: %v", err)
	}
	t.Logf("the same search, not cancelled, takes %v", time.Since(start).Round(time.Millisecond))
}

// hostileMarker is in every hostile value that could name a path, so the
// trace shows whether one ever reached a path syscall.
const hostileMarker = "HOSTILE"

func TestTrustHostileArguments(t *testing.T) {
	root := fixtureRoot(t)
	bin, trace := testBinary, ""
	if _, err := exec.LookPath("strace"); err == nil {
		if out, err := exec.Command("strace", "-f", "-qq", "-o", "/dev/null", "true").CombinedOutput(); err == nil {
			bin, trace = straceWrapper(t, "openat,open,openat2,creat,stat,lstat,newfstatat,statx,access,faccessat,faccessat2,readlink,readlinkat,chdir,execve,getdents64,inotify_add_watch")
		} else {
			t.Logf("strace cannot trace here (%v: %s): checking error codes only", err, out)
		}
	} else {
		t.Log("strace is not installed (apt-get install -y strace): checking error codes only")
	}
	ts := startTrust(t, bin, root)

	type errCase struct {
		tool string
		args any // map[string]any, or any other JSON value as the whole arguments
		arg  string
	}
	var cases []errCase
	sessionTools := []string{"tail_agent_log", "summarize_tool_calls", "session_recap", "search_transcripts", "scan_secrets"}
	base := map[string]map[string]any{
		"tail_agent_log": {"session": "latest"}, "summarize_tool_calls": {"session": "latest"}, "session_recap": {"session": "latest"},
		"search_transcripts": {"query": "error"}, "file_activity": {"path": "api.ts"},
	}
	with := func(tool string, kv ...any) map[string]any {
		m := map[string]any{}
		for k, v := range base[tool] {
			m[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	hostileSessions := []string{
		"../" + hostileMarker, "a\x00" + hostileMarker, "..", "../..", "/" + hostileMarker + "/etc/passwd", "../../../../etc/passwd",
		"dae6/../" + hostileMarker, "dae68d1d/" + hostileMarker, strings.Repeat("a", 10<<10), strings.Repeat("../", 3000) + hostileMarker,
		"latest/../" + hostileMarker, `C:\` + hostileMarker, "%2e%2e%2f" + hostileMarker, "dae68d1d\x00", "\u202edae68d1d",
		"~/" + hostileMarker, "$HOME/" + hostileMarker, "*", "????", "dae6*",
	}
	listed := map[string]mcp.Tool{}
	for _, tool := range ts.tools {
		listed[tool.Name] = tool
	}
	for _, tool := range sessionTools {
		if _, ok := listed[tool]; !ok {
			continue
		}
		for _, s := range hostileSessions {
			cases = append(cases, errCase{tool, with(tool, "session", s), "session"})
		}
	}
	// Patterns: invalid RE2, or too long.
	for _, q := range []string{"a(b", "[", "(?P<x", `\`, "x{1001}", "(?<!x)y", `\8`, strings.Repeat("(", 500)} {
		cases = append(cases, errCase{"search_transcripts", map[string]any{"query": q, "regex": true}, "query"})
	}
	cases = append(cases, errCase{"search_transcripts", map[string]any{"query": strings.Repeat("x", 1001)}, "query"},
		errCase{"search_transcripts", map[string]any{"query": ""}, "query"})

	// Limits and other integers: below, at and beyond every bound the schema states.
	var atBounds []toolCall
	for name, tool := range listed {
		schema, _ := json.Marshal(tool.InputSchema)
		if len(tool.RawInputSchema) > 0 {
			schema = tool.RawInputSchema
		}
		var s struct {
			Properties map[string]struct {
				Type    any      `json:"type"`
				Minimum *float64 `json:"minimum"`
				Maximum *float64 `json:"maximum"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(schema, &s); err != nil {
			t.Fatalf("%s: input schema: %v", name, err)
		}
		cases = append(cases, errCase{name, with(name, "bogus_field", 1), "bogus_field"},
			errCase{name, with(name, "Limit ", 1), "Limit "})
		for prop, p := range s.Properties {
			typ := fmt.Sprint(p.Type)
			switch {
			case strings.Contains(typ, "integer"):
				if p.Minimum == nil || p.Maximum == nil {
					t.Errorf("%s.%s: integer without minimum/maximum in the schema", name, prop)
					continue
				}
				lo, hi := int(*p.Minimum), int(*p.Maximum)
				atBounds = append(atBounds, toolCall{name, with(name, prop, lo)}, toolCall{name, with(name, prop, hi)})
				for _, v := range []any{lo - 1, hi + 1, -1, math.MinInt32, math.MaxInt32, int64(math.MaxInt64), 1e20, 1.5, "10", true, []int{1}, map[string]int{"n": 1}} {
					cases = append(cases, errCase{name, with(name, prop, v), prop})
				}
			case strings.Contains(typ, "string"):
				cases = append(cases, errCase{name, with(name, prop, 5), prop}, errCase{name, with(name, prop, []string{"x"}), prop},
					errCase{name, with(name, prop, map[string]any{"x": 1}), prop}, errCase{name, with(name, prop, false), prop})
			case strings.Contains(typ, "boolean"):
				cases = append(cases, errCase{name, with(name, prop, "yes"), prop}, errCase{name, with(name, prop, 1), prop})
			case strings.Contains(typ, "array"):
				cases = append(cases, errCase{name, with(name, prop, "user"), prop}, errCase{name, with(name, prop, []int{1}), prop})
			}
		}
		// Arguments that are not an object at all.
		for _, whole := range []any{[]any{1}, "x", 5, true} {
			cases = append(cases, errCase{name, whole, "arguments"})
		}
	}
	sort.Slice(cases, func(i, j int) bool { return cases[i].tool < cases[j].tool })

	for _, c := range cases {
		req := mcp.CallToolRequest{}
		req.Params.Name = c.tool
		req.Params.Arguments = c.args
		res, err := ts.srv.Client.CallTool(ts.ctx, req)
		if err != nil {
			t.Errorf("%s %.120v: protocol error %v (want an invalid_argument result)", c.tool, c.args, err)
			continue
		}
		var body map[string]any
		raw := res.RawStructuredContent
		if len(raw) == 0 {
			raw, _ = json.Marshal(res.StructuredContent)
		}
		json.Unmarshal(raw, &body)
		if !res.IsError || body["error"] != "invalid_argument" || body["argument"] != c.arg {
			t.Errorf("%s %.120q: got isError=%v %v/%v, want invalid_argument naming %q (%.200v)", c.tool, fmt.Sprint(c.args), res.IsError, body["error"], body["argument"], c.arg, body["message"])
			continue
		}
		msg, _ := body["message"].(string)
		if msg == "" || utf8.RuneCountInString(msg) > 300 || !utf8.ValidString(msg) || strings.Contains(msg, strings.Repeat("a", 1000)) {
			t.Errorf("%s: message not one short readable sentence (%d runes): %.200q", c.tool, utf8.RuneCountInString(msg), msg)
		}
	}

	// At the bounds the calls succeed; pathological patterns answer quickly.
	for _, c := range atBounds {
		if err := ts.callOK(ts.ctx, c); err != nil {
			t.Error(err)
		}
	}
	for _, q := range []string{`(a*)*b`, `(x+x+)+y`, `((a|a)*)*$`, strings.Repeat("(a*)", 150) + "b", `(.*){1000}`, `(?s).*.*.*.*.*=.*.*.*.*.*Z`} {
		ctx, cancel := context.WithTimeout(ts.ctx, 5*time.Second)
		start := time.Now()
		_, _, err := ts.srv.Call(ctx, "search_transcripts", map[string]any{"query": q, "regex": true, "limit": 200})
		cancel()
		if err != nil {
			t.Errorf("pattern %.40q: %v after %v (limit 5 s)", q, err, time.Since(start).Round(time.Millisecond))
		}
	}
	// Valid calls whose free-text arguments carry hostile paths: they are
	// matched against transcript data, never opened.
	for _, c := range []toolCall{
		{"tail_agent_log", map[string]any{"session": "latest", "cwd": "/" + hostileMarker + "/../../etc"}},
		{"session_recap", map[string]any{"session": "latest", "cwd": "../../" + hostileMarker}},
		{"file_activity", map[string]any{"path": "/" + hostileMarker + "/../../etc/passwd"}},
		{"file_activity", map[string]any{"path": "../../" + hostileMarker + "/**"}},
		{"list_recent_sessions", map[string]any{"repo": "../" + hostileMarker}},
		{"search_transcripts", map[string]any{"query": "../../" + hostileMarker + "/etc/passwd", "repo": "/" + hostileMarker}},
		{"usage_report", map[string]any{"repo": "/" + hostileMarker, "model": "../" + hostileMarker}},
	} {
		if _, ok := listed[c.tool]; ok {
			if err := ts.callOK(ts.ctx, c); err != nil {
				t.Error(err)
			}
		}
	}
	ts.close()
	t.Logf("%d invalid calls, %d calls at the bounds", len(cases), len(atBounds))

	if trace == "" {
		return
	}
	outside := map[string]int{}
	pathArg := regexp.MustCompile(`^(?:\d+ +)?([a-z0-9_]+)\((?:AT_FDCWD[^,]*, )?"((?:[^"\\]|\\.)*)"`)
	// What a Go binary opens on its own: the loader, the runtime's /proc and
	// /sys reads, devices, zone data.
	allowedOpen := regexp.MustCompile(`^(/etc/ld\.so\.|/lib|/usr/lib|/proc/|/sys/|/dev/|/etc/localtime|/usr/share/zoneinfo|/usr/local/go/lib/time)`)
	// And the binary itself, read-only: google.golang.org/protobuf (linked
	// through parquet-go, for export) hashes it at init to seed detrand.
	ownBinary := func(l, path string) bool { return path == testBinary && strings.Contains(l, "O_RDONLY") }
	for _, l := range readTrace(t, trace) {
		if strings.Contains(l, hostileMarker) || strings.Contains(l, "etc/passwd") {
			t.Errorf("a hostile argument reached a path syscall: %.300s", l)
		}
		m := pathArg.FindStringSubmatch(l)
		if m == nil || strings.HasPrefix(m[2], root) || !strings.HasPrefix(m[2], "/") {
			continue
		}
		if (m[1] == "openat" || m[1] == "open" || m[1] == "openat2" || m[1] == "creat") && !allowedOpen.MatchString(m[2]) && !ownBinary(l, m[2]) {
			t.Errorf("a file outside the log root was opened: %.300s", l)
		}
		dir := m[2]
		if i := strings.Index(dir[1:], "/"); i >= 0 {
			if j := strings.Index(dir[i+2:], "/"); j >= 0 {
				dir = dir[:i+2+j]
			}
		}
		outside[m[1]+" "+dir]++
	}
	var list []string
	for d, n := range outside {
		list = append(list, fmt.Sprintf("%s (%d)", d, n))
	}
	sort.Strings(list)
	t.Logf("syscalls on paths outside the root (first two levels): %s", strings.Join(list, ", "))
}
