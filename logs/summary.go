package logs

import (
	"bytes"
	"hash/maphash"
	"os"
	"strings"
	"syscall"
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

// Message is one API response as a file shows it: the copy with the largest
// output_tokens among the file's lines that share its message.id.
type Message struct {
	ID        string // "" for an assistant line without message.id (it counts on its own)
	Model     string
	Time      int64 // unix milliseconds of the response's first line
	Usage     Usage
	Sidechain bool
	Line      int32 // 1-based line number of the first copy
}

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

// Call is one tool_use block joined to its result in the same file.
type Call struct {
	ID        string
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
	msgIdx           map[string]int32
	MainAssistantIDs int // distinct message ids of main-thread assistant lines
	HumanPrompts     int
	FirstPrompt      string // raw (unredacted), clipped
	APIErrors        int
	apiErrIDs        map[string]struct{}
	mainIDs          map[string]struct{}

	Calls   []Call
	callIdx map[string]int32
	orphans map[string]ResultState // results seen before their call (lines are not in order)

	Summaries   []SummaryLine
	uuids       map[uint64]struct{}
	CustomTitle string
	AITitle     string
	PRLinks     []string
	Compactions int
	CostState   *CostState
	ToolCounts  map[string]int
	ReadError   string // the last I/O error reading the file, if any

	inode uint64 // a file replaced by rename has a new inode
	head  []byte // first bytes of the file, to notice replacement
	tail  []byte // the bytes just before Offset, to notice a rewrite
}

const markLen = 128

// captureMarks records the first bytes of the file and the bytes just before
// Offset. A later look extends the summary only when both still match: JSONL
// only grows, so anything else means the file was rewritten.
func (f *FileSummary) captureMarks() {
	f.head, f.tail = nil, nil
	if f.Offset == 0 {
		return
	}
	fh, err := openRegular(f.Path)
	if err != nil {
		return
	}
	defer fh.Close()
	f.head = readAt(fh, 0, min(markLen, f.Offset))
	start := max(0, f.Offset-markLen)
	f.tail = readAt(fh, start, f.Offset-start)
}

func readAt(fh *os.File, off, n int64) []byte {
	buf := make([]byte, n)
	if m, _ := fh.ReadAt(buf, off); int64(m) == n {
		return buf
	}
	return nil
}

func inodeOf(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ino
	}
	return 0
}

// unchangedPrefix reports whether the bytes read before are still in place:
// same inode, same first bytes, same bytes just before Offset.
func (f *FileSummary) unchangedPrefix(fi os.FileInfo) bool {
	if f.inode != inodeOf(fi) {
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

var uuidSeed = maphash.MakeSeed()

// HasUUID reports whether a line with this uuid is in the file.
func (f *FileSummary) HasUUID(u string) bool {
	_, ok := f.uuids[maphash.String(uuidSeed, u)]
	return ok
}

// IsSidechainFile reports whether every line of the file is sidechain activity.
func (f *FileSummary) IsSidechainFile() bool { return f.Kind != MainFile }

func newFileSummary(d discovered) *FileSummary {
	return &FileSummary{
		Path: d.path, Root: d.root, ProjectDir: d.projectDir, Project: d.project,
		Kind: d.kind, SessionID: d.sessionID, AgentID: d.agentID,
		AgentType: d.agentType, AgentDesc: d.agentDesc,
		msgIdx: map[string]int32{}, callIdx: map[string]int32{},
		uuids: map[uint64]struct{}{}, ToolCounts: map[string]int{},
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
	c.uuids = cloneMap(f.uuids)
	c.apiErrIDs = cloneMap(f.apiErrIDs)
	c.mainIDs = cloneMap(f.mainIDs)
	c.ToolCounts = cloneMap(f.ToolCounts)
	return &c
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
// into f. Decode problems are counted, never returned; only I/O errors are.
func (f *FileSummary) scanFile(fi os.FileInfo) error {
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
	f.Size, f.ModTime, f.inode = fi.Size(), fi.ModTime(), inodeOf(fi)
	f.Torn = false
	lr := NewLineReader(fh, f.Offset)
	defer lr.Close()
	var l rawLine
	for lr.Scan() {
		line := lr.Line()
		if len(bytes.TrimSpace(line)) == 0 {
			f.Offset = lr.Offset()
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
			continue
		}
		f.Lines++
		if st == decodedDrifted {
			f.Drift = true
		}
		f.Offset = lr.Offset()
		f.fold(&l, int32(f.Lines))
	}
	return lr.Err()
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
	if l.UUID != "" && f.Kind == MainFile {
		f.uuids[maphash.String(uuidSeed, l.UUID)] = struct{}{}
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
	if !sidechain && m.ID != "" {
		if f.mainIDs == nil {
			f.mainIDs = map[string]struct{}{}
		}
		if _, ok := f.mainIDs[m.ID]; !ok {
			f.mainIDs[strings.Clone(m.ID)] = struct{}{}
			f.MainAssistantIDs++
		}
	} else if !sidechain {
		f.MainAssistantIDs++
	}
	if synthetic {
		if m.ID == "" {
			f.APIErrors++
		} else {
			if f.apiErrIDs == nil {
				f.apiErrIDs = map[string]struct{}{}
			}
			if _, ok := f.apiErrIDs[m.ID]; !ok {
				f.apiErrIDs[strings.Clone(m.ID)] = struct{}{}
				f.APIErrors++
			}
		}
	} else if m.Usage != nil {
		u := usageOf(m.Usage)
		if m.ID == "" {
			f.Messages = append(f.Messages, Message{Model: f.internModel(m.Model), Time: ts, Usage: u, Sidechain: sidechain, Line: lineNo})
		} else if i, ok := f.msgIdx[m.ID]; ok {
			prev := &f.Messages[i]
			if u.Output >= prev.Usage.Output {
				prev.Usage = u
				if m.Model != "" {
					prev.Model = f.internModel(m.Model)
				}
			}
			if !sidechain {
				prev.Sidechain = false
			}
		} else {
			f.msgIdx[strings.Clone(m.ID)] = int32(len(f.Messages))
			f.Messages = append(f.Messages, Message{ID: strings.Clone(m.ID), Model: f.internModel(m.Model), Time: ts, Usage: u, Sidechain: sidechain, Line: lineNo})
		}
	}
	for _, b := range decodeBlocks(m.Content) {
		if b.Type != "tool_use" || b.ID == "" {
			continue
		}
		if _, dup := f.callIdx[b.ID]; dup {
			continue
		}
		c := Call{ID: strings.Clone(b.ID), Name: clip(b.Name, 120), Time: ts, Sidechain: sidechain, Line: lineNo}
		if act := fileActionOf(c.Name); act != ActionNone {
			in := decodeToolInput(b.Input)
			if p := toolPath(in); p != "" {
				c.Path, c.Action = clip(p, 1000), act
			}
		}
		if st, ok := f.orphans[c.ID]; ok {
			c.Result = st
			delete(f.orphans, c.ID)
		}
		f.callIdx[c.ID] = int32(len(f.Calls))
		f.Calls = append(f.Calls, c)
		f.ToolCounts[c.Name]++
	}
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
	blocks := decodeBlocks(l.Message.Content)
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
		if i, ok := f.callIdx[b.ToolUseID]; ok {
			f.Calls[i].Result = st
		} else if b.ToolUseID != "" {
			if f.orphans == nil {
				f.orphans = map[string]ResultState{}
			}
			f.orphans[strings.Clone(b.ToolUseID)] = st
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
