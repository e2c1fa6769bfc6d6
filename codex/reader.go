package codex

import (
	"context"
	"io"
	"strings"

	"github.com/agent-activity/agent-activity/transcript"
)

// textLimit bounds Entry.Text, in runes; the full text of an output or a
// message is never kept.
const textLimit = 2000

// ctxEvery is how many lines pass between context checks (transcript.Lines'
// period).
const ctxEvery = 256

// Reader reads rollout lines of any length, shaped like bufio.Scanner: Scan
// advances to the next entry, Entry returns it, Err reports the first I/O
// error or the context's error. It reads through transcript.Lines, the one
// line scanner of the program.
//
// Blank lines are counted as physical lines but not yielded. A line that is
// not a JSON object is skipped and counted (Skipped), never fatal. A last
// line without '\n' that does not decode is torn (Torn): it may be being
// written right now, so it is neither an entry nor skipped. Unknown line and
// item types are yielded with KindOther.
//
// The Reader also tracks a fork's copied prefix (§9): entries from the
// parent's session_meta up to the child's own first turn have Copied set.
type Reader struct {
	lines *transcript.Lines
	dec   lineDecoder

	count   int // non-blank lines consumed, torn tail excluded
	skipped int
	drift   int
	torn    bool
}

// lineDecoder turns one rollout line at a time into an Entry, in file order: it
// keeps what later lines need of earlier ones (the fork prefix, the names of
// calls). Both the Reader and the transcript reader (Agent.NewReader) use it.
type lineDecoder struct {
	line   int // physical line number of the current line
	raw    rawLine
	entry  Entry
	meta   Meta
	tokens TokenCount
	files  []FileChange

	// fork prefix state
	selfID, parentID     string
	sawMeta              bool
	inPrefix, prefixDone bool
	prefixStart          int
	prefixEnd            int

	callNames map[string]string // call_id -> tool name, for outputs
}

func newLineDecoder() lineDecoder { return lineDecoder{callNames: map[string]string{}} }

// decode decodes line number n into r.entry. A line that is not a JSON
// object leaves the entry unchanged and reports decodeFailed.
func (r *lineDecoder) decode(b []byte, n int) decodeStatus {
	st := decodeLine(b, &r.raw)
	if st == decodeFailed {
		return st
	}
	r.line = n
	r.build(st == decodedDrifted)
	return st
}

// NewReader reads rollout lines from r. ctx is checked every few hundred
// lines; once it is done, Scan returns false and Err returns ctx.Err().
func NewReader(ctx context.Context, r io.Reader) *Reader {
	if ctx == nil {
		ctx = context.Background()
	}
	return &Reader{lines: transcript.NewLines(ctx, r, 0, 0), dec: newLineDecoder()}
}

// Scan advances to the next entry. It returns false at EOF, on an I/O
// error or when the context is done.
func (r *Reader) Scan() bool {
	for r.lines.Scan() {
		st := r.dec.decode(r.lines.Bytes(), r.lines.Number())
		if st == decodeFailed {
			if r.lines.Torn() {
				r.torn = true
				return false
			}
			r.count++
			r.skipped++
			continue
		}
		r.count++
		if st == decodedDrifted {
			r.drift++
		}
		return true
	}
	return false
}

// Close recycles the line buffers; the Reader is unusable after.
func (r *Reader) Close() { r.lines.Close() }

// Entry returns the current entry. It and everything it points to are
// valid until the next Scan; use Clone to keep one.
func (r *Reader) Entry() *Entry { return &r.dec.entry }

// Line returns the physical line number of the current entry, 1-based.
func (r *Reader) Line() int { return r.dec.line }

// Err returns the first I/O error, or the context's error; nil at a clean EOF.
func (r *Reader) Err() error { return r.lines.Err() }

// Lines returns how many non-blank lines were consumed (entries plus
// skipped lines); a torn last line is not among them.
func (r *Reader) Lines() int { return r.count }

// Skipped returns how many complete lines did not decode.
func (r *Reader) Skipped() int { return r.skipped }

// Drift returns how many entries decoded with fields of unexpected types.
func (r *Reader) Drift() int { return r.drift }

// Torn reports whether the input ended in a line without '\n' that did not
// decode. It is known once Scan has returned false.
func (r *Reader) Torn() bool { return r.torn }

// Prefix returns the physical lines [start, end) of a fork's copy of its
// parent's history; start is 0 when there is none, end is 0 while the copy
// has not ended (a child that has not begun its own first turn).
func (r *Reader) Prefix() (start, end int) { return r.dec.prefixStart, r.dec.prefixEnd }

// build fills r.entry from r.raw.
func (r *lineDecoder) build(drift bool) {
	l, p := &r.raw, &r.raw.Payload
	r.files = r.files[:0]
	r.entry = Entry{Line: r.line, Time: transcript.ParseTime(l.Timestamp), Type: l.Type, Item: p.Type, Drift: drift}
	e := &r.entry
	switch l.Type {
	case "session_meta":
		e.Item = ""
		e.Kind = KindMeta
		r.buildMeta(p)
		e.Meta = &r.meta
		e.Cwd = p.Cwd
	case "turn_context":
		e.Item = ""
		e.Kind = KindMeta
		e.Model, e.TurnID, e.Cwd = p.Model, p.TurnID, p.Cwd
	case "response_item":
		r.buildItem(p)
	case "event_msg":
		r.buildEvent(p)
	case "world_state", "compacted", "inter_agent_communication_metadata":
		e.Kind = KindMeta
	default:
		e.Kind = KindOther
	}
	if len(r.files) > 0 {
		e.Files = r.files
	}
	r.trackPrefix()
	e.Copied = r.inPrefix
}

func (r *lineDecoder) buildMeta(p *rawPayload) {
	src, sub, spawnParent, path, nick, role := source(p.Source)
	m := Meta{ID: p.ID, CreatedAt: transcript.ParseTime(p.Timestamp), Cwd: p.Cwd, Originator: p.Originator,
		CLIVersion: p.CLIVersion, Source: src, Subagent: sub, ModelProvider: p.ModelProvider,
		RootID: p.SessionID, ForkedFromID: p.ForkedFromID, ParentThreadID: p.ParentThreadID,
		AgentPath: p.AgentPath, AgentNickname: p.AgentNickname, AgentRole: p.AgentRole}
	if p.Git != nil {
		m.GitBranch = p.Git.Branch
	}
	if m.ParentThreadID == "" {
		m.ParentThreadID = spawnParent
	}
	if m.AgentPath == "" {
		m.AgentPath = path
	}
	if m.AgentNickname == "" {
		m.AgentNickname = nick
	}
	if m.AgentRole == "" {
		m.AgentRole = role
	}
	r.meta = m
}

func (r *lineDecoder) buildItem(p *rawPayload) {
	e := &r.entry
	switch p.Type {
	case "message":
		e.Role = p.Role
		e.Text = excerpt(itemsText(p.Content, 4*textLimit), textLimit)
		if p.Role == "assistant" {
			e.Kind = KindAssistant
			return
		}
		e.Kind = KindContext
		if e.Injected = injectedKind(e.Text); e.Injected == "" && p.Role == "developer" {
			e.Injected = "developer" // every developer message is the harness's
		}
	case "reasoning":
		e.Kind = KindReasoning
		e.Text = excerpt(itemsText(p.Summary, 4*textLimit), textLimit)
	case "agent_message":
		e.Kind = KindContext
		e.Role = p.Author
		e.Injected = "agent_message"
		e.Text = excerpt(itemsText(p.Content, 4*textLimit), textLimit)
	case "function_call":
		r.buildCall(p, toolName(p.Namespace, p.Name))
		r.functionArgs(p)
	case "custom_tool_call":
		r.buildCall(p, toolName(p.Namespace, p.Name))
		input, ok := jsonString(p.Input)
		if !ok {
			input = string(trimSpace(p.Input))
		}
		e.Text = excerpt(input, textLimit)
		if p.Name == "apply_patch" {
			e.Patch = input
			r.files = patchFiles(r.files, input)
		}
	case "local_shell_call":
		name := toolName(p.Namespace, p.Name)
		if name == "" {
			name = "local_shell"
		}
		if p.CallID == "" {
			p.CallID = p.ID
		}
		r.buildCall(p, name)
		a := decodeAction(p.Action)
		s, list := argv(a.Command)
		e.Command = shellCommand(s, list)
		e.Text = excerpt(e.Command, textLimit)
		r.shellFiles()
	case "tool_search_call":
		r.buildCall(p, "tool_search")
		e.Text = excerpt(string(trimSpace(p.Arguments)), textLimit)
	case "web_search_call":
		r.buildCall(p, "web_search")
		e.CallID = p.ID // no call_id; newer builds write an item id
		e.Result = webSearchResult(p.Status)
		a := decodeAction(p.Action)
		e.Text = a.Query
		if e.Text == "" {
			e.Text = a.URL
		}
	case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
		e.Kind = KindToolOutput
		e.CallID = p.CallID
		e.Tool = r.callNames[p.CallID]
		text := outputText(p.Output)
		e.Result, e.ExitCode, e.HasExit = outputResult(text)
		e.Text = excerpt(text, textLimit)
	case "tool_search_output":
		e.Kind = KindToolOutput
		e.CallID = p.CallID
		e.Tool = r.callNames[p.CallID]
		e.Result = ResultOK
		if p.Status == "failed" {
			e.Result = ResultError
		}
	case "ghost_snapshot":
		e.Kind = KindMeta
	default:
		e.Kind = KindOther
	}
}

func (r *lineDecoder) buildCall(p *rawPayload, name string) {
	e := &r.entry
	e.Kind = KindToolCall
	e.Tool = name
	e.CallID = p.CallID
	if p.CallID != "" {
		if _, ok := r.callNames[p.CallID]; !ok {
			r.callNames[strings.Clone(p.CallID)] = strings.Clone(name)
		}
	}
}

// functionArgs reads the command or patch out of function_call arguments.
func (r *lineDecoder) functionArgs(p *rawPayload) {
	e := &r.entry
	args, _ := callArgs(p.Arguments)
	if s, ok := jsonString(p.Arguments); ok {
		e.Text = excerpt(s, textLimit)
	} else {
		e.Text = excerpt(string(trimSpace(p.Arguments)), textLimit)
	}
	switch {
	case p.Name == "apply_patch":
		e.Patch = args.Input
		if e.Patch == "" {
			e.Patch = args.Patch
		}
		r.files = patchFiles(r.files, e.Patch)
		return
	case args.Cmd != "":
		e.Command = args.Cmd
	case len(args.Command) > 0:
		s, list := argv(args.Command)
		e.Command = shellCommand(s, list)
	}
	r.shellFiles()
}

// shellFiles reads the files of an apply_patch run through a shell command.
func (r *lineDecoder) shellFiles() {
	e := &r.entry
	if body := shellPatch(e.Command); body != "" {
		e.Patch = body
		r.files = patchFiles(r.files, body)
	}
}

// shellCommand renders a command given as a string or an argv list. An argv
// of the form [shell, -lc, script] is the script; others are joined by spaces.
func shellCommand(s string, list []string) string {
	if s != "" || len(list) == 0 {
		return s
	}
	if len(list) == 3 && (list[1] == "-lc" || list[1] == "-c") {
		return list[2]
	}
	return strings.Join(list, " ")
}

func (r *lineDecoder) buildEvent(p *rawPayload) {
	e := &r.entry
	switch p.Type {
	case "user_message":
		e.Text = excerpt(promptText(p.Message), textLimit)
		e.Kind = KindPrompt
		if p.Kind != "" && p.Kind != "plain" {
			// 0.4x wrote injected context as user_message with a kind.
			e.Kind, e.Injected = KindContext, p.Kind
		} else if k := injectedKind(e.Text); k == "agents_md" || k == "environment_context" || k == "user_instructions" {
			e.Kind, e.Injected = KindContext, k
		}
	case "agent_message", "agent_reasoning":
		e.Kind = KindEcho
		e.Text = excerpt(p.Message, textLimit)
		if e.Text == "" {
			e.Text = excerpt(p.Text, textLimit)
		}
	case "token_count":
		e.Kind = KindTokenCount
		if p.Info != nil {
			r.tokens = TokenCount{Total: tokensOf(p.Info.Total), Last: tokensOf(p.Info.Last), Window: p.Info.Window}
			e.Tokens = &r.tokens
		}
	case "task_started":
		e.Kind = KindMeta
		e.TurnID = p.TurnID
	case "task_complete":
		e.Kind = KindMeta
		e.TurnID = p.TurnID
		e.Text = excerpt(p.LastAgentMessage, textLimit)
		if msg := errorText(p.Error); msg != "" {
			e.Kind = KindError
			e.Text = excerpt(msg, textLimit)
		}
	case "turn_aborted":
		e.Kind = KindAborted
		e.TurnID = p.TurnID
		e.Text = p.Reason
	case "error":
		e.Kind = KindError
		e.Text = excerpt(p.Message, textLimit)
	case "patch_apply_end", "exec_command_end", "mcp_tool_call_end", "web_search_end", "view_image_tool_call":
		e.Kind = KindToolEvent
		e.CallID = p.CallID
		r.toolEvent(p)
	case "thread_settings_applied":
		e.Kind = KindMeta
		if p.ThreadSettings != nil {
			e.Model = p.ThreadSettings.Model
		}
	case "sub_agent_activity":
		e.Kind = KindMeta
		e.Text = p.AgentThreadID
	case "task_failed":
		e.Kind = KindError
		e.Text = excerpt(errorText(p.Error), textLimit)
	case "thread_rolled_back", "context_compacted", "item_completed",
		"entered_review_mode", "exited_review_mode":
		e.Kind = KindMeta
	default:
		e.Kind = KindOther
	}
}

// toolEvent reads what a harness event says about a call.
func (r *lineDecoder) toolEvent(p *rawPayload) {
	e := &r.entry
	switch p.Type {
	case "patch_apply_end":
		e.Result = ResultOK
		if p.Success != nil && !*p.Success {
			e.Result = ResultError
		}
		for path, c := range patchChanges(p.Changes) {
			action := ActionEdit
			if c.Type == "add" {
				action = ActionWrite
			}
			r.files = append(r.files, FileChange{Path: path, Change: c.Type, Action: action})
			if c.MovePath != "" {
				r.files = append(r.files, FileChange{Path: c.MovePath, Change: "move", Action: ActionWrite})
			}
		}
		sortFiles(r.files)
	case "exec_command_end":
		if p.ExitCode != nil {
			e.ExitCode, e.HasExit = *p.ExitCode, true
			e.Result = okUnless(*p.ExitCode != 0)
		}
	case "mcp_tool_call_end":
		if isErr, known := mcpIsError(p.Result); known {
			e.Result = okUnless(isErr)
		}
	case "view_image_tool_call":
		if p.Path != "" {
			r.files = append(r.files, FileChange{Path: p.Path, Change: "view", Action: ActionRead})
		}
	}
}

// trackPrefix follows §9: in a file whose first session_meta names a parent
// (forked_from_id, or a spawned subagent's parent), the copy starts at a
// later session_meta with the parent's id and ends before the first
// task_started or turn_context whose turn_id sorts after the file's own id
// (both are UUIDv7, so string order is time order).
func (r *lineDecoder) trackPrefix() {
	e := &r.entry
	if e.Type == "session_meta" && e.Meta != nil {
		m := e.Meta
		switch {
		case !r.sawMeta:
			r.sawMeta = true
			r.selfID = strings.Clone(m.ID)
			if m.ForkedFromID != "" {
				r.parentID = strings.Clone(m.ForkedFromID)
			} else if m.Source == "subagent" && m.ParentThreadID != "" {
				r.parentID = strings.Clone(m.ParentThreadID)
			}
		case !r.inPrefix && !r.prefixDone && r.parentID != "" && m.ID == r.parentID:
			r.inPrefix = true
			r.prefixStart = e.Line
		}
		return
	}
	if !r.inPrefix {
		return
	}
	turnStart := e.Type == "turn_context" || e.Type == "event_msg" && e.Item == "task_started"
	if turnStart && e.TurnID != "" && e.TurnID > r.selfID {
		r.inPrefix, r.prefixDone = false, true
		r.prefixEnd = e.Line
	}
}

func toolName(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "." + name
}

func tokensOf(t rawTokens) Tokens {
	return Tokens{Input: t.Input, Cached: t.Cached, Output: t.Output, Reasoning: t.Reasoning,
		Total: t.Total, CacheWrite: t.CacheWrite}
}

// sortFiles orders files by path, so a map's random order never shows.
func sortFiles(fs []FileChange) {
	for i := 1; i < len(fs); i++ {
		for j := i; j > 0 && fs[j].Path < fs[j-1].Path; j-- {
			fs[j], fs[j-1] = fs[j-1], fs[j]
		}
	}
}
