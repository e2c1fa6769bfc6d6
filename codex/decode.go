package codex

import (
	"encoding/json"
	"errors"
	"strings"
	"unsafe"

	"github.com/bytedance/sonic"
	"github.com/bytedance/sonic/decoder"
)

// This file holds every sonic call of the package. A line is decoded once into
// rawLine, one small struct whose fields cover every line kind the package
// reads; large or variably shaped values (message content, tool output,
// arguments, source) stay raw and are decoded on demand by the helpers below.
//
// Nothing is copied: decoded strings and raw values point into the line
// buffer, which the Reader reuses on the next Scan. Whatever is kept past the
// current line must be cloned (Summarize does; Entry.Clone does).

// lineAPI skips sonic's case-insensitive key retry, which costs a lot on
// lines full of fields we do not decode (base_instructions, encrypted_content).
var lineAPI = sonic.Config{CaseSensitive: true}.Froze()

// rawLine is the envelope of a rollout line: {"timestamp","type","payload"}.
type rawLine struct {
	Timestamp string     `json:"timestamp"`
	Type      string     `json:"type"`
	Payload   rawPayload `json:"payload"`
}

// rawPayload is the union of the payload fields read from every line type.
// Any field may be missing or null.
type rawPayload struct {
	Type string `json:"type"`

	// session_meta
	ID             string                 `json:"id"`
	Timestamp      string                 `json:"timestamp"`
	Cwd            string                 `json:"cwd"`
	Originator     string                 `json:"originator"`
	CLIVersion     string                 `json:"cli_version"`
	Source         sonic.NoCopyRawMessage `json:"source"`
	ModelProvider  string                 `json:"model_provider"`
	SessionID      string                 `json:"session_id"`
	ForkedFromID   string                 `json:"forked_from_id"`
	ParentThreadID string                 `json:"parent_thread_id"`
	AgentPath      string                 `json:"agent_path"`
	AgentNickname  string                 `json:"agent_nickname"`
	AgentRole      string                 `json:"agent_role"`
	Git            *rawGit                `json:"git"`

	// turn_context, task lifecycle, thread_settings_applied
	Model          string             `json:"model"`
	TurnID         string             `json:"turn_id"`
	ThreadSettings *rawThreadSettings `json:"thread_settings"`

	// response_item
	Role      string                 `json:"role"`
	Content   sonic.NoCopyRawMessage `json:"content"`
	Name      string                 `json:"name"`
	Namespace string                 `json:"namespace"`
	Arguments sonic.NoCopyRawMessage `json:"arguments"` // a JSON string for function_call, an object for tool_search_call
	Input     sonic.NoCopyRawMessage `json:"input"`     // custom_tool_call: a raw string
	CallID    string                 `json:"call_id"`
	Output    sonic.NoCopyRawMessage `json:"output"` // a string, or a list of content items
	Status    string                 `json:"status"`
	Action    sonic.NoCopyRawMessage `json:"action"`  // web_search_call, local_shell_call
	Summary   sonic.NoCopyRawMessage `json:"summary"` // reasoning: a list; turn_context: a string
	Author    string                 `json:"author"`
	Recipient string                 `json:"recipient"`

	// event_msg
	Message          string                 `json:"message"`
	Text             string                 `json:"text"`
	Kind             string                 `json:"kind"`
	Info             *rawTokenInfo          `json:"info"`
	Reason           string                 `json:"reason"`
	LastAgentMessage string                 `json:"last_agent_message"`
	Error            sonic.NoCopyRawMessage `json:"error"`
	NumTurns         int64                  `json:"num_turns"`
	AgentThreadID    string                 `json:"agent_thread_id"`
	Changes          sonic.NoCopyRawMessage `json:"changes"`
	Success          *bool                  `json:"success"`
	ExitCode         *int64                 `json:"exit_code"`
	Result           sonic.NoCopyRawMessage `json:"result"`
	Path             string                 `json:"path"`
}

type rawGit struct {
	Branch string `json:"branch"`
}

type rawThreadSettings struct {
	Model string `json:"model"`
}

type rawTokenInfo struct {
	Total  rawTokens `json:"total_token_usage"`
	Last   rawTokens `json:"last_token_usage"`
	Window int64     `json:"model_context_window"`
}

type rawTokens struct {
	Input      int64 `json:"input_tokens"`
	Cached     int64 `json:"cached_input_tokens"`
	Output     int64 `json:"output_tokens"`
	Reasoning  int64 `json:"reasoning_output_tokens"`
	Total      int64 `json:"total_tokens"`
	CacheWrite int64 `json:"cache_write_input_tokens"`
}

// decodeStatus tells how well a line decoded.
type decodeStatus uint8

const (
	decodedOK      decodeStatus = iota
	decodedDrifted              // a JSON object, but some field had an unexpected type
	decodeFailed                // not a JSON object
)

// decodeLine decodes one line into l, which it resets first.
func decodeLine(b []byte, l *rawLine) decodeStatus {
	*l = rawLine{}
	b = trimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return decodeFailed
	}
	return classify(unmarshal(b, l))
}

// unmarshal decodes b without copying it (sonic's []byte entry point copies
// the whole input into a string first). Decoded strings alias b.
func unmarshal(b []byte, v any) error {
	if len(b) == 0 {
		return errors.New("empty")
	}
	return lineAPI.UnmarshalFromString(unsafe.String(unsafe.SliceData(b), len(b)), v)
}

func classify(err error) decodeStatus {
	if err == nil {
		return decodedOK
	}
	var mt *decoder.MismatchTypeError
	var ut *json.UnmarshalTypeError // sonic's fallback on platforms without its JIT
	if errors.As(err, &mt) || errors.As(err, &ut) {
		return decodedDrifted
	}
	return decodeFailed
}

// jsonString decodes a raw JSON string value; ok is false for anything else.
func jsonString(raw []byte) (string, bool) {
	raw = trimSpace(raw)
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	var s string
	if unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// rawItem is one content item of a message or of a list-shaped output.
type rawItem struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// itemsText joins the text of a list of content items with '\n', stopping
// once max bytes are collected (0: no limit). Items without text (images,
// encrypted content) are skipped. A raw value that is not a list gives "".
func itemsText(raw []byte, max int) string {
	raw = trimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		return ""
	}
	var items []rawItem
	if classify(unmarshal(raw, &items)) == decodeFailed {
		return ""
	}
	if len(items) == 1 {
		return items[0].Text
	}
	var sb strings.Builder
	for _, it := range items {
		if it.Text == "" {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(it.Text)
		if max > 0 && sb.Len() >= max {
			break
		}
	}
	return sb.String()
}

// outputText is a tool output as text: a string as is, a list of content
// items joined (§7), and a string that itself holds such a list ("[{…") too.
func outputText(raw []byte) string {
	raw = trimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		s, _ := jsonString(raw)
		if strings.HasPrefix(s, "[{") {
			if t := itemsText([]byte(s), 1<<16); t != "" {
				return t
			}
		}
		return s
	case '[':
		return itemsText(raw, 1<<16)
	}
	return ""
}

// exitMetadata reads {"output":…,"metadata":{"exit_code":N}}, the JSON form
// of shell and apply_patch outputs; ok is false when text is not of that form.
func exitMetadata(text string) (code int64, output string, ok bool) {
	if !strings.HasPrefix(text, "{") {
		return 0, "", false
	}
	var v struct {
		Output   string `json:"output"`
		Metadata *struct {
			ExitCode *int64 `json:"exit_code"`
		} `json:"metadata"`
	}
	if lineAPI.UnmarshalFromString(text, &v) != nil || v.Metadata == nil || v.Metadata.ExitCode == nil {
		return 0, "", false
	}
	return *v.Metadata.ExitCode, v.Output, true
}

// rawArgs holds the function_call argument fields that name a command or a patch.
type rawArgs struct {
	Command sonic.NoCopyRawMessage `json:"command"` // shell_command: a string; shell: an argv list
	Cmd     string                 `json:"cmd"`     // exec_command
	Input   string                 `json:"input"`   // apply_patch as a function tool
	Patch   string                 `json:"patch"`
	Chars   string                 `json:"chars"` // write_stdin
	Session *int64                 `json:"session_id"`
}

// callArgs decodes function_call arguments: a JSON string holding a JSON
// object (or, leniently, the object itself).
func callArgs(raw []byte) (rawArgs, bool) {
	var a rawArgs
	raw = trimSpace(raw)
	if len(raw) == 0 {
		return a, false
	}
	if raw[0] == '"' {
		s, ok := jsonString(raw)
		if !ok {
			return a, false
		}
		raw = []byte(s)
	}
	raw = trimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return a, false
	}
	return a, classify(unmarshal(raw, &a)) != decodeFailed
}

// argv decodes a command that is a string or a list of strings.
func argv(raw []byte) (s string, list []string) {
	raw = trimSpace(raw)
	if len(raw) == 0 {
		return "", nil
	}
	switch raw[0] {
	case '"':
		s, _ = jsonString(raw)
		return s, nil
	case '[':
		if classify(unmarshal(raw, &list)) == decodeFailed {
			return "", nil
		}
		return "", list
	}
	return "", nil
}

// rawAction is the action of a web_search_call or a local_shell_call.
type rawAction struct {
	Type    string                 `json:"type"`
	Query   string                 `json:"query"`
	URL     string                 `json:"url"`
	Command sonic.NoCopyRawMessage `json:"command"`
}

func decodeAction(raw []byte) rawAction {
	var a rawAction
	raw = trimSpace(raw)
	if len(raw) > 0 && raw[0] == '{' {
		_ = unmarshal(raw, &a)
	}
	return a
}

// rawSource is session_meta.source when it is an object:
// {"subagent":"review"} or {"subagent":{"thread_spawn":{…}}}.
type rawSource struct {
	Subagent sonic.NoCopyRawMessage `json:"subagent"`
}

type rawSpawn struct {
	ThreadSpawn *struct {
		ParentThreadID string `json:"parent_thread_id"`
		AgentPath      string `json:"agent_path"`
		AgentNickname  string `json:"agent_nickname"`
		AgentRole      string `json:"agent_role"`
	} `json:"thread_spawn"`
}

// source decodes session_meta.source: the plain string, or for a subagent
// "subagent" with its kind ("review", "thread_spawn", or another key) and,
// for a spawned thread, its parent and identity.
func source(raw []byte) (src, subagent, parent, path, nickname, role string) {
	raw = trimSpace(raw)
	if len(raw) == 0 {
		return
	}
	if raw[0] == '"' {
		src, _ = jsonString(raw)
		return
	}
	if raw[0] != '{' {
		return
	}
	var s rawSource
	if classify(unmarshal(raw, &s)) == decodeFailed {
		return
	}
	sub := trimSpace(s.Subagent)
	if len(sub) == 0 {
		return "other", "", "", "", "", ""
	}
	src = "subagent"
	if sub[0] == '"' {
		subagent, _ = jsonString(sub)
		return
	}
	var sp rawSpawn
	if classify(unmarshal(sub, &sp)) != decodeFailed && sp.ThreadSpawn != nil {
		t := sp.ThreadSpawn
		return src, "thread_spawn", t.ParentThreadID, t.AgentPath, t.AgentNickname, t.AgentRole
	}
	var keys map[string]sonic.NoCopyRawMessage
	if unmarshal(sub, &keys) == nil {
		for k := range keys {
			return src, k, "", "", "", ""
		}
	}
	return src, "", "", "", "", ""
}

// rawChange is one file of patch_apply_end.changes.
type rawChange struct {
	Type     string `json:"type"`
	MovePath string `json:"move_path"`
}

// patchChanges decodes patch_apply_end.changes: {path: {type, move_path}}.
func patchChanges(raw []byte) map[string]rawChange {
	raw = trimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	var m map[string]rawChange
	if classify(unmarshal(raw, &m)) == decodeFailed {
		return nil
	}
	return m
}

// mcpIsError reads mcp_tool_call_end.result: {"Ok":{"isError":bool,…}} or {"Err":…}.
func mcpIsError(raw []byte) (isError, known bool) {
	raw = trimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return false, false
	}
	var r struct {
		Ok *struct {
			IsError *bool `json:"isError"`
		} `json:"Ok"`
		Err sonic.NoCopyRawMessage `json:"Err"`
	}
	if classify(unmarshal(raw, &r)) == decodeFailed {
		return false, false
	}
	if len(trimSpace(r.Err)) > 0 && string(trimSpace(r.Err)) != "null" {
		return true, true
	}
	if r.Ok != nil && r.Ok.IsError != nil {
		return *r.Ok.IsError, true
	}
	return false, false
}

// errorText renders task_complete.error (a string, an object with a message,
// or null) as text.
func errorText(raw []byte) string {
	raw = trimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if s, ok := jsonString(raw); ok {
		return s
	}
	var v struct {
		Message string `json:"message"`
	}
	if raw[0] == '{' && unmarshal(raw, &v) == nil && v.Message != "" {
		return v.Message
	}
	return string(raw)
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
