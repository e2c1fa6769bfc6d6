package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestE2EToolsList(t *testing.T) {
	e := startE2E(t, fixtureRoot(t))
	list, err := e.srv.Client.ListTools(e.ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"list_recent_sessions", "summarize_work", "tail_agent_log", "summarize_tool_calls", "session_recap", "search_transcripts",
		"file_activity", "usage_report", "pacing_window", "coverage_stats", "scan_secrets"}
	got := map[string]mcp.Tool{}
	for _, tool := range list.Tools {
		got[tool.Name] = tool
	}
	for _, name := range want {
		tool, ok := got[name]
		if !ok {
			t.Errorf("tool %s missing", name)
			continue
		}
		a := tool.Annotations
		if a.ReadOnlyHint == nil || !*a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint ||
			a.IdempotentHint == nil || !*a.IdempotentHint || a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: annotations are not read-only/non-destructive/idempotent/closed-world: %+v", name, a)
		}
		if tool.OutputSchema.Type != "object" && len(tool.RawOutputSchema) == 0 {
			t.Errorf("%s: no outputSchema", name)
		}
		// Claude Code's hints arrive in _meta over the wire.
		var hint any
		var load bool
		if tool.Meta != nil {
			hint = tool.Meta.AdditionalFields["anthropic/searchHint"]
			load, _ = tool.Meta.AdditionalFields["anthropic/alwaysLoad"].(bool)
		}
		if h, _ := hint.(string); h == "" || load != (name == "list_recent_sessions" || name == "summarize_work") {
			t.Errorf("%s: _meta searchHint %v, alwaysLoad %v", name, hint, load)
		}
	}
	// The validator must be able to fail, or the schema checks above prove nothing.
	if err := e.schemas["list_recent_sessions"].Validate(map[string]any{"sessions": 5.0}); err == nil {
		t.Error("a list_recent_sessions answer with sessions=5 validated")
	}
	if len(list.Tools) != len(want) {
		t.Errorf("got %d tools, want %d", len(list.Tools), len(want))
	}
}

func TestE2EEveryTool(t *testing.T) {
	e := startE2E(t, fixtureRoot(t))

	ls := e.call("list_recent_sessions", map[string]any{"limit": 200})
	if num(ls["total_matched"]) != "27" || ls["truncated"] != false {
		t.Errorf("list: total_matched %v truncated %v, want 27 false", ls["total_matched"], ls["truncated"])
	}
	ls = e.call("list_recent_sessions", map[string]any{"limit": 2, "repo": "TITLES"})
	if num(ls["total_matched"]) != "2" {
		t.Errorf("list repo=TITLES: %v, want 2", ls["total_matched"])
	}

	tail := e.call("tail_agent_log", map[string]any{"session": "dae68d1d", "limit": 3})
	if tail["session_id"] != "dae68d1d-9462-4262-8e64-9f368a38164f" || len(tail["entries"].([]any)) != 3 || tail["truncated"] != true {
		t.Errorf("tail: %v", tail)
	}
	// Pages over stdio, each valid against the outputSchema.
	first := e.call("list_recent_sessions", map[string]any{"limit": 2})
	second := e.call("list_recent_sessions", map[string]any{"limit": 2, "cursor": first["next_cursor"]})
	if s1, s2 := first["sessions"].([]any), second["sessions"].([]any); len(s2) != 2 || s1[1].(map[string]any)["session_id"] == s2[0].(map[string]any)["session_id"] {
		t.Errorf("list_recent_sessions page 2: %v", second["sessions"])
	}
	around := tail["entries"].([]any)[1].(map[string]any)["uuid"]
	centred := e.call("tail_agent_log", map[string]any{"session": "dae68d1d", "around": around, "limit": 3})
	if num(centred["offset"]) != "3" || centred["entries"].([]any)[1].(map[string]any)["uuid"] != around {
		t.Errorf("tail around %v: %v", around, centred)
	}
	if body := e.callErr("list_recent_sessions", map[string]any{"limit": 2, "repo": "x", "cursor": first["next_cursor"]}); body["argument"] != "cursor" {
		t.Errorf("a cursor with other filters: %v", body)
	}

	sum := e.call("summarize_tool_calls", map[string]any{"session": "b86f27bf"})
	if tot := sum["totals"].(map[string]any); num(tot["total"]) != num(sumOutcomes(tot)) {
		t.Errorf("summarize: outcomes do not sum: %v", tot)
	}

	recap := e.call("session_recap", map[string]any{"session": "45aa96c3"})
	if recap["session_id"] != "45aa96c3-96eb-495c-b706-e5c9a352a604" {
		t.Errorf("recap: %v", recap["session_id"])
	}

	search := e.call("search_transcripts", map[string]any{"query": "ZANZIBAR-marker"})
	if num(search["total_matches"]) == "0" {
		t.Errorf("search: the spilled tool result was not searched: %v", search)
	}

	fa := e.call("file_activity", map[string]any{"path": "api.ts"})
	if num(fa["total_touches"]) == "0" {
		t.Errorf("file_activity: no touches of api.ts")
	}

	ur := e.call("usage_report", map[string]any{"group_by": "day,model"})
	usage := ur["totals"].(map[string]any)["usage"].(map[string]any)
	if num(usage["input_tokens"]) != "6137" || num(usage["output_tokens"]) != "12549" ||
		num(usage["cache_creation_tokens"]) != "98668" || num(usage["cache_read_tokens"]) != "1079400" {
		t.Errorf("usage_report totals: %v", usage)
	}

	e.call("pacing_window", map[string]any{"hours": 168})
	cov := e.call("coverage_stats", map[string]any{})
	if num(cov["sessions"]) != "27" {
		t.Errorf("coverage sessions: %v", cov["sessions"])
	}
}

func sumOutcomes(m map[string]any) int {
	n := 0
	for _, k := range []string{"ok", "error", "rejected", "pending", "in_progress"} {
		var v int
		fmt.Sscan(num(m[k]), &v)
		n += v
	}
	return n
}

func TestE2EErrors(t *testing.T) {
	e := startE2E(t, fixtureRoot(t))
	cases := []struct {
		tool string
		args map[string]any
		code string
		arg  string
	}{
		{"tail_agent_log", map[string]any{"session": "../../etc/passwd"}, "invalid_argument", "session"},
		{"tail_agent_log", map[string]any{"session": "abc"}, "invalid_argument", "session"},
		{"tail_agent_log", map[string]any{"session": strings.Repeat("a", 10000)}, "invalid_argument", "session"},
		{"tail_agent_log", map[string]any{"session": "latest", "limit": 0}, "invalid_argument", "limit"},
		{"tail_agent_log", map[string]any{"session": "latest", "limit": 1001}, "invalid_argument", "limit"},
		{"list_recent_sessions", map[string]any{"limit": 201}, "invalid_argument", "limit"},
		{"list_recent_sessions", map[string]any{"bogus": 1}, "invalid_argument", "bogus"},
		{"list_recent_sessions", map[string]any{"limit": "ten"}, "invalid_argument", "limit"},
		{"list_recent_sessions", map[string]any{"since": "last week"}, "invalid_argument", "since"},
		{"search_transcripts", map[string]any{"query": "a(b", "regex": true}, "invalid_argument", "query"},
		{"search_transcripts", map[string]any{"query": "x", "roles": []string{"system"}}, "invalid_argument", "roles"},
		{"usage_report", map[string]any{"group_by": "day,model,repo"}, "invalid_argument", "group_by"},
		{"usage_report", map[string]any{"group_by": "hour"}, "invalid_argument", "group_by"},
		{"pacing_window", map[string]any{"hours": 169}, "invalid_argument", "hours"},
		{"file_activity", map[string]any{"path": ""}, "invalid_argument", "path"},
		{"file_activity", map[string]any{"path": "x", "limit": 501}, "invalid_argument", "limit"},
		{"summarize_tool_calls", map[string]any{"session": "ffffffff"}, "session_not_found", ""},
		{"session_recap", map[string]any{"session": "a7c31e58"}, "ambiguous_session", ""},
		{"tail_agent_log", map[string]any{"session": "4510a0cc-6b1c-4fce-81ca-00bf87e0f3cb"}, "ambiguous_session", ""},
	}
	for _, c := range cases {
		body := e.callErr(c.tool, c.args)
		if body["error"] != c.code {
			t.Errorf("%s %v: error %v, want %s (%v)", c.tool, c.args, body["error"], c.code, body["message"])
		}
		if c.arg != "" && body["argument"] != c.arg {
			t.Errorf("%s %v: argument %v, want %s", c.tool, c.args, body["argument"], c.arg)
		}
		if msg, _ := body["message"].(string); msg == "" || len(msg) > 400 {
			t.Errorf("%s: message %q should be one readable sentence", c.tool, msg)
		}
		if c.code == "ambiguous_session" {
			if cands, _ := body["candidates"].([]any); len(cands) != 2 {
				t.Errorf("%s: candidates %v, want 2", c.tool, body["candidates"])
			}
		}
	}
}

func TestE2EMissingRoot(t *testing.T) {
	e := startE2E(t, filepath.Join(t.TempDir(), "nope"))
	ls := e.call("list_recent_sessions", map[string]any{})
	if num(ls["total_matched"]) != "0" || !strings.Contains(fmt.Sprint(ls["log_root_note"]), "does not exist") {
		t.Errorf("list on a missing root: %v", ls)
	}
	body := e.callErr("tail_agent_log", map[string]any{"session": "latest"})
	if body["error"] != "log_root_missing" {
		t.Errorf("tail on a missing root: %v", body)
	}
}

func TestBadConfigExits2(t *testing.T) {
	for _, env := range [][]string{
		{"AGENT_ACTIVITY_TIMEZONE=Mars/Olympus"},
		{"AGENT_ACTIVITY_PRICING_FILE=/nonexistent/pricing.json"},
		{"AGENT_ACTIVITY_LIVE_WINDOW=soon"},
	} {
		for _, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			t.Setenv(k, v)
		}
		var stdout, stderr strings.Builder
		code := run(context.Background(), nil, strings.NewReader(""), &stdout, &stderr, time.Now)
		if code != 2 || stdout.Len() != 0 || strings.Count(strings.TrimSpace(stderr.String()), "\n") != 0 || stderr.Len() == 0 {
			t.Errorf("%v: code %d, stdout %q, stderr %q; want 2, nothing, one line", env, code, stdout.String(), stderr.String())
		}
		for _, kv := range env {
			k, _, _ := strings.Cut(kv, "=")
			os.Unsetenv(k)
		}
	}
	bad := filepath.Join(t.TempDir(), "p.json")
	os.WriteFile(bad, []byte(`{"claude-x": {"input": "cheap"}}`), 0o644)
	t.Setenv("AGENT_ACTIVITY_PRICING_FILE", bad)
	var stdout, stderr strings.Builder
	if code := run(context.Background(), nil, strings.NewReader(""), &stdout, &stderr, time.Now); code != 2 {
		t.Errorf("malformed pricing file: code %d, stderr %q", code, stderr.String())
	}
}

// TestE2EAnswers asserts exact answers on the fixture tree (testdata/EXPECTED.md).
func TestE2EAnswers(t *testing.T) {
	e := startE2E(t, fixtureRoot(t))

	for path, want := range map[string]string{"api.ts": "3", "src/api.ts": "1", "lib/api.ts": "2", "i.ts": "0", "**/*.ts": "5", "config.go": "3"} {
		fa := e.call("file_activity", map[string]any{"path": path})
		if num(fa["total_touches"]) != want {
			t.Errorf("file_activity %q: %v touches, want %s", path, fa["total_touches"], want)
		}
	}
	fa := e.call("file_activity", map[string]any{"path": "api.ts"})
	touches := fa["touches"].([]any)
	first := touches[0].(map[string]any)
	if first["session_id"] != "d90d2c62-389b-4b90-97fa-36c0ca75219f" || first["action"] != "edit" || first["outcome"] != "ok" ||
		num(fa["sessions_total"]) != "2" {
		t.Errorf("file_activity api.ts newest touch %v, sessions %v", first, fa["sessions_total"])
	}

	s := e.call("search_transcripts", map[string]any{"query": "zanzibar-marker"})
	m := s["matches"].([]any)
	if num(s["total_matches"]) != "1" || len(m) != 1 || m[0].(map[string]any)["role"] != "tool_result" ||
		m[0].(map[string]any)["session_id"] != "2d5fd24a-6e26-4039-80e5-cfac5f4e2d2d" {
		t.Errorf("search zanzibar-marker: %v", s)
	}
	s = e.call("search_transcripts", map[string]any{"query": "zanzibar-marker", "roles": []string{"user", "assistant"}})
	if num(s["total_matches"]) != "0" {
		t.Errorf("search with roles user,assistant found a tool result: %v", s)
	}

	r := e.call("session_recap", map[string]any{"session": "45aa96c3"})
	if r["title"] != "Move API client into src/lib" || len(r["open_todos"].([]any)) != 2 || len(r["pr_links"].([]any)) != 1 ||
		len(r["files_changed"].([]any)) != 2 {
		t.Errorf("recap T1: title %v todos %v prs %v files %v", r["title"], r["open_todos"], r["pr_links"], r["files_changed"])
	}
	if u := r["usage"].(map[string]any); num(u["total_tokens"]) != "54448" || num(u["cost"]) != "0.07344" {
		t.Errorf("recap T1 usage: %v", u)
	}

	sum := e.call("summarize_tool_calls", map[string]any{"session": "b86f27bf"})
	tot := sum["totals"].(map[string]any)
	if num(tot["ok"]) != "2" || num(tot["error"]) != "1" || num(tot["rejected"]) != "3" || num(tot["pending"]) != "1" ||
		num(tot["in_progress"]) != "0" || num(tot["total"]) != "7" || len(sum["failing_calls"].([]any)) != 4 {
		t.Errorf("summarize outcomes: %v, failing %d", tot, len(sum["failing_calls"].([]any)))
	}
	raw, _ := json.Marshal(sum)
	for _, secret := range []string{"S3cr3tFakePassw0rd", "AKIAFAKEFAKEFAKE1234"} {
		if strings.Contains(string(raw), secret) {
			t.Errorf("summarize_tool_calls leaked %s", secret)
		}
	}

	ur := e.call("usage_report", map[string]any{"group_by": "day", "since": "2026-11-25", "until": "2026-11-26"})
	rows := ur["rows"].([]any)
	if len(rows) != 2 || num(rows[0].(map[string]any)["usage"].(map[string]any)["total_tokens"]) != "4330" ||
		num(rows[1].(map[string]any)["usage"].(map[string]any)["total_tokens"]) != "8370" {
		t.Errorf("usage_report UTC days: %v", rows)
	}
}

func TestE2EMidnightInLosAngeles(t *testing.T) {
	e := startE2E(t, fixtureRoot(t), "AGENT_ACTIVITY_TIMEZONE=America/Los_Angeles")
	ur := e.call("usage_report", map[string]any{"group_by": "day", "since": "2026-11-25", "until": "2026-11-26", "repo": "midnight"})
	rows := ur["rows"].([]any)
	if ur["timezone"] != "America/Los_Angeles" || len(rows) != 1 || rows[0].(map[string]any)["day"] != "2026-11-25" ||
		num(rows[0].(map[string]any)["usage"].(map[string]any)["cost"]) != "0.03327" {
		t.Errorf("usage_report LA days: %v", ur)
	}
}

// TestE2EProgress: a client that asks for progress gets notifications for a
// scan, before the result.
func TestE2EProgress(t *testing.T) {
	e := startE2E(t, fixtureRoot(t))
	var mu sync.Mutex
	got := 0
	e.srv.Client.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			mu.Lock()
			got++
			mu.Unlock()
		}
	})
	req := mcp.CallToolRequest{}
	req.Params.Name = "coverage_stats"
	req.Params.Arguments = map[string]any{}
	req.Params.Meta = &mcp.Meta{ProgressToken: "p1"}
	res, err := e.srv.Client.CallTool(e.ctx, req)
	if err != nil || res.IsError {
		t.Fatalf("coverage_stats: %v %v", err, res)
	}
	mu.Lock()
	defer mu.Unlock()
	if got == 0 {
		t.Fatal("no progress notification arrived before the result")
	}
}
