package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// TestAppendJSONStringIsEncodingJSONs: the text copy of an answer is the
// string encoding/json would write, byte for byte.
func TestAppendJSONStringIsEncodingJSONs(t *testing.T) {
	cases := []string{
		"", `{"a":"b"}`, `{"q":"say \"hi\"\\n","html":"<b>&amp;</b>"}`,
		"tab\tnew\nline\rback\bform\f nul\x00 esc\x1b del\x7f",
		"変更 é 😀 \u2028 \u2029 \u2027 \u202a",
		"bad \xff byte, cut \xe2\x82 rune, overlong \xc0\xaf, surrogate \xed\xa0\x80",
	}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("ab\"\\<>&\n\x01\x1f\x7f\x80\xbf\xc3\xa9\xe2\x80\xa8\xa9\xf0\x9f\x98\x80\xff ")
	for range 2000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		cases = append(cases, string(b))
	}
	for _, c := range cases {
		want, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString([]byte("x"), []byte(c)); string(got) != "x"+string(want) {
			t.Fatalf("%q: got %s, want %s", c, got[1:], want)
		}
	}
}

// wireAnswers are answers as tools.leave makes them (encoding/json's
// compact output): with what a string needs escaped, non-ASCII text, and
// a long one.
var wireAnswers = func() (answers []string) {
	for _, v := range []any{
		map[string]any{},
		map[string]any{"sessions": []any{map[string]any{"title": `fix "api.ts" <b> & co`, "cwd": `C:\Users\dev`}}, "next_cursor": "abc"},
		map[string]any{"line": "tab\tnewline\n\r\x00\x1f", "u": "\u2028 \u2029 变更 😀", "bad": "\xff"},
		map[string]any{"plain": strings.Repeat("0123456789", 3000)},
	} {
		b, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		answers = append(answers, string(b))
	}
	return answers
}()

// answerResult is the result tools.Spec's handler makes of an answer.
func answerResult(raw json.RawMessage) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{mcp.TextContent{Type: "text", Text: string(raw)}}, StructuredContent: raw}
}

// wireServer serves tools that return what tools.Spec's handler returns:
// an answer as structured content and as text, an error result, and a
// structured result that is not raw JSON, answering lines read from in
// until it has written want lines.
func wireServer(t *testing.T, wire *answerWire, in string, want int) []byte {
	t.Helper()
	s := server.NewMCPServer("wire-test", "1", server.WithToolCapabilities(false), server.WithRecovery())
	hold := func(h server.ToolHandlerFunc) server.ToolHandlerFunc { return h }
	if wire != nil {
		hold = wire.hold
	}
	for i, a := range wireAnswers {
		raw := json.RawMessage(a)
		s.AddTool(mcp.NewTool(fmt.Sprintf("answer%d", i)), hold(func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return answerResult(raw), nil
		}))
	}
	s.AddTool(mcp.NewTool("failing"), hold(func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultError(`no session "x": call list_recent_sessions`), nil
	}))
	s.AddTool(mcp.NewTool("mapped"), hold(func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultStructuredOnly(map[string]any{"n": 1, "s": "<x>"}), nil
	}))
	out := &countedLines{want: want, done: make(chan struct{})}
	var w io.Writer = out
	if wire != nil {
		wire.out = out
		w = wire
	}
	// Input ends once every answer is out: at the end of its input mcp-go
	// stops its workers, and calls still queued then go unanswered.
	pr, pw := io.Pipe()
	go func() {
		io.WriteString(pw, in)
		<-out.done
		pw.Close()
	}()
	if err := server.NewStdioServer(s).Listen(context.Background(), pr, w); err != nil {
		t.Fatal(err)
	}
	return out.buf.Bytes()
}

// countedLines collects what a server writes and closes done once it has
// written want lines.
type countedLines struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want int
	done chan struct{}
}

func (c *countedLines) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf.Write(p)
	if n := bytes.Count(c.buf.Bytes(), []byte("\n")); n == c.want {
		close(c.done)
	}
	return len(p), nil
}

// TestAnswerWireWritesWhatMcpGoWrites: a server whose answers go through
// the wire writes the lines mcp-go writes without it, byte for byte, with
// calls answered concurrently by mcp-go's workers, and keeps no answer
// once written.
func TestAnswerWireWritesWhatMcpGoWrites(t *testing.T) {
	var in strings.Builder
	in.WriteString(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n")
	in.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	names := []string{"failing", "mapped"}
	for i := range wireAnswers {
		names = append(names, fmt.Sprintf("answer%d", i))
	}
	for i := range 40 {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{}}}`+"\n", i+1, names[i%len(names)])
	}
	in.WriteString(`{"jsonrpc":"2.0","id":99,"method":"tools/list"}` + "\n")
	sorted := func(b []byte) []string {
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		slices.Sort(lines)
		return lines
	}
	want := sorted(wireServer(t, nil, in.String(), 42))
	wire := newAnswerWire(nil)
	got := sorted(wireServer(t, wire, in.String(), 42))
	if len(got) != len(want) || len(want) != 42 {
		t.Fatalf("got %d lines, want %d (42)", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			at := 0
			for at < len(got[i]) && at < len(want[i]) && got[i][at] == want[i][at] {
				at++
			}
			t.Errorf("line %d differs at byte %d:\ngot  …%.200s\nwant …%.200s", i, at, got[i][max(0, at-100):], want[i][max(0, at-100):])
		}
	}
	if strings.Contains(strings.Join(got, ""), "agent-activity-answer-") {
		t.Error("a placeholder reached the wire")
	}
	if wire.next != 26 { // the calls of answer0-3
		t.Errorf("the wire held %d answers, want 26", wire.next)
	}
	if len(wire.held) != 0 {
		t.Errorf("%d answers still held after every answer was written", len(wire.held))
	}
}

// TestAnswerWireLeavesOtherLines: a line without a held answer's
// placeholders, or with one of another process, is written as it came.
func TestAnswerWireLeavesOtherLines(t *testing.T) {
	var out bytes.Buffer
	wire := newAnswerWire(&out)
	other := newAnswerWire(nil)
	lines := []string{
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}` + "\n",
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":` + string(other.prefix) + `1-text"}],"structuredContent":` + string(other.prefix) + `1-json"}}` + "\n",
		`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":` + string(wire.prefix) + `7-text"}],"structuredContent":` + string(wire.prefix) + `7-json"}}` + "\n",
	}
	for _, l := range lines {
		n, err := wire.Write([]byte(l))
		if err != nil || n != len(l) {
			t.Fatalf("Write: %d, %v", n, err)
		}
	}
	if out.String() != strings.Join(lines, "") {
		t.Errorf("got %s", out.String())
	}
}

// TestAnswerWireFillsEitherOrder: the placeholders are filled wherever they
// are in the line, the structured one first too.
func TestAnswerWireFillsEitherOrder(t *testing.T) {
	var out bytes.Buffer
	wire := newAnswerWire(&out)
	raw := json.RawMessage(wireAnswers[1])
	res, err := wire.hold(func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return answerResult(raw), nil
	})(context.Background(), mcp.CallToolRequest{})
	if err != nil {
		t.Fatal(err)
	}
	text, _ := json.Marshal(res.Content[0].(mcp.TextContent).Text)
	structured := res.StructuredContent.(json.RawMessage)
	line := `{"result":{"structuredContent":` + string(structured) + `,"content":[{"type":"text","text":` + string(text) + `}]}}` + "\n"
	if _, err := wire.Write([]byte(line)); err != nil {
		t.Fatal(err)
	}
	quoted, _ := json.Marshal(string(raw))
	want := `{"result":{"structuredContent":` + string(raw) + `,"content":[{"type":"text","text":` + string(quoted) + `}]}}` + "\n"
	if out.String() != want {
		t.Errorf("got  %s\nwant %s", out.String(), want)
	}
}
