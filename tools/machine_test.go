package tools

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-activity/agent-activity/internal/fixture"
	"github.com/agent-activity/agent-activity/logs"
)

// TestEveryToolTakesMachine: the machine filter is part of every tool's
// contract (SPEC §11), through the embedded MachineArg.
func TestEveryToolTakesMachine(t *testing.T) {
	for _, spec := range registry() {
		var schema struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		raw, _ := json.Marshal(spec.Tool.InputSchema)
		if len(spec.Tool.RawInputSchema) > 0 {
			raw = spec.Tool.RawInputSchema
		}
		if err := json.Unmarshal(raw, &schema); err != nil {
			t.Fatalf("%s: %v", spec.Tool.Name, err)
		}
		if _, ok := schema.Properties["machine"]; !ok {
			t.Errorf("%s takes no machine argument: embed MachineArg in its arguments", spec.Tool.Name)
		}
	}
}

// twoMachineSpecs serves the tools over two labelled copies of the fixture
// tree: the same sessions, ids and messages on "laptop" and "desk".
func twoMachineSpecs(t *testing.T) map[string]Spec {
	t.Helper()
	root, store := fixtureStore(t)
	desk := filepath.Join(t.TempDir(), "desk", "projects")
	if err := fixture.CopyTree(filepath.Join("..", "testdata", "projects"), desk); err != nil {
		t.Fatal(err)
	}
	cfg := store.Config()
	cfg.Roots = []string{root, desk}
	cfg.RootLabels = map[string]string{root: "laptop", desk: "desk"}
	specs := map[string]Spec{}
	for _, s := range All(Deps{Store: logs.NewStore(cfg)}) {
		specs[s.Tool.Name] = s
	}
	return specs
}

func callJSON(t *testing.T, specs map[string]Spec, tool, args string) (map[string]any, error) {
	t.Helper()
	out, err := specs[tool].Call(context.Background(), []byte(args))
	if err != nil {
		return nil, err
	}
	var m map[string]any
	b, _ := json.Marshal(out)
	json.Unmarshal(b, &m)
	return m, nil
}

func TestMachineFilter(t *testing.T) {
	specs := twoMachineSpecs(t)
	all, err := callJSON(t, specs, "list_recent_sessions", `{"limit":200}`)
	if err != nil {
		t.Fatal(err)
	}
	byMachine := map[string]float64{}
	for _, machine := range []string{"laptop", "desk"} {
		ls, err := callJSON(t, specs, "list_recent_sessions", `{"limit":200,"machine":"`+machine+`"}`)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range ls["sessions"].([]any) {
			if got := s.(map[string]any)["machine"]; got != machine {
				t.Errorf("machine=%s lists a session of machine %v", machine, got)
			}
		}
		byMachine[machine] = ls["total_matched"].(float64)
	}
	if byMachine["laptop"] == 0 || byMachine["laptop"] != byMachine["desk"] || byMachine["laptop"]*2 != all["total_matched"].(float64) {
		t.Errorf("sessions: laptop %v, desk %v, all %v; want equal halves (the same id on two machines is two sessions)",
			byMachine["laptop"], byMachine["desk"], all["total_matched"])
	}

	// Every message is on both machines and counts once: the machines'
	// rows add up to the totals, which equal one copy's.
	rep, err := callJSON(t, specs, "usage_report", `{"group_by":"machine"}`)
	if err != nil {
		t.Fatal(err)
	}
	var rowsSum float64
	for _, r := range rep["rows"].([]any) {
		rowsSum += r.(map[string]any)["usage"].(map[string]any)["total_tokens"].(float64)
	}
	total := rep["totals"].(map[string]any)["usage"].(map[string]any)["total_tokens"].(float64)
	_, single := fixtureStore(t)
	one, err := callJSON(t, map[string]Spec{"usage_report": UsageReport(Deps{Store: single})}, "usage_report", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	if want := one["totals"].(map[string]any)["usage"].(map[string]any)["total_tokens"].(float64); total != want || rowsSum != total {
		t.Errorf("group_by=machine: rows sum %v, totals %v; one copy alone %v", rowsSum, total, want)
	}

	// The same id on both machines: ambiguous until machine says which.
	const id = "dae68d1d"
	_, err = callJSON(t, specs, "tail_agent_log", `{"session":"`+id+`"}`)
	var le *logs.Error
	if !errors.As(err, &le) || le.Code != logs.CodeAmbiguousSession || !strings.Contains(le.Message, "pass machine") || len(le.Candidates) != 2 {
		t.Errorf("tail %s on two machines: %v, want ambiguous_session asking for machine", id, err)
	} else if body := ErrorOf(err); body.Candidates[0].Machine == body.Candidates[1].Machine {
		t.Errorf("candidates do not say their machines: %+v", body.Candidates)
	}
	for _, tool := range []string{"tail_agent_log", "session_recap", "summarize_tool_calls"} {
		if _, err := callJSON(t, specs, tool, `{"session":"`+id+`","machine":"desk"}`); err != nil {
			t.Errorf("%s with machine=desk: %v", tool, err)
		}
	}

	// An unknown machine is a mistake the caller can fix: the message names the machines.
	for tool, args := range map[string]string{
		"usage_report": `{"machine":"attic"}`, "coverage_stats": `{"machine":"attic"}`,
		"search_transcripts": `{"query":"retry","machine":"attic"}`, "tail_agent_log": `{"session":"latest","machine":"attic"}`,
	} {
		_, err := callJSON(t, specs, tool, args)
		if !errors.As(err, &le) || le.Code != logs.CodeInvalidArgument || le.Argument != "machine" || !strings.Contains(le.Message, "desk, laptop") {
			t.Errorf("%s %s: %v, want invalid_argument naming desk, laptop", tool, args, err)
		}
	}

	// Filters that read through other paths (the cold list, the one-pass search) honour machine too.
	cov, err := callJSON(t, specs, "coverage_stats", `{"machine":"laptop"}`)
	if err != nil {
		t.Fatal(err)
	}
	if roots := cov["log_roots"].([]any); len(roots) != 1 || roots[0].(map[string]any)["machine"] != "laptop" {
		t.Errorf("coverage_stats machine=laptop lists roots %v", roots)
	}
	if cov["sessions"].(float64) != byMachine["laptop"] {
		t.Errorf("coverage_stats machine=laptop: %v sessions, list says %v", cov["sessions"], byMachine["laptop"])
	}
	// A call is counted once across the whole history (SPEC §3): the copies
	// on desk are copies, so every call counts on laptop (whose folder sorts
	// first) and none on desk.
	deskCov, err := callJSON(t, specs, "coverage_stats", `{"machine":"desk"}`)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := cov["top_tools"], deskCov["top_tools"]; len(a.(map[string]any)) == 0 || len(b.(map[string]any)) != 0 {
		t.Errorf("tool calls: laptop %v, desk %v; want all on laptop, none on desk", a, b)
	}
	hits := map[string]float64{}
	for _, m := range []string{"", "laptop"} {
		res, err := callJSON(t, specs, "search_transcripts", `{"query":"retry","limit":200,"machine":"`+m+`"}`)
		if err != nil {
			t.Fatal(err)
		}
		hits[m] = res["total_matches"].(float64)
	}
	if hits[""] == 0 || hits["laptop"]*2 != hits[""] {
		t.Errorf("search: %v matches on laptop, %v everywhere; want half", hits["laptop"], hits[""])
	}
}
