package logs

import (
	"bytes"
	"context"
	"hash/maphash"
	"os"
	"strings"
	"time"
)

// FileKind says which layout a transcript file belongs to.
type FileKind uint8

const (
	// MainFile is <root>/<project>/<sessionId>.jsonl.
	MainFile FileKind = iota
	// SubagentFile is <root>/<project>/<sessionId>/subagents/**/agent-*.jsonl (2.1.x).
	SubagentFile
	// LegacyAgentFile is <root>/<project>/agent-*.jsonl (2.0.x); its session is named by its lines.
	LegacyAgentFile
)

// Usage is the token usage of one API response, or a sum of them.
type Usage struct {
	Input         int64
	Output        int64
	CacheCreate5m int64
	CacheCreate1h int64
	CacheRead     int64
	Fast          bool
}

// CacheCreate is all cache-creation tokens.
func (u Usage) CacheCreate() int64 { return u.CacheCreate5m + u.CacheCreate1h }

// Total is input + output + cache creation + cache read.
func (u Usage) Total() int64 { return u.Input + u.Output + u.CacheCreate() + u.CacheRead }

// Add adds o's tokens to u.
func (u *Usage) Add(o Usage) {
	u.Input += o.Input
	u.Output += o.Output
	u.CacheCreate5m += o.CacheCreate5m
	u.CacheCreate1h += o.CacheCreate1h
	u.CacheRead += o.CacheRead
}

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

// ResultState is what a tool call's result said.
type ResultState uint8

const (
	NoResult ResultState = iota
	ResultOK
	ResultError
	ResultRejected
)

// FileAction is how a tool call touched a file.
type FileAction uint8

const (
	ActionNone FileAction = iota
	ActionRead
	ActionEdit
	ActionWrite
)

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

// Call is one tool_use block joined to its result in the same file. Only a
// hash of its id is kept in memory; tools that show ids re-read the file.
type Call struct {
	Key       uint64 // IDKey of the tool_use id
	Name      string
	Time      int64
	Sidechain bool
	Line      int32
	Path      string     // file path for file tools
	Action    FileAction // how Path was touched
	Result    ResultState
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
// It is built by one pass over the file and extended in place from Offset when
// the file grows. A FileSummary published in a Snapshot is never mutated:
// extension works on a copy (see clone).
type FileSummary struct {
	Path       string
	Root       string
	ProjectDir string // absolute folder of the project
	Project    string // the project folder's name (encoded cwd)
	Kind       FileKind
	SessionID  string // trunk session id this file belongs to
	AgentID    string // for subagent files
	AgentType  string // from agent-*.meta.json
	AgentDesc  string

	Size    int64
	ModTime time.Time
	Offset  int64 // bytes consumed: every complete line before it has been read

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

	blocks []rawBlock // scratch for decoding content, reused line to line

	inode uint64 // a file replaced by rename has a new inode
	head  []byte // first bytes of the file, to notice replacement
	tail  []byte // the bytes just before Offset, to notice a rewrite
}

const markLen = 128

// noteConsumed keeps the marks a later look checks before extending: the
// first bytes of the file and the bytes just before Offset, taken from the
// bytes actually read (JSONL only grows, so if those bytes are no longer in
// place the file was rewritten and is read again).
func (f *FileSummary) noteConsumed(raw []byte, fromStart bool) {
	if fromStart && len(f.head) < markLen {
		f.head = append(f.head, raw[:min(len(raw), markLen-len(f.head))]...)
	}
	if len(raw) >= markLen {
		f.tail = append(f.tail[:0], raw[len(raw)-markLen:]...)
		return
	}
	t := append(f.tail, raw...)
	if len(t) > markLen {
		t = t[len(t)-markLen:]
	}
	f.tail = append([]byte(nil), t...)
}

func readAt(fh *os.File, off, n int64) []byte {
	buf := make([]byte, n)
	if m, _ := fh.ReadAt(buf, off); int64(m) == n {
		return buf
	}
	return nil
}

// unchangedPrefix reports whether the bytes read before are still in place:
// same inode, same first bytes, same bytes just before Offset.
func (f *FileSummary) unchangedPrefix(fi statInfo) bool {
	if f.inode != fi.ino {
		return false
	}
	if f.Offset == 0 {
		return true
	}
	if f.head == nil || f.tail == nil {
		return false
	}
	fh, err := openRegular(f.Path)
	if err != nil {
		return false
	}
	defer fh.Close()
	start := max(0, f.Offset-markLen)
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
	return &FileSummary{
		Path: d.path, Root: d.root, ProjectDir: d.projectDir, Project: d.project,
		Kind: d.kind, SessionID: d.sessionID, AgentID: d.agentID,
		AgentType: d.agentType, AgentDesc: d.agentDesc,
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
	c.msgIdx = cloneMap(f.msgIdx)
	c.callIdx = cloneMap(f.callIdx)
	c.orphans = cloneMap(f.orphans)
	c.leaves = cloneMap(f.leaves)
	c.head = append([]byte(nil), f.head...)
	c.tail = append([]byte(nil), f.tail...)
	c.ToolCounts = cloneMap(f.ToolCounts)
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

func cloneMap[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return nil
	}
	c := make(map[K]V, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// scanFile reads f's file from f.Offset to its end and folds every complete line
// into f. Decode problems are counted, never returned; only I/O errors and a
// cancelled ctx are (the caller then discards f).
func (f *FileSummary) scanFile(ctx context.Context, fi statInfo, hook lineHook) error {
	fh, err := openRegular(f.Path)
	if err != nil {
		return err
	}
	defer fh.Close()
	if f.Offset > 0 {
		if _, err := fh.Seek(f.Offset, 0); err != nil {
			return err
		}
	}
	f.Size, f.ModTime, f.inode = fi.size, fi.mtime, fi.ino
	f.Torn = false
	fromStart := f.Offset == 0
	if fromStart {
		f.head, f.tail = nil, nil
	}
	lr := NewLineReader(fh, f.Offset)
	defer lr.Close()
	var l rawLine
	for n := 0; lr.Scan(); n++ {
		if n%512 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		line := lr.Line()
		if len(bytes.TrimSpace(line)) == 0 {
			f.Offset = lr.Offset()
			f.noteConsumed(lr.Raw(), fromStart)
			continue
		}
		st := decodeLine(line, &l)
		if st == decodeFailed {
			if lr.Torn() {
				// Possibly being written right now: leave it for the next look.
				f.Torn = true
				break
			}
			f.Lines++
			f.Skipped++
			f.Drift = true
			f.Offset = lr.Offset()
			f.noteConsumed(lr.Raw(), fromStart)
			continue
		}
		f.Lines++
		if st == decodedDrifted {
			f.Drift = true
		}
		f.Offset = lr.Offset()
		f.noteConsumed(lr.Raw(), fromStart)
		if hook != nil {
			hook(f, line, &l)
		}
		f.fold(&l, int32(f.Lines))
	}
	f.blocks = nil
	f.Messages = clipSlice(f.Messages)
	f.Calls = clipSlice(f.Calls)
	if f.lateLeaf {
		f.resolveLeaves()
	}
	return lr.Err()
}

// resolveLeaves looks for summary leafUuids among lines read before their
// summary line. Rare: summary lines are normally the first lines of a file.
func (f *FileSummary) resolveLeaves() {
	f.lateLeaf = false
	_ = walkLines(f.Path, func(_ int32, l *rawLine) bool {
		if h := idHash(l.UUID); l.UUID != "" {
			if done, ok := f.leaves[h]; ok && !done {
				f.leaves[h] = true
			}
		}
		return true
	})
}

// fold adds one decoded line.
func (f *FileSummary) fold(l *rawLine, lineNo int32) {
	f.Entries++
	ts := parseTime(l.Timestamp)
	if ts != 0 {
		if f.Start == 0 || ts < f.Start {
			f.Start = ts
		}
		if ts > f.End {
			f.End = ts
		}
	}
	if l.SessionID != "" && ts != 0 {
		f.SawEnvelope = true
	}
	if f.Kind == LegacyAgentFile && f.SessionID == "" && l.SessionID != "" {
		f.SessionID = strings.Clone(l.SessionID)
	}
	if f.AgentID == "" && l.AgentID != "" {
		f.AgentID = strings.Clone(l.AgentID)
	}
	if f.Cwd == "" && l.Cwd != "" {
		f.Cwd = strings.Clone(l.Cwd)
	}
	if l.GitBranch != "" && l.GitBranch != f.GitBranch {
		f.GitBranch = strings.Clone(l.GitBranch)
	}
	if l.Version != "" && !contains(f.Versions, l.Version) {
		f.Versions = append(f.Versions, strings.Clone(l.Version))
	}
	if l.UUID != "" && f.leaves != nil {
		if h := idHash(l.UUID); !f.leaves[h] {
			if _, ok := f.leaves[h]; ok {
				f.leaves[h] = true
			}
		}
	}
	sidechain := f.Kind != MainFile || l.IsSidechain
	switch l.Type {
	case "assistant":
		if l.Message == nil {
			f.Drift = true
			return
		}
		f.foldAssistant(l, ts, sidechain, lineNo)
	case "user":
		if l.Message == nil {
			f.Drift = true
			return
		}
		f.foldUser(l, sidechain)
	case "summary":
		if l.Summary != "" {
			f.Summaries = append(f.Summaries, SummaryLine{Text: clip(l.Summary, 300), Leaf: strings.Clone(l.LeafUUID)})
			if f.leaves == nil {
				f.leaves = map[uint64]bool{}
			}
			if h := idHash(l.LeafUUID); !f.leaves[h] {
				f.leaves[h] = false
				if f.Entries > len(f.Summaries) {
					f.lateLeaf = true // lines before this one were not checked against it
				}
			}
		}
	case "custom-title":
		if l.CustomTitle != "" {
			f.CustomTitle = clip(l.CustomTitle, 300)
		}
	case "ai-title":
		if l.AITitle != "" {
			f.AITitle = clip(l.AITitle, 300)
		}
	case "pr-link":
		if l.PRURL != "" && !contains(f.PRLinks, l.PRURL) {
			f.PRLinks = append(f.PRLinks, clip(l.PRURL, 500))
		}
	case "system":
		if l.Subtype == "compact_boundary" {
			f.Compactions++
		}
	case "cost-state":
		if len(l.ModelUsage) > 0 {
			cs := &CostState{Models: map[string]Usage{}}
			for m, mu := range l.ModelUsage {
				cs.Models[strings.Clone(m)] = Usage{Input: mu.InputTokens, Output: mu.OutputTokens,
					CacheCreate5m: mu.CacheCreationInputTokens, CacheRead: mu.CacheReadInputTokens}
			}
			f.CostState = cs
		}
	}
}

func (f *FileSummary) foldAssistant(l *rawLine, ts int64, sidechain bool, lineNo int32) {
	m := l.Message
	synthetic := m.Model == "<synthetic>" || l.IsAPIErrorMessage
	var u Usage
	hasUsage := m.Usage != nil && !synthetic
	if hasUsage {
		u = usageOf(m.Usage)
	}
	var h uint64
	i, seen := int32(0), false
	if m.ID != "" {
		h = idHash(m.ID)
		i, seen = f.msgIdx[h]
	}
	if seen {
		prev := &f.Messages[i]
		if hasUsage && (!prev.HasUsage || u.Output >= prev.Usage.Output) {
			prev.Usage, prev.HasUsage = u, true
			if m.Model != "" {
				prev.Model = f.internModel(m.Model)
			}
		}
		if !sidechain && prev.Sidechain {
			prev.Sidechain = false
			f.MainAssistantIDs++
		}
		if synthetic && !prev.Synthetic {
			prev.Synthetic = true
			f.APIErrors++
		}
	} else {
		if m.ID != "" {
			f.msgIdx[h] = int32(len(f.Messages))
		}
		f.Messages = append(f.Messages, Message{Key: h, Model: f.internModel(m.Model), Time: ts, Usage: u,
			Sidechain: sidechain, Synthetic: synthetic, HasUsage: hasUsage, Line: lineNo})
		if !sidechain {
			f.MainAssistantIDs++
		}
		if synthetic {
			f.APIErrors++
		}
	}
	f.blocks = decodeBlocksInto(f.blocks[:0], m.Content)
	defer f.releaseBlocks()
	for _, b := range f.blocks {
		if b.Type != "tool_use" || b.ID == "" {
			continue
		}
		ch := idHash(b.ID)
		if _, dup := f.callIdx[ch]; dup {
			continue
		}
		c := Call{Key: ch, Name: f.internTool(b.Name), Time: ts, Sidechain: sidechain, Line: lineNo}
		if act := fileActionOf(c.Name); act != ActionNone {
			in := decodeToolInput(b.Input)
			if p := toolPath(in); p != "" {
				c.Path, c.Action = clip(p, 1000), act
			}
		}
		if st, ok := f.orphans[ch]; ok {
			c.Result = st
			delete(f.orphans, ch)
		}
		f.callIdx[ch] = int32(len(f.Calls))
		f.Calls = append(f.Calls, c)
		f.ToolCounts[c.Name]++
	}
}

// releaseBlocks drops the scratch blocks' references into the line buffer.
func (f *FileSummary) releaseBlocks() {
	clear(f.blocks)
	f.blocks = f.blocks[:0]
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
	return clip(name, 120)
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

func (f *FileSummary) foldUser(l *rawLine, sidechain bool) {
	f.blocks = decodeBlocksInto(f.blocks[:0], l.Message.Content)
	defer f.releaseBlocks()
	blocks := f.blocks
	hasResult := false
	for _, b := range blocks {
		if b.Type != "tool_result" {
			continue
		}
		hasResult = true
		st := ResultOK
		if b.IsError {
			st = classifyError(resultText(b.Content))
		}
		h := idHash(b.ToolUseID)
		if i, ok := f.callIdx[h]; ok {
			f.Calls[i].Result = st
		} else if b.ToolUseID != "" {
			if f.orphans == nil {
				f.orphans = map[uint64]ResultState{}
			}
			f.orphans[h] = st
		}
	}
	if sidechain || hasResult {
		return
	}
	if text, ok := promptText(l, blocks); ok {
		f.HumanPrompts++
		if f.FirstPrompt == "" {
			f.FirstPrompt = clip(text, 400)
		}
	}
}

// classifyError decides between error and rejected for an is_error result.
func classifyError(text string) ResultState {
	if strings.HasPrefix(text, "The user doesn't want to proceed with this tool use") ||
		strings.HasPrefix(text, "The user doesn't want to take this action") ||
		strings.Contains(text, "[Request interrupted by user for tool use]") {
		return ResultRejected
	}
	return ResultError
}

// nonPromptPrefixes mark user text that a human did not type as a prompt.
var nonPromptPrefixes = []string{
	"<command-name>", "<command-message>", "<command-args>", "<local-command-stdout>",
	"<local-command-stderr>", "<local-command-caveat>", "Caveat: The messages below were generated",
	"This session is being continued from a previous conversation", "<system-reminder>",
	"<task-notification>", "[Request interrupted by user", "<bash-input>", "<bash-stdout>",
	"<bash-stderr>", "<user-memory-input>", "<tool_use_error>",
}

// promptText returns the human text of a user line when it is a real prompt.
func promptText(l *rawLine, blocks []rawBlock) (string, bool) {
	if l.IsMeta || l.IsCompactSummary {
		return "", false
	}
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			if t := strings.TrimSpace(b.Text); t != "" {
				parts = append(parts, t)
			}
		}
	}
	if len(parts) == 0 {
		return "", false
	}
	text := strings.Join(parts, "\n")
	for _, p := range nonPromptPrefixes {
		if strings.HasPrefix(text, p) {
			return "", false
		}
	}
	return text, true
}

// IsPrompt reports whether a decoded user line is human prompt text; exported
// for the detail reader in this package.
func isPromptLine(l *rawLine, blocks []rawBlock) (string, bool) {
	for _, b := range blocks {
		if b.Type == "tool_result" {
			return "", false
		}
	}
	return promptText(l, blocks)
}

// usageOf converts a usage object; negative counts (corrupt or hostile lines)
// are read as 0 so they can never lower a total.
func usageOf(u *rawUsage) Usage {
	out := Usage{Input: nonNeg(u.InputTokens), Output: nonNeg(u.OutputTokens), CacheRead: nonNeg(u.CacheReadInputTokens), Fast: u.Speed == "fast"}
	cc := nonNeg(u.CacheCreationInputTokens)
	if u.CacheCreation != nil && (u.CacheCreation.Ephemeral5m != nil || u.CacheCreation.Ephemeral1h != nil) {
		var m5, h1 int64
		if u.CacheCreation.Ephemeral5m != nil {
			m5 = nonNeg(*u.CacheCreation.Ephemeral5m)
		}
		if u.CacheCreation.Ephemeral1h != nil {
			h1 = nonNeg(*u.CacheCreation.Ephemeral1h)
		}
		// The split should add up to the total; trust the total and give any
		// remainder to the 5-minute rate.
		if m5+h1 != cc {
			if h1 > cc {
				h1 = cc
			}
			m5 = cc - h1
		}
		out.CacheCreate5m, out.CacheCreate1h = m5, h1
	} else {
		out.CacheCreate5m = cc
	}
	return out
}

func nonNeg(n int64) int64 {
	if n < 0 {
		return 0
	}
	return n
}

func fileActionOf(tool string) FileAction {
	name := tool
	if i := strings.LastIndex(tool, "__"); i >= 0 && strings.HasPrefix(tool, "mcp__") {
		name = tool[i+2:] // mcp__acp__Edit and friends act like the built-ins
	}
	switch name {
	case "Read", "NotebookRead", "read_file":
		return ActionRead
	case "Edit", "MultiEdit", "NotebookEdit":
		return ActionEdit
	case "Write", "write_file":
		return ActionWrite
	}
	return ActionNone
}

func toolPath(in rawToolInput) string {
	switch {
	case in.FilePath != "":
		return in.FilePath
	case in.NotebookPath != "":
		return in.NotebookPath
	}
	return in.Path
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// parseTime parses the RFC 3339 timestamps of the logs to unix milliseconds;
// 0 when absent or malformed.
func parseTime(s string) int64 {
	if s == "" {
		return 0
	}
	// Fast path for the fixed form 2026-01-31T12:39:21.950Z.
	if len(s) == 24 && s[4] == '-' && s[7] == '-' && s[10] == 'T' && s[13] == ':' && s[16] == ':' && s[19] == '.' && s[23] == 'Z' {
		y, ok1 := atoi(s[0:4])
		mo, ok2 := atoi(s[5:7])
		d, ok3 := atoi(s[8:10])
		h, ok4 := atoi(s[11:13])
		mi, ok5 := atoi(s[14:16])
		se, ok6 := atoi(s[17:19])
		ms, ok7 := atoi(s[20:23])
		if ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h < 24 && mi < 60 && se < 61 {
			return time.Date(y, time.Month(mo), d, h, mi, se, ms*1e6, time.UTC).UnixMilli()
		}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
}

func atoi(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}
