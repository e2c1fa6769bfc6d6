package logs

import (
	"bytes"
	"context"
	"hash/maphash"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/agent-activity/agent-activity/transcript"
)

// Usage is the token usage of one API response, or a sum of them.
type Usage = transcript.Usage

// The file layouts, result states and file actions are the readers' own.
type (
	FileKind    = transcript.FileKind
	ResultState = transcript.ResultState
	FileAction  = transcript.FileAction
)

const (
	MainFile        = transcript.MainFile
	SubagentFile    = transcript.SubagentFile
	LegacyAgentFile = transcript.LegacyAgentFile

	ActionNone  = transcript.ActionNone
	ActionRead  = transcript.ActionRead
	ActionEdit  = transcript.ActionEdit
	ActionWrite = transcript.ActionWrite
)

// Message is one assistant message as a file shows it: for usage, the copy
// with the largest output_tokens among the file's lines that share its
// message.id (ties: the last).
type Message struct {
	Key       uint64 // hash of message.id; 0 for a line without one (it counts on its own)
	Model     string
	Time      int64 // unix milliseconds of the response's first line
	Usage     Usage
	Sidechain bool  // no copy was on the main thread
	Synthetic bool  // <synthetic> or isApiErrorMessage: an API error, not usage
	HasUsage  bool  // some copy carried a usage object
	Line      int32 // 1-based line number of the first copy
}

// Counts reports whether the message is model usage.
func (m *Message) Counts() bool { return m.HasUsage && !m.Synthetic }

// Call is one tool_use block joined to its result in the same file. Only a
// hash of its id is kept in memory; tools that show ids re-read the file.
type Call struct {
	Key  uint64 // IDKey of the tool_use id
	Name string
	Time int64
	Line int32
	// The small fields share one word (a Call is 64 bytes; there are millions).
	Sidechain bool
	Action    FileAction // how Path was touched
	Result    ResultState
	Kinds     CommandKinds // what a shell call's command does (see classifyCall)
	Path      string       // file path for file tools
	Target    uint64       // what the call acted on, for "the same call again" (see classifyCall)
}

// SummaryLine is a `summary` line: a title plus the uuid of the line it describes.
type SummaryLine struct {
	Text string
	Leaf string
}

// CostState is the token account Claude Code 2.1.328+ writes at session end.
type CostState struct {
	Models map[string]Usage // model -> tokens (5m holds all cache creation)
}

// FileSummary is everything agent-activity keeps about one transcript file.
// It is built by one pass over the file and extended from Offset when the
// file grows. A FileSummary published in a Snapshot is never mutated:
// extension works on a copy (see clone).
type FileSummary struct {
	transcript.File
	agent transcript.Agent

	Size    int64
	ModTime time.Time
	Offset  int64 // bytes consumed: every complete line before it has been read
	phys    int   // physical lines before Offset

	Lines       int  // non-blank lines consumed, torn tail excluded
	Entries     int  // lines decoded as JSON objects
	Skipped     int  // undecodable complete lines
	Torn        bool // an unterminated, undecodable last line is pending
	SawEnvelope bool // some line carried both sessionId and timestamp
	Drift       bool // lines with an unexpected shape were seen

	Start, End int64 // unix ms over every timestamp; 0 when none

	Cwd       string // first cwd seen
	GitBranch string // last non-empty gitBranch seen
	Versions  []string

	Messages         []Message
	msgIdx           map[uint64]int32 // hash of message.id -> index in Messages
	MainAssistantIDs int              // distinct message ids of main-thread assistant lines
	HumanPrompts     int
	FirstPrompt      string // raw (unredacted), clipped
	APIErrors        int

	Calls   []Call
	callIdx map[uint64]int32       // hash of tool_use id -> index in Calls
	orphans map[uint64]ResultState // results seen before their call (lines are not in order)

	Summaries   []SummaryLine
	leaves      map[uint64]bool // summary leafUuids -> seen as a line of this file
	lateLeaf    bool            // a summary came after other lines: earlier lines need a look
	CustomTitle string
	AITitle     string
	PRLinks     []string
	Compactions int
	CostState   *CostState
	ToolCounts  map[string]int
	ReadError   string // the last I/O error reading the file, if any

	id   transcript.FileID // a file replaced by rename has a new identity
	head []byte            // first bytes of the file, to notice replacement
	tail []byte            // the bytes just before Offset, to notice a rewrite
}

func readAt(fh *os.File, off, n int64) []byte {
	buf := make([]byte, n)
	if m, _ := fh.ReadAt(buf, off); int64(m) == n {
		return buf
	}
	return nil
}

// unchangedPrefix reports whether the bytes read before are still in place:
// same identity, same first bytes, same bytes just before Offset.
func (f *FileSummary) unchangedPrefix(fi transcript.FileInfo) bool {
	if f.id != fi.ID {
		return false
	}
	if f.Offset == 0 {
		return true
	}
	if f.head == nil || f.tail == nil {
		return false
	}
	fh, err := f.Root.Open(f.Path)
	if err != nil {
		return false
	}
	defer fh.Close()
	start := max(0, f.Offset-transcript.MarkLen)
	return bytes.Equal(readAt(fh, 0, int64(len(f.head))), f.head) && bytes.Equal(readAt(fh, start, int64(len(f.tail))), f.tail)
}

// idSeed hashes ids for in-memory indexes: 64-bit keys instead of strings
// keep memory flat (a collision among a few million ids is negligible).
var idSeed = maphash.MakeSeed()

func idHash(s string) uint64 { return maphash.String(idSeed, s) | 1 }

// IDKey is the in-memory key of a message or tool_use id (never 0).
func IDKey(id string) uint64 { return idHash(id) }

// HasUUID reports whether a line with this uuid is in the file; it answers for
// the leafUuids of the file's summary lines only.
func (f *FileSummary) HasUUID(u string) bool { return f.leaves[idHash(u)] }

// IsSidechainFile reports whether every line of the file is sidechain activity.
func (f *FileSummary) IsSidechainFile() bool { return f.Kind != MainFile }

func newFileSummary(d discovered) *FileSummary {
	return &FileSummary{File: d.File, agent: d.agent,
		msgIdx: map[uint64]int32{}, callIdx: map[uint64]int32{}, ToolCounts: map[string]int{},
	}
}

// clone returns a copy that can be extended without touching f.
func (f *FileSummary) clone() *FileSummary {
	c := *f
	c.Versions = append([]string(nil), f.Versions...)
	c.Messages = append([]Message(nil), f.Messages...)
	c.Calls = append([]Call(nil), f.Calls...)
	c.Summaries = append([]SummaryLine(nil), f.Summaries...)
	c.PRLinks = append([]string(nil), f.PRLinks...)
	c.msgIdx = maps.Clone(f.msgIdx)
	c.callIdx = maps.Clone(f.callIdx)
	c.orphans = maps.Clone(f.orphans)
	c.leaves = maps.Clone(f.leaves)
	c.head = append([]byte(nil), f.head...)
	c.tail = append([]byte(nil), f.tail...)
	c.ToolCounts = maps.Clone(f.ToolCounts)
	return &c
}

// clipSlice drops unused capacity left by append's growth: summaries live as
// long as the process, so the slack would be memory held for nothing.
func clipSlice[T any](s []T) []T {
	if cap(s)-len(s) <= len(s)/8 {
		return s
	}
	return append([]T(nil), s...)
}

// openEntries opens f and returns a reader of its entries from its start.
// The caller closes both.
func (f *FileSummary) openEntries(ctx context.Context) (*os.File, transcript.EntryReader, error) {
	fh, err := f.Root.Open(f.Path)
	if err != nil {
		return nil, nil, err
	}
	return fh, f.agent.NewReader(ctx, fh, 0, 0), nil
}

// eachEntry calls fn for every decodable entry of f, oldest first, with the
// parts of want filled, until fn returns false. A torn last line that does
// not decode is not an entry. The entry is valid during the call only.
func (f *FileSummary) eachEntry(ctx context.Context, want transcript.Want, fn func(e *transcript.Entry) bool) error {
	return f.eachEntryLazy(ctx, func(er transcript.EntryReader, e *transcript.Entry) bool {
		if want != 0 {
			e, _ = er.Entry(want)
		}
		return fn(e)
	})
}

// eachEntryLazy is eachEntry for passes that decide from the always-filled
// parts whether to ask er.Entry for more.
func (f *FileSummary) eachEntryLazy(ctx context.Context, fn func(er transcript.EntryReader, e *transcript.Entry) bool) error {
	fh, er, err := f.openEntries(ctx)
	if err != nil {
		return err
	}
	defer fh.Close()
	defer er.Close()
	for er.Scan() {
		if e, ok := er.Entry(0); ok && !fn(er, e) {
			break
		}
	}
	return er.Err()
}

// scanFile reads f's file from f.Offset to its end and folds every complete
// line into f. Decode problems are counted, never returned; only I/O errors
// and a cancelled ctx are (the caller then discards f).
func (f *FileSummary) scanFile(ctx context.Context, fi transcript.FileInfo, hook lineHook) error {
	fh, err := f.Root.Open(f.Path)
	if err != nil {
		return err
	}
	defer fh.Close()
	if f.Offset > 0 {
		if _, err := fh.Seek(f.Offset, 0); err != nil {
			return err
		}
	}
	f.Size, f.ModTime, f.id = fi.Size, fi.ModTime, fi.ID
	f.Torn = false
	er := f.agent.NewReader(ctx, fh, f.Offset, f.phys)
	defer er.Close()
	lines := er.Lines()
	if f.Offset > 0 {
		lines.Resume(f.head, f.tail)
	}
	for er.Scan() {
		e, ok := er.Entry(0)
		if !ok {
			if lines.Torn() {
				// Possibly being written right now: leave it for the next look.
				f.Torn = true
				break
			}
			f.Lines++
			f.Skipped++
			f.Drift = true
			lines.Commit()
			continue
		}
		f.Lines++
		lines.Commit()
		if hook != nil {
			hook(f, er)
		}
		f.fold(e)
	}
	f.Offset, f.phys = lines.Consumed()
	f.head, f.tail = lines.Marks()
	f.head, f.tail = bytes.Clone(f.head), bytes.Clone(f.tail)
	f.Messages = clipSlice(f.Messages)
	f.Calls = clipSlice(f.Calls)
	if f.lateLeaf {
		f.resolveLeaves(ctx)
	}
	return er.Err()
}

// resolveLeaves looks for summary leafUuids among lines read before their
// summary line. Rare: summary lines are normally the first lines of a file.
func (f *FileSummary) resolveLeaves(ctx context.Context) {
	f.lateLeaf = false
	_ = f.eachEntry(ctx, 0, func(e *transcript.Entry) bool {
		if e.UUID != "" {
			if done, ok := f.leaves[idHash(e.UUID)]; ok && !done {
				f.leaves[idHash(e.UUID)] = true
			}
		}
		return true
	})
}

// fold adds one decoded entry.
func (f *FileSummary) fold(e *transcript.Entry) {
	f.Entries++
	ts := e.Time
	if ts != 0 {
		if f.Start == 0 || ts < f.Start {
			f.Start = ts
		}
		if ts > f.End {
			f.End = ts
		}
	}
	if e.SessionID != "" && ts != 0 {
		f.SawEnvelope = true
	}
	if e.Drift {
		f.Drift = true
	}
	if f.Kind == LegacyAgentFile && f.SessionID == "" && e.SessionID != "" {
		f.SessionID = strings.Clone(e.SessionID)
	}
	if f.AgentID == "" && e.AgentID != "" {
		f.AgentID = strings.Clone(e.AgentID)
	}
	if f.Cwd == "" && e.Cwd != "" {
		f.Cwd = strings.Clone(e.Cwd)
	}
	if e.GitBranch != "" && e.GitBranch != f.GitBranch {
		f.GitBranch = strings.Clone(e.GitBranch)
	}
	if e.Version != "" && !slices.Contains(f.Versions, e.Version) {
		f.Versions = append(f.Versions, strings.Clone(e.Version))
	}
	if e.UUID != "" && f.leaves != nil {
		if h := idHash(e.UUID); !f.leaves[h] {
			if _, ok := f.leaves[h]; ok {
				f.leaves[h] = true
			}
		}
	}
	sidechain := f.Kind != MainFile || e.Sidechain
	switch {
	case e.Response != nil:
		f.foldResponse(e, sidechain)
	case e.Role == transcript.RoleUser:
		f.foldUser(e, sidechain)
	case e.Summary != "":
		f.Summaries = append(f.Summaries, SummaryLine{Text: transcript.Clip(e.Summary, 300), Leaf: strings.Clone(e.LeafUUID)})
		if f.leaves == nil {
			f.leaves = map[uint64]bool{}
		}
		if h := idHash(e.LeafUUID); !f.leaves[h] {
			f.leaves[h] = false
			if f.Entries > len(f.Summaries) {
				f.lateLeaf = true // lines before this one were not checked against it
			}
		}
	case e.CustomTitle != "":
		f.CustomTitle = transcript.Clip(e.CustomTitle, 300)
	case e.AITitle != "":
		f.AITitle = transcript.Clip(e.AITitle, 300)
	case e.PRURL != "":
		if !slices.Contains(f.PRLinks, e.PRURL) {
			f.PRLinks = append(f.PRLinks, transcript.Clip(e.PRURL, 500))
		}
	case e.Compaction:
		f.Compactions++
	case len(e.CostState) > 0:
		cs := &CostState{Models: make(map[string]Usage, len(e.CostState))}
		for m, u := range e.CostState {
			cs.Models[strings.Clone(m)] = u
		}
		f.CostState = cs
	}
}

func (f *FileSummary) foldResponse(e *transcript.Entry, sidechain bool) {
	r := e.Response
	ts, lineNo := e.Time, int32(e.Line)
	u, hasUsage := r.Usage, r.HasUsage
	var h uint64
	i, seen := int32(0), false
	if r.ID != "" {
		h = idHash(r.ID)
		i, seen = f.msgIdx[h]
	}
	if seen {
		prev := &f.Messages[i]
		if hasUsage && (!prev.HasUsage || u.Output >= prev.Usage.Output) {
			prev.Usage, prev.HasUsage = u, true
			if r.Model != "" {
				prev.Model = f.internModel(r.Model)
			}
		}
		if !sidechain && prev.Sidechain {
			prev.Sidechain = false
			f.MainAssistantIDs++
		}
		if r.APIError && !prev.Synthetic {
			prev.Synthetic = true
			f.APIErrors++
		}
	} else {
		if r.ID != "" {
			f.msgIdx[h] = int32(len(f.Messages))
		}
		f.Messages = append(f.Messages, Message{Key: h, Model: f.internModel(r.Model), Time: ts, Usage: u,
			Sidechain: sidechain, Synthetic: r.APIError, HasUsage: hasUsage, Line: lineNo})
		if !sidechain {
			f.MainAssistantIDs++
		}
		if r.APIError {
			f.APIErrors++
		}
	}
	for _, call := range e.Calls {
		ch := idHash(call.ID)
		if _, dup := f.callIdx[ch]; dup {
			continue
		}
		c := Call{Key: ch, Name: f.internTool(call.Name), Time: ts, Sidechain: sidechain, Line: lineNo}
		if call.Action != ActionNone {
			c.Path, c.Action = transcript.Clip(call.Path, 1000), call.Action
		}
		c.Kinds, c.Target = classifyCall(&call)
		if st, ok := f.orphans[ch]; ok {
			c.Result = st
			delete(f.orphans, ch)
		}
		f.callIdx[ch] = int32(len(f.Calls))
		f.Calls = append(f.Calls, c)
		f.ToolCounts[c.Name]++
	}
}

// internTool shares one string per tool name within a file.
func (f *FileSummary) internTool(name string) string {
	if _, ok := f.ToolCounts[name]; ok {
		for k := range f.ToolCounts {
			if k == name {
				return k
			}
		}
	}
	return transcript.Clip(name, 120)
}

func (f *FileSummary) internModel(m string) string {
	for i := range f.Messages {
		if f.Messages[len(f.Messages)-1-i].Model == m {
			return f.Messages[len(f.Messages)-1-i].Model
		}
		if i > 4 {
			break
		}
	}
	return strings.Clone(m)
}

func (f *FileSummary) foldUser(e *transcript.Entry, sidechain bool) {
	for _, res := range e.Results {
		h := idHash(res.ToolUseID)
		if i, ok := f.callIdx[h]; ok {
			f.Calls[i].Result = res.State
		} else if res.ToolUseID != "" {
			if f.orphans == nil {
				f.orphans = map[uint64]ResultState{}
			}
			f.orphans[h] = res.State
		}
	}
	if sidechain || len(e.Results) > 0 || !e.HasPrompt {
		return
	}
	f.HumanPrompts++
	if f.FirstPrompt == "" {
		f.FirstPrompt = transcript.Clip(e.Prompt, 400)
	}
}
