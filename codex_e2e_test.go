package main

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/agent-activity/agent-activity/internal/fixture"
)

// A history with both agents through the real binary: Claude Code's fixtures
// under the log root, and under the Codex root the public Codex corpus (the
// five homes of shared/corpus/public-codex merged) plus testdata/codex, one
// hand-written rollout dated among the Claude Code sessions.

// codexCorpus is shared/corpus/public-codex seen from the repository root.
var codexCorpus = filepath.Join("..", "shared", "corpus", "public-codex")

// mixedRoots copies both histories, with mtimes from their lines.
func mixedRoots(t *testing.T) (claude, codexRoot string) {
	t.Helper()
	if _, err := os.Stat(codexCorpus); err != nil {
		t.Skipf("public Codex corpus not found at %s", codexCorpus)
	}
	claude = fixtureRoot(t)
	codexRoot = filepath.Join(t.TempDir(), "codex")
	homes, _ := filepath.Glob(filepath.Join(codexCorpus, "*", "sessions"))
	for _, h := range append(homes, filepath.Join("testdata", "codex", "sessions")) {
		if err := fixture.CopyTree(h, filepath.Join(codexRoot, "sessions")); err != nil {
			t.Fatal(err)
		}
	}
	return claude, codexRoot
}

// handRollout is testdata/codex's rollout: its figures, worked out from its
// 22 lines. Its message count is 2 prompts and 4 responses (the items
// before each counted token_count, and the last call, whose response has
// none yet). Counted totals 1050, 2620, 4400 (line 11 re-emits 1050); lasts
// input 1000+1500+1700 = 4200 of which cached 800+1000+1200 = 3000, output
// 50+70+80 = 200 of which reasoning 10+20+10 = 40.
const handRollout = "019ab000-0000-7000-8000-0000000000c1"

func TestE2EMixedHistory(t *testing.T) {
	claude, codexRoot := mixedRoots(t)
	e := startE2E(t, claude, "AGENT_ACTIVITY_CODEX_ROOT="+codexRoot)
	want := expectedCorpus(t)

	// Both agents, newest first, interleaved by time.
	ls := e.call("list_recent_sessions", map[string]any{"limit": 200})
	if got := num(ls["total_matched"]); got != strconv.Itoa(27+len(want)+1) {
		t.Fatalf("total_matched %s, want %d", got, 27+len(want)+1)
	}
	sessions := list(ls["sessions"])
	order := map[string]int{}
	prevEnd := "9999"
	for i, s := range sessions {
		order[s["agent"].(string)]++
		if end := s["end"].(string); end > prevEnd {
			t.Errorf("session %d ends %s after the one before it (%s)", i, end, prevEnd)
		}
		prevEnd = s["end"].(string)
	}
	if order["claude-code"] != 27 || order["codex"] != len(want)+1 {
		t.Errorf("agents %v", order)
	}
	at := -1
	for i, s := range sessions {
		if s["session_id"] == handRollout {
			at = i
		}
	}
	if at <= 0 || at >= len(sessions)-1 || sessions[at-1]["agent"] != "claude-code" || sessions[at+1]["agent"] != "claude-code" {
		t.Errorf("the Codex session of 2026-11-25 is not between Claude Code sessions (at %d)", at)
	} else if s := sessions[at]; s["repo"] != "spacepilot" || s["git_branch"] != "timer-fix" || s["first_prompt"] != "fix the flaky timer test" ||
		num(s["message_count"]) != "6" || s["schema_status"] != "verified" {
		t.Errorf("hand rollout item: %v", s)
	}

	// group_by=agent: the rows add up to the totals, and the Codex row is the
	// corpus (each fork's copied parent history once) plus the hand rollout.
	rep := e.call("usage_report", map[string]any{"group_by": "agent"})
	rows := list(rep["rows"])
	if len(rows) != 2 || rows[0]["agent"] != "claude-code" || rows[1]["agent"] != "codex" {
		t.Fatalf("rows %v", rows)
	}
	totals := rep["totals"].(map[string]any)["usage"].(map[string]any)
	for _, k := range []string{"input_tokens", "output_tokens", "cache_creation_tokens", "cache_read_tokens", "total_tokens"} {
		a, b := usageOf(rows[0])[k], usageOf(rows[1])[k]
		if intOf(a)+intOf(b) != intOf(totals[k]) {
			t.Errorf("%s: rows %v + %v != totals %v", k, a, b, totals[k])
		}
	}
	var sum expectedRollout
	for _, w := range want {
		sum.add(w)
	}
	sum.add(expectedRollout{input: 4200, cached: 3000, output: 200, reasoning: 40, total: 4400})
	checkUsage(t, "codex row", usageOf(rows[1]), sum)
	if n := num(rows[1]["sessions"]); n != strconv.Itoa(len(want)) { // #2 has no usage
		t.Errorf("codex row sessions %s", n)
	}

	// The agent filter.
	only := e.call("list_recent_sessions", map[string]any{"limit": 200, "agent": "codex"})
	if num(only["total_matched"]) != strconv.Itoa(len(want)+1) {
		t.Errorf("agent=codex: %v sessions", only["total_matched"])
	}
	for _, s := range list(only["sessions"]) {
		if s["agent"] != "codex" {
			t.Errorf("agent=codex listed %v", s["session_id"])
		}
	}
	codexOnly := e.call("usage_report", map[string]any{"group_by": "model", "agent": "codex"})
	checkUsage(t, "usage_report agent=codex", codexOnly["totals"].(map[string]any)["usage"].(map[string]any), sum)
	claudeOnly := e.call("usage_report", map[string]any{"agent": "claude-code"})
	if a, b := claudeOnly["totals"].(map[string]any)["usage"].(map[string]any)["total_tokens"], usageOf(rows[0])["total_tokens"]; a != b {
		t.Errorf("agent=claude-code totals %v, want %v", a, b)
	}
	if bad := e.callErr("usage_report", map[string]any{"agent": "cursor"}); bad["argument"] != "agent" {
		t.Errorf("agent=cursor: %v", bad)
	}
	fa := e.call("file_activity", map[string]any{"path": "timer/*.go", "agent": "codex"})
	touches := list(fa["touches"])
	if len(touches) != 2 || touches[0]["tool_name"] != "apply_patch" || num(fa["total_touches"]) != "2" {
		t.Errorf("file_activity agent=codex: %v", fa)
	}
	for _, tc := range touches {
		if p := tc["file_path"].(string); p != "~/spacepilot/timer/clock.go" && p != "~/spacepilot/timer/timer_test.go" || tc["outcome"] != "ok" {
			t.Errorf("touch %v", tc)
		}
	}
	if fa := e.call("file_activity", map[string]any{"path": "timer/*.go", "agent": "claude-code"}); num(fa["total_touches"]) != "0" {
		t.Errorf("file_activity agent=claude-code found Codex touches: %v", fa["total_touches"])
	}
	search := e.call("search_transcripts", map[string]any{"query": "flaky timer", "agent": "codex"})
	if m := list(search["matches"]); len(m) != 1 || m[0]["session_id"] != handRollout || m[0]["role"] != "user" {
		t.Errorf("search agent=codex: %v", search["matches"])
	}
	if s := e.call("search_transcripts", map[string]any{"query": "flaky timer", "agent": "claude-code"}); num(s["total_matches"]) != "0" {
		t.Errorf("search agent=claude-code: %v", s["total_matches"])
	}
	secrets := e.call("scan_secrets", map[string]any{"agent": "codex"})
	if n := num(secrets["summary"].(map[string]any)["files_scanned"]); n != strconv.Itoa(len(want)+1) {
		t.Errorf("scan_secrets agent=codex scanned %s files", n)
	}
	pace := e.call("pacing_window", map[string]any{"hours": 168, "agent": "codex"})
	if a := list(pace["active_sessions"]); len(a) != 1 || a[0]["session_id"] != handRollout || num(pace["usage"].(map[string]any)["total_tokens"]) != "4400" {
		t.Errorf("pacing agent=codex in the last week: %v", pace)
	}
	for _, a := range list(e.call("pacing_window", map[string]any{"hours": 168, "agent": "claude-code"})["active_sessions"]) {
		if a["session_id"] == handRollout {
			t.Errorf("pacing agent=claude-code lists the Codex session")
		}
	}

	// Every public rollout's figures (EXPECTED.md) through the tools: tokens
	// by kind per session, calls by tool and outcome.
	bySession := e.call("usage_report", map[string]any{"group_by": "session", "agent": "codex", "limit": 1000})
	rowOf := map[string]map[string]any{}
	for _, r := range list(bySession["rows"]) {
		rowOf[r["session"].(string)] = usageOf(r)
	}
	for _, w := range want {
		t.Run(w.id, func(t *testing.T) {
			sum := e.call("summarize_tool_calls", map[string]any{"session": w.id})
			id := sum["session_id"].(string)
			if sum["agent"] != "codex" || !strings.HasPrefix(id, w.id) {
				t.Fatalf("resolved %v (%v)", id, sum["agent"])
			}
			if w.responses == 0 {
				if rowOf[id] != nil {
					t.Errorf("a session without usage has a row")
				}
			} else {
				checkUsage(t, "usage", rowOf[id], w)
			}
			if got := perTool(sum); !equalCounts(got, w.calls) {
				t.Errorf("calls\n got %v\nwant %v", got, w.calls)
			}
			recap := e.call("session_recap", map[string]any{"session": w.id, "detail": true}) // detail: by_model even of one model
			if recap["agent"] != "codex" || !strings.EqualFold(recap["cwd"].(string), redactHome(w.cwd)) {
				t.Errorf("recap cwd %v, want %v", recap["cwd"], w.cwd)
			}
			prompts := w.prompts
			if id == "019be13c-21b4-7103-a3e2-9f85a85fab31" {
				prompts = 0 // a UI-title thread: its one "prompt" is the extension's, not the human's
			}
			if n := num(recap["prompt_count"]); n != strconv.Itoa(prompts) {
				t.Errorf("prompts %s, want %d", n, prompts)
			}
			models, _ := recap["usage"].(map[string]any)["by_model"].(map[string]any) // absent for a session without usage
			for m := range models {
				if !strings.Contains(w.models, m) {
					t.Errorf("model %s not among %s", m, w.models)
				}
			}
		})
	}

	// The hand rollout through the per-session tools.
	tc := e.call("summarize_tool_calls", map[string]any{"session": handRollout})
	if !equalCounts(perTool(tc), map[string]map[string]int{"shell_command": {"ok": 1, "error": 1, "pending": 1},
		"apply_patch": {"ok": 1}, "web_search": {"ok": 1}}) {
		t.Errorf("hand rollout calls %v", tc["per_tool"])
	}
	recap := e.call("session_recap", map[string]any{"session": handRollout})
	cmds := list(recap["commands"])
	if len(cmds) != 3 || cmds[0]["command"] != "go test ./timer" || cmds[0]["outcome"] != "error" || cmds[1]["outcome"] != "ok" || cmds[2]["outcome"] != "pending" {
		t.Errorf("recap commands %v", cmds)
	}
	if len(list(recap["files_changed"])) != 2 || !strings.HasPrefix(recap["final_assistant_text"].(string), "The timer test no longer sleeps") ||
		num(recap["prompt_count"]) != "2" {
		t.Errorf("recap %v", recap)
	}
	tail := e.call("tail_agent_log", map[string]any{"session": handRollout, "limit": 1000})
	var tailTokens, calls int
	for _, en := range list(tail["entries"]) {
		if u, ok := en["usage"].(map[string]any); ok {
			tailTokens += int(intOf(u["total_tokens"]))
		}
		calls += len(list(en["tool_calls"]))
	}
	if tail["agent"] != "codex" || num(tail["total_entries"]) != "22" || tailTokens != 4400 || calls != 5 {
		t.Errorf("tail: agent %v, %v entries, %d tokens, %d calls", tail["agent"], tail["total_entries"], tailTokens, calls)
	}
}

// expectedRollout is one row of codex/testdata/EXPECTED.md.
type expectedRollout struct {
	id, cwd, models                         string
	prompts, responses                      int
	input, cached, output, reasoning, total int64
	calls                                   map[string]map[string]int // tool -> outcome as the tools name it -> count
}

func (s *expectedRollout) add(o expectedRollout) {
	s.input += o.input
	s.cached += o.cached
	s.output += o.output
	s.reasoning += o.reasoning
	s.total += o.total
}

// expectedCorpus reads the figures table of codex/testdata/EXPECTED.md, the
// hand-checked count of every public rollout. Its outcomes "none" (no
// output) and "running" (still running when it returned) are what the tools
// call pending in a session that is not live.
func expectedCorpus(t *testing.T) []expectedRollout {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("codex", "testdata", "EXPECTED.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("^\\| \\d+ \\| `([0-9a-f-]+)` \\|")
	var out []expectedRollout
	for _, line := range strings.Split(string(b), "\n") {
		m := row.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		c := strings.Split(line, " | ")
		if len(c) != 14 {
			t.Fatalf("EXPECTED.md row of %d cells: %s", len(c), line)
		}
		n := func(i int) int64 {
			v, err := strconv.ParseInt(strings.ReplaceAll(c[i], ",", ""), 10, 64)
			if err != nil {
				t.Fatalf("EXPECTED.md cell %q: %v", c[i], err)
			}
			return v
		}
		w := expectedRollout{id: m[1], cwd: strings.Trim(c[3], "`"), models: c[4], prompts: int(n(5)), responses: int(n(6)),
			input: n(7), cached: n(8), output: n(9), reasoning: n(10), total: n(11), calls: map[string]map[string]int{}}
		for _, tool := range strings.Split(strings.TrimSuffix(c[13], " |"), "; ") {
			f := strings.Fields(tool)
			for i := 1; i+1 < len(f); i += 2 {
				k, _ := strconv.Atoi(f[i+1])
				outcome := map[string]string{"none": "pending", "running": "pending"}[f[i]]
				if outcome == "" {
					outcome = f[i]
				}
				if w.calls[f[0]] == nil {
					w.calls[f[0]] = map[string]int{}
				}
				w.calls[f[0]][outcome] += k
			}
		}
		out = append(out, w)
	}
	if len(out) != 15 {
		t.Fatalf("EXPECTED.md: %d rows, want 15", len(out))
	}
	return out
}

// checkUsage compares a usage block with the rollout fields of SPEC §10:
// input_tokens is input less cached input, cache_read_tokens the cached
// input, output_tokens includes reasoning_tokens, nothing is cache creation.
func checkUsage(t *testing.T, what string, u map[string]any, w expectedRollout) {
	t.Helper()
	if u == nil {
		t.Errorf("%s: no usage", what)
		return
	}
	got := [6]string{num(u["input_tokens"]), num(u["cache_read_tokens"]), num(u["output_tokens"]), num(u["reasoning_tokens"]),
		num(u["cache_creation_tokens"]), num(u["total_tokens"])}
	want := [6]string{strconv.FormatInt(w.input-w.cached, 10), strconv.FormatInt(w.cached, 10), strconv.FormatInt(w.output, 10),
		strconv.FormatInt(w.reasoning, 10), "0", strconv.FormatInt(w.total, 10)}
	if w.reasoning == 0 {
		want[3] = "<nil>" // left out when zero
	}
	if got != want {
		t.Errorf("%s: input, cache read, output, reasoning, cache creation, total = %v, want %v", what, got, want)
	}
}

func usageOf(row map[string]any) map[string]any { return row["usage"].(map[string]any) }

func perTool(out map[string]any) map[string]map[string]int {
	got := map[string]map[string]int{}
	for tool, c := range out["per_tool"].(map[string]any) {
		got[tool] = map[string]int{}
		for _, k := range []string{"ok", "error", "rejected", "pending", "in_progress"} {
			if n, _ := strconv.Atoi(num(c.(map[string]any)[k])); n > 0 {
				got[tool][k] = n
			}
		}
	}
	return got
}

func equalCounts(a, b map[string]map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		x, y := a[k], b[k]
		if len(x) != len(y) {
			return false
		}
		for o, n := range x {
			if y[o] != n {
				return false
			}
		}
	}
	return true
}

// redactHome is how answers show a path under a home folder (SPEC §6).
func redactHome(p string) string {
	for _, prefix := range []string{"/Users/", "/home/"} {
		if rest, ok := strings.CutPrefix(p, prefix); ok {
			if i := strings.IndexByte(rest, '/'); i >= 0 {
				return "~" + rest[i:]
			}
		}
	}
	return p
}

// intOf reads a JSON number.
func intOf(v any) int64 {
	n, _ := strconv.ParseInt(num(v), 10, 64)
	return n
}
