package tools

// Golden answers of every tool over the fixture tree: each case calls a tool
// through its Spec's Call, as the MCP handler does, and compares the JSON of
// the answer (or of the error body a client would see) with
// testdata/golden/<tool>__<case>.json. Rewrite with
// `go test ./tools -run Golden -update` and read the diff before committing.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-activity/agent-activity/claudecode"
	"github.com/agent-activity/agent-activity/internal/fixture"
	"github.com/agent-activity/agent-activity/internal/golden"
	"github.com/agent-activity/agent-activity/logs"
	"github.com/agent-activity/agent-activity/pricing"
	"github.com/agent-activity/agent-activity/transcript"
)

// update rewrites the golden files and the schema snapshots.
var update = flag.Bool("update", false, "rewrite golden files and schema snapshots")

// fixtureNow is the clock of every test over the fixture tree.
var fixtureNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// fixtureStore copies testdata/projects (mtimes from the transcripts) and
// returns the copy's root and a cold store over it with the real pricing
// table and a fixed clock.
func fixtureStore(tb testing.TB) (string, *logs.Store) {
	return treeStore(tb, "projects", fixtureNow, time.UTC)
}

// treeStore copies the fixture tree testdata/<tree> and returns the copy's
// root and a cold store over it with the real pricing table, the clock at now
// and days in loc.
func treeStore(tb testing.TB, tree string, now time.Time, loc *time.Location) (string, *logs.Store) {
	tb.Helper()
	root := filepath.Join(tb.TempDir(), "projects")
	if err := fixture.CopyTree(filepath.Join("..", "testdata", tree), root); err != nil {
		tb.Fatal(err)
	}
	return root, rootsStore(tb, []string{root}, now, loc)
}

// rootsStore is a cold store over roots with the real pricing table.
func rootsStore(tb testing.TB, roots []string, now time.Time, loc *time.Location) *logs.Store {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("..", "pricing.json"))
	if err != nil {
		tb.Fatal(err)
	}
	table, err := pricing.Load(b, nil, "")
	if err != nil {
		tb.Fatal(err)
	}
	return logs.NewStore(logs.Config{Agents: []transcript.Agent{claudecode.Agent{}}, Roots: roots, Now: func() time.Time { return now }, Pricing: table, Location: loc})
}

// goldenCase is one call: a tool, its arguments, and whether it must fail.
type goldenCase struct {
	tool, name, args string
	wantErr          bool
	cold             bool // on a store nothing has read yet (list_recent_sessions answers from the newest files)
}

var goldenCases = []goldenCase{
	{tool: "list_recent_sessions", name: "defaults", args: `{}`},
	{tool: "list_recent_sessions", name: "cold", args: `{"limit":3}`, cold: true},
	{tool: "list_recent_sessions", name: "repo", args: `{"repo":"TITLES"}`},
	{tool: "list_recent_sessions", name: "since_until", args: `{"since":"2026-11-25","until":"2026-11-26","limit":3}`},
	{tool: "list_recent_sessions", name: "bad_since", args: `{"since":"last week"}`, wantErr: true},

	{tool: "list_recent_sessions", name: "outcome", args: `{"outcome":"files_changed"}`},
	{tool: "list_recent_sessions", name: "bad_outcome", args: `{"outcome":"committed"}`, wantErr: true},

	{tool: "summarize_work", name: "defaults", args: `{}`},
	{tool: "summarize_work", name: "repo_days", args: `{"repo":"titles","since":"2026-11-27","until":"2026-11-28"}`},
	{tool: "summarize_work", name: "page", args: `{"since":"30d","limit":3}`},
	{tool: "summarize_work", name: "next_page", args: `{"since":"30d","limit":3,"cursor":"sw1.1a223516e88.da257847.98759fb8"}`},
	{tool: "summarize_work", name: "bad_limit", args: `{"limit":51}`, wantErr: true},
	{tool: "summarize_work", name: "bad_cursor", args: `{"cursor":"sw1.x"}`, wantErr: true},

	{tool: "tail_agent_log", name: "split_usage", args: `{"session":"dae68d1d"}`},
	{tool: "tail_agent_log", name: "limit", args: `{"session":"b86f27bf","limit":3}`},
	{tool: "tail_agent_log", name: "bad_session", args: `{"session":"../../etc/passwd"}`, wantErr: true},
	{tool: "tail_agent_log", name: "ambiguous", args: `{"session":"4510a0cc-6b1c-4fce-81ca-00bf87e0f3cb"}`, wantErr: true},
	{tool: "tail_agent_log", name: "bad_cwd_type", args: `{"session":"latest","cwd":5}`, wantErr: true},

	{tool: "summarize_tool_calls", name: "outcomes", args: `{"session":"b86f27bf"}`},
	{tool: "summarize_tool_calls", name: "sidechains", args: `{"session":"f9733c8b"}`},
	{tool: "summarize_tool_calls", name: "not_found", args: `{"session":"ffffffff"}`, wantErr: true},

	{tool: "session_recap", name: "titles", args: `{"session":"45aa96c3"}`},
	{tool: "session_recap", name: "latest", args: `{"session":"latest"}`},
	{tool: "session_recap", name: "subagents", args: `{"session":"442ae068"}`},
	{tool: "session_recap", name: "ambiguous", args: `{"session":"a7c31e58"}`, wantErr: true},

	{tool: "search_transcripts", name: "spilled", args: `{"query":"ZANZIBAR-marker"}`},
	{tool: "search_transcripts", name: "regex_roles", args: `{"query":"(?i)retry","regex":true,"roles":["user"]}`},
	{tool: "search_transcripts", name: "session", args: `{"query":"the","session":"b86f27bf","limit":3}`},
	{tool: "search_transcripts", name: "bad_regex", args: `{"query":"a(b","regex":true}`, wantErr: true},
	{tool: "search_transcripts", name: "bad_role", args: `{"query":"x","roles":["system"]}`, wantErr: true},

	{tool: "file_activity", name: "suffix", args: `{"path":"api.ts"}`},
	{tool: "file_activity", name: "glob_repo", args: `{"path":"**/*.ts","repo":"titles","limit":2}`},
	{tool: "file_activity", name: "limit_bounds_sessions", args: `{"path":"**/*","limit":1}`}, // one touch, one of the sessions
	{tool: "file_activity", name: "empty_path", args: `{"path":""}`, wantErr: true},

	{tool: "usage_report", name: "defaults", args: `{}`},
	{tool: "usage_report", name: "day_model", args: `{"group_by":"day,model","since":"2026-11-25","until":"2026-11-26"}`},
	{tool: "usage_report", name: "repo_model", args: `{"group_by":"repo","model":"opus"}`},
	{tool: "usage_report", name: "week_agent", args: `{"group_by":"week,agent"}`},
	{tool: "usage_report", name: "month_session", args: `{"group_by":"month,session"}`},
	{tool: "usage_report", name: "bad_group_by", args: `{"group_by":"hour"}`, wantErr: true},

	{tool: "pacing_window", name: "defaults", args: `{}`},
	{tool: "pacing_window", name: "week", args: `{"hours":168}`},
	{tool: "pacing_window", name: "bad_hours", args: `{"hours":169}`, wantErr: true},

	{tool: "coverage_stats", name: "defaults", args: `{}`},
	{tool: "coverage_stats", name: "unknown_argument", args: `{"bogus":1}`, wantErr: true},

	{tool: "scan_secrets", name: "defaults", args: `{}`},
	{tool: "scan_secrets", name: "repo", args: `{"repo":"outcomes","max_findings":1}`},
	{tool: "scan_secrets", name: "bad_session", args: `{"session":"abc"}`, wantErr: true},
}

func TestGolden(t *testing.T) {
	root, warm := fixtureStore(t)
	if _, err := warm.Snapshot(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	specs := map[string]Spec{}
	for _, s := range All(Deps{Store: warm}) {
		specs[s.Tool.Name] = s
	}
	covered, files := map[string]bool{}, map[string]bool{}
	for _, c := range goldenCases {
		spec, ok := specs[c.tool]
		if !ok {
			t.Errorf("golden case %s__%s: no tool %s in the registry", c.tool, c.name, c.tool)
			continue
		}
		covered[c.tool] = true
		file := c.tool + "__" + c.name + ".json"
		if files[file] {
			t.Errorf("two golden cases write %s", file)
		}
		files[file] = true
		t.Run(c.tool+"/"+c.name, func(t *testing.T) {
			root := root
			if c.cold {
				var cold *logs.Store
				root, cold = fixtureStore(t)
				spec = toolOf(t, All(Deps{Store: cold}), c.tool)
			}
			checkGolden(t, filepath.Join("testdata", "golden", file), goldenAnswer(t, spec, c, root))
		})
	}
	for name := range specs {
		if !covered[name] {
			t.Errorf("tool %s has no golden case: add one to goldenCases", name)
		}
	}
	// A golden file without a case is stale.
	ents, _ := os.ReadDir(filepath.Join("testdata", "golden"))
	for _, e := range ents {
		if files[e.Name()] {
			continue
		}
		if *update {
			os.Remove(filepath.Join("testdata", "golden", e.Name()))
			continue
		}
		t.Errorf("testdata/golden/%s has no golden case; run `go test ./tools -run Golden -update` if it was removed on purpose", e.Name())
	}
}

func toolOf(t *testing.T, specs []Spec, name string) Spec {
	t.Helper()
	for _, s := range specs {
		if s.Tool.Name == name {
			return s
		}
	}
	t.Fatalf("no tool %s", name)
	return Spec{}
}

// goldenAnswer calls the tool and returns the indented JSON of its answer, or
// of the error body a client sees, with the fixture copy's root written as
// <root>.
func goldenAnswer(t *testing.T, spec Spec, c goldenCase, root string) []byte {
	t.Helper()
	out, err := spec.Call(context.Background(), []byte(c.args))
	if (err != nil) != c.wantErr {
		t.Fatalf("%s %s: error %v, want an error: %v", c.tool, c.args, err, c.wantErr)
	}
	var v any = out
	if err != nil {
		var le *logs.Error
		if !errors.As(err, &le) || le.Code == logs.CodeInternal {
			t.Fatalf("%s %s: %v is not a domain error", c.tool, c.args, err)
		}
		v = ErrorOf(err)
	}
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	quoted, _ := json.Marshal(root)
	got = bytes.ReplaceAll(got, bytes.Trim(quoted, `"`), []byte("<root>"))
	return append(got, '\n')
}

// checkGolden compares got with the file at path, or rewrites the file with
// -update.
func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	golden.Golden(t, path, got, *update, "go test ./tools -update")
}

// firstDiff shows the first differing line of two texts.
func firstDiff(want, got string) string { return golden.FirstDiff(want, got) }
