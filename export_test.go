package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agent-activity/agent-activity/logs"
	"github.com/parquet-go/parquet-go"
)

// The export's contract (SPEC §11): its sums equal usage_report's, its tool
// calls are the tools' calls, and the README's DuckDB queries run on it.

// publicCorpusRoots lists the public corpus' log roots, each labelled with
// its folder's name (a machine each); it skips when the corpus is absent.
func publicCorpusRoots(t *testing.T) string {
	t.Helper()
	base := filepath.Join("..", "shared", "corpus", "public")
	ents, err := os.ReadDir(base)
	if err != nil {
		t.Skipf("public corpus not found at %s", base)
	}
	var roots []string
	for _, e := range ents {
		for _, sub := range []string{"projects", filepath.Join(".claude", "projects")} {
			p, _ := filepath.Abs(filepath.Join(base, e.Name(), sub))
			if st, err := os.Stat(p); err == nil && st.IsDir() {
				roots = append(roots, e.Name()+"="+p)
			}
		}
	}
	if len(roots) == 0 {
		t.Skipf("no log roots under %s", base)
	}
	return strings.Join(roots, string(os.PathListSeparator))
}

func exportEnv(t *testing.T, roots string) {
	t.Helper()
	withEnv(t, "AGENT_ACTIVITY_LOG_ROOT", roots, "AGENT_ACTIVITY_NOW", fixedNow, "AGENT_ACTIVITY_TIMEZONE", "UTC")
}

// runArgs runs the program as a command line would.
func runArgs(args ...string) (code int, stdout, stderr string) {
	var out, errb strings.Builder
	code = run(context.Background(), args, strings.NewReader(""), &out, &errb, time.Now)
	return code, out.String(), errb.String()
}

// exportTo runs export into a new folder and checks its streams.
func exportTo(t *testing.T, format string, extra ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "export")
	code, stdout, stderr := runArgs(append([]string{"export", "--format", format, "--out", dir}, extra...)...)
	if code != 0 || stdout != "" {
		t.Fatalf("export %s: code %d, stdout %q, stderr %q", format, code, stdout, stderr)
	}
	if !strings.Contains(stderr, "written to "+dir) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("export %s: stderr %q; want one closing line (a short export shows no progress)", format, stderr)
	}
	return dir
}

// usageCall runs usage_report through the call command.
func usageCall(t *testing.T, args ...string) usageAnswer {
	t.Helper()
	code, stdout, stderr := runArgs(append([]string{"call", "usage_report", "limit=1000"}, args...)...)
	if code != 0 {
		t.Fatalf("usage_report %v: code %d: %s %s", args, code, stdout, stderr)
	}
	var out usageAnswer
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// usageAnswer is the part of usage_report's answer the export is checked against.
type usageAnswer struct {
	Rows []struct {
		Week    string     `json:"week"`
		Machine string     `json:"machine"`
		Usage   usageBlock `json:"usage"`
	} `json:"rows"`
	Totals struct {
		Usage usageBlock `json:"usage"`
	} `json:"totals"`
}

type usageBlock struct {
	Input         int64   `json:"input_tokens"`
	Output        int64   `json:"output_tokens"`
	CacheCreation int64   `json:"cache_creation_tokens"`
	CacheRead     int64   `json:"cache_read_tokens"`
	Total         int64   `json:"total_tokens"`
	Cost          float64 `json:"cost"`
}

// readTable reads an exported table in either format.
func readTable[T any](t *testing.T, path string) []T {
	t.Helper()
	if strings.HasSuffix(path, ".parquet") {
		rows, err := parquet.ReadFile[T](path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return rows
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r T
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("%s: %v in %s", path, err, sc.Text())
		}
		rows = append(rows, r)
	}
	return rows
}

// sumResponses adds up exported responses as usage_report would.
func sumResponses(rows []responseRecord) usageBlock {
	var u usageBlock
	for _, r := range rows {
		u.Input += r.Input
		u.Output += r.Output
		u.CacheCreation += r.CacheCreation
		u.CacheRead += r.CacheRead
		u.Cost += r.Cost
	}
	u.Total = u.Input + u.Output + u.CacheCreation + u.CacheRead
	return u
}

func checkSums(t *testing.T, what string, got, want usageBlock) {
	t.Helper()
	costOK := math.Abs(got.Cost-want.Cost) < 1e-6
	got.Cost, want.Cost = 0, 0
	if got != want || !costOK || want.Total == 0 {
		t.Errorf("%s: export sums %+v, usage_report %+v (cost equal: %v)", what, got, want, costOK)
	}
}

// callCounts is the tools' count of calls by tool and outcome, from the
// same snapshot the commands read.
func callCounts(t *testing.T) map[string]logs.OutcomeCounts {
	t.Helper()
	a, err := setup(time.Now, false)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := a.store.Snapshot(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]logs.OutcomeCounts{}
	for _, s := range snap.Sessions {
		for tool, c := range logs.CountCalls(s, snap.IsLive(s)).PerTool {
			o := out[tool]
			o.OK, o.Error, o.Rejected, o.Pending, o.InProgress = o.OK+c.OK, o.Error+c.Error, o.Rejected+c.Rejected, o.Pending+c.Pending, o.InProgress+c.InProgress
			o.Total += c.Total
			out[tool] = o
		}
	}
	return out
}

func exportedCallCounts(rows []toolCallRecord) map[string]logs.OutcomeCounts {
	out := map[string]logs.OutcomeCounts{}
	for _, r := range rows {
		o := out[r.Tool]
		o.Add(r.Outcome)
		out[r.Tool] = o
	}
	return out
}

func TestExportPublicCorpus(t *testing.T) {
	exportEnv(t, publicCorpusRoots(t))
	whole := usageCall(t).Totals.Usage
	recent := usageCall(t, "since=2026-03-15").Totals.Usage
	wantCalls := callCounts(t)
	for _, format := range []string{"ndjson", "parquet"} {
		dir := exportTo(t, format)
		responses := readTable[responseRecord](t, filepath.Join(dir, "responses."+format))
		checkSums(t, format+" responses", sumResponses(responses), whole)
		calls := readTable[toolCallRecord](t, filepath.Join(dir, "tool_calls."+format))
		if got := exportedCallCounts(calls); fmt.Sprint(got) != fmt.Sprint(wantCalls) {
			t.Errorf("%s tool_calls by tool and outcome:\n got %v\nwant %v", format, got, wantCalls)
		}
		machines := map[string]bool{}
		for _, r := range responses {
			machines[r.Machine] = true
			if r.Agent != "claude-code" || r.SessionID == "" || r.Model == "" || (r.CostStatus != "estimated" && r.CostStatus != "unknown") {
				t.Fatalf("%s: a response row lacks a field: %+v", format, r)
			}
		}
		if len(machines) < 2 {
			t.Errorf("%s: machines %v; want one per labelled root", format, machines)
		}

		// --since as the tools take it.
		dir = exportTo(t, format, "--since", "2026-03-15")
		checkSums(t, format+" responses --since 2026-03-15", sumResponses(readTable[responseRecord](t, filepath.Join(dir, "responses."+format))), recent)
	}
}

// TestExportGeneratedCorpus checks the export against usage_report on
// corpora of scripts/gencorpus, one with the round-two copy rules (replayed
// and resumed sessions, relays, advisors), and against the generator's own
// ground truth on round one (round two's truth is scripts/bench -round2's
// check of the reader).
func TestExportGeneratedCorpus(t *testing.T) {
	tmp := t.TempDir()
	gen := filepath.Join(tmp, "gencorpus")
	if out, err := exec.Command("go", "build", "-o", gen, "./scripts/gencorpus").CombinedOutput(); err != nil {
		t.Fatalf("build gencorpus: %v: %s", err, out)
	}
	for _, round2 := range []bool{false, true} {
		corpus := filepath.Join(tmp, fmt.Sprint("corpus-round2-", round2))
		args := []string{"-out", corpus, "-size", "4MB", "-seed", "3", "-q"}
		if round2 {
			args = append(args, "-round2")
		}
		if out, err := exec.Command(gen, args...).CombinedOutput(); err != nil {
			t.Fatalf("gencorpus: %v: %s", err, out)
		}
		exportEnv(t, filepath.Join(corpus, "projects"))
		want := usageCall(t).Totals.Usage
		for _, format := range []string{"ndjson", "parquet"} {
			dir := exportTo(t, format)
			what := fmt.Sprintf("%s (round2 %v)", format, round2)
			responses := readTable[responseRecord](t, filepath.Join(dir, "responses."+format))
			got := sumResponses(responses)
			checkSums(t, what+" responses", got, want)
			calls := readTable[toolCallRecord](t, filepath.Join(dir, "tool_calls."+format))
			if !round2 {
				checkTruth(t, what, filepath.Join(corpus, "truth.json"), len(responses), got, calls)
			}
		}
	}
}

// checkTruth compares exported rows with gencorpus' truth.json.
func checkTruth(t *testing.T, what, path string, n int, got usageBlock, rows []toolCallRecord) {
	t.Helper()
	var truth struct {
		Totals struct {
			Input         int64 `json:"input_tokens"`
			Output        int64 `json:"output_tokens"`
			CacheCreation int64 `json:"cache_creation_tokens"`
			CacheRead     int64 `json:"cache_read_tokens"`
			Responses     int   `json:"responses"`
		} `json:"totals"`
		ToolCallsInFiles struct{ OK, Error, Rejected, Pending int } `json:"tool_calls_in_files"`
	}
	b, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(b, &truth) != nil {
		t.Fatalf("truth.json: %v", err)
	}
	tt := truth.Totals
	if n != tt.Responses || got.Input != tt.Input || got.Output != tt.Output || got.CacheCreation != tt.CacheCreation || got.CacheRead != tt.CacheRead {
		t.Errorf("%s: %d responses %+v; truth.json says %+v", what, n, got, tt)
	}
	var calls logs.OutcomeCounts
	for _, r := range rows {
		calls.Add(r.Outcome)
	}
	tc := truth.ToolCallsInFiles
	if calls.OK != tc.OK || calls.Error != tc.Error || calls.Rejected != tc.Rejected || calls.Pending != tc.Pending || calls.InProgress != 0 {
		t.Errorf("%s tool_calls: %+v; truth.json (per file) says %+v", what, calls, tc)
	}
}

// TestExportTwoMachines: two labelled copies of one corpus are two machines
// with the same sessions and the same tool calls; every response is on both
// and is exported once, so the sums equal one copy's usage_report, and
// per machine they equal usage_report's group_by=machine rows.
func TestExportTwoMachines(t *testing.T) {
	laptop := fixtureRoot(t)
	desk := fixtureRoot(t)
	exportEnv(t, laptop)
	single := usageCall(t).Totals.Usage
	exportEnv(t, "laptop="+laptop+string(os.PathListSeparator)+"desk="+desk)
	byMachine := usageCall(t, "group_by=machine")
	dir := exportTo(t, "parquet")
	responses := readTable[responseRecord](t, filepath.Join(dir, "responses.parquet"))
	checkSums(t, "two copies", sumResponses(responses), single)
	perMachine := map[string][]responseRecord{}
	for _, r := range responses {
		perMachine[r.Machine] = append(perMachine[r.Machine], r)
	}
	for _, row := range byMachine.Rows {
		checkSums(t, "machine "+row.Machine, sumResponses(perMachine[row.Machine]), row.Usage)
	}
	calls := map[string][]string{}
	for _, r := range readTable[toolCallRecord](t, filepath.Join(dir, "tool_calls.parquet")) {
		calls[r.Machine] = append(calls[r.Machine], r.SessionID+" "+r.Tool+" "+r.Outcome+" "+r.Source+" "+strconv.FormatInt(*r.TimeMs, 10))
	}
	for _, m := range []string{"laptop", "desk"} {
		sort.Strings(calls[m])
	}
	if len(calls) != 2 || len(calls["laptop"]) == 0 || strings.Join(calls["laptop"], "\n") != strings.Join(calls["desk"], "\n") {
		t.Errorf("tool calls per machine differ: laptop %d, desk %d, machines %d", len(calls["laptop"]), len(calls["desk"]), len(calls))
	}
	// --machine narrows the export as the tools' machine argument does.
	code, _, stderr := runArgs("export", "--out", t.TempDir(), "--machine", "attic")
	if code != 2 || !strings.Contains(stderr, "desk, laptop") {
		t.Errorf("--machine attic: code %d, stderr %q", code, stderr)
	}
	deskOnly := exportTo(t, "ndjson", "--machine", "desk")
	for _, r := range readTable[toolCallRecord](t, filepath.Join(deskOnly, "tool_calls.ndjson")) {
		if r.Machine != "desk" {
			t.Fatalf("--machine desk exported a call of %s", r.Machine)
		}
	}
}

func TestExportArguments(t *testing.T) {
	root := fixtureRoot(t)
	exportEnv(t, root)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"export"}, "--out DIR is required"},
		{[]string{"export", "--out", t.TempDir(), "--format", "csv"}, `--format must be ndjson or parquet, not "csv"`},
		{[]string{"export", "--out", t.TempDir(), "--since", "last week"}, "since must be"},
		{[]string{"export", "--out", filepath.Join(root, "exports")}, "is inside the log root"},
		{[]string{"export", "--out", t.TempDir(), "extra"}, `unexpected argument "extra"`},
		{[]string{"export", "--bogus"}, "flag provided but not defined"},
	} {
		code, stdout, stderr := runArgs(c.args...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: code %d, stdout %q, stderr %q; want 2 and %q", c.args, code, stdout, stderr, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "exports")); err == nil {
		t.Errorf("export made a folder inside the log root")
	}
}

// TestExportRedacts: strings leave the export only through redact.Output.
func TestExportRedacts(t *testing.T) {
	key := "sk-ant-api03-" + strings.Repeat("Zq9", 31) + "AA"
	rec := redactor{}.response(logs.ResponseRow{Repo: "repo-" + key, Model: key, SessionID: key, Machine: "m"})
	b, _ := json.Marshal(rec)
	if strings.Contains(string(b), key[:24]) {
		t.Errorf("a secret left the export: %s", b)
	}
}

// sqlBlock matches a fenced SQL block of the README.
var sqlBlock = regexp.MustCompile("(?s)```sql\n(.*?)```")

// readmeQueries returns the SQL of the README's export section.
func readmeQueries(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "## Export for an engine")
	if i < 0 {
		t.Fatal(`README.md has no "## Export for an engine" section`)
	}
	s = s[i+3:]
	if j := strings.Index(s, "\n## "); j >= 0 {
		s = s[:j]
	}
	var out []string
	for _, m := range sqlBlock.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	if len(out) != 2 {
		t.Fatalf("the README's export section has %d SQL blocks; want 2 (cost per machine per week, error rate per tool)", len(out))
	}
	return out
}

// TestExportDuckDB runs the README's queries over both formats in a real
// DuckDB (scripts/duckdb: node and the npm package @duckdb/node-api) and
// checks their answers against usage_report and the tools' call counts.
func TestExportDuckDB(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the DuckDB check needs node and `npm ci` in scripts/duckdb")
	}
	script, _ := filepath.Abs(filepath.Join("scripts", "duckdb", "query.mjs"))
	if _, err := os.Stat(filepath.Join("scripts", "duckdb", "node_modules", "@duckdb", "node-api")); err != nil {
		t.Skip("@duckdb/node-api is not installed: run `npm ci` in scripts/duckdb (.ci/run does)")
	}
	queries := readmeQueries(t)
	exportEnv(t, publicCorpusRoots(t))
	weekly := usageCall(t, "group_by=machine,week")
	wantCalls := callCounts(t)
	for _, format := range []string{"parquet", "ndjson"} {
		dir := exportTo(t, format)
		stmts := []string{"SET TimeZone = 'UTC'"}
		for _, q := range queries {
			q = strings.ReplaceAll(q, "'export/", "'"+filepath.ToSlash(dir)+"/")
			stmts = append(stmts, strings.ReplaceAll(q, ".parquet'", "."+format+"'"))
		}
		in, _ := json.Marshal(stmts)
		cmd := exec.Command(node, script)
		cmd.Stdin = strings.NewReader(string(in))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: duckdb: %v: %s", format, err, stderr.String())
		}
		var results [][]map[string]any
		if err := json.Unmarshal(out, &results); err != nil || len(results) != 3 {
			t.Fatalf("%s: duckdb answered %.300s (%v)", format, out, err)
		}

		// Cost per machine per week = usage_report group_by=machine,week.
		want := map[string]usageBlock{}
		for _, r := range weekly.Rows {
			want[r.Machine+" "+r.Week] = r.Usage
		}
		if len(results[1]) != len(want) || len(want) < 2 {
			t.Errorf("%s: %d machine-weeks from DuckDB, %d from usage_report", format, len(results[1]), len(want))
		}
		for _, row := range results[1] {
			key := fmt.Sprint(row["machine"], " ", row["week"])
			w, ok := want[key]
			if !ok || number(row["tokens"]) != float64(w.Total) || math.Abs(number(row["cost_usd"])-w.Cost) > 0.0051 {
				t.Errorf("%s: DuckDB %s: tokens %v cost %v; usage_report %+v (found %v)", format, key, row["tokens"], row["cost_usd"], w, ok)
			}
		}

		// Error rate per tool = the tools' counts.
		if len(results[2]) != len(wantCalls) {
			t.Errorf("%s: %d tools from DuckDB, %d counted", format, len(results[2]), len(wantCalls))
		}
		for _, row := range results[2] {
			tool := fmt.Sprint(row["tool"])
			c := wantCalls[tool]
			rate := math.Round(float64(c.Error)/float64(c.Total)*1000) / 1000
			if number(row["calls"]) != float64(c.Total) || number(row["errors"]) != float64(c.Error) || number(row["error_rate"]) != rate {
				t.Errorf("%s: DuckDB %s: %v calls, %v errors, rate %v; counted %d, %d, %v", format, tool, row["calls"], row["errors"], row["error_rate"], c.Total, c.Error, rate)
			}
		}
	}
}

// number reads a DuckDB JSON value: BIGINTs come as strings.
func number(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case string:
		f, _ := strconv.ParseFloat(x, 64)
		return f
	}
	return math.NaN()
}

func TestExportProgressLine(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	var clock time.Time
	var w strings.Builder
	p := &progressLine{w: &w, start: t0, now: func() time.Time { return clock }}
	for _, ms := range []int{0, 500, 999, 1100, 1500, 2099, 2100, 5000} {
		clock = t0.Add(time.Duration(ms) * time.Millisecond)
		p.say("at %d", ms)
	}
	if got, want := w.String(), "agent-activity export: at 1100\nagent-activity export: at 2100\nagent-activity export: at 5000\n"; got != want {
		t.Errorf("progress lines:\n%s\nwant (nothing in the first second, then at most one a second):\n%s", got, want)
	}
}
