package codex

import (
	"context"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/agent-activity/agent-activity/transcript"
)

type scanned struct {
	lines            []int
	kinds            []Kind
	entries, skipped int
	torn             bool
}

func scanAll(t *testing.T, in string) scanned {
	t.Helper()
	rd := NewReader(context.Background(), strings.NewReader(in))
	var s scanned
	for rd.Scan() {
		s.lines = append(s.lines, rd.Line())
		s.kinds = append(s.kinds, rd.Entry().Kind)
		s.entries++
	}
	if rd.Err() != nil {
		t.Fatalf("err %v", rd.Err())
	}
	s.skipped, s.torn = rd.Skipped(), rd.Torn()
	if rd.Lines() != s.entries+s.skipped {
		t.Errorf("lines %d != entries %d + skipped %d", rd.Lines(), s.entries, s.skipped)
	}
	return s
}

const (
	metaLine  = `{"timestamp":"2026-01-02T10:00:00.000Z","type":"session_meta","payload":{"id":"01900000-0000-7000-8000-000000000001","cwd":"/w"}}`
	tokenLine = `{"timestamp":"2026-01-02T10:00:01.000Z","type":"event_msg","payload":{"type":"token_count","info":null}}`
)

func TestReaderLines(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		lines   []int
		skipped int
		torn    bool
	}{
		{"plain", metaLine + "\n" + tokenLine + "\n", []int{1, 2}, 0, false},
		{"blank lines count but are not yielded", "\n" + metaLine + "\n\n  \n" + tokenLine + "\n\n", []int{2, 5}, 0, false},
		{"CRLF line ends", metaLine + "\r\n" + tokenLine + "\r\n", []int{1, 2}, 0, false},
		{"bad line skipped, not fatal", metaLine + "\nnot json\n[1,2]\n\"str\"\n{\"timestamp\":\n" + tokenLine + "\n", []int{1, 6}, 4, false},
		{"last line without newline that decodes", metaLine + "\n" + tokenLine, []int{1, 2}, 0, false},
		{"torn last line", metaLine + "\n" + tokenLine[:40], []int{1}, 0, true},
		{"bad line then torn", "garbage\n" + tokenLine[:10], nil, 1, true},
		{"empty", "", nil, 0, false},
		{"only blanks", "\n\n\n", nil, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := scanAll(t, tc.in)
			if !reflect.DeepEqual(s.lines, tc.lines) || s.skipped != tc.skipped || s.torn != tc.torn {
				t.Errorf("got lines %v skipped %d torn %v; want %v %d %v", s.lines, s.skipped, s.torn, tc.lines, tc.skipped, tc.torn)
			}
		})
	}
}

func TestReaderLongLines(t *testing.T) {
	// Real rollouts have 1.2 MB lines; a 64 KiB limit is a bug.
	big := strings.Repeat("x", 3<<20)
	out := `{"timestamp":"2026-01-02T10:00:02.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"Exit code: 1\nWall time: 1 seconds\nOutput:\n` + big + `"}}`
	in := metaLine + "\n" + out + "\n" + tokenLine + "\n"
	rd := NewReader(context.Background(), strings.NewReader(in))
	var got []Kind
	var res Result
	for rd.Scan() {
		e := rd.Entry()
		got = append(got, e.Kind)
		if e.Kind == KindToolOutput {
			res = e.Result
			if n := len([]rune(e.Text)); n != textLimit {
				t.Errorf("excerpt of %d runes", n)
			}
		}
	}
	if rd.Err() != nil || !reflect.DeepEqual(got, []Kind{KindMeta, KindToolOutput, KindTokenCount}) || res != ResultError {
		t.Errorf("err %v kinds %v result %v", rd.Err(), got, res)
	}
}

func TestReaderContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rd := NewReader(ctx, strings.NewReader(strings.Repeat(tokenLine+"\n", 5*ctxEvery)))
	n := 0
	for rd.Scan() {
		n++
	}
	if !errors.Is(rd.Err(), context.Canceled) || n > ctxEvery {
		t.Errorf("err %v after %d entries", rd.Err(), n)
	}
}

type failingReader struct{ n int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n > 0 {
		return 0, io.ErrUnexpectedEOF
	}
	f.n++
	return copy(p, metaLine+"\n"), nil
}

func TestReaderIOError(t *testing.T) {
	rd := NewReader(context.Background(), &failingReader{})
	n := 0
	for rd.Scan() {
		n++
	}
	if n != 1 || !errors.Is(rd.Err(), io.ErrUnexpectedEOF) {
		t.Errorf("%d entries, err %v", n, rd.Err())
	}
}

func TestOutputResult(t *testing.T) {
	tests := []struct {
		name, text string
		want       Result
		code       int64
		hasCode    bool
	}{
		{"shell_command ok", "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nfine\n", ResultOK, 0, true},
		{"shell_command failed", "Exit code: 127\nWall time: 0 seconds\nOutput:\nzsh: command not found\n", ResultError, 127, true},
		{"negative exit", "Exit code: -1\nOutput:\n", ResultError, -1, true},
		{"json metadata ok", `{"output":"Success. Updated the following files:\nA x\n","metadata":{"exit_code":0,"duration_seconds":0.0}}`, ResultOK, 0, true},
		{"json metadata failed", `{"output":"","metadata":{"exit_code":124,"duration_seconds":10.0}}`, ResultError, 124, true},
		{"json without metadata is ok", `{"task_name":"/root/timer_audit"}`, ResultOK, 0, false},
		{"unified exec", "Chunk ID: e0f570\nWall time: 0.0517 seconds\nProcess exited with code 127\nOriginal token count: 8\nOutput:\nrg: not found\n", ResultError, 127, true},
		{"unified exec with command header", "Command: /bin/zsh -lc 'echo Exit code: 5\nls'\nChunk ID: 1\nWall time: 0 seconds\nProcess exited with code 0\nOriginal token count: 1\nOutput:\nExit code: 5\n", ResultOK, 0, true},
		{"still running", "Chunk ID: ab\nWall time: 10 seconds\nProcess running with session ID 75865\nOriginal token count: 0\nOutput:\n", ResultRunning, 0, false},
		{"script completed, inner failure ignored", "Script completed\nWall time 0.5 seconds\nOutput:\n\nExit code: 1\n", ResultOK, 0, false},
		{"script failed", "Script failed\nWall time 0.4 seconds\nOutput:\nTypeError\n", ResultError, 0, false},
		{"script terminated", "Script terminated\n", ResultError, 0, false},
		{"script running", "Script running with cell ID 3\n", ResultRunning, 0, false},
		{"patch verification", "apply_patch verification failed: Failed to find expected lines in /a.go:\nfoo", ResultError, 0, false},
		{"sandbox denied", "exec_command failed for `ls`: SandboxDenied { message: \"x\" }", ResultError, 0, false},
		{"user declined", "exec_command failed for `/bin/zsh -lc 'rm -rf x'`: CreateProcess { message: \"Rejected(\\\"rejected by user\\\")\" }", ResultRejected, 0, false},
		{"declined words in the command only", "exec_command failed for `echo rejected by user Rejected(`: SandboxDenied", ResultError, 0, false},
		{"rejected", "exec command rejected by user", ResultRejected, 0, false},
		{"aborted", "aborted by user after 0.2s", ResultRejected, 0, false},
		{"aborted header", "Chunk ID: 1\naborted by user\nOutput:\n", ResultRejected, 0, false},
		{"write_stdin failed", "write_stdin failed: stdin is closed for this session", ResultError, 0, false},
		{"execution error", "execution error: Io(Os { code: 2 })", ResultError, 0, false},
		{"mcp timeout", "tool call error: timed out awaiting tools/call after 60s", ResultError, 0, false},
		{"mcp server error", "Error code: -32603", ResultError, 0, false},
		{"plan", "Plan updated", ResultOK, 0, false},
		{"mcp text that is an error is ok by text", "No documentation entry found for x", ResultOK, 0, false},
		{"empty", "", ResultOK, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, code, has := outputResult(tc.text)
			if r != tc.want || code != tc.code || has != tc.hasCode {
				t.Errorf("got %v %d %v, want %v %d %v", r, code, has, tc.want, tc.code, tc.hasCode)
			}
		})
	}
}

// entryOf decodes one line (after a session_meta) and returns its entry.
func entryOf(t *testing.T, line string) *Entry {
	t.Helper()
	rd := NewReader(context.Background(), strings.NewReader(metaLine+"\n"+line+"\n"))
	var last *Entry
	for rd.Scan() {
		last = rd.Entry().Clone()
	}
	if rd.Err() != nil || rd.Skipped() != 0 || last == nil || last.Line != 2 {
		t.Fatalf("err %v skipped %d entry %+v", rd.Err(), rd.Skipped(), last)
	}
	return last
}

func TestEntries(t *testing.T) {
	const ts = `{"timestamp":"2026-01-02T10:00:05.000Z",`
	tests := []struct {
		name, line string
		want       Entry
	}{
		{"vs code prompt", ts + `"type":"event_msg","payload":{"type":"user_message","message":"# Context from my IDE setup:\n\n## Open tabs:\n- a.go\n\n## My request for Codex:\nfix it\n","images":[]}}`,
			Entry{Kind: KindPrompt, Text: "fix it"}},
		{"0.4x injected user_message", ts + `"type":"event_msg","payload":{"type":"user_message","message":"<user_instructions>be brief</user_instructions>","kind":"user_instructions"}}`,
			Entry{Kind: KindContext, Injected: "user_instructions", Text: "<user_instructions>be brief</user_instructions>"}},
		{"environment context as user_message", ts + `"type":"event_msg","payload":{"type":"user_message","message":"<environment_context>\n<cwd>/w</cwd>\n</environment_context>"}}`,
			Entry{Kind: KindContext, Injected: "environment_context", Text: "<environment_context>\n<cwd>/w</cwd>\n</environment_context>"}},
		{"a prompt that opens with a tag is still a prompt", ts + `"type":"event_msg","payload":{"type":"user_message","message":"<div> is misaligned"}}`,
			Entry{Kind: KindPrompt, Text: "<div> is misaligned"}},
		{"agents.md", ts + `"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>x</INSTRUCTIONS>"}]}}`,
			Entry{Kind: KindContext, Role: "user", Injected: "agents_md", Text: "# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>x</INSTRUCTIONS>"}},
		{"developer message", ts + `"type":"response_item","payload":{"type":"message","role":"developer","content":[{"type":"input_text","text":"<permissions instructions>sandbox</permissions instructions>"}]}}`,
			Entry{Kind: KindContext, Role: "developer", Injected: "permissions_instructions", Text: "<permissions instructions>sandbox</permissions instructions>"}},
		{"developer message of no known form", ts + `"type":"response_item","payload":{"type":"message","role":"developer","content":[{"type":"input_text","text":"You are an agent in a team"}]}}`,
			Entry{Kind: KindContext, Role: "developer", Injected: "developer", Text: "You are an agent in a team"}},
		{"history copy of a prompt", ts + `"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<div> is misaligned"}]}}`,
			Entry{Kind: KindContext, Role: "user", Text: "<div> is misaligned"}},
		{"assistant text", ts + `"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done."},{"type":"output_text","text":"Really."}]}}`,
			Entry{Kind: KindAssistant, Role: "assistant", Text: "Done.\nReally."}},
		{"agent_message echo", ts + `"type":"event_msg","payload":{"type":"agent_message","message":"Done."}}`,
			Entry{Kind: KindEcho, Text: "Done."}},
		{"reasoning summary", ts + `"type":"response_item","payload":{"type":"reasoning","summary":[{"type":"summary_text","text":"**Inspecting**"}],"content":null,"encrypted_content":"gAAAAB"}}`,
			Entry{Kind: KindReasoning, Text: "**Inspecting**"}},
		{"shell_command", ts + `"type":"response_item","payload":{"type":"function_call","name":"shell_command","arguments":"{\"command\":\"ls -la\",\"workdir\":\".\"}","call_id":"call_1"}}`,
			Entry{Kind: KindToolCall, Tool: "shell_command", CallID: "call_1", Command: "ls -la", Text: `{"command":"ls -la","workdir":"."}`}},
		{"shell argv", ts + `"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"pwd\"],\"workdir\":\"/w\"}","call_id":"call_2"}}`,
			Entry{Kind: KindToolCall, Tool: "shell", CallID: "call_2", Command: "pwd", Text: `{"command":["bash","-lc","pwd"],"workdir":"/w"}`}},
		{"exec_command", ts + `"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"rg foo\"}","call_id":"call_3"}}`,
			Entry{Kind: KindToolCall, Tool: "exec_command", CallID: "call_3", Command: "rg foo", Text: `{"cmd":"rg foo"}`}},
		{"namespaced tool", ts + `"type":"response_item","payload":{"type":"function_call","id":"fc_1","name":"run","namespace":"web","arguments":"{}","call_id":"call_4"}}`,
			Entry{Kind: KindToolCall, Tool: "web.run", CallID: "call_4", Text: "{}"}},
		{"local_shell_call", ts + `"type":"response_item","payload":{"type":"local_shell_call","call_id":"ls_1","status":"completed","action":{"type":"exec","command":["git","status"]}}}`,
			Entry{Kind: KindToolCall, Tool: "local_shell", CallID: "ls_1", Command: "git status", Text: "git status"}},
		{"web_search_call", ts + `"type":"response_item","payload":{"type":"web_search_call","status":"completed","action":{"type":"search","query":"codex hooks"}}}`,
			Entry{Kind: KindToolCall, Tool: "web_search", Result: ResultOK, Text: "codex hooks"}},
		{"tool_search_call", ts + `"type":"response_item","payload":{"type":"tool_search_call","call_id":"ts_1","status":"completed","execution":"client","arguments":{"query":"ue"}}}`,
			Entry{Kind: KindToolCall, Tool: "tool_search", CallID: "ts_1", Text: `{"query":"ue"}`}},
		{"apply_patch through shell", ts + `"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"apply_patch\",\"*** Begin Patch\\n*** Add File: a.txt\\n+x\\n*** End Patch\\n\"]}","call_id":"call_5"}}`,
			Entry{Kind: KindToolCall, Tool: "shell", CallID: "call_5", Command: "apply_patch *** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\n",
				Patch: "*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\n", Files: []FileChange{{Path: "a.txt", Change: "add", Action: ActionWrite}},
				Text: `{"command":["apply_patch","*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\n"]}`}},
		{"list output", ts + `"type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"c9","output":[{"type":"input_text","text":"Script failed\nWall time 0.1 seconds\nOutput:\n"},{"type":"input_image","image_url":"data:"},{"type":"input_text","text":"boom"}]}}`,
			Entry{Kind: KindToolOutput, CallID: "c9", Result: ResultError, Text: "Script failed\nWall time 0.1 seconds\nOutput:\n\nboom"}},
		{"list output inside a string", ts + `"type":"response_item","payload":{"type":"function_call_output","call_id":"c8","output":"[{\"type\":\"input_text\",\"text\":\"Script completed\"}]"}}`,
			Entry{Kind: KindToolOutput, CallID: "c8", Result: ResultOK, Text: "Script completed"}},
		{"token count", ts + `"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":10,"cached_input_tokens":4,"output_tokens":3,"reasoning_output_tokens":1,"total_tokens":13,"cache_write_input_tokens":0},"last_token_usage":{"input_tokens":10,"cached_input_tokens":4,"output_tokens":3,"reasoning_output_tokens":1,"total_tokens":13},"model_context_window":258400}}}`,
			Entry{Kind: KindTokenCount, Tokens: &TokenCount{Total: Tokens{10, 4, 3, 1, 13, 0}, Last: Tokens{10, 4, 3, 1, 13, 0}, Window: 258400}}},
		{"turn aborted", ts + `"type":"event_msg","payload":{"type":"turn_aborted","turn_id":"t1","reason":"interrupted"}}`,
			Entry{Kind: KindAborted, TurnID: "t1", Text: "interrupted"}},
		{"task complete with error", ts + `"type":"event_msg","payload":{"type":"task_complete","turn_id":"t2","last_agent_message":null,"error":{"message":"usage limit"}}}`,
			Entry{Kind: KindError, TurnID: "t2", Text: "usage limit"}},
		{"error event", ts + `"type":"event_msg","payload":{"type":"error","message":"model does not support tools"}}`,
			Entry{Kind: KindError, Text: "model does not support tools"}},
		{"mcp isError", ts + `"type":"event_msg","payload":{"type":"mcp_tool_call_end","call_id":"m1","invocation":{"server":"s","tool":"t"},"result":{"Ok":{"content":[],"isError":true}}}}`,
			Entry{Kind: KindToolEvent, CallID: "m1", Result: ResultError}},
		{"patch_apply_end", ts + `"type":"event_msg","payload":{"type":"patch_apply_end","call_id":"p1","success":true,"changes":{"/w/b.go":{"type":"update","unified_diff":"@@","move_path":"/w/c.go"},"/w/a.go":{"type":"add"}}}}`,
			Entry{Kind: KindToolEvent, CallID: "p1", Result: ResultOK, Files: []FileChange{
				{Path: "/w/a.go", Change: "add", Action: ActionWrite}, {Path: "/w/b.go", Change: "update", Action: ActionEdit}, {Path: "/w/c.go", Change: "move", Action: ActionWrite}}}},
		{"turn_context", ts + `"type":"turn_context","payload":{"turn_id":"t3","cwd":"/w","model":"gpt-5.5","summary":"auto"}}`,
			Entry{Kind: KindMeta, Model: "gpt-5.5", TurnID: "t3", Cwd: "/w"}},
		{"thread settings", ts + `"type":"event_msg","payload":{"type":"thread_settings_applied","thread_settings":{"model":"gpt-5.6-sol"}}}`,
			Entry{Kind: KindMeta, Model: "gpt-5.6-sol"}},
		{"unknown line type", ts + `"type":"rollout_reference","payload":{"path":"x"}}`,
			Entry{Kind: KindOther}},
		{"unknown item", ts + `"type":"response_item","payload":{"type":"realtime_item"}}`,
			Entry{Kind: KindOther}},
		{"drift is kept", ts + `"type":"event_msg","payload":{"type":"user_message","message":["not","a","string"]}}`,
			Entry{Kind: KindPrompt, Drift: true}},
		{"null payload", ts + `"type":"event_msg","payload":null}`,
			Entry{Kind: KindOther}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := entryOf(t, tc.line)
			want := tc.want
			want.Line, want.Time, want.Type, want.Item = e.Line, e.Time, e.Type, e.Item
			if !reflect.DeepEqual(*e, want) {
				t.Errorf("got  %+v\nwant %+v", *e, want)
			}
			if e.Time != transcript.ParseTime("2026-01-02T10:00:05.000Z") {
				t.Errorf("time %d", e.Time)
			}
		})
	}
}

func TestMetaEntry(t *testing.T) {
	line := `{"timestamp":"2026-07-11T02:24:01.694Z","type":"session_meta","payload":{"session_id":"p","id":"c","forked_from_id":"p","timestamp":"2026-07-11T02:23:56.616Z","cwd":"C:\\w","originator":"codex_vscode","cli_version":"0.144.0-alpha.4","source":{"subagent":{"thread_spawn":{"parent_thread_id":"p","depth":1,"agent_path":"/root/a","agent_nickname":"Noether","agent_role":null}}},"model_provider":"openai","base_instructions":{"text":"You are Codex"}}}`
	rd := NewReader(context.Background(), strings.NewReader(line+"\n"))
	if !rd.Scan() {
		t.Fatal(rd.Err())
	}
	m := *rd.Entry().Meta
	want := Meta{ID: "c", CreatedAt: transcript.ParseTime("2026-07-11T02:23:56.616Z"), Cwd: `C:\w`, Originator: "codex_vscode",
		CLIVersion: "0.144.0-alpha.4", Source: "subagent", Subagent: "thread_spawn", ModelProvider: "openai",
		RootID: "p", ForkedFromID: "p", ParentThreadID: "p", AgentPath: "/root/a", AgentNickname: "Noether"}
	if m != want {
		t.Errorf("got  %+v\nwant %+v", m, want)
	}
	review := `{"timestamp":"2025-12-01T00:00:00.000Z","type":"session_meta","payload":{"id":"r","source":{"subagent":"review"}}}`
	rd = NewReader(context.Background(), strings.NewReader(review))
	if !rd.Scan() || rd.Entry().Meta.Source != "subagent" || rd.Entry().Meta.Subagent != "review" {
		t.Errorf("review source: %+v", rd.Entry().Meta)
	}
}

func TestPatchFiles(t *testing.T) {
	body := "*** Begin Patch\r\n*** Update File: src/a.go\r\n*** Move to: src/b.go\r\n@@\r\n-x\r\n+y\r\n*** Add File: c.md\n+hi\n*** Delete File: d.txt\n*** Update File: src/a.go\n*** End Patch"
	want := []FileChange{
		{Path: "src/a.go", Change: "update", Action: ActionEdit},
		{Path: "src/b.go", Change: "move", Action: ActionWrite},
		{Path: "c.md", Change: "add", Action: ActionWrite},
		{Path: "d.txt", Change: "delete", Action: ActionEdit},
	}
	if got := patchFiles(nil, body); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v", got)
	}
	if shellPatch("cat <<EOF\n*** Begin Patch\nEOF") != "" {
		t.Errorf("a heredoc that is not apply_patch was read as a patch")
	}
	if got := shellPatch("apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: x\nEOF"); !strings.HasPrefix(got, patchBegin) {
		t.Errorf("heredoc patch: %q", got)
	}
}

func TestJoinPath(t *testing.T) {
	tests := []struct{ cwd, p, want string }{
		{"/w", "src/a.go", "/w/src/a.go"},
		{"/w/", "./a.go", "/w/a.go"},
		{"/w", "/abs/a.go", "/abs/a.go"},
		{`C:\w`, `Script\a.lua`, `C:\w\Script\a.lua`},
		{`c:\w\`, "a.lua", `c:\w\a.lua`},
		{`C:\w`, `D:\x.lua`, `D:\x.lua`},
		{"", "a.go", "a.go"},
	}
	for _, tc := range tests {
		if got := joinPath(tc.cwd, tc.p); got != tc.want {
			t.Errorf("joinPath(%q, %q) = %q, want %q", tc.cwd, tc.p, got, tc.want)
		}
	}
}

func TestParseName(t *testing.T) {
	tests := []struct{ name, ts, id string }{
		{"rollout-2025-11-22T20-45-35-019aad50-a7e6-7422-b7a8-0b384290624f.jsonl", "2025-11-22T20-45-35", "019aad50-a7e6-7422-b7a8-0b384290624f"},
		{"rollout-2025-11-22T20-45-35-019aad50-a7e6-7422-b7a8-0b384290624f.jsonl.zst", "2025-11-22T20-45-35", "019aad50-a7e6-7422-b7a8-0b384290624f"},
		{"rollout-2026-09-01T10-00-00-019f0000-0000-7000-8000-00000000000a_019f0000-0000-7000-8000-00000000000b.jsonl", "2026-09-01T10-00-00", "019f0000-0000-7000-8000-00000000000a"},
		{"rollout-bad.jsonl", "", ""},
		{"history.jsonl", "", ""},
	}
	for _, tc := range tests {
		ts, id, _ := parseName(tc.name)
		if ts != tc.ts || id != tc.id {
			t.Errorf("parseName(%q) = %q, %q", tc.name, ts, id)
		}
	}
}
