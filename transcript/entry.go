package transcript

import (
	"context"
	"io"

	"github.com/agent-activity/agent-activity/pricing"
)

// Usage is the token usage of one API response, or a sum of them: the same
// type the price table reads.
type Usage = pricing.Usage

// Role says whose words an entry holds.
type Role uint8

const (
	RoleOther     Role = iota // metadata, progress and every other line kind
	RoleUser                  // the human, tool results, and injected user-side text
	RoleAssistant             // a model response
)

// ResultState is what a tool call's result said.
type ResultState uint8

const (
	NoResult ResultState = iota
	ResultOK
	ResultError
	ResultRejected // stopped by the user, not failed
)

// FileAction is how a tool call touched a file.
type FileAction uint8

const (
	ActionNone FileAction = iota
	ActionRead
	ActionEdit
	ActionWrite
)

// String is the action's name in answers: read, edit or write.
func (a FileAction) String() string {
	switch a {
	case ActionRead:
		return "read"
	case ActionEdit:
		return "edit"
	case ActionWrite:
		return "write"
	}
	return ""
}

// Want says which optional parts of an entry a pass needs; the parts every
// pass needs (times, ids, usage, call names, result states, prompts) are
// always filled.
type Want uint8

const (
	// WantText fills Entry.Text, Result.Text for every result (not only
	// errors) and Entry.UserText.
	WantText Want = 1 << iota
	// WantInputs fills Call.Input. Input.Raw, and Input.Command for a shell
	// call, are filled always (a summary classifies every call).
	WantInputs
	// WantProse fills Entry.Text and Entry.UserText, the prose of a line,
	// without the text of every tool result (WantText fills both): a pass
	// that shows prompts and replies need not unquote each tool output.
	WantProse
)

// Entry is one decoded line (or item) of a transcript in agent-neutral form.
// Strings alias the reader's line buffer and are valid until the next Scan:
// anything kept must be cloned. Text fields are raw (unredacted): they reach
// answers only through package redact.
type Entry struct {
	Line      int    // physical, 1-based
	Type      string // the agent's own name for the line kind
	Role      Role
	UUID      string
	SessionID string
	AgentID   string
	Time      int64 // unix milliseconds; 0 when absent or malformed
	Cwd       string
	GitBranch string
	Version   string
	Sidechain bool // written by a subagent (a line of a main file can be one)
	Meta      bool // injected by the client, not typed by the human
	Drift     bool // decoded, but with a shape the reader did not expect

	Response  *Response // set on assistant entries
	Calls     []Call
	Results   []Result
	Prompt    string // the human's text when this entry is a real prompt
	HasPrompt bool
	Text      string // assistant text blocks joined by newlines (WantText or WantProse)
	UserText  string // all text of a user entry, prompt or not (WantText or WantProse)

	Summary     string // a summary line's text
	LeafUUID    string // the uuid of the line a summary describes
	CustomTitle string
	AITitle     string
	PRURL       string
	Compaction  bool             // a compaction boundary
	CostState   map[string]Usage // the client's own token account per model
}

// Response is the API response an assistant entry is (one copy of) .
type Response struct {
	ID        string // the response id; "" when the line has none
	RequestID string
	Model     string
	Usage     Usage
	HasUsage  bool
	APIError  bool // not model usage: an API error written as a reply
	Advisors  []Advisor
}

// Advisor is a second model consulted inside one response, billed at its own
// rates and not included in the response's own usage.
type Advisor struct {
	Model string
	Usage Usage
}

// Call is a tool call an entry makes.
type Call struct {
	ID     string
	Name   string
	Path   string     // the file a file tool touches
	Action FileAction // how it touches Path
	More   []CallFile // further files it touches (a patch of several files); nil for most calls
	Input  CallInput  // WantInputs
}

// CallFile is one more file a call touches, beyond Call.Path.
type CallFile struct {
	Path   string
	Action FileAction
}

// CallInput is what the detail views read of a call's input.
type CallInput struct {
	Raw          []byte // the input as JSON
	Command      string // shell command
	Description  string
	Prompt       string
	SubagentType string
	Todos        []Todo // a whole to-do list (TodoWrite)
	TaskSubject  string // a task created
	TaskID       string // a task updated
	TaskStatus   string
}

// Todo is one item of a to-do list.
type Todo struct {
	Content string
	Status  string
}

// Result is a tool call's result an entry carries.
type Result struct {
	ToolUseID string
	State     ResultState
	Text      string // for errors always; for every result with WantText
	Spilled   bool   // Text is a preview; the whole output is in a spill file
}

// File is one transcript file an agent's discovery found.
type File struct {
	Root       *Root
	Path       string
	ProjectDir string // the folder grouping the agent's sessions by project
	Project    string // that folder's name
	Kind       FileKind
	SessionID  string // the trunk session; "" when only the lines say (legacy agent files)
	AgentID    string
}

// FileKind says which layout a transcript file belongs to.
type FileKind uint8

const (
	MainFile        FileKind = iota // a session's own transcript
	SubagentFile                    // a subagent's transcript in the session's folder
	LegacyAgentFile                 // a subagent's transcript beside the sessions; its lines name the session
)

// Agent is one coding agent's on-disk format. Implementations are safe for
// concurrent use except Discover, which a refresh calls with its own cache.
type Agent interface {
	// Name is the agent's id in answers: "claude-code", "codex".
	Name() string
	// Discover appends the agent's transcript files under root, walking with
	// dirs (every step admitted by root). It never fails: unreadable folders
	// and unknown files are skipped.
	Discover(root *Root, dirs *DirCache, out []File) []File
	// NewReader reads entries from r, which starts at byte offset after lines
	// physical lines of the file.
	NewReader(ctx context.Context, r io.Reader, offset int64, lines int) EntryReader
	// SpillPath is where the whole output of a tool call lives when the
	// transcript holds only a preview; "" when the agent has none.
	SpillPath(f *File, toolUseID string) string
	// SpillDir is the folder of a session's spilled outputs; "" when none.
	SpillDir(f *File) string
	// SubagentMeta is what a subagent file's sidecar says of it (its type
	// and its task), read through f's root when asked; "" for each when
	// there is none.
	SubagentMeta(f *File) (agentType, description string)
}

// EntryReader yields a file's entries, shaped like bufio.Scanner. A line
// that does not decode is yielded with Entry reporting false (the caller
// counts it); only I/O errors and cancellation stop a scan (Err).
type EntryReader interface {
	// Scan advances to the next non-blank line.
	Scan() bool
	// Lines is the underlying line scanner (raw bytes, line number, torn
	// state, consumed offset).
	Lines() *Lines
	// Entry decodes the current line (once; later calls add the parts of
	// want not filled yet). ok is false for a line that is not an entry.
	Entry(want Want) (e *Entry, ok bool)
	// Err is the first I/O error, or the context's error.
	Err() error
	// Close recycles the reader's buffers.
	Close()
}
