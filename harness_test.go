package main

// The harness every test of the real binary uses: it builds the binary once,
// copies the fixture tree, starts the server over stdio (internal/stdiotest)
// with a fixed clock, resolves each tool's outputSchema, validates answers
// against them, and at the end checks the exit, that every stdout line was
// JSON-RPC, and that stderr shows no panic.

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

	"github.com/agent-activity/agent-activity/internal/fixture"
	"github.com/agent-activity/agent-activity/internal/stdiotest"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"
)

var testBinary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "agent-activity-e2e-")
	if err != nil {
		panic(err)
	}
	testBinary, err = stdiotest.Build(".", dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

const fixedNow = "2026-11-30T12:00:00Z"

// fixtureRoot copies testdata/projects with mtimes taken from the transcripts.
func fixtureRoot(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "projects")
	if err := fixture.CopyTree(filepath.Join("testdata", "projects"), root); err != nil {
		t.Fatal(err)
	}
	return root
}

// testServer is a server started from any executable (the binary itself or
// a wrapper script around it) on a log root, closed explicitly or at cleanup.
type testServer struct {
	t       *testing.T
	srv     *stdiotest.Server
	init    *mcp.InitializeResult
	ctx     context.Context
	tools   []mcp.Tool
	schemas map[string]*jsonschema.Resolved
	once    sync.Once
}

// startE2E starts the binary on root for a test of answers.
func startE2E(t *testing.T, root string, env ...string) *testServer {
	t.Helper()
	return startServer(t, testBinary, root, 2*time.Minute, env...)
}

// startServer starts bin on root with the fixed clock and UTC (env may
// override), within timeout, and resolves every tool's output schema.
func startServer(t *testing.T, bin, root string, timeout time.Duration, env ...string) *testServer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	// Codex is off unless a test names its root: no test reads a real ~/.codex.
	env = append([]string{"AGENT_ACTIVITY_LOG_ROOT=" + root, "AGENT_ACTIVITY_CODEX_ROOT=", "AGENT_ACTIVITY_NOW=" + fixedNow, "AGENT_ACTIVITY_TIMEZONE=UTC"}, env...)
	srv, init, err := stdiotest.Start(ctx, bin, env)
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{t: t, srv: srv, init: init, ctx: ctx, schemas: map[string]*jsonschema.Resolved{}}
	t.Cleanup(ts.close)
	if init.ProtocolVersion != stdiotest.ProtocolVersion {
		t.Fatalf("protocol %s", init.ProtocolVersion)
	}
	list, err := srv.Client.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	ts.tools = list.Tools
	for _, tool := range list.Tools {
		raw := tool.RawOutputSchema
		if len(raw) == 0 {
			if raw, err = json.Marshal(tool.OutputSchema); err != nil {
				t.Fatal(err)
			}
		}
		var s jsonschema.Schema
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatalf("%s: output schema: %v", tool.Name, err)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: resolve output schema: %v", tool.Name, err)
		}
		ts.schemas[tool.Name] = r
	}
	return ts
}

// close ends the server and checks its exit, stdout hygiene and stderr.
func (ts *testServer) close() {
	ts.once.Do(func() {
		t := ts.t
		if err := ts.srv.Close(); err != nil {
			t.Errorf("server exit: %v; stderr: %s", err, ts.srv.Stderr())
		}
		if bad, n := ts.srv.BadLines(); len(bad) > 0 {
			t.Errorf("%d of %d stdout lines are not JSON-RPC: %.200s", len(bad), n, bad[0])
		}
		if se := ts.srv.Stderr(); strings.Contains(se, "panic") || strings.Contains(se, "goroutine ") {
			t.Errorf("the server's stderr shows a panic:\n%.2000s", se)
		}
	})
}

// call invokes a tool, checks the result against its output schema (for
// successes) and returns the structured content.
func (ts *testServer) call(tool string, args map[string]any) map[string]any {
	ts.t.Helper()
	out, isErr, err := ts.srv.Call(ts.ctx, tool, args)
	if err != nil {
		ts.t.Fatalf("%s: %v", tool, err)
	}
	if isErr {
		ts.t.Fatalf("%s %v: unexpected error %v", tool, args, out)
	}
	ts.validate(tool, out)
	return out
}

func (ts *testServer) validate(tool string, out map[string]any) {
	ts.t.Helper()
	// Round-trip through JSON so numbers are float64, as the validator expects.
	b, _ := json.Marshal(out)
	var v any
	json.Unmarshal(b, &v)
	if err := ts.schemas[tool].Validate(v); err != nil {
		ts.t.Errorf("%s: output does not validate against its outputSchema: %v", tool, err)
	}
}

// callErr invokes a tool that must fail and returns its error body.
func (ts *testServer) callErr(tool string, args map[string]any) map[string]any {
	ts.t.Helper()
	out, isErr, err := ts.srv.Call(ts.ctx, tool, args)
	if err != nil {
		ts.t.Fatalf("%s: %v", tool, err)
	}
	if !isErr {
		ts.t.Fatalf("%s %v: want an error result, got %v", tool, args, out)
	}
	return out
}

func num(v any) string { return fmt.Sprint(v) }
