package tools

import (
	"context"
	"encoding/json"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/agent-activity/agent-activity/claudecode"
	"github.com/agent-activity/agent-activity/internal/benchcalls"
	"github.com/agent-activity/agent-activity/transcript"

	"github.com/agent-activity/agent-activity/logs"
	"github.com/agent-activity/agent-activity/pricing"
)

// BenchmarkToolsWarm measures each tool asked again on a warm store, without
// the MCP round trip (AGENT_ACTIVITY_BENCH_ROOT selects the corpus).
func BenchmarkToolsWarm(b *testing.B) {
	root := os.Getenv("AGENT_ACTIVITY_BENCH_ROOT")
	if root == "" {
		b.Skip("set AGENT_ACTIVITY_BENCH_ROOT to a log root")
	}
	raw, _ := os.ReadFile("../pricing.json")
	pt, _ := pricing.Load(raw, nil, "")
	st := logs.NewStore(logs.Config{Agents: []transcript.Agent{claudecode.Agent{}}, Roots: []string{root}, Now: time.Now, Pricing: pt})
	if _, err := st.Snapshot(context.Background(), nil); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ tool, args string }{
		{"list_recent_sessions", `{"limit":20}`},
		{"usage_report", `{"group_by":"day"}`},
		{"coverage_stats", `{}`},
		{"summarize_work", `{}`},
		{"summarize_work", `{"since":"30d"}`},
		{"list_recent_sessions", `{"outcome":"tests_failed"}`},
	} {
		var spec Spec
		for _, s := range All(Deps{Store: st}) {
			if s.Tool.Name == c.tool {
				spec = s
			}
		}
		b.Run(c.tool+c.args, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				out, err := spec.Call(context.Background(), []byte(c.args))
				if err != nil {
					b.Fatal(err)
				}
				if _, err := json.Marshal(out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkListAfterAppend measures list_recent_sessions after one line is
// appended to the newest session, in process.
func BenchmarkListAfterAppend(b *testing.B) {
	root := os.Getenv("AGENT_ACTIVITY_BENCH_ROOT")
	if root == "" {
		b.Skip("set AGENT_ACTIVITY_BENCH_ROOT to a log root")
	}
	raw, _ := os.ReadFile("../pricing.json")
	pt, _ := pricing.Load(raw, nil, "")
	st := logs.NewStore(logs.Config{Agents: []transcript.Agent{claudecode.Agent{}}, Roots: []string{root}, Now: time.Now, Pricing: pt})
	snap, err := st.Snapshot(context.Background(), nil)
	if err != nil {
		b.Fatal(err)
	}
	path := snap.Sessions[0].Main.Path
	info, _ := os.Stat(path)
	defer func() {
		os.Truncate(path, info.Size())
		os.Chtimes(path, info.ModTime(), info.ModTime())
	}()
	spec := ListRecentSessions(Deps{Store: st})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(`{"type":"assistant","sessionId":"x","uuid":"b","timestamp":"2026-11-29T23:59:59.000Z","message":{"id":"msg_lb_` + strconv.Itoa(i) + `","model":"claude-opus-4-5","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}` + "\n")
		f.Close()
		out, err := spec.Call(context.Background(), []byte(`{"limit":20}`))
		if err != nil {
			b.Fatal(err)
		}
		json.Marshal(out)
	}
}

// BenchmarkRetainedAfterEachTool measures what a warm store keeps after each
// answer: every tool of the bench's order (benchcalls.Order) at its
// defaults and at every bound's maximum, on one store, with two
// collections after each answer. It reports the live heap after the answer
// less the live heap before it (retained-MB); the time is the answer's,
// with the store's look at the files (a sweep: no watcher runs here). On
// a generated corpus (AGENT_ACTIVITY_BENCH_ROOT, AGENT_ACTIVITY_BENCH_NOW
// for its clock), run once: -benchtime 1x.
func BenchmarkRetainedAfterEachTool(b *testing.B) {
	root := os.Getenv("AGENT_ACTIVITY_BENCH_ROOT")
	if root == "" {
		b.Skip("set AGENT_ACTIVITY_BENCH_ROOT to a log root")
	}
	now := time.Now()
	if v := os.Getenv("AGENT_ACTIVITY_BENCH_NOW"); v != "" {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			b.Fatal(err)
		}
		now = t
	}
	raw, _ := os.ReadFile("../pricing.json")
	pt, _ := pricing.Load(raw, nil, "")
	st := logs.NewStore(logs.Config{Agents: []transcript.Agent{claudecode.Agent{}}, Roots: []string{root}, Now: func() time.Time { return now }, Pricing: pt})
	snap, err := st.Snapshot(context.Background(), nil)
	if err != nil {
		b.Fatal(err)
	}
	var session string // the largest main transcript's, as the bench's session tools
	var largest int64
	for _, s := range snap.Sessions {
		if s.Main != nil && s.Main.Size > largest {
			session, largest = s.ID, s.Main.Size
		}
	}
	live := func() float64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return float64(m.HeapAlloc)
	}
	specs := map[string]Spec{}
	for _, s := range All(Deps{Store: st}) {
		specs[s.Tool.Name] = s
	}
	for _, c := range benchcalls.Order(session) {
		for _, run := range []struct {
			name string
			args map[string]any
		}{{"defaults", c.Defaults}, {"at_max", c.Max}} {
			if run.args == nil {
				continue // no bounds
			}
			args, err := json.Marshal(run.args)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(c.Tool+"/"+run.name, func(b *testing.B) {
				before := live()
				for i := 0; i < b.N; i++ {
					if _, err := specs[c.Tool].Call(context.Background(), args); err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				b.ReportMetric((live()-before)/1e6, "retained-MB")
			})
		}
	}
}
