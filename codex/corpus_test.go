package codex

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// corpusBase is shared/corpus/public-codex seen from this package.
var corpusBase = filepath.Join("..", "..", "shared", "corpus", "public-codex")

// tokens are the rollout's fields as written: input (cached included),
// cached input, output (reasoning included), reasoning, total.
type tokens struct{ input, cached, output, reasoning, total int64 }

func tokensOfUsage(u Usage) tokens {
	return tokens{u.InputTokens + u.CacheReadTokens, u.CacheReadTokens, u.OutputTokens, u.ReasoningTokens, u.Total()}
}

// corpusWant holds the figures of every public rollout as counted from the
// raw lines by testdata/expected.py (Python) and cross-checked by a jq
// reduction and by hand on the small files; EXPECTED.md says how.
var corpusWant = []struct {
	id, cwd, cli, originator string
	models                   []string
	prompts, responses       int
	lines, copied            int // copied: lines of the fork's copied prefix
	tokens                   tokens
	byModel                  map[string]tokens
	calls                    outcomes
}{
	{id: "019a1ca6-7599-7b71-b519-9ee83a3ffc7d", cwd: "/Users/bernardchase/Documents/00003300042002/mse/y_bar/200946433/ttb", cli: "0.48.0-alpha.3", originator: "codex_vscode",
		models: []string{"gpt-5-codex", "gpt-5"}, prompts: 2, responses: 0, lines: 30, copied: 0,
		tokens:  tokens{0, 0, 0, 0, 0},
		byModel: map[string]tokens{},
		calls:   outcomes{}},
	{id: "019a7ae6-1945-7c63-98f2-210adb922af9", cwd: "/mnt/d/ai/MoonMind", cli: "0.57.0", originator: "codex_cli_rs",
		models: []string{"gpt-5-codex"}, prompts: 6, responses: 102, lines: 731, copied: 0,
		tokens:  tokens{3633593, 3248000, 45096, 18816, 3678689},
		byModel: map[string]tokens{"gpt-5-codex": {3633593, 3248000, 45096, 18816, 3678689}},
		calls:   outcomes{"apply_patch": {"error": 1, "ok": 12}, "shell": {"error": 14, "ok": 66}, "update_plan": {"ok": 4}}},
	{id: "019aad50-a7e6-7422-b7a8-0b384290624f", cwd: "/Users/pinouchon/code/rtchess", cli: "0.60.1", originator: "codex_cli_rs",
		models: []string{"gpt-5.1-codex-max"}, prompts: 54, responses: 351, lines: 2222, copied: 0,
		tokens:  tokens{30644629, 29513728, 183421, 82880, 30828050},
		byModel: map[string]tokens{"gpt-5.1-codex-max": {30644629, 29513728, 183421, 82880, 30828050}},
		calls:   outcomes{"apply_patch": {"error": 8, "ok": 165}, "shell_command": {"error": 9, "ok": 112}, "update_plan": {"ok": 4}}},
	{id: "019b08ab-1c85-7071-8cb3-1a3f35a8e5db", cwd: "/Users/kane/Workspace/airdata/2-airdata-connect-pro/acp-hotel-service", cli: "0.65.0-alpha.11", originator: "codex_vscode",
		models: []string{"gpt-5.1-codex"}, prompts: 15, responses: 178, lines: 1218, copied: 0,
		tokens:  tokens{10650263, 9132928, 74283, 50048, 10724546},
		byModel: map[string]tokens{"gpt-5.1-codex": {10650263, 9132928, 74283, 50048, 10724546}},
		calls:   outcomes{"apply_patch": {"error": 6, "ok": 47}, "shell_command": {"error": 2, "ok": 96}, "update_plan": {"ok": 13}}},
	{id: "019be13c-2167-7d71-adfa-d8b167591a09", cwd: "/Users/kane/Workspace/airdata/2-airdata-connect-pro/acp-hotel-service", cli: "0.81.0-alpha.8", originator: "codex_vscode",
		models: []string{"gpt-5.2-codex"}, prompts: 5, responses: 37, lines: 265, copied: 0,
		tokens:  tokens{642186, 571520, 10321, 4864, 652507},
		byModel: map[string]tokens{"gpt-5.2-codex": {642186, 571520, 10321, 4864, 652507}},
		calls:   outcomes{"apply_patch": {"error": 2, "ok": 6}, "shell_command": {"error": 1, "ok": 23}}},
	{id: "019be13c-21b4-7103-a3e2-9f85a85fab31", cwd: "/Users/kane/Workspace/airdata/2-airdata-connect-pro/acp-hotel-service", cli: "0.81.0-alpha.8", originator: "codex_vscode",
		models: []string{"gpt-5.1-codex-mini"}, prompts: 1, responses: 1, lines: 13, copied: 0,
		tokens:  tokens{3454, 2048, 11, 0, 3465},
		byModel: map[string]tokens{"gpt-5.1-codex-mini": {3454, 2048, 11, 0, 3465}},
		calls:   outcomes{}},
	{id: "019c33cf-249e-7bf2-a545-cb92f063653f", cwd: "/Users/kane/Workspace/airdata/2-airdata-connect-pro/acp-hotel-service", cli: "0.98.0", originator: "Codex Desktop",
		models: []string{"gpt-5.2-codex"}, prompts: 9, responses: 57, lines: 385, copied: 0,
		tokens:  tokens{1544494, 1420928, 9634, 3520, 1554128},
		byModel: map[string]tokens{"gpt-5.2-codex": {1544494, 1420928, 9634, 3520, 1554128}},
		calls:   outcomes{"apply_patch": {"ok": 12}, "exec_command": {"error": 5, "ok": 32}}},
	{id: "019cd79e-2ab4-7422-9ab2-bf197df1eea8", cwd: "/Users/kane/Workspace/k2n/toi.tayphuong.io.vn", cli: "0.107.0-alpha.5", originator: "Codex Desktop",
		models: []string{"gpt-5.3-codex-spark", "gpt-5.4"}, prompts: 9, responses: 36, lines: 307, copied: 0,
		tokens:  tokens{1320934, 1189504, 18560, 1587, 1339494},
		byModel: map[string]tokens{"gpt-5.4": {1320934, 1189504, 18560, 1587, 1339494}},
		calls:   outcomes{"apply_patch": {"ok": 14}, "exec_command": {"ok": 27}}},
	{id: "019d6d46-a233-7eb1-8e9b-923935d7d416", cwd: "/Users/bernardchase/Documents/Cline", cli: "0.118.0-alpha.2", originator: "codex_vscode",
		models: []string{"gpt-5.3-codex"}, prompts: 15, responses: 73, lines: 560, copied: 0,
		tokens:  tokens{6164824, 4774400, 44526, 19311, 6209350},
		byModel: map[string]tokens{"gpt-5.3-codex": {6164824, 4774400, 44526, 19311, 6209350}},
		calls:   outcomes{"apply_patch": {"ok": 1}, "exec_command": {"error": 2, "none": 1, "ok": 92, "rejected": 6, "running": 2}, "web_search": {"ok": 14}, "write_stdin": {"error": 1, "ok": 1, "running": 1}}},
	{id: "019ef241-b093-76a3-88f5-feaa328642e1", cwd: "c:\\WeGameApps\\rail_apps\\OasisEraEditor(2001776)\\ShadowTrackerExtra\\UGCProjects\\Douluo", cli: "0.142.0-alpha.6", originator: "codex_vscode",
		models: []string{"gpt-5.5"}, prompts: 24, responses: 99, lines: 744, copied: 0,
		tokens:  tokens{12317181, 11476096, 44929, 4242, 12362110},
		byModel: map[string]tokens{"gpt-5.5": {12317181, 11476096, 44929, 4242, 12362110}},
		calls:   outcomes{"apply_patch": {"error": 13, "ok": 25}, "exec_command": {"ok": 21}, "shell_command": {"error": 2, "ok": 66}}},
	{id: "019f4efb-ae76-7e30-b44e-3fa464c16193", cwd: "c:\\WeGameApps\\rail_apps\\OasisEraEditor(2001776)\\ShadowTrackerExtra\\UGCProjects\\Douluo", cli: "0.144.0-alpha.4", originator: "codex_vscode",
		models: []string{"gpt-5.6-sol", "gpt-5.5"}, prompts: 4, responses: 48, lines: 257, copied: 0,
		tokens:  tokens{5136877, 4668032, 15166, 4694, 5152043},
		byModel: map[string]tokens{"gpt-5.5": {3247032, 2918784, 8188, 2438, 3255220}, "gpt-5.6-sol": {1889845, 1749248, 6978, 2256, 1896823}},
		calls:   outcomes{"apply_patch": {"error": 2, "ok": 2}, "collaboration.list_agents": {"ok": 1}, "collaboration.spawn_agent": {"ok": 3}, "collaboration.wait_agent": {"ok": 2}, "exec": {"error": 2, "ok": 22}, "shell_command": {"ok": 10}, "update_plan": {"ok": 1}}},
	{id: "019f4efd-0137-7790-9622-c175e1415048", cwd: "C:\\WeGameApps\\rail_apps\\OasisEraEditor(2001776)\\ShadowTrackerExtra\\UGCProjects\\Douluo", cli: "0.144.0-alpha.4", originator: "codex_vscode",
		models: []string{"gpt-5.6-sol"}, prompts: 0, responses: 19, lines: 105, copied: 12,
		tokens:  tokens{1409060, 1289472, 8826, 4498, 1417886},
		byModel: map[string]tokens{"gpt-5.6-sol": {1409060, 1289472, 8826, 4498, 1417886}},
		calls:   outcomes{"exec": {"error": 3, "ok": 16}}},
	{id: "019f4efd-37a3-7730-acde-568b9592cea0", cwd: "C:\\WeGameApps\\rail_apps\\OasisEraEditor(2001776)\\ShadowTrackerExtra\\UGCProjects\\Douluo", cli: "0.144.0-alpha.4", originator: "codex_vscode",
		models: []string{"gpt-5.6-sol"}, prompts: 0, responses: 26, lines: 129, copied: 14,
		tokens:  tokens{2120760, 1988096, 6467, 2820, 2127227},
		byModel: map[string]tokens{"gpt-5.6-sol": {2120760, 1988096, 6467, 2820, 2127227}},
		calls:   outcomes{"exec": {"error": 4, "ok": 22}}},
	{id: "019f4efd-69cb-70d1-9b5a-1941180791a6", cwd: "C:\\WeGameApps\\rail_apps\\OasisEraEditor(2001776)\\ShadowTrackerExtra\\UGCProjects\\Douluo", cli: "0.144.0-alpha.4", originator: "codex_vscode",
		models: []string{"gpt-5.6-sol"}, prompts: 0, responses: 25, lines: 126, copied: 16,
		tokens:  tokens{2089019, 1948416, 6242, 2382, 2095261},
		byModel: map[string]tokens{"gpt-5.6-sol": {2089019, 1948416, 6242, 2382, 2095261}},
		calls:   outcomes{"exec": {"ok": 25}}},
	{id: "019f5a94-375a-79c0-ba7a-ff1d31e952e5", cwd: "c:\\WeGameApps\\rail_apps\\OasisEraEditor(2001776)\\ShadowTrackerExtra\\UGCProjects\\HunHuan", cli: "0.144.0-alpha.4", originator: "codex_vscode",
		models: []string{"gpt-5.5"}, prompts: 3, responses: 7, lines: 85, copied: 0,
		tokens:  tokens{210040, 154752, 2944, 1058, 212984},
		byModel: map[string]tokens{"gpt-5.5": {210040, 154752, 2944, 1058, 212984}},
		calls:   outcomes{"shell_command": {"error": 2, "ok": 4}, "web_search": {"ok": 5}}},
}

func corpusRollouts(t *testing.T) map[string]*Rollout {
	t.Helper()
	if _, err := os.Stat(corpusBase); err != nil {
		t.Skipf("public Codex corpus not found at %s", corpusBase)
	}
	roots, _ := filepath.Glob(filepath.Join(corpusBase, "*"))
	out := map[string]*Rollout{}
	for _, root := range roots {
		if st, err := os.Stat(root); err != nil || !st.IsDir() {
			continue
		}
		for _, f := range discoverFiles(root) {
			r, err := SummarizeFile(context.Background(), f)
			if err != nil {
				t.Fatalf("%s: %v", f.Path, err)
			}
			out[r.ID] = r
		}
	}
	return out
}

func TestPublicCorpus(t *testing.T) {
	rs := corpusRollouts(t)
	if len(rs) != len(corpusWant) {
		t.Fatalf("%d rollouts, want %d", len(rs), len(corpusWant))
	}
	for _, w := range corpusWant {
		t.Run(w.id[:8], func(t *testing.T) {
			r := rs[w.id]
			if r == nil {
				t.Fatalf("not found")
			}
			if r.FileID != r.ID || r.Cwd != w.cwd || r.CLIVersion != w.cli || r.Originator != w.originator {
				t.Errorf("identity: file id %q cwd %q cli %q originator %q", r.FileID, r.Cwd, r.CLIVersion, r.Originator)
			}
			if r.Lines != w.lines || r.Entries != w.lines || r.Skipped != 0 || r.Torn || r.Drift != 0 {
				t.Errorf("lines %d entries %d skipped %d torn %v drift %d; want %d lines", r.Lines, r.Entries, r.Skipped, r.Torn, r.Drift, w.lines)
			}
			if !reflect.DeepEqual(r.Models, w.models) {
				t.Errorf("models %q, want %q", r.Models, w.models)
			}
			if r.Prompts != w.prompts {
				t.Errorf("prompts %d, want %d", r.Prompts, w.prompts)
			}
			if got := len(r.OwnResponses()); got != w.responses {
				t.Errorf("responses %d, want %d", got, w.responses)
			}
			if got := tokensOfUsage(r.Total); got != w.tokens {
				t.Errorf("tokens %+v, want %+v", got, w.tokens)
			}
			byModel := map[string]tokens{}
			for m, u := range r.UsageByModel() {
				byModel[m] = tokensOfUsage(u)
			}
			if !reflect.DeepEqual(byModel, w.byModel) {
				t.Errorf("by model %+v, want %+v", byModel, w.byModel)
			}
			if got := callOutcomes(r.OwnCalls()); !reflect.DeepEqual(got, w.calls) {
				t.Errorf("calls\n got %v\nwant %v", got, w.calls)
			}
			if got := r.CopyEnd - r.CopyStart; got != w.copied || r.Fork != (w.copied > 0) {
				t.Errorf("copied prefix [%d,%d), want %d lines", r.CopyStart, r.CopyEnd, w.copied)
			}
		})
	}
}

// TestPublicCorpusFamily checks public-codex #9 and its three forks (#10-#12):
// each copy holds the parent's cumulative totals up to the spawn (§9), the
// copies are the parent's own responses, and together the four count every
// response once.
func TestPublicCorpusFamily(t *testing.T) {
	rs := corpusRollouts(t)
	parent := rs["019f4efb-ae76-7e30-b44e-3fa464c16193"]
	children := []struct {
		id       string
		copied   int
		baseline int64 // the parent's cumulative total at the spawn
	}{
		{"019f4efd-0137-7790-9622-c175e1415048", 1, 14047},
		{"019f4efd-37a3-7730-acde-568b9592cea0", 2, 28314},
		{"019f4efd-69cb-70d1-9b5a-1941180791a6", 3, 42763},
	}
	family := []*Rollout{parent}
	var ids []string
	for _, c := range children {
		r := rs[c.id]
		family = append(family, r)
		ids = append(ids, c.id)
		if r.CopiedResponses != c.copied || r.ForkedFrom != parent.ID || r.RootID != parent.ID {
			t.Errorf("%s: copied %d forked from %q root %q", c.id, r.CopiedResponses, r.ForkedFrom, r.RootID)
		}
		var base int64
		for i, x := range r.Responses[:r.CopiedResponses] {
			base += x.Usage.Total()
			if x.Key != parent.Responses[i].Key {
				t.Errorf("%s: copied response %d is not the parent's", c.id, i)
			}
		}
		if base != c.baseline {
			t.Errorf("%s: copied baseline %d, want %d", c.id, base, c.baseline)
		}
	}
	if !reflect.DeepEqual(parent.Children, ids) {
		t.Errorf("children %q, want %q", parent.Children, ids)
	}
	owned := AssignOwners(family)
	var total int64
	for i, r := range family {
		if owned[i].FromAbsentParent != 0 || owned[i].ParentMissing {
			t.Errorf("%s: %+v", r.ID, owned[i])
		}
		for j, x := range r.Responses {
			if owned[i].Responses[j] {
				total += x.Usage.Total()
			}
		}
	}
	// 5,152,043 + 1,417,886 + 2,127,227 + 2,095,261 (EXPECTED.md).
	if total != 10792417 {
		t.Errorf("family total %d, want 10792417", total)
	}
}

// TestPublicCorpusLabels checks the machine-made threads and prompt text.
func TestPublicCorpusLabels(t *testing.T) {
	rs := corpusRollouts(t)
	title := rs["019be13c-21b4-7103-a3e2-9f85a85fab31"]
	if !title.TitleGeneration() || title.Source != "exec" {
		t.Errorf("title thread: source %q first prompt %q", title.Source, title.FirstPrompt)
	}
	if rs["019be13c-2167-7d71-adfa-d8b167591a09"].TitleGeneration() {
		t.Errorf("the real session is labelled a title thread")
	}
	old := rs["019a1ca6-7599-7b71-b519-9ee83a3ffc7d"]
	if want := "conduct code review on this project and output report to docs/CR.md"; old.FirstPrompt != want {
		t.Errorf("VS Code wrapper not stripped: %q", old.FirstPrompt)
	}
	if r := rs["019ef241-b093-76a3-88f5-feaa328642e1"]; r.Resumes != 23 || r.Compactions != 1 {
		t.Errorf("resumes %d compactions %d, want 23 and 1", r.Resumes, r.Compactions)
	}
	for id, r := range rs {
		if len([]rune(r.FirstPrompt)) > PromptLimit {
			t.Errorf("%s: first prompt of %d runes", id, len([]rune(r.FirstPrompt)))
		}
	}
}
