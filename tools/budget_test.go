package tools

// The answer budget over a generated history large enough to overflow every
// list (SPEC §7): scripts/gencorpus writes a benchmark-shaped corpus, and
// writeHostileSession adds one session built to be the worst case for size —
// text of characters JSON escapes six-fold, a dozen calls and failed results
// per line, hundreds of distinct models and tools, thousands of failing
// calls and leaked secrets, a cwd of hundreds of characters. For every tool,
// with its defaults and with every bound at its maximum (and detail), the
// answer must be at most 40,000 characters and valid against the tool's
// outputSchema; defaults over the benchmark-shaped sessions at most 12,000.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-activity/agent-activity/logs"
	"github.com/google/jsonschema-go/jsonschema"
)

// generatedNow is gencorpus' default "now".
var generatedNow = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

// generatedSize is the corpus size: above 200 sessions (the largest limit
// of list_recent_sessions) and quick to read under -race.
const generatedSize = "80MB"

const hostileID = "0badc0de-0000-4000-8000-000000000001"

var generated struct {
	once sync.Once
	dir  string // removed by TestMain
	root string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if generated.dir != "" {
		os.RemoveAll(generated.dir)
	}
	os.Exit(code)
}

// generatedRoot writes the corpus once per test binary, for every test that
// reads it.
func generatedRoot(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("the generated history takes a while; skipped with -short")
	}
	generated.once.Do(func() {
		dir, err := os.MkdirTemp("", "agent-activity-budget-")
		if err != nil {
			generated.err = err
			return
		}
		generated.dir = dir
		bin := filepath.Join(dir, "gencorpus")
		build := exec.Command("go", "build", "-o", bin, "./scripts/gencorpus")
		build.Dir = ".."
		if out, err := build.CombinedOutput(); err != nil {
			generated.err = fmt.Errorf("build gencorpus: %v: %s", err, out)
			return
		}
		gen := exec.Command(bin, "-out", filepath.Join(dir, "corpus"), "-size", generatedSize, "-seed", "7", "-q")
		if out, err := gen.CombinedOutput(); err != nil {
			generated.err = fmt.Errorf("gencorpus: %v: %s", err, out)
			return
		}
		generated.root = filepath.Join(dir, "corpus", "projects")
		generated.err = writeHostileSession(generated.root, generatedNow)
	})
	if generated.err != nil {
		t.Fatal(generated.err)
	}
	return generated.root
}

// escapeHeavy is text of n runes that JSON writes six bytes per rune for
// most of it (<, > and & become \u003c...), with spaces so it clips at words.
func escapeHeavy(n int, salt string) string {
	var b strings.Builder
	for b.Len() < n {
		b.WriteString("<&>" + salt + " ")
	}
	return b.String()[:n]
}

// writeHostileSession writes the worst-case session into root.
func writeHostileSession(root string, now time.Time) error {
	cwd := "/home/dev/" + strings.Repeat("very-deep-<folder>/", 20) + "hostile"
	dir := filepath.Join(root, "-home-dev-hostile")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, hostileID+".jsonl"))
	if err != nil {
		return err
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	t0 := now.Add(-20 * time.Hour)
	seq := 0
	line := func(v map[string]any) error {
		seq++
		v["sessionId"], v["cwd"], v["version"], v["gitBranch"] = hostileID, cwd, "2.1.300", "feature/"+escapeHeavy(150, "b")
		v["uuid"] = fmt.Sprintf("0badc0de-%04d-4000-8000-%012d", seq%10000, seq)
		v["timestamp"] = t0.Add(time.Duration(seq) * 2 * time.Second).UTC().Format("2006-01-02T15:04:05.000Z")
		v["isSidechain"], v["userType"] = false, "external"
		return enc.Encode(v)
	}
	if err := line(map[string]any{"type": "custom-title", "customTitle": escapeHeavy(600, "title")}); err != nil {
		return err
	}
	const rounds = 400
	for r := 0; r < rounds; r++ {
		if err := line(map[string]any{"type": "user", "message": map[string]any{"role": "user",
			"content": fmt.Sprintf("round %d: %s", r, escapeHeavy(1200, "prompt"))}}); err != nil {
			return err
		}
		content := []any{map[string]any{"type": "text", "text": escapeHeavy(1500, "reply")}}
		var results []any
		for c := 0; c < 12; c++ {
			id := fmt.Sprintf("toolu_hostile_%04d_%02d", r, c)
			// Two distinct secrets per round (findings), one file per call
			// (files changed), a distinct MCP tool name per round (per_tool).
			input := map[string]any{"command": fmt.Sprintf("deploy --key AKIA%016d --token ghp_%036d %s", r*100+c, r*100+c, escapeHeavy(800, "cmd"))}
			name := "Bash"
			switch c {
			case 1:
				name, input = "Edit", map[string]any{"file_path": fmt.Sprintf("%s/src/file_%04d_%s.ts", cwd, r, escapeHeavy(100, "f")),
					"old_string": "a", "new_string": "b"}
			case 2:
				name = fmt.Sprintf("mcp__server_%03d__%s", r, strings.Repeat("long_tool_name_", 12))
			}
			content = append(content, map[string]any{"type": "tool_use", "id": id, "name": name, "input": input})
			results = append(results, map[string]any{"type": "tool_result", "tool_use_id": id, "is_error": true,
				"content": "Exit code 1\n" + escapeHeavy(1200, "err")})
		}
		model := fmt.Sprintf("claude-hostile-%03d-%s", r%250, strings.Repeat("x", 40))
		if err := line(map[string]any{"type": "assistant", "requestId": fmt.Sprintf("req_hostile_%04d", r),
			"message": map[string]any{"id": fmt.Sprintf("msg_hostile_%04d", r), "type": "message", "role": "assistant", "model": model,
				"content": content, "usage": map[string]any{"input_tokens": 10 + r, "output_tokens": 100, "cache_read_input_tokens": 1000}}}); err != nil {
			return err
		}
		if err := line(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": results}}); err != nil {
			return err
		}
	}
	var todos []any
	for i := 0; i < 300; i++ {
		todos = append(todos, map[string]any{"content": escapeHeavy(400, "todo"), "status": "pending", "activeForm": "x"})
	}
	if err := line(map[string]any{"type": "assistant", "message": map[string]any{"id": "msg_hostile_todos", "role": "assistant", "model": "claude-opus-4-5",
		"content": []any{map[string]any{"type": "tool_use", "id": "toolu_hostile_todos", "name": "TodoWrite", "input": map[string]any{"todos": todos}}},
		"usage":   map[string]any{"input_tokens": 1, "output_tokens": 1}}}); err != nil {
		return err
	}
	for i := 0; i < 300; i++ {
		if err := line(map[string]any{"type": "pr-link", "prUrl": fmt.Sprintf("https://github.com/dev/hostile/pull/%d?%s", i, escapeHeavy(250, "pr"))}); err != nil {
			return err
		}
	}
	return f.Close()
}

// outputSchemas resolves every tool's outputSchema.
func outputSchemas(t *testing.T, specs []Spec) map[string]*jsonschema.Resolved {
	t.Helper()
	out := map[string]*jsonschema.Resolved{}
	for _, s := range specs {
		raw := []byte(s.Tool.RawOutputSchema)
		if len(raw) == 0 {
			var err error
			if raw, err = json.Marshal(s.Tool.OutputSchema); err != nil {
				t.Fatal(err)
			}
		}
		var sc jsonschema.Schema
		if err := json.Unmarshal(raw, &sc); err != nil {
			t.Fatalf("%s: %v", s.Tool.Name, err)
		}
		r, err := sc.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: %v", s.Tool.Name, err)
		}
		out[s.Tool.Name] = r
	}
	return out
}

// budgetCall is one call of the budget test.
type budgetCall struct {
	tool, args string
	defaults   bool   // no bound and no detail: held to 12,000 characters
	cuts       string // a list the history overflows, so the answer must say truncated
}

// answerOf calls a tool and returns the JSON text a client receives.
func answerOf(t *testing.T, specs map[string]Spec, tool, args string) []byte {
	t.Helper()
	out, err := specs[tool].Call(context.Background(), []byte(args))
	if err != nil {
		t.Fatalf("%s %s: %v", tool, args, err)
	}
	b, err := json.Marshal(out) // what mcp-go puts in the text content
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestAnswerBudget(t *testing.T) {
	root := generatedRoot(t)
	st := rootsStore(t, []string{root}, generatedNow, time.UTC)
	all := All(Deps{Store: st})
	schemas := outputSchemas(t, all)
	specs := map[string]Spec{}
	for _, s := range all {
		specs[s.Tool.Name] = s
	}
	snap, err := st.Snapshot(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// The benchmark-shaped session with the most entries, and the one with
	// the most failing calls.
	var big, failing *logs.Session
	mostFailing := -1
	for _, s := range snap.Sessions {
		if s.ID == hostileID || s.Main == nil {
			continue
		}
		if big == nil || s.Main.Entries > big.Main.Entries {
			big = s
		}
		if _, n := logs.FailingCalls(s, false, 0); n > mostFailing {
			failing, mostFailing = s, n
		}
	}
	mid := fmt.Sprintf("0badc0de-%04d-4000-8000-%012d", 600, 600)
	calls := []budgetCall{
		{tool: "list_recent_sessions", args: `{}`, defaults: true, cuts: "sessions"},
		{tool: "list_recent_sessions", args: `{"limit":200}`, cuts: "sessions"},
		{tool: "list_recent_sessions", args: `{"limit":200,"detail":true}`, cuts: "sessions"},
		{tool: "list_recent_sessions", args: `{"limit":200,"repo":"hostile"}`},
		{tool: "tail_agent_log", args: `{"session":"` + big.ID + `"}`, defaults: true},
		{tool: "tail_agent_log", args: `{"session":"` + big.ID + `","limit":1000,"detail":true}`},
		{tool: "tail_agent_log", args: `{"session":"` + hostileID + `"}`, cuts: "entries"},
		{tool: "tail_agent_log", args: `{"session":"` + hostileID + `","limit":1000,"detail":true}`, cuts: "entries"},
		{tool: "tail_agent_log", args: `{"session":"` + hostileID + `","limit":1000,"offset":0}`, cuts: "entries"},
		{tool: "tail_agent_log", args: `{"session":"` + hostileID + `","limit":1000,"around":"` + mid + `"}`, cuts: "entries"},
		{tool: "summarize_tool_calls", args: `{"session":"` + failing.ID + `"}`, defaults: true},
		{tool: "summarize_tool_calls", args: `{"session":"` + hostileID + `"}`, cuts: "failing_calls"},
		{tool: "summarize_tool_calls", args: `{"session":"` + hostileID + `","limit":200,"detail":true}`, cuts: "failing_calls"},
		{tool: "session_recap", args: `{"session":"` + big.ID + `"}`, defaults: true},
		{tool: "session_recap", args: `{"session":"` + hostileID + `"}`},
		{tool: "session_recap", args: `{"session":"` + hostileID + `","detail":true}`},
		{tool: "search_transcripts", args: `{"query":"the"}`, defaults: true, cuts: "matches"},
		{tool: "search_transcripts", args: `{"query":"the","limit":200}`, cuts: "matches"},
		{tool: "search_transcripts", args: `{"query":"err","limit":200,"session":"` + hostileID + `"}`, cuts: "matches"},
		{tool: "file_activity", args: `{"path":"**/*"}`, defaults: true, cuts: "touches"},
		{tool: "file_activity", args: `{"path":"**/*","limit":500}`, cuts: "touches"},
		{tool: "file_activity", args: `{"path":"**/*.ts","limit":500,"repo":"hostile"}`, cuts: "touches"},
		{tool: "usage_report", args: `{}`, defaults: true},
		{tool: "usage_report", args: `{"group_by":"session,model","limit":1000}`, cuts: "rows"},
		{tool: "usage_report", args: `{"group_by":"day,model","limit":1000}`, cuts: "rows"},
		{tool: "pacing_window", args: `{}`},
		{tool: "pacing_window", args: `{"hours":168}`},
		{tool: "coverage_stats", args: `{}`},
		{tool: "summarize_work", args: `{}`, defaults: true},
		{tool: "summarize_work", args: `{"since":"30d","limit":50}`},
		{tool: "summarize_work", args: `{"since":"30d","limit":50,"repo":"hostile"}`},
		{tool: "scan_secrets", args: `{}`, cuts: "findings"},
		{tool: "scan_secrets", args: `{"max_findings":1000}`, cuts: "findings"},
	}
	covered := map[string]bool{}
	for _, c := range calls {
		covered[c.tool] = true
		start := time.Now()
		b := answerOf(t, specs, c.tool, c.args)
		limit := maxAnswer
		if c.defaults {
			limit = defaultAnswer
		}
		t.Logf("%-22s %-70.70s %6d characters %s", c.tool, c.args, len(b), time.Since(start).Round(time.Millisecond))
		if len(b) > limit {
			t.Errorf("%s %s: %d characters, over %d", c.tool, c.args, len(b), limit)
		}
		var v map[string]any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s %s: not JSON: %v", c.tool, c.args, err)
		}
		if err := schemas[c.tool].Validate(v); err != nil {
			t.Errorf("%s %s: does not validate against its outputSchema: %v", c.tool, c.args, err)
		}
		if c.cuts != "" {
			summary, _ := v["summary"].(map[string]any)
			if v["truncated"] != true && v["failing_truncated"] != true && summary["truncated"] != true {
				t.Errorf("%s %s: the history overflows %s, but the answer does not say truncated", c.tool, c.args, c.cuts)
			}
		}
	}
	for name := range specs {
		if !covered[name] {
			t.Errorf("tool %s has no call in the budget test", name)
		}
	}
}
