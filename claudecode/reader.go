package claudecode

import (
	"context"
	"io"
	"strings"
	"sync"

	"github.com/agent-activity/agent-activity/transcript"
)

// Reader yields the entries of a Claude Code transcript file. It implements
// transcript.EntryReader. Decoding is lazy: a pass that looks at raw bytes
// first (search, secrets) decodes only the lines it keeps.
type Reader struct {
	lines         *transcript.Lines
	sidechainFile bool

	fast       *fastDecoder // nil: every line is decoded by sonic (tests compare the two)
	sub        *fastDecoder // decodes a tool input or a result's content inside the line
	line       *rawLine
	slow       rawLine
	status     decodeStatus
	decoded    bool
	filled     transcript.Want
	blocks     []rawBlock // the current line's content blocks
	slowBlocks []rawBlock
	entry      transcript.Entry
	resp       transcript.Response // the entry's response, reused line to line
	calls      []transcript.Call
	results    []transcript.Result
}

// maxBorrowBuf bounds the borrowed-text buffer a recycled reader keeps.
const maxBorrowBuf = 1 << 20

// readers recycles closed readers with their decoders: a pass over a
// history opens one per file (thousands), and a reader with its decoders'
// lists is about 2 KB that each file grew again.
var readers = sync.Pool{New: func() any { return &Reader{fast: &fastDecoder{}, sub: &fastDecoder{}} }}

// NewReader reads r (a file of this agent starting at byte offset, after
// lines physical lines).
func NewReader(ctx context.Context, r io.Reader, offset int64, lines int) *Reader {
	rd := readers.Get().(*Reader)
	rd.lines = transcript.NewLines(ctx, r, offset, lines)
	return rd
}

// Scan advances to the next non-blank line.
func (r *Reader) Scan() bool {
	if !r.lines.Scan() {
		return false
	}
	r.decoded = false
	return true
}

// Lines is the underlying line scanner.
func (r *Reader) Lines() *transcript.Lines { return r.lines }

// Err is the first I/O error, or the context's error.
func (r *Reader) Err() error { return r.lines.Err() }

// Close recycles the reader: neither it nor an entry it returned may be
// used after.
func (r *Reader) Close() {
	if r.lines == nil {
		return // closed already
	}
	r.lines.Close()
	if r.fast == nil || r.sub == nil {
		r.lines = nil
		return // a test's sonic-only reader: not recycled
	}
	clear(r.slowBlocks)
	clear(r.calls)
	clear(r.results)
	if cap(r.sub.textBuf) > maxBorrowBuf {
		r.sub.textBuf = nil // one huge output does not stay with the pool
	}
	// Keep the decoders and the lists' memory; forget everything else.
	*r = Reader{fast: r.fast, sub: r.sub, slowBlocks: r.slowBlocks[:0], calls: r.calls[:0], results: r.results[:0]}
	readers.Put(r)
}

// Entry decodes the current line. The entry and its strings are valid until
// the next Scan.
func (r *Reader) Entry(want transcript.Want) (*transcript.Entry, bool) {
	if !r.decoded {
		r.decoded = true
		if !r.decode() {
			return nil, false
		}
		r.fill()
	}
	if r.status == decodeFailed {
		return nil, false
	}
	if missing := want &^ r.filled; missing != 0 {
		r.fillMore(missing)
	}
	return &r.entry, true
}

// decode decodes the current line into r.line and its content into
// r.blocks: by the fast path when it can, otherwise by sonic. It reports
// false for a line that is not a JSON object.
func (r *Reader) decode() bool {
	b := r.lines.Bytes()
	if r.fast != nil && r.fast.decode(b) {
		r.line, r.status, r.blocks = &r.fast.line, decodedOK, r.fast.blocks
		return true
	}
	r.line = &r.slow
	r.status = decodeLine(b, &r.slow)
	if r.status == decodeFailed {
		return false
	}
	clear(r.slowBlocks)
	r.slowBlocks = r.slowBlocks[:0]
	if r.slow.Message != nil && (r.slow.Type == "assistant" || r.slow.Type == "user") {
		r.slowBlocks = decodeBlocksInto(r.slowBlocks[:0], r.slow.Message.Content)
	}
	r.blocks = r.slowBlocks
	return true
}

// toolInput decodes a tool call's input: by the fast path when it can.
func (r *Reader) toolInput(raw []byte) rawToolInput {
	// The decoder keeps a pointer to what it fills: its own field, not a
	// local that would move to the heap at every call.
	if raw = trimSpace(raw); r.fast != nil && len(raw) > 0 && raw[0] == '{' && r.sub.toolInput(raw, &r.sub.input) {
		return r.sub.input
	}
	return decodeToolInput(raw)
}

// resultText flattens a tool result's content to its text parts (see
// resultText in decode.go, which decides what the fast path declines).
func (r *Reader) resultText(raw []byte) string {
	if raw = trimSpace(raw); r.fast == nil || !r.sub.resultContent(raw) {
		return resultText(raw)
	}
	if bs := r.sub.blocks; len(bs) == 1 && bs[0].Type == "text" {
		return r.sub.borrowText(&bs[0]) // the common case, without a copy of its own
	}
	return joinText(r.sub.blocks)
}

// fill builds the parts of the entry every pass needs.
func (r *Reader) fill() {
	l := r.line
	e := &r.entry
	if r.fast != nil {
		r.sub.textBuf = r.sub.textBuf[:0] // the last line's texts are done with
	}
	clear(r.calls)
	clear(r.results)
	*e = transcript.Entry{Line: r.lines.Number(), Type: l.Type, UUID: l.UUID, SessionID: l.SessionID,
		AgentID: l.AgentID, Time: transcript.ParseTime(l.Timestamp), Cwd: l.Cwd, GitBranch: l.GitBranch,
		Version: l.Version, Sidechain: l.IsSidechain, Meta: l.IsMeta || l.IsCompactSummary,
		Drift: r.status == decodedDrifted, Calls: r.calls[:0], Results: r.results[:0]}
	r.filled = 0
	switch l.Type {
	case "assistant", "user":
		if l.Message == nil {
			e.Drift = true
			return
		}
		if l.Type == "assistant" {
			r.fillAssistant()
		} else {
			r.fillUser()
		}
	case "summary":
		e.Summary, e.LeafUUID = l.Summary, l.LeafUUID
	case "custom-title":
		e.CustomTitle = l.CustomTitle
	case "ai-title":
		e.AITitle = l.AITitle
	case "pr-link":
		e.PRURL = l.PRURL
	case "system":
		e.Compaction = l.Subtype == "compact_boundary"
	case "cost-state":
		if len(l.ModelUsage) > 0 {
			e.CostState = make(map[string]transcript.Usage, len(l.ModelUsage))
			for m, mu := range l.ModelUsage {
				e.CostState[m] = transcript.Usage{Input: mu.InputTokens, Output: mu.OutputTokens,
					CacheCreate5m: mu.CacheCreationInputTokens, CacheRead: mu.CacheReadInputTokens}
			}
		}
	}
	r.calls, r.results = e.Calls, e.Results
}

func (r *Reader) fillAssistant() {
	l, e := r.line, &r.entry
	e.Role = transcript.RoleAssistant
	m := l.Message
	r.resp = transcript.Response{ID: m.ID, RequestID: l.RequestID, Model: m.Model,
		APIError: m.Model == "<synthetic>" || l.IsAPIErrorMessage}
	resp := &r.resp
	if m.Usage != nil && !resp.APIError {
		resp.Usage, resp.HasUsage = usageOf(m.Usage), true
		resp.Advisors = advisorsOf(m.Usage)
	}
	e.Response = resp
	for i := range r.blocks {
		b := &r.blocks[i]
		if b.Type != "tool_use" || b.ID == "" {
			continue
		}
		// The raw input and a shell call's command are always filled: the
		// summary fold classifies every call once, when the file is read.
		c := transcript.Call{ID: b.ID, Name: b.Name, Input: transcript.CallInput{Raw: trimSpace(b.Input)}}
		act, shell := fileActionOf(b.Name), isShellTool(b.Name)
		if act != transcript.ActionNone || shell {
			in := r.toolInput(b.Input)
			if p := toolPath(in); p != "" && act != transcript.ActionNone {
				c.Path, c.Action = p, act
			}
			if shell {
				c.Input.Command = in.Command
			}
		}
		e.Calls = append(e.Calls, c)
	}
}

func (r *Reader) fillUser() {
	l, e := r.line, &r.entry
	e.Role = transcript.RoleUser
	for i := range r.blocks {
		b := &r.blocks[i]
		if b.Type != "tool_result" {
			continue
		}
		res := transcript.Result{ToolUseID: b.ToolUseID, State: transcript.ResultOK}
		if b.IsError {
			res.Text = r.resultText(b.Content)
			res.State = classifyError(res.Text)
		}
		e.Results = append(e.Results, res)
	}
	if text, ok := promptText(l, r.blocks, r.borrower()); ok {
		e.Prompt, e.HasPrompt = text, true
	}
}

// borrower is the decoder whose buffer the line's quoted texts are
// unquoted onto, where they live until the next line is filled, as every
// string of an entry does (a block sonic read is already unquoted); nil for
// a reader without the fast path.
func (r *Reader) borrower() *fastDecoder {
	if r.fast != nil {
		return r.sub
	}
	return nil
}

// fillMore adds the optional parts of the entry.
func (r *Reader) fillMore(want transcript.Want) {
	if want&transcript.WantText != 0 {
		want |= transcript.WantProse // the prose is part of the text
	}
	r.filled |= want
	e := &r.entry
	if e.Role == transcript.RoleOther {
		return
	}
	if want&(transcript.WantText|transcript.WantProse) != 0 {
		switch e.Role {
		case transcript.RoleAssistant:
			e.Text = blocksText(r.blocks, r.borrower())
		case transcript.RoleUser:
			e.UserText = blocksText(r.blocks, r.borrower())
			if want&transcript.WantText == 0 {
				break // the prose alone: no tool result's text
			}
			ri := 0
			for _, b := range r.blocks {
				if b.Type != "tool_result" {
					continue
				}
				res := &e.Results[ri]
				ri++
				if res.Text == "" {
					res.Text = r.resultText(b.Content)
				}
				res.Spilled = strings.HasPrefix(res.Text, "<persisted-output>")
			}
		}
	}
	if want&transcript.WantInputs != 0 && e.Role == transcript.RoleAssistant {
		ci := 0
		for _, b := range r.blocks {
			if b.Type != "tool_use" || b.ID == "" {
				continue
			}
			c := &e.Calls[ci]
			ci++
			in := r.toolInput(b.Input)
			c.Input = transcript.CallInput{Raw: trimSpace(b.Input), Command: in.Command, Description: in.Description,
				Prompt: in.Prompt, SubagentType: in.SubagentType, TaskSubject: in.Subject, TaskID: in.TaskID, TaskStatus: in.Status}
			for _, td := range in.Todos {
				c.Input.Todos = append(c.Input.Todos, transcript.Todo{Content: td.Content, Status: td.Status})
			}
		}
	}
}
