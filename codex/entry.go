package codex

import "strings"

// Kind says what a rollout line is, for counting and for rendering a tail.
type Kind uint8

const (
	// KindOther is a line of an unknown or unread type; it is kept, never an error.
	KindOther Kind = iota
	// KindMeta is session_meta, turn_context, the turn lifecycle (task_started,
	// task_complete), world_state, compaction, rollback and thread settings.
	KindMeta
	// KindPrompt is an event_msg user_message: what the human typed (Text has
	// the VS Code "## My request for Codex:" wrapper stripped), or machine text
	// written as a prompt (UI-title and review threads).
	KindPrompt
	// KindContext is a model-visible user or developer message: injected
	// instructions and context, or the history copy of a prompt. Never a prompt.
	KindContext
	// KindAssistant is assistant text from the model-visible history.
	KindAssistant
	// KindReasoning is a reasoning item; Text holds its summary, if any.
	KindReasoning
	// KindToolCall is a call item: function_call, custom_tool_call,
	// local_shell_call, tool_search_call or web_search_call.
	KindToolCall
	// KindToolOutput is a call's output item, joined to its call by CallID.
	KindToolOutput
	// KindToolEvent is a harness event about a call (patch_apply_end,
	// exec_command_end, mcp_tool_call_end, web_search_end, view_image_tool_call).
	KindToolEvent
	// KindTokenCount is an event_msg token_count.
	KindTokenCount
	// KindEcho is an event that repeats a history item (agent_message,
	// agent_reasoning): shown once already, not to be shown or counted again.
	KindEcho
	// KindAborted is a turn_aborted event.
	KindAborted
	// KindError is an error event (a failed request, e.g. a provider error).
	KindError
)

var kindNames = [...]string{"other", "meta", "prompt", "context", "assistant", "reasoning",
	"tool_call", "tool_output", "tool_event", "token_count", "echo", "aborted", "error"}

func (k Kind) String() string { return enumName(kindNames[:], uint8(k)) }

// Result is what a tool call's output says about it. NoResult and
// ResultRunning are neither ok nor error: the caller, which knows whether the
// session is live, reports them as in_progress (live) or pending (SPEC §3).
type Result uint8

const (
	// NoResult: no output yet. The caller decides pending or in_progress from liveness.
	NoResult Result = iota
	// ResultOK: exit code 0, a completed script, or any output that is not an error.
	ResultOK
	// ResultError: a non-zero exit code, a failed script or an error text.
	ResultError
	// ResultRejected: the user declined or aborted the call.
	ResultRejected
	// ResultRunning: the output says the command was still running when the
	// call returned (unified exec sessions, code-mode cells, a web search not
	// completed). Like NoResult it is neither ok nor error.
	ResultRunning
)

var resultNames = [...]string{"none", "ok", "error", "rejected", "running"}

func (r Result) String() string { return enumName(resultNames[:], uint8(r)) }

// enumName is names[i], or names[0] for a value out of range.
func enumName(names []string, i uint8) string {
	if int(i) < len(names) {
		return names[i]
	}
	return names[0]
}

// How a call touched a file, in the words the rest of the program uses for
// file activity.
const (
	ActionRead  = "read"
	ActionEdit  = "edit"
	ActionWrite = "write"
)

// FileChange is one file a call names: an apply_patch section, a
// patch_apply_end change, or an image viewed.
type FileChange struct {
	Path   string // as written; relative patch paths are joined to the turn's cwd by Summarize
	Change string // "add", "update", "delete", "move" (the target of a move), or "view"
	Action string // ActionWrite for add and move, ActionEdit for update and delete, ActionRead for view
}

// Tokens is one token_count usage record, as written: cached is inside input
// and reasoning is inside output.
type Tokens struct {
	Input, Cached, Output, Reasoning, Total int64
	CacheWrite                              int64 // cache_write_input_tokens (0.144.5+); 0 in every file seen
}

// zero reports whether every counted field is 0.
func (t Tokens) zero() bool {
	return t.Input == 0 && t.Cached == 0 && t.Output == 0 && t.Reasoning == 0 && t.Total == 0
}

// TokenCount is the info of a token_count event.
type TokenCount struct {
	Total  Tokens // cumulative, for the counter that wrote it
	Last   Tokens // the latest response
	Window int64  // model_context_window
}

// Meta is a session_meta payload.
type Meta struct {
	ID             string
	CreatedAt      int64 // payload.timestamp, unix ms
	Cwd            string
	Originator     string
	CLIVersion     string
	Source         string // "cli", "vscode", "exec", … or "subagent"
	Subagent       string // for Source "subagent": "review", "thread_spawn", …
	ModelProvider  string
	RootID         string // payload.session_id: the family's root thread (0.142+)
	ForkedFromID   string
	ParentThreadID string // payload.parent_thread_id or source.subagent.thread_spawn.parent_thread_id
	AgentPath      string
	AgentNickname  string
	AgentRole      string
	GitBranch      string // git.branch
}

// Entry is one decoded rollout line. The Reader reuses it: its strings and
// slices alias the reader's buffers and are valid only until the next Scan.
// Clone returns a copy that can be kept.
type Entry struct {
	Line   int    // physical line number, 1-based
	Time   int64  // envelope timestamp, unix ms; 0 when absent or malformed
	Type   string // envelope type: session_meta, response_item, event_msg, turn_context, …
	Item   string // payload.type: message, function_call, token_count, …; "" where there is none
	Kind   Kind
	Copied bool // inside a fork's copy of its parent's history (§9)
	Drift  bool // a JSON object whose fields had unexpected types

	Role     string // message role (user, assistant, developer); author for agent_message items
	Text     string // excerpt: prompt, message, reasoning summary, output, error or abort reason
	Injected string // for KindContext: which injected text it is ("agents_md", "environment_context", "developer", …); "" for a prompt's history copy or an unknown form

	CallID   string       // calls, outputs and tool events
	Tool     string       // the call's tool name (namespace.name); on outputs, the name of the call seen earlier
	Command  string       // shell command text of a shell call
	Patch    string       // apply_patch body of a call
	Files    []FileChange // files the line names
	Result   Result       // outputs, web_search_call, mcp_tool_call_end with isError
	ExitCode int64        // valid when HasExit
	HasExit  bool

	Tokens *TokenCount // KindTokenCount with info; nil for info:null
	Meta   *Meta       // session_meta

	Model  string // turn_context.model, thread_settings_applied model
	TurnID string
	Cwd    string // turn_context.cwd
}

// Clone returns a copy of e that does not alias the reader's buffers.
func (e *Entry) Clone() *Entry {
	c := *e
	c.Type, c.Item = strings.Clone(e.Type), strings.Clone(e.Item)
	c.Role, c.Text, c.Injected = strings.Clone(e.Role), strings.Clone(e.Text), strings.Clone(e.Injected)
	c.CallID, c.Tool = strings.Clone(e.CallID), strings.Clone(e.Tool)
	c.Command, c.Patch = strings.Clone(e.Command), strings.Clone(e.Patch)
	c.Model, c.TurnID, c.Cwd = strings.Clone(e.Model), strings.Clone(e.TurnID), strings.Clone(e.Cwd)
	if e.Files != nil {
		c.Files = make([]FileChange, len(e.Files))
		for i, f := range e.Files {
			c.Files[i] = FileChange{Path: strings.Clone(f.Path), Change: f.Change, Action: f.Action}
		}
	}
	if e.Tokens != nil {
		t := *e.Tokens
		c.Tokens = &t
	}
	if e.Meta != nil {
		m := *e.Meta
		m.ID, m.Cwd, m.Originator = strings.Clone(m.ID), strings.Clone(m.Cwd), strings.Clone(m.Originator)
		m.CLIVersion, m.Source, m.Subagent = strings.Clone(m.CLIVersion), strings.Clone(m.Source), strings.Clone(m.Subagent)
		m.ModelProvider, m.RootID, m.ForkedFromID = strings.Clone(m.ModelProvider), strings.Clone(m.RootID), strings.Clone(m.ForkedFromID)
		m.ParentThreadID, m.AgentPath = strings.Clone(m.ParentThreadID), strings.Clone(m.AgentPath)
		m.AgentNickname, m.AgentRole = strings.Clone(m.AgentNickname), strings.Clone(m.AgentRole)
		m.GitBranch = strings.Clone(m.GitBranch)
		c.Meta = &m
	}
	return &c
}
