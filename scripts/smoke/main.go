// Command smoke is the end-to-end check: it builds agent-activity, starts it as
// a subprocess over stdio with mcp-go's client (protocol 2025-11-25), lists the
// tools, calls every tool against a log root, checks that every stdout line is
// JSON-RPC, and prints a short digest of each answer. It exits non-zero on any
// failure.
//
// By default it reads a copy of testdata/projects (Claude Code) and, as the
// Codex root, a copy of testdata/codex merged with the public Codex corpus
// (../shared/corpus/public-codex, when present).
//
//	go run ./scripts/smoke                 # against the fixtures
//	go run ./scripts/smoke --root ~/.claude/projects --codex-root ~/.codex
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/agent-activity/agent-activity/internal/fixture"
	"github.com/agent-activity/agent-activity/internal/stdiotest"
	"github.com/mark3labs/mcp-go/mcp"
)

func main() {
	root := flag.String("root", "", "log root to read (default: a copy of testdata/projects with mtimes set from the transcripts)")
	codexRoot := flag.String("codex-root", "", "Codex root to read (default: with --root, the server's default ~/.codex; without it, a copy of testdata/codex and the public Codex corpus)")
	flag.Parse()
	if err := run(*root, *codexRoot); err != nil {
		fmt.Fprintln(os.Stderr, "smoke: FAIL:", err)
		os.Exit(1)
	}
	fmt.Println("smoke: PASS")
}

func run(root, codexRoot string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	tmp, err := os.MkdirTemp("", "agent-activity-smoke-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	env := []string{"AGENT_ACTIVITY_TIMEZONE=UTC"}
	if root == "" {
		root = filepath.Join(tmp, "projects")
		if err := fixture.CopyTree(filepath.Join("testdata", "projects"), root); err != nil {
			return fmt.Errorf("copy testdata (run from the repository root): %w", err)
		}
		if codexRoot == "" {
			codexRoot = filepath.Join(tmp, "codex")
			homes, _ := filepath.Glob(filepath.Join("..", "shared", "corpus", "public-codex", "*", "sessions"))
			for _, h := range append(homes, filepath.Join("testdata", "codex", "sessions")) {
				if err := fixture.CopyTree(h, filepath.Join(codexRoot, "sessions")); err != nil {
					return fmt.Errorf("copy the Codex fixtures: %w", err)
				}
			}
		}
	} else {
		// The digest should reflect the real clock on a real root.
		env = env[:0]
	}
	fmt.Println("smoke: building agent-activity")
	bin, err := stdiotest.Build(".", tmp)
	if err != nil {
		return err
	}
	env = append(env, "AGENT_ACTIVITY_LOG_ROOT="+root)
	if codexRoot != "" {
		env = append(env, "AGENT_ACTIVITY_CODEX_ROOT="+codexRoot)
	}
	srv, init, err := stdiotest.Start(ctx, bin, env)
	if err != nil {
		return err
	}
	fmt.Printf("smoke: connected to %s %s, protocol %s, root %s, codex root %s\n", init.ServerInfo.Name, init.ServerInfo.Version, init.ProtocolVersion, root, orDefault(codexRoot))
	if init.ProtocolVersion != stdiotest.ProtocolVersion {
		return fmt.Errorf("negotiated protocol %s, want %s", init.ProtocolVersion, stdiotest.ProtocolVersion)
	}
	list, err := srv.Client.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		return err
	}
	var names []string
	for _, t := range list.Tools {
		names = append(names, t.Name)
		a := t.Annotations
		if a.ReadOnlyHint == nil || !*a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint {
			return fmt.Errorf("tool %s is not annotated read-only", t.Name)
		}
	}
	fmt.Printf("smoke: %d tools: %s\n", len(names), strings.Join(names, ", "))

	calls := []struct {
		tool string
		args map[string]any
	}{
		{"list_recent_sessions", map[string]any{"limit": 5}},
		{"summarize_work", map[string]any{"since": "30d"}},
		{"tail_agent_log", map[string]any{"session": "latest", "limit": 5}},
		{"tail_agent_log", map[string]any{"session": "latest", "offset": 0, "limit": 2}},
		{"summarize_tool_calls", map[string]any{"session": "latest"}},
		{"session_recap", map[string]any{"session": "latest"}},
		{"search_transcripts", map[string]any{"query": "error", "limit": 3}},
		{"file_activity", map[string]any{"path": "**/*", "limit": 5}},
		{"usage_report", map[string]any{"group_by": "model"}},
		{"usage_report", map[string]any{"group_by": "agent"}},
		{"list_recent_sessions", map[string]any{"limit": 3, "agent": "codex"}},
		{"summarize_tool_calls", map[string]any{"session": "019ab000"}},
		{"file_activity", map[string]any{"path": "**/*.go", "agent": "codex", "limit": 5}},
		{"pacing_window", map[string]any{"hours": 168}},
		{"coverage_stats", map[string]any{}},
		{"scan_secrets", map[string]any{"max_findings": 10}},
		{"tail_agent_log", map[string]any{"session": "../etc/passwd"}},
	}
	for _, c := range calls {
		out, isErr, err := srv.Call(ctx, c.tool, c.args)
		if err != nil {
			return fmt.Errorf("%s: %w", c.tool, err)
		}
		wantErr := c.tool == "tail_agent_log" && c.args["session"] == "../etc/passwd"
		if c.args["session"] == "019ab000" && !strings.HasPrefix(codexRoot, tmp) {
			continue // the fixture's Codex session, not on a real root
		}
		if isErr != wantErr {
			return fmt.Errorf("%s %v: isError=%v: %v", c.tool, c.args, isErr, out)
		}
		size := len(compact(out)) // the text content is the same JSON
		if size > maxAnswer {
			return fmt.Errorf("%s %v: %d characters, over the %d-character answer budget", c.tool, c.args, size, maxAnswer)
		}
		fmt.Printf("\n== %s %s — %d characters\n%s", c.tool, compact(c.args), size, digest(c.tool, out))
	}
	if err := resources(ctx, srv); err != nil {
		return err
	}
	if err := srv.Close(); err != nil {
		return fmt.Errorf("server exit: %w (stderr: %s)", err, srv.Stderr())
	}
	bad, lines := srv.BadLines()
	if len(bad) > 0 {
		return fmt.Errorf("%d of %d stdout lines are not JSON-RPC, first: %.200s", len(bad), lines, bad[0])
	}
	fmt.Printf("\nsmoke: all %d stdout lines were JSON-RPC 2.0\n", lines)
	return nil
}

// maxAnswer is the answer budget of SPEC §7.
const maxAnswer = 40000

// resources lists the recap resources and reads the first.
func resources(ctx context.Context, srv *stdiotest.Server) error {
	list, err := srv.Client.ListResources(ctx, mcp.ListResourcesRequest{})
	if err != nil {
		return fmt.Errorf("resources/list: %w", err)
	}
	fmt.Printf("\n== resources/list — %d recaps\n", len(list.Resources))
	for i, r := range list.Resources {
		if i == 3 {
			fmt.Printf("  …\n")
			break
		}
		fmt.Printf("  %s  %s\n", r.URI, r.Name)
	}
	if len(list.Resources) == 0 {
		return nil
	}
	res, err := srv.Client.ReadResource(ctx, mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: list.Resources[0].URI}})
	if err != nil {
		return fmt.Errorf("resources/read: %w", err)
	}
	tc, ok := res.Contents[0].(mcp.TextResourceContents)
	if !ok || !strings.HasPrefix(tc.Text, "# Session recap") || len(tc.Text) > maxAnswer {
		return fmt.Errorf("resources/read %s: not a recap within the budget", list.Resources[0].URI)
	}
	first, _, _ := strings.Cut(tc.Text, "\n")
	fmt.Printf("\n== resources/read %s — %d characters\n  %s\n", list.Resources[0].URI, len(tc.Text), first)
	return nil
}

func compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// digest prints the few fields a human checks first.
func digest(tool string, out map[string]any) string {
	var b strings.Builder
	get := func(m map[string]any, k string) any { return m[k] }
	usage := func(u any) string {
		m, _ := u.(map[string]any)
		return fmt.Sprintf("tokens=%v cost=$%v (%v)", m["total_tokens"], m["cost"], m["cost_status"])
	}
	switch tool {
	case "list_recent_sessions":
		fmt.Fprintf(&b, "  %v sessions matched (truncated=%v)\n", out["total_matched"], out["truncated"])
		for _, s := range list(out["sessions"]) {
			fmt.Fprintf(&b, "  %.8s %-11v %-16v end=%v msgs=%v %s live=%v %v\n", s["session_id"], s["agent"], s["repo"], s["end"], s["message_count"], usage(s["usage"]), s["is_live"], s["schema_status"])
		}
	case "summarize_work":
		raw, _ := json.Marshal(out)
		until := out["until"]
		if until == nil {
			until = "now"
		}
		fmt.Fprintf(&b, "  %v → %v: %d of %v sessions, %v files changed, %v commits, %v PRs, %v tests/builds, %v open todos, %v unresolved failures, %s (%d chars)\n",
			out["since"], until, len(list(out["sessions"])), out["sessions_total"], out["files_changed_total"], out["commits_total"],
			out["prs_total"], out["tests_and_builds_total"], out["open_todos_total"], out["unresolved_failures_total"], usage(out["usage"]), len(raw))
		for _, s := range list(out["sessions"]) {
			fmt.Fprintf(&b, "  %.8s %-16v end=%v outcomes=%v\n", s["session_id"], s["repo"], s["end"], s["outcomes"])
		}
	case "tail_agent_log":
		if out["error"] != nil {
			fmt.Fprintf(&b, "  error %v: %v\n", out["error"], out["message"])
			break
		}
		fmt.Fprintf(&b, "  session %v (%v): %v entries, showing %d from offset %v\n", out["session_id"], out["repo"], out["total_entries"],
			len(list(out["entries"])), out["offset"])
		for _, e := range list(out["entries"]) {
			fmt.Fprintf(&b, "  %v %-10v %.80v\n", e["timestamp"], e["type"], e["text"])
		}
	case "summarize_tool_calls":
		fmt.Fprintf(&b, "  session %v: totals %v\n  failing: %d\n", out["session_id"], compact(out["totals"]), len(list(out["failing_calls"])))
	case "session_recap":
		fmt.Fprintf(&b, "  session %v (%v) %v → %v\n  first prompt: %.100v\n  final text: %.100v\n  files changed: %d, commands: %v\n  gaps: %v\n",
			out["session_id"], out["repo"], out["start"], out["end"], out["first_prompt"], out["final_assistant_text"],
			len(list(out["files_changed"])), out["command_total"], out["gaps"])
	case "search_transcripts":
		fmt.Fprintf(&b, "  %v matches, %v bytes scanned\n", out["total_matches"], out["scanned_bytes"])
		for _, m := range list(out["matches"]) {
			fmt.Fprintf(&b, "  %.8s %-11v %.100v\n", m["session_id"], m["role"], m["snippet"])
		}
	case "file_activity":
		fmt.Fprintf(&b, "  %v touches in %v sessions\n", out["total_touches"], out["sessions_total"])
		for _, t := range list(out["touches"]) {
			fmt.Fprintf(&b, "  %.8s %-6v %-8v %v\n", t["session_id"], t["action"], t["outcome"], t["file_path"])
		}
	case "usage_report":
		for _, r := range list(out["rows"]) {
			key := r["model"]
			if key == nil {
				key = r["agent"]
			}
			fmt.Fprintf(&b, "  %-32v sessions=%v %s\n", key, r["sessions"], usage(r["usage"]))
		}
		tot, _ := out["totals"].(map[string]any)
		fmt.Fprintf(&b, "  TOTAL sessions=%v %s\n", get(tot, "sessions"), usage(get(tot, "usage")))
	case "pacing_window":
		fmt.Fprintf(&b, "  %v h: %v tokens/h, $%v/h, %v sessions\n", out["hours"], out["tokens_per_hour"], out["cost_per_hour"], out["sessions_total"])
	case "scan_secrets":
		sum, _ := out["summary"].(map[string]any)
		fmt.Fprintf(&b, "  %v findings in %v files (%v bytes): %v\n", sum["findings"], sum["files_scanned"], sum["bytes_scanned"], compact(sum["by_rule"]))
		for _, f := range list(out["findings"]) {
			masked, _ := f["masked"].(string) // absent for short secrets
			fmt.Fprintf(&b, "  %-18v %-22v %v:%v\n", f["rule"], masked, f["file"], f["line"])
		}
	case "coverage_stats":
		fmt.Fprintf(&b, "  %v sessions, %v subagent files, %v bytes, %v skipped lines, %v unverified, %v → %v\n",
			out["sessions"], out["subagent_files"], out["bytes"], out["skipped_lines"], out["unverified_sessions"], out["first_activity"], out["last_activity"])
		models, _ := out["models"].(map[string]any)
		keys := make([]string, 0, len(models))
		for k := range models {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "  %-32s %s\n", k, usage(models[k]))
		}
		fmt.Fprintf(&b, "  accounting check: %v\n", compact(out["accounting_check"]))
	}
	return b.String()
}

func orDefault(s string) string {
	if s == "" {
		return "(the server's default)"
	}
	return s
}

func list(v any) []map[string]any { return stdiotest.Objects(v) }
