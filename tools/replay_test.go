package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agent-activity/agent-activity/logs"
)

// replayNow is the clock testdata/replay/EXPECTED.md assumes.
var replayNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// replayStore copies testdata/replay (each file's mtime its newest line;
// case g's copied session gets a fresh mtime, as a sync would give it).
func replayStore(t *testing.T) *logs.Store {
	t.Helper()
	root, store := treeStore(t, "replay", replayNow, time.UTC)
	copied, _ := filepath.Glob(filepath.Join(root, "-home-dev-copied", "*.jsonl"))
	for _, p := range copied {
		mt := replayNow.Add(-time.Minute)
		must(t, os.Chtimes(p, mt, mt))
	}
	return store
}

// replayExpected merges the JSON blocks of testdata/replay/EXPECTED.md.
func replayExpected(t *testing.T) (sessions map[string]map[string]any, root map[string]any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "replay", "EXPECTED.md"))
	must(t, err)
	sessions = map[string]map[string]any{}
	for _, m := range regexp.MustCompile("(?s)```json\n(.*?)\n```").FindAllSubmatch(b, -1) {
		var block map[string]any
		dec := json.NewDecoder(bytes.NewReader(m[1]))
		dec.UseNumber()
		must(t, dec.Decode(&block))
		if ss, ok := block["sessions"].(map[string]any); ok {
			for id, v := range ss {
				sessions[id] = v.(map[string]any)
			}
		}
		if r, ok := block["root"].(map[string]any); ok {
			root = r
		}
	}
	if len(sessions) < 8 || root == nil {
		t.Fatalf("EXPECTED.md gave %d sessions and root %v", len(sessions), root != nil)
	}
	return sessions, root
}

func replayCall(t *testing.T, specs map[string]Spec, tool, args string) map[string]any {
	t.Helper()
	res, err := specs[tool].Call(context.Background(), []byte(args))
	if err != nil {
		t.Fatalf("%s %s: %v", tool, args, err)
	}
	b, _ := json.Marshal(res)
	var out map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	must(t, dec.Decode(&out))
	return out
}

// sameValue compares an expected figure with an answer's: numbers to 1e-9,
// a missing answer field as zero, empty or false (compact answers omit them).
func sameValue(want, got any) bool {
	switch w := want.(type) {
	case json.Number:
		wf, _ := strconv.ParseFloat(w.String(), 64)
		var gf float64
		if g, ok := got.(json.Number); ok {
			gf, _ = strconv.ParseFloat(g.String(), 64)
		}
		return abs(wf-gf) < 1e-9
	case string:
		g, _ := got.(string)
		return w == g
	case bool:
		g, _ := got.(bool)
		return w == g
	}
	return false
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// checkFields asserts every scalar field of want (recursing into objects)
// against got, except the names in skip.
func checkFields(t *testing.T, where string, want, got map[string]any, skip ...string) {
	t.Helper()
	for k, w := range want {
		if containsStr(skip, k) {
			continue
		}
		switch wv := w.(type) {
		case map[string]any:
			g, _ := got[k].(map[string]any)
			checkFields(t, where+"."+k, wv, g)
		case []any:
			// lists are checked by the callers that know their keys
		default:
			if !sameValue(w, got[k]) {
				t.Errorf("%s.%s = %v, want %v", where, k, got[k], w)
			}
		}
	}
}

func containsStr(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func idsOf(list any, key string) []string {
	var out []string
	xs, _ := list.([]any)
	for _, x := range xs {
		if m, ok := x.(map[string]any); ok {
			s, _ := m[key].(string)
			out = append(out, s)
		}
	}
	return out
}

// TestReplayFixtures checks every figure of testdata/replay/EXPECTED.md (one
// rule of SPEC §3 per case: workers replaying their parent, a resumed
// session, a relay reusing one message id, advisor usage, a 2.1.152 cache
// line, a session ending on an API error, a copied old session) through the
// tools.
func TestReplayFixtures(t *testing.T) {
	specs := map[string]Spec{}
	for _, s := range All(Deps{Store: replayStore(t)}) {
		specs[s.Tool.Name] = s
	}
	want, root := replayExpected(t)
	list := replayCall(t, specs, "list_recent_sessions", `{"limit":200,"detail":true}`)
	items := map[string]map[string]any{}
	for _, it := range list["sessions"].([]any) {
		m := it.(map[string]any)
		items[m["session_id"].(string)] = m
	}
	for id, w := range want {
		item := items[id]
		if item == nil {
			t.Errorf("session %s is not listed", id)
			continue
		}
		u, _ := item["usage"].(map[string]any)
		for _, block := range []string{"usage", "main", "sidechain"} {
			wb, ok := w[block].(map[string]any)
			if !ok {
				continue
			}
			gb := u
			if block != "usage" {
				gb, _ = u[block].(map[string]any)
			}
			checkFields(t, id+"."+block, wb, gb, "cache_creation_1h", "cache_creation_5m", "unpriced_models", "by_model")
		}
		if wm, ok := w["by_model"].(map[string]any); ok {
			gm, _ := u["by_model"].(map[string]any)
			for model, wv := range wm {
				g, _ := gm[model].(map[string]any)
				if g == nil && len(wm) == 1 {
					g = u // a compact answer leaves out a by_model of one model: it is the total
				}
				checkFields(t, id+".by_model."+model, wv.(map[string]any), g, "cache_creation_1h", "cache_creation_5m")
			}
		}
		checkFields(t, id, w, item, "usage", "main", "sidechain", "tool_calls", "by_model", "failing_calls", "file_touches", "workers",
			"final_assistant_text", "last_prompts", "ended_on_api_error", "copied_prefix_lines")
		if tc, ok := w["tool_calls"].(map[string]any); ok {
			got := replayCall(t, specs, "summarize_tool_calls", `{"session":"`+id+`"}`)
			checkFields(t, id+".tool_calls", tc, got)
			if fc, ok := w["failing_calls"]; ok {
				if g, e := strings.Join(idsOf(got["failing_calls"], "tool_use_id"), ","), strings.Join(idsOf(fc, "tool_use_id"), ","); g != e && !sameSet(g, e) {
					t.Errorf("%s failing calls %s, want %s", id, g, e)
				}
			}
		}
		if ft, ok := w["file_touches"]; ok {
			got := replayCall(t, specs, "file_activity", `{"path":"**/*","limit":500}`)
			var mine []any
			for _, x := range got["touches"].([]any) {
				if x.(map[string]any)["session_id"] == id {
					mine = append(mine, x)
				}
			}
			if g, e := strings.Join(idsOf(mine, "tool_use_id"), ","), strings.Join(idsOf(ft, "tool_use_id"), ","); !sameSet(g, e) {
				t.Errorf("%s file touches %s, want %s", id, g, e)
			}
		}
		if _, ok := w["final_assistant_text"]; ok || w["workers"] != nil || w["last_prompts"] != nil {
			rc := replayCall(t, specs, "session_recap", `{"session":"`+id+`","include_current":true}`)
			if ft, ok := w["final_assistant_text"].(string); ok && rc["final_assistant_text"] != ft {
				t.Errorf("%s final_assistant_text %q, want %q", id, rc["final_assistant_text"], ft)
			}
			if workers, ok := w["workers"].(map[string]any); ok {
				for file, wv := range workers {
					found := false
					for _, sa := range rc["subagents"].([]any) {
						m := sa.(map[string]any)
						if f, _ := m["file"].(string); strings.HasSuffix(f, file) {
							found = true
							if fp := wv.(map[string]any)["first_prompt"]; !strings.HasPrefix(fp.(string), strings.TrimSuffix(m["first_prompt"].(string), "…")) || m["first_prompt"] == "" {
								t.Errorf("%s worker %s first_prompt %q, want %q", id, file, m["first_prompt"], fp)
							}
						}
					}
					if !found {
						t.Errorf("%s: worker %s not in the recap", id, file)
					}
				}
			}
		}
	}
	// The whole root.
	cov := replayCall(t, specs, "coverage_stats", `{}`)
	checkFields(t, "root.top_tools", root["top_tools"].(map[string]any), cov["top_tools"].(map[string]any))
	rep := replayCall(t, specs, "usage_report", `{"group_by":"model"}`)
	totals, _ := rep["totals"].(map[string]any)
	tu, _ := totals["usage"].(map[string]any)
	checkFields(t, "root.usage", root["usage"].(map[string]any), tu, "cache_creation_5m", "cache_creation_1h")
	for model, wm := range root["by_model"].(map[string]any) {
		found := false
		for _, row := range rep["rows"].([]any) {
			r := row.(map[string]any)
			if r["model"] == model {
				found = true
				checkFields(t, "root.by_model."+model, wm.(map[string]any), r["usage"].(map[string]any))
			}
		}
		if !found {
			t.Errorf("usage_report has no row for %s", model)
		}
	}
}

func sameSet(a, b string) bool {
	x, y := strings.Split(a, ","), strings.Split(b, ",")
	if len(x) != len(y) {
		return false
	}
	seen := map[string]int{}
	for _, s := range x {
		seen[s]++
	}
	for _, s := range y {
		seen[s]--
	}
	for _, n := range seen {
		if n != 0 {
			return false
		}
	}
	return true
}
