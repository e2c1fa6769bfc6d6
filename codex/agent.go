package codex

import (
	"context"
	"io"
	"strconv"
	"strings"

	"github.com/agent-activity/agent-activity/transcript"
)

// Agent is Codex CLI's on-disk format as a transcript.Agent: discovery of
// the rollouts under a Codex root (Discover, in discover.go) and a reader
// that turns each rollout line into a transcript.Entry by the counting
// rules of the format reference (§14).
type Agent struct{}

// Name is "codex".
func (Agent) Name() string { return "codex" }

// SpillPath is "": Codex keeps every output in the rollout itself.
func (Agent) SpillPath(*transcript.File, string) string { return "" }

// SpillDir is "": Codex keeps no outputs aside.
func (Agent) SpillDir(*transcript.File) string { return "" }

// SubagentMeta is empty: Codex keeps no subagent sidecars.
func (Agent) SubagentMeta(*transcript.File) (string, string) { return "", "" }

// NewReader reads a rollout (plain, or zstd-compressed: the magic number
// tells) as transcript entries.
//
// The counting rules need the whole file in order (the totals already seen,
// the model in force, the fork's copied prefix), so a read that resumes at
// offset > 0 starts over: when r can seek, it is read again from its start,
// the lines before offset only folded into that state, and the entries from
// offset on yielded with their physical numbers. A .jsonl.zst cannot be
// resumed at all (its offsets are not the file's): it is read from its start
// the same way, and logs reads a changed one again as a whole anyway,
// because its marks never match the compressed bytes. When r cannot seek,
// the read starts at offset with no earlier state.
func (Agent) NewReader(ctx context.Context, r io.Reader, offset int64, lines int) transcript.EntryReader {
	er := &entryReader{dec: newLineDecoder(), t: newThread()}
	from := int64(0)
	if s, ok := r.(io.Seeker); ok && offset > 0 {
		if _, err := s.Seek(0, io.SeekStart); err == nil {
			from, offset, lines = offset, 0, 0
		}
	}
	rc, err := decompressed(r)
	if err != nil {
		er.err, rc = err, io.NopCloser(strings.NewReader(""))
	}
	er.rc = rc
	er.lines = transcript.NewLines(ctx, rc, offset, lines)
	er.lines.YieldEvery() // the state of the lines after a line needs it
	for from > 0 && er.lines.Scan() {
		er.decodeLine()
		if er.lines.Start() >= from {
			er.pending = true
			break
		}
		er.lines.Commit()
	}
	return er
}

// entryReader yields a rollout's transcript entries. Every line is decoded
// as it is scanned, whatever the caller asks of it: the state the next lines
// depend on must see them all.
type entryReader struct {
	lines   *transcript.Lines
	rc      io.ReadCloser
	err     error
	dec     lineDecoder
	t       *thread
	source  string // session_meta.source: "exec" marks a UI-title thread
	pending bool   // the current line was decoded while resuming and waits for Scan

	ok      bool
	entry   transcript.Entry
	filled  transcript.Want
	calls   []transcript.Call
	results []transcript.Result
	uuid    []byte
}

func (r *entryReader) Scan() bool {
	if r.pending {
		r.pending = false
		return true
	}
	if r.err != nil || !r.lines.Scan() {
		return false
	}
	r.decodeLine()
	return true
}

func (r *entryReader) Lines() *transcript.Lines { return r.lines }

func (r *entryReader) Err() error {
	if r.err != nil {
		return r.err
	}
	return r.lines.Err()
}

func (r *entryReader) Close() {
	r.lines.Close()
	r.rc.Close()
}

func (r *entryReader) Entry(want transcript.Want) (*transcript.Entry, bool) {
	if !r.ok {
		return nil, false
	}
	if missing := want &^ r.filled; missing != 0 {
		r.fillMore(missing)
	}
	return &r.entry, true
}

// decodeLine decodes the current line and builds the parts of its entry
// every pass needs, folding it into the thread's state.
func (r *entryReader) decodeLine() {
	r.ok = r.dec.decode(r.lines.Bytes(), r.lines.Number()) != decodeFailed
	if r.ok {
		r.fill()
	}
}

// fill maps the decoded line onto the neutral entry: model output
// (reasoning, assistant text, calls, and the token_count that ends a
// response) as assistant entries sharing the response's id; outputs as
// results; typed prompts as prompts and everything injected as meta.
func (r *entryReader) fill() {
	e, t := &r.dec.entry, r.t
	first := t.observe(e)
	r.uuid = strconv.AppendInt(append(r.uuid[:0], "line-"...), int64(e.Line), 10)
	clear(r.calls)
	clear(r.results)
	r.entry = transcript.Entry{Line: e.Line, Type: e.Item, Time: e.Time, UUID: string(r.uuid), SessionID: t.id,
		Drift: e.Drift, Calls: r.calls[:0], Results: r.results[:0]}
	r.filled = 0
	te := &r.entry
	if te.Type == "" {
		te.Type = e.Type
	}
	if first != nil {
		te.Cwd, te.GitBranch = first.Cwd, first.GitBranch
		r.source = strings.Clone(first.Source)
	}
	response := func() *transcript.Response {
		te.Role = transcript.RoleAssistant
		return &transcript.Response{ID: responseID(t.group(e.Copied)), Model: t.responseModel(e.Copied)}
	}
	switch e.Kind {
	case KindMeta:
		if e.Type == "turn_context" && !e.Copied {
			te.Cwd = e.Cwd
		}
		te.Compaction = e.Type == "compacted" && !e.Copied
	case KindTokenCount:
		if key, u, ok := t.count(e); ok {
			te.Role = transcript.RoleAssistant
			te.Response = &transcript.Response{ID: responseID(key), Model: t.responseModel(e.Copied),
				Usage: neutralUsage(u), HasUsage: true}
		}
	case KindPrompt:
		te.Role = transcript.RoleUser
		if t.newPrompt(e) && !(r.source == "exec" && strings.HasPrefix(e.Text, titlePrompt)) {
			te.Prompt, te.HasPrompt = e.Text, true
		} else {
			te.Meta = true // a fork's copy, the /review double, or a UI-title request
		}
	case KindContext:
		te.Role, te.Meta = transcript.RoleUser, true
	case KindAssistant, KindReasoning:
		te.Response = response()
	case KindToolCall:
		te.Response = response()
		r.fillCall(e, t.callKey(e))
	case KindToolOutput:
		te.Role = transcript.RoleUser
		te.Results = append(te.Results, transcript.Result{ToolUseID: e.CallID, State: resultState(e.Result)})
		if e.Result == ResultError || e.Result == ResultRejected {
			te.Results[0].Text = e.Text
		}
	case KindToolEvent:
		// Only MCP's isError adds to what the output said (§7).
		if e.Item == "mcp_tool_call_end" && e.Result == ResultError && e.CallID != "" {
			te.Role = transcript.RoleUser
			te.Results = append(te.Results, transcript.Result{ToolUseID: e.CallID, State: transcript.ResultError})
		}
	case KindError:
		if !e.Copied {
			te.Role = transcript.RoleAssistant
			te.Response = &transcript.Response{Model: t.responseModel(false), APIError: true}
		}
	}
	r.calls, r.results = te.Calls, te.Results
}

// titlePrompt opens the prompt of the VS Code extension's UI-title threads
// (§1): machine text, not a human prompt.
const titlePrompt = "Generate a concise UI title"

// fillCall adds the call of a call item, with the files its patch names
// joined to the turn's folder. A web search carries its own outcome: it has
// no output line (§5.4).
func (r *entryReader) fillCall(e *Entry, key Key) {
	te := &r.entry
	c := transcript.Call{ID: e.CallID, Name: e.Tool}
	if c.ID == "" {
		c.ID = "ws-" + strconv.FormatUint(uint64(key), 16)
	}
	cwd := r.t.fileCwd(e.Copied)
	for i, f := range e.Files {
		path, action := joinPath(cwd, f.Path), fileAction(f.Action)
		if i == 0 {
			c.Path, c.Action = path, action
		} else {
			c.More = append(c.More, transcript.CallFile{Path: path, Action: action})
		}
	}
	te.Calls = append(te.Calls, c)
	if e.Item == "web_search_call" && e.Result != ResultRunning {
		te.Results = append(te.Results, transcript.Result{ToolUseID: c.ID, State: resultState(e.Result)})
	}
}

// fillMore adds the text and call inputs, from the line still decoded.
func (r *entryReader) fillMore(want transcript.Want) {
	if want&transcript.WantText != 0 {
		want |= transcript.WantProse // the prose is part of the text
	}
	r.filled |= want
	e, te := &r.dec.entry, &r.entry
	if want&(transcript.WantText|transcript.WantProse) != 0 {
		switch e.Kind {
		case KindAssistant:
			te.Text = strings.TrimSpace(e.Text)
		case KindPrompt, KindContext:
			te.UserText = strings.TrimSpace(e.Text)
		case KindToolOutput:
			if len(te.Results) > 0 && want&transcript.WantText != 0 {
				te.Results[0].Text = e.Text
			}
		}
	}
	if want&transcript.WantInputs != 0 && len(te.Calls) > 0 {
		p := &r.dec.raw.Payload
		raw := trimSpace(p.Arguments)
		switch e.Item {
		case "custom_tool_call":
			raw = trimSpace(p.Input)
		case "local_shell_call", "web_search_call":
			raw = trimSpace(p.Action)
		}
		if s, ok := jsonString(raw); ok && e.Item == "function_call" {
			raw = []byte(s) // arguments are a JSON string holding the object
		}
		te.Calls[0].Input = transcript.CallInput{Raw: raw, Command: e.Command}
	}
}

// responseID renders a response's group key as the id logs keys it by.
func responseID(k Key) string { return "codex-" + strconv.FormatUint(uint64(k), 16) }

// neutralUsage maps a response's usage onto the neutral block of SPEC §10;
// negative counts (a corrupt line) read as 0 so they never lower a total.
func neutralUsage(u Usage) transcript.Usage {
	return transcript.Usage{Input: max(0, u.InputTokens), CacheRead: max(0, u.CacheReadTokens),
		Output: max(0, u.OutputTokens), Reasoning: max(0, u.ReasoningTokens)}
}

// resultState maps an output's result onto the neutral states; a command
// still running is no result yet (pending, or in progress while live).
func resultState(res Result) transcript.ResultState {
	switch res {
	case ResultOK:
		return transcript.ResultOK
	case ResultError:
		return transcript.ResultError
	case ResultRejected:
		return transcript.ResultRejected
	}
	return transcript.NoResult
}

func fileAction(a string) transcript.FileAction {
	switch a {
	case ActionRead:
		return transcript.ActionRead
	case ActionEdit:
		return transcript.ActionEdit
	case ActionWrite:
		return transcript.ActionWrite
	}
	return transcript.ActionNone
}

var _ transcript.Agent = Agent{}
