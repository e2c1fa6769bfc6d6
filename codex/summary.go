package codex

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/agent-activity/agent-activity/transcript"
)

// Usage is token usage in the agent-neutral shape of SPEC §10.
type Usage struct {
	InputTokens         int64 // input − cached input: fresh input
	CacheReadTokens     int64 // cached input
	CacheCreationTokens int64 // always 0: Codex reports no cache writes (cache_write_input_tokens was 0 in every file seen)
	OutputTokens        int64 // includes reasoning
	ReasoningTokens     int64 // the reasoning part of OutputTokens, not to be added again
}

// Total is input + cache read + cache creation + output (reasoning is inside output).
func (u Usage) Total() int64 {
	return u.InputTokens + u.CacheReadTokens + u.CacheCreationTokens + u.OutputTokens
}

// Add adds o to u.
func (u *Usage) Add(o Usage) {
	u.InputTokens += o.InputTokens
	u.CacheReadTokens += o.CacheReadTokens
	u.CacheCreationTokens += o.CacheCreationTokens
	u.OutputTokens += o.OutputTokens
	u.ReasoningTokens += o.ReasoningTokens
}

// UsageOf maps a rollout's token record onto Usage (SPEC §10).
func UsageOf(t Tokens) Usage {
	return Usage{InputTokens: t.Input - t.Cached, CacheReadTokens: t.Cached,
		OutputTokens: t.Output, ReasoningTokens: t.Reasoning}
}

// Key is the identity of a response or a call across files: the same
// response or call copied into a fork has the same Key in both.
type Key uint64

// Response is one counted model response: a token_count event whose
// cumulative total is new to the file (§14.5).
type Response struct {
	Key    Key    // the response's group: its counter's thread and the total counted before it
	Time   int64  // unix ms of the token_count line
	Line   int    // physical line
	Model  string // latest turn_context model before it
	Usage  Usage  // from last_token_usage
	Copied bool   // in the copied parent prefix: not this rollout's own
}

// Call is one tool call joined to its output by call_id.
type Call struct {
	Key        Key
	ID         string // call_id; "" for a web_search_call without an id
	Name       string // the rollout's own name; namespace.name where a namespace is written
	Item       string // function_call, custom_tool_call, local_shell_call, tool_search_call, web_search_call
	Time       int64
	Line       int
	Command    string       // shell command text, clipped
	Files      []FileChange // files it touches; relative patch paths joined to the turn's cwd
	Result     Result
	ExitCode   int64 // valid when HasExit
	HasExit    bool
	OutputLine int  // physical line of the output; 0 when none
	Copied     bool // in the copied parent prefix
}

// Prompt is one human prompt.
type Prompt struct {
	Time int64
	Line int
	Text string // clipped at a word boundary to PromptLimit runes
}

// Abort is an interrupted turn.
type Abort struct {
	Time   int64
	Line   int
	TurnID string
	Reason string
}

// APIError is a failed request the harness logged (event_msg error, or a
// task_complete with an error).
type APIError struct {
	Time    int64
	Line    int
	Message string
}

// PromptLimit is the length prompts are clipped to, in runes.
const PromptLimit = 400

// lastPrompts is how many of the latest prompts a Rollout keeps.
const lastPrompts = 5

// Rollout is what the rest of the program needs of one rollout file. Its
// strings are its own (nothing aliases a read buffer).
type Rollout struct {
	Path   string
	FileID string // the uuid in the file name
	ID     string // session id: payload.id of the first session_meta, else FileID
	RootID string // payload.session_id, the family's root thread (0.142+)

	ForkedFrom string // forked_from_id: the parent whose history this file copies
	ParentID   string // parent thread of a fork or a spawned subagent
	Fork       bool   // a copy of the parent's history was found (CopyStart > 0)

	Source        string // "cli", "vscode", "exec", … or "subagent"
	Subagent      string // for subagents: "review", "thread_spawn", …
	AgentPath     string
	AgentNickname string
	AgentRole     string

	Cwd           string // session_meta.cwd
	Originator    string
	CLIVersion    string
	ModelProvider string
	CreatedAt     int64    // session_meta.payload.timestamp, unix ms
	Models        []string // turn_context models outside the copy, in order of first appearance

	Start, End int64 // min and max envelope timestamps, unix ms

	Lines   int  // non-blank lines consumed: Entries + Skipped
	Entries int  // decoded lines
	Skipped int  // complete lines that did not decode
	Drift   int  // entries with fields of unexpected types
	Torn    bool // the file ends in an unterminated line that did not decode

	// CopyStart and CopyEnd are the physical lines [CopyStart, CopyEnd) of a
	// fork's copy of its parent's history; CopyStart is 0 when there is none,
	// CopyEnd is 0 when the copy runs to the end of the file.
	CopyStart, CopyEnd int
	Resumes            int // extra session_meta lines with the file's own id

	// Responses are the counted responses in file order, the copied ones
	// (Copied set) first: Responses[:CopiedResponses] are the parent's.
	Responses       []Response
	CopiedResponses int
	Total           Usage // the rollout's own responses

	// Calls are the tool calls in file order, the copied ones first:
	// Calls[:CopiedCalls] are the parent's.
	Calls       []Call
	CopiedCalls int

	Prompts     int    // human prompts outside the copy (§14.6)
	FirstPrompt string // clipped to PromptLimit runes
	LastPrompts []Prompt

	FinalText   string // the last assistant text outside the copy, clipped
	Aborted     []Abort
	APIErrors   []APIError
	Compactions int
	Rollbacks   int
	Children    []string // thread ids of subagents this rollout started (sub_agent_activity)
}

// OwnResponses returns the responses that are not copies of the parent's.
func (r *Rollout) OwnResponses() []Response { return r.Responses[r.CopiedResponses:] }

// OwnCalls returns the calls that are not copies of the parent's.
func (r *Rollout) OwnCalls() []Call { return r.Calls[r.CopiedCalls:] }

// UsageByModel sums the rollout's own responses per model.
func (r *Rollout) UsageByModel() map[string]Usage {
	m := map[string]Usage{}
	for _, x := range r.OwnResponses() {
		u := m[x.Model]
		u.Add(x.Usage)
		m[x.Model] = u
	}
	return m
}

// TitleGeneration reports a VS Code auxiliary thread that only makes a UI
// title (§1): real tokens, but not a session anyone worked in.
func (r *Rollout) TitleGeneration() bool {
	return r.Source == "exec" && strings.HasPrefix(r.FirstPrompt, "Generate a concise UI title")
}

// Review reports a /review thread (§9).
func (r *Rollout) Review() bool { return r.Source == "subagent" && r.Subagent == "review" }

// Summarize reads the rollout at path (.jsonl, or .jsonl.zst decompressed)
// and folds it into a Rollout. It opens the file through a transcript.Root
// made of the file's own folder, so a path that is a symlink out of its
// folder is refused; use SummarizeFile for a discovered file. Decode
// problems are counted, never returned; only open and I/O errors and a done
// ctx are.
func Summarize(ctx context.Context, path string) (*Rollout, error) {
	return SummarizeFile(ctx, transcript.File{Root: transcript.NewRoot(filepath.Dir(path), ""), Path: path})
}

// SummarizeFile is Summarize for a file found by Agent.Discover, opened
// through its root's containment check.
func SummarizeFile(ctx context.Context, f transcript.File) (*Rollout, error) {
	fh, err := f.Root.Open(f.Path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	rc, err := decompressed(fh)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	rd := NewReader(ctx, rc)
	defer rd.Close()
	s := newSummarizer(f.Path)
	for rd.Scan() {
		s.fold(rd.Entry())
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	return s.finish(rd), nil
}

// summarizer folds entries into a Rollout.
type summarizer struct {
	r            *Rollout
	t            *thread
	calls        map[string]int // call_id -> index in calls
	orphans      map[string]Entry
	responses    []Response
	callsInOrder []Call
}

func newSummarizer(path string) *summarizer {
	_, id, _ := parseName(filepath.Base(path))
	r := &Rollout{Path: path, FileID: id, ID: id}
	return &summarizer{r: r, t: newThread(), calls: map[string]int{}}
}

func (s *summarizer) fold(e *Entry) {
	r := s.r
	r.Entries++
	if e.Time != 0 {
		if r.Start == 0 || e.Time < r.Start {
			r.Start = e.Time
		}
		if e.Time > r.End {
			r.End = e.Time
		}
	}
	if m := s.t.observe(e); m != nil {
		s.foldFirstMeta(m)
	} else if e.Type == "session_meta" && e.Meta != nil && e.Meta.ID == r.ID {
		r.Resumes++
	}
	switch e.Kind {
	case KindMeta:
		s.foldMeta(e)
	case KindTokenCount:
		if key, u, ok := s.t.count(e); ok {
			s.responses = append(s.responses, Response{Key: key, Time: e.Time, Line: e.Line,
				Model: s.t.responseModel(e.Copied), Usage: u, Copied: e.Copied})
		}
	case KindPrompt:
		if s.t.newPrompt(e) {
			s.foldPrompt(e)
		}
	case KindAssistant:
		if !e.Copied && e.Text != "" {
			r.FinalText = transcript.Clip(e.Text, textLimit)
		}
	case KindToolCall:
		s.foldCall(e)
	case KindToolOutput:
		s.foldOutput(e)
	case KindToolEvent:
		s.foldToolEvent(e)
	case KindAborted:
		if !e.Copied {
			r.Aborted = append(r.Aborted, Abort{Time: e.Time, Line: e.Line, TurnID: strings.Clone(e.TurnID), Reason: strings.Clone(e.Text)})
		}
	case KindError:
		if !e.Copied {
			r.APIErrors = append(r.APIErrors, APIError{Time: e.Time, Line: e.Line, Message: transcript.Clip(e.Text, textLimit)})
		}
	}
}

// foldFirstMeta takes the session's identity from the first session_meta.
func (s *summarizer) foldFirstMeta(m *Meta) {
	r := s.r
	if m.ID != "" {
		r.ID = strings.Clone(m.ID)
	}
	r.RootID, r.ForkedFrom = strings.Clone(m.RootID), strings.Clone(m.ForkedFromID)
	r.ParentID = s.t.parentID
	r.Source, r.Subagent = strings.Clone(m.Source), strings.Clone(m.Subagent)
	r.AgentPath, r.AgentNickname, r.AgentRole = strings.Clone(m.AgentPath), strings.Clone(m.AgentNickname), strings.Clone(m.AgentRole)
	r.Cwd, r.Originator, r.CLIVersion = s.t.metaCwd, strings.Clone(m.Originator), strings.Clone(m.CLIVersion)
	r.ModelProvider, r.CreatedAt = strings.Clone(m.ModelProvider), m.CreatedAt
}

func (s *summarizer) foldMeta(e *Entry) {
	r := s.r
	switch {
	case e.Type == "turn_context":
		if !e.Copied && s.t.model != "" && !contains(r.Models, s.t.model) {
			r.Models = append(r.Models, s.t.model)
		}
	case e.Copied:
	case e.Type == "compacted":
		r.Compactions++
	case e.Item == "thread_rolled_back":
		r.Rollbacks++
	case e.Item == "sub_agent_activity":
		if e.Text != "" && !contains(r.Children, e.Text) {
			r.Children = append(r.Children, strings.Clone(e.Text))
		}
	}
}

func (s *summarizer) foldPrompt(e *Entry) {
	r := s.r
	r.Prompts++
	text := transcript.Clip(e.Text, PromptLimit)
	if r.Prompts == 1 {
		r.FirstPrompt = text
	}
	if len(r.LastPrompts) == lastPrompts {
		copy(r.LastPrompts, r.LastPrompts[1:])
		r.LastPrompts = r.LastPrompts[:lastPrompts-1]
	}
	r.LastPrompts = append(r.LastPrompts, Prompt{Time: e.Time, Line: e.Line, Text: text})
}

func (s *summarizer) foldCall(e *Entry) {
	c := Call{ID: strings.Clone(e.CallID), Name: strings.Clone(e.Tool), Item: strings.Clone(e.Item),
		Time: e.Time, Line: e.Line, Result: e.Result, Copied: e.Copied, Key: s.t.callKey(e)}
	if e.Command != "" {
		c.Command = transcript.Clip(e.Command, textLimit)
	}
	cwd := s.t.fileCwd(e.Copied)
	for _, f := range e.Files {
		c.Files = append(c.Files, FileChange{Path: strings.Clone(joinPath(cwd, f.Path)), Change: f.Change, Action: f.Action})
	}
	idx := len(s.callsInOrder)
	s.callsInOrder = append(s.callsInOrder, c)
	if e.CallID == "" {
		return
	}
	if _, dup := s.calls[c.ID]; !dup {
		s.calls[c.ID] = idx
	}
	if o, ok := s.orphans[c.ID]; ok {
		delete(s.orphans, c.ID)
		s.foldOutput(&o)
	}
}

func (s *summarizer) foldOutput(e *Entry) {
	i, ok := s.calls[e.CallID]
	if !ok {
		if e.CallID != "" {
			// An output before its call: never seen, but lines may be out of order.
			if s.orphans == nil {
				s.orphans = map[string]Entry{}
			}
			s.orphans[strings.Clone(e.CallID)] = Entry{Line: e.Line, CallID: strings.Clone(e.CallID),
				Result: e.Result, ExitCode: e.ExitCode, HasExit: e.HasExit}
		}
		return
	}
	c := &s.callsInOrder[i]
	c.Result, c.ExitCode, c.HasExit, c.OutputLine = e.Result, e.ExitCode, e.HasExit, e.Line
}

// foldToolEvent takes what harness events add to a call: the files of a
// patch whose input named none, an image viewed, and MCP's isError, which
// the output text does not show (§7).
func (s *summarizer) foldToolEvent(e *Entry) {
	i, ok := s.calls[e.CallID]
	if !ok {
		return
	}
	c := &s.callsInOrder[i]
	switch e.Item {
	case "patch_apply_end":
		if len(c.Files) == 0 {
			for _, f := range e.Files {
				c.Files = append(c.Files, FileChange{Path: strings.Clone(f.Path), Change: f.Change, Action: f.Action})
			}
		}
	case "view_image_tool_call":
		for _, f := range e.Files {
			c.Files = append(c.Files, FileChange{Path: strings.Clone(joinPath(s.t.cwd, f.Path)), Change: f.Change, Action: f.Action})
		}
	case "mcp_tool_call_end":
		if e.Result == ResultError && (c.Result == ResultOK || c.Result == NoResult) {
			c.Result = ResultError
		}
	}
}

func (s *summarizer) finish(rd *Reader) *Rollout {
	r := s.r
	r.Lines, r.Skipped, r.Drift, r.Torn = rd.Lines(), rd.Skipped(), rd.Drift(), rd.Torn()
	r.CopyStart, r.CopyEnd = rd.Prefix()
	r.Fork = r.CopyStart > 0
	r.Responses, r.CopiedResponses = copiedFirst(s.responses, func(x *Response) bool { return x.Copied })
	r.Calls, r.CopiedCalls = copiedFirst(s.callsInOrder, func(x *Call) bool { return x.Copied })
	for _, x := range r.OwnResponses() {
		r.Total.Add(x.Usage)
	}
	return r
}

// copiedFirst orders xs with the copied ones first, each part in file order
// (the copy opens a file, so this is almost always the order already).
func copiedFirst[T any](xs []T, copied func(*T) bool) ([]T, int) {
	n := 0
	for i := range xs {
		if copied(&xs[i]) {
			n++
		}
	}
	if n == 0 || n == len(xs) {
		return xs, n
	}
	out := make([]T, 0, len(xs))
	for i := range xs {
		if copied(&xs[i]) {
			out = append(out, xs[i])
		}
	}
	for i := range xs {
		if !copied(&xs[i]) {
			out = append(out, xs[i])
		}
	}
	return out, n
}

// hashKey is FNV-1a over the parts, each ended by a NUL.
func hashKey(parts ...string) Key {
	h := newKeyHash()
	for _, p := range parts {
		h = h.str(p)
	}
	return Key(h)
}

// keyHash is 64-bit FNV-1a, written out so hashing allocates nothing; it is
// stable across processes, so a Key may be stored.
type keyHash uint64

func newKeyHash() keyHash { return 14695981039346656037 }

func (h keyHash) byte(b byte) keyHash { return (h ^ keyHash(b)) * 1099511628211 }

func (h keyHash) str(s string) keyHash {
	for i := 0; i < len(s); i++ {
		h = h.byte(s[i])
	}
	return h.byte(0)
}

func (h keyHash) int(n int64) keyHash {
	for i := 0; i < 8; i++ {
		h = h.byte(byte(n >> (8 * i)))
	}
	return h
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
