package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agent-activity/agent-activity/claudecode"
	"github.com/agent-activity/agent-activity/internal/golden"
	"github.com/agent-activity/agent-activity/transcript"

	"github.com/agent-activity/agent-activity/logs"
	"github.com/agent-activity/agent-activity/pricing"
	"github.com/agent-activity/agent-activity/tools"
)

func init() {
	// Another test file of this binary may define -update already.
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files (docs/)")
	}
}

func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// docFamily is one page of docs/: a family of tools and the example each runs.
type docFamily struct {
	file, title, intro string
	examples           []docExample
}

type docExample struct {
	tool string
	args map[string]any
}

// docFamilies lists every page. Every tool of the registry must appear in
// exactly one; a page whose tools are all absent from the registry is not
// written. Arguments are kept small so the pages stay readable.
var docFamilies = []docFamily{
	{"sessions.md", "Sessions: list, summarize work, tail, tool calls, recap",
		"Find a session, summarize a window's work across sessions, read a session's last entries, see why its tool calls failed, " +
			"and get a handoff note. " +
			"Every tool that takes `session` accepts a full id, a unique prefix of at least 4 characters, or `\"latest\"`.",
		[]docExample{
			{"list_recent_sessions", map[string]any{"repo": "split-usage", "limit": 1}},
			{"summarize_work", map[string]any{"repo": "titles", "since": "2026-11-28", "until": "2026-11-28"}},
			{"tail_agent_log", map[string]any{"session": "dae68d1d", "limit": 2}},
			{"summarize_tool_calls", map[string]any{"session": "b86f27bf"}},
			{"session_recap", map[string]any{"session": "45aa96c3"}},
		}},
	{"search.md", "Search: transcripts and files",
		"Find where something was said, or which sessions read, edited or wrote a file.",
		[]docExample{
			{"search_transcripts", map[string]any{"query": "retry helper", "limit": 2}},
			{"file_activity", map[string]any{"path": "api.ts", "limit": 2}},
		}},
	{"usage.md", "Usage: reports, pacing, coverage",
		"Tokens and estimated cost (API list price, not a bill) over any period, the current burn rate, " +
			"and what history this machine holds.",
		[]docExample{
			{"usage_report", map[string]any{"group_by": "model", "since": "2026-11-21", "until": "2026-11-21"}},
			{"pacing_window", map[string]any{"hours": 48}},
			{"coverage_stats", map[string]any{}},
		}},
	{"secrets.md", "Secrets: leaked credentials in the history",
		"Find credentials that were pasted into or printed during sessions, without ever showing them.",
		[]docExample{
			{"scan_secrets", map[string]any{"max_findings": 2}},
		}},
}

const docsClock = "2026-11-30T12:00:00Z"

// TestDocs generates docs/*.md from the fixture history: for each tool, its
// description, its arguments (from the input schema) and one real request and
// response. The committed pages must equal the generated ones; rewrite them
// with `go test -run TestDocs . -update`.
func TestDocs(t *testing.T) {
	root := fixtureRoot(t)
	table, err := pricing.Load(builtinPricing, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	clock, _ := time.Parse(time.RFC3339, docsClock)
	store := logs.NewStore(logs.Config{Agents: []transcript.Agent{claudecode.Agent{}}, Roots: []string{root}, LiveWindow: 10 * time.Minute, Location: time.UTC,
		Now: func() time.Time { return clock }, Pricing: table})
	specs := map[string]tools.Spec{}
	var order []string
	for _, s := range tools.All(tools.Deps{Store: store}) {
		specs[s.Tool.Name] = s
		order = append(order, s.Tool.Name)
	}

	documented := map[string]bool{}
	var index []string
	pages := map[string]bool{}
	for _, fam := range docFamilies {
		var present []docExample
		for _, ex := range fam.examples {
			if documented[ex.tool] {
				t.Errorf("%s is documented twice", ex.tool)
			}
			documented[ex.tool] = true
			if _, ok := specs[ex.tool]; ok {
				present = append(present, ex)
			}
		}
		if len(present) == 0 {
			continue
		}
		pages[fam.file] = true
		page := renderFamily(t, fam, present, specs, root)
		checkGolden(t, filepath.Join("docs", fam.file), page)
		var names []string
		for _, ex := range present {
			names = append(names, "`"+ex.tool+"`")
		}
		index = append(index, fmt.Sprintf("| [%s](%s) | %s |", fam.title, fam.file, strings.Join(names, ", ")))
	}
	for _, name := range order {
		if !documented[name] {
			t.Errorf("tool %s has no docs page: add it to docFamilies in docs_test.go", name)
		}
	}
	pages["README.md"] = true
	pages["choices.md"] = true       // written by hand: the decisions where SPEC is silent
	pages["architecture.md"] = true  // written by hand: the layers and where each rule lives
	pages["bench-history.md"] = true // written by hand: every bench run the README has reported
	checkGolden(t, filepath.Join("docs", "README.md"), renderIndex(index))
	// A page for tools that no longer exist would mislead.
	ents, _ := os.ReadDir("docs")
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".md") && !pages[e.Name()] {
			if updating() {
				os.Remove(filepath.Join("docs", e.Name()))
			} else {
				t.Errorf("docs/%s documents no registered tool; run `go test -run TestDocs . -update`", e.Name())
			}
		}
	}
}

const generatedNote = "<!-- Generated by TestDocs (docs_test.go) from testdata/projects. Do not edit by hand: " +
	"run `go test -run TestDocs . -update`. -->\n"

func renderIndex(rows []string) []byte {
	var b bytes.Buffer
	b.WriteString("# agent-activity tool reference\n\n")
	b.WriteString(generatedNote + "\n")
	b.WriteString("One page per family of tools. Each tool has its description as clients see it, its arguments, " +
		"and one real request and response, produced from the fixture history in `testdata/projects` " +
		"by the test that keeps these pages current.\n\n")
	b.WriteString("| page | tools |\n|---|---|\n")
	for _, r := range rows {
		b.WriteString(r + "\n")
	}
	b.WriteString("\nThe prompts `handoff` and `debug_tool_failures`, the `doctor` and `install` commands and the " +
		"configuration are described in the [README](../README.md).\n")
	return b.Bytes()
}

func renderFamily(t *testing.T, fam docFamily, examples []docExample, specs map[string]tools.Spec, root string) []byte {
	t.Helper()
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s\n\n%s\n%s\n\n", fam.title, generatedNote, fam.intro)
	fmt.Fprintf(&b, "The examples below ran against the fixture history in `testdata/projects` with the clock at %s "+
		"and time zone UTC; the log root is shown as `~/.claude/projects`. Responses are the `structuredContent` "+
		"of the result; its text content carries the same JSON.\n", docsClock)
	for _, ex := range examples {
		spec := specs[ex.tool]
		fmt.Fprintf(&b, "\n## `%s`: %s\n\n%s\n\n", ex.tool, spec.Tool.Title, spec.Tool.Description)
		b.WriteString(argumentTable(t, spec))
		rawArgs, _ := json.Marshal(ex.args)
		out, err := spec.Call(context.Background(), rawArgs)
		if err != nil {
			t.Errorf("%s %s: %v", ex.tool, rawArgs, err)
			continue
		}
		type params struct {
			Name      string         `json:"name"`
			Arguments map[string]any `json:"arguments"`
		}
		req := struct {
			JSONRPC string `json:"jsonrpc"`
			ID      int    `json:"id"`
			Method  string `json:"method"`
			Params  params `json:"params"`
		}{"2.0", 1, "tools/call", params{ex.tool, ex.args}}
		fmt.Fprintf(&b, "\n### Example\n\nRequest:\n\n```json\n%s\n```\n\nResponse:\n\n```json\n%s\n```\n",
			indentJSON(t, req), strings.ReplaceAll(indentJSON(t, out), root, "~/.claude/projects"))
	}
	return b.Bytes()
}

// argumentTable renders the input schema's properties as a Markdown table.
func argumentTable(t *testing.T, spec tools.Spec) string {
	t.Helper()
	raw := []byte(spec.Tool.RawInputSchema)
	if len(raw) == 0 {
		raw, _ = json.Marshal(spec.Tool.InputSchema)
	}
	var schema struct {
		Properties map[string]map[string]any `json:"properties"`
		Required   []string                  `json:"required"`
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatalf("%s: input schema: %v", spec.Tool.Name, err)
	}
	if len(schema.Properties) == 0 {
		return "No arguments.\n"
	}
	required := map[string]bool{}
	for _, r := range schema.Required {
		required[r] = true
	}
	names := make([]string, 0, len(schema.Properties))
	for n := range schema.Properties {
		names = append(names, n)
	}
	// Required arguments first, then by name.
	sort.Slice(names, func(i, j int) bool {
		if required[names[i]] != required[names[j]] {
			return required[names[i]]
		}
		return names[i] < names[j]
	})
	var b strings.Builder
	b.WriteString("| argument | type | required | meaning |\n|---|---|---|---|\n")
	for _, n := range names {
		p := schema.Properties[n]
		req := "no"
		if required[n] {
			req = "yes"
		}
		desc, _ := p["description"].(string)
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", n, typeOf(p), req, strings.ReplaceAll(desc, "|", `\|`))
	}
	return b.String()
}

// typeOf describes a property's JSON type for people: "integer 1..200, default 20".
func typeOf(p map[string]any) string {
	var typ string
	switch v := p["type"].(type) {
	case string:
		typ = v
	case []any:
		for _, x := range v {
			if s, _ := x.(string); s != "null" {
				typ = s
			}
		}
	}
	if typ == "array" {
		if items, ok := p["items"].(map[string]any); ok {
			typ = "array of " + typeOf(items)
		}
	}
	if min, ok := p["minimum"]; ok {
		typ += fmt.Sprintf(" %v..%v", min, p["maximum"])
	}
	if def, ok := p["default"]; ok {
		typ += fmt.Sprintf(", default %v", def)
	}
	return typ
}

func indentJSON(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimRight(b.String(), "\n")
}

// checkGolden compares got with the file at path, or writes it with -update.
func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	golden.Golden(t, path, got, updating(), "go test -run TestDocs . -update")
}
