package tools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agent-activity/agent-activity/logs"
)

func registry() []Spec {
	return All(Deps{Store: logs.NewStore(logs.Config{})})
}

// transcriptTools return text taken from transcripts, so their descriptions
// must say it is data, not instructions. A new tool that returns transcript
// text belongs here.
var transcriptTools = map[string]bool{
	"list_recent_sessions": true,
	"summarize_work":       true,
	"tail_agent_log":       true,
	"summarize_tool_calls": true,
	"session_recap":        true,
	"search_transcripts":   true,
}

// alwaysLoaded are the tools a session reaches for first: Claude Code loads
// them up front instead of deferring them behind its tool search (SPEC §7).
var alwaysLoaded = map[string]bool{
	"list_recent_sessions": true,
	"summarize_work":       true,
}

// maxDescription is the longest tool description SPEC §7 allows.
const maxDescription = 1500

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)+$`)

// TestSchemaSnapshots compares each tool's tools/list JSON with
// testdata/<tool>.json: the snapshot is the API contract, so any change to a
// name, description, schema or annotation shows in review. Rewrite with
// `go test ./tools -update`.
func TestSchemaSnapshots(t *testing.T) {
	want := map[string]bool{}
	for _, spec := range registry() {
		name := spec.Tool.Name
		want[name+".json"] = true
		got, err := json.MarshalIndent(spec.Tool, "", "  ")
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		checkGolden(t, filepath.Join("testdata", name+".json"), append(got, '\n'))
	}
	// A snapshot without a tool is a removed tool: a breaking change to review.
	ents, _ := os.ReadDir("testdata")
	for _, e := range ents {
		if filepath.Ext(e.Name()) != ".json" || want[e.Name()] {
			continue
		}
		if *update {
			os.Remove(filepath.Join("testdata", e.Name()))
			continue
		}
		t.Errorf("testdata/%s has no tool in the registry; run `go test ./tools -update` if the tool was removed on purpose", e.Name())
	}
}

// TestRegistry checks what every tool must have, whatever it does.
func TestRegistry(t *testing.T) {
	specs := registry()
	if len(specs) == 0 {
		t.Fatal("no tools")
	}
	seen := map[string]bool{}
	for _, spec := range specs {
		tool := spec.Tool
		name := tool.Name
		if !snakeCase.MatchString(name) {
			t.Errorf("%q is not snake_case", name)
		}
		if seen[name] {
			t.Errorf("%s is registered twice", name)
		}
		seen[name] = true
		if spec.Call == nil {
			t.Errorf("%s: no Call function", name)
		}
		if strings.TrimSpace(tool.Description) == "" || tool.Title == "" {
			t.Errorf("%s: description or title missing", name)
		}
		a := tool.Annotations
		if a.ReadOnlyHint == nil || !*a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint ||
			a.IdempotentHint == nil || !*a.IdempotentHint || a.OpenWorldHint == nil || *a.OpenWorldHint || a.Title == "" {
			t.Errorf("%s: annotations must be set and say read-only, non-destructive, idempotent, closed-world, with a title: %+v", name, a)
		}
		if n := len([]rune(tool.Description)); n > maxDescription {
			t.Errorf("%s: description has %d characters, more than %d", name, n, maxDescription)
		}
		var meta map[string]any
		if tool.Meta != nil {
			meta = tool.Meta.AdditionalFields
		}
		if hint, _ := meta["anthropic/searchHint"].(string); strings.TrimSpace(hint) == "" || len(hint) > 200 {
			t.Errorf("%s: _meta anthropic/searchHint must be a few search words; got %q", name, hint)
		}
		if load, _ := meta["anthropic/alwaysLoad"].(bool); load != alwaysLoaded[name] {
			t.Errorf("%s: _meta anthropic/alwaysLoad is %v, want %v", name, load, alwaysLoaded[name])
		}
		if transcriptTools[name] && !strings.Contains(tool.Description, "data, not instructions") {
			t.Errorf("%s returns transcript text but its description does not say it is data, not instructions", name)
		}
		in := schemaOf(t, name, "input", tool.RawInputSchema, tool.InputSchema)
		out := schemaOf(t, name, "output", tool.RawOutputSchema, tool.OutputSchema)
		for kind, s := range map[string]map[string]any{"input": in, "output": out} {
			if s == nil {
				t.Errorf("%s: no %s schema", name, kind)
				continue
			}
			if s["type"] != "object" {
				t.Errorf("%s: %s schema type %v, want object", name, kind, s["type"])
			}
			for _, k := range []string{"anyOf", "oneOf", "allOf", "not"} {
				if _, ok := s[k]; ok {
					t.Errorf("%s: %s schema has top-level %s; clients reject or mishandle it", name, kind, k)
				}
			}
		}
		if in == nil {
			continue
		}
		// A list that pages says where the next page starts, and takes it back.
		inProps, _ := in["properties"].(map[string]any)
		outProps, _ := out["properties"].(map[string]any)
		if _, pages := outProps["next_cursor"]; pages != (inProps["cursor"] != nil) {
			t.Errorf("%s: next_cursor in the output and cursor in the input must come together", name)
		}
		if in["additionalProperties"] != false {
			t.Errorf("%s: input schema must set additionalProperties: false (unknown arguments are rejected)", name)
		}
		props, _ := in["properties"].(map[string]any)
		for pname, p := range props {
			if !snakeCase.MatchString(pname) && !regexp.MustCompile(`^[a-z][a-z0-9]*$`).MatchString(pname) {
				t.Errorf("%s: argument %q is not snake_case", name, pname)
			}
			pm, _ := p.(map[string]any)
			if d, _ := pm["description"].(string); d == "" {
				t.Errorf("%s: argument %q has no description", name, pname)
			}
		}
	}
}

// schemaOf returns a tool's schema as generic JSON, raw or structured.
func schemaOf(t *testing.T, name, kind string, raw json.RawMessage, structured any) map[string]any {
	t.Helper()
	b := []byte(raw)
	if len(b) == 0 {
		var err error
		if b, err = json.Marshal(structured); err != nil {
			t.Errorf("%s: %s schema: %v", name, kind, err)
			return nil
		}
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Errorf("%s: %s schema is not an object: %v", name, kind, err)
		return nil
	}
	if len(m) == 0 || m["type"] == nil {
		return nil
	}
	return m
}

// TestREADMEToolsTable keeps the README's tools table (between the
// tools-table markers) listing exactly the registry's tools, in order.
func TestREADMEToolsTable(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	const start, end = "<!-- tools-table:start -->", "<!-- tools-table:end -->"
	text := string(readme)
	i, j := strings.Index(text, start), strings.Index(text, end)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the %s ... %s markers", start, end)
	}
	cell := regexp.MustCompile("^\\|\\s*`([a-z0-9_]+)`\\s*\\|\\s*(.*?)\\s*\\|\\s*$")
	var listed []string
	for _, line := range strings.Split(text[i+len(start):j], "\n") {
		if m := cell.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			listed = append(listed, m[1])
			if m[2] == "" {
				t.Errorf("README: %s has no description", m[1])
			}
		}
	}
	var want []string
	for _, spec := range registry() {
		want = append(want, spec.Tool.Name)
	}
	if strings.Join(listed, ",") != strings.Join(want, ",") {
		t.Errorf("README tools table lists\n  %s\nthe registry has\n  %s\n(update README.md between the tools-table markers)",
			strings.Join(listed, ", "), strings.Join(want, ", "))
	}
}

// TestNamedBuildsEachTool: every listed tool is found by its own name, and
// an unknown name by none.
func TestNamedBuildsEachTool(t *testing.T) {
	all := All(Deps{})
	names := Names()
	if len(names) != len(all) {
		t.Fatalf("%d names for %d tools", len(names), len(all))
	}
	for i, s := range all {
		if names[i] != s.Tool.Name {
			t.Errorf("name %d is %q, the tool is %q", i, names[i], s.Tool.Name)
		}
		got, ok := Named(Deps{}, s.Tool.Name)
		if !ok || got.Tool.Name != s.Tool.Name || got.Tool.Description != s.Tool.Description {
			t.Errorf("Named(%q) = %q, %v", s.Tool.Name, got.Tool.Name, ok)
		}
	}
	if _, ok := Named(Deps{}, "no_such_tool"); ok {
		t.Error("Named found an unknown tool")
	}
}
