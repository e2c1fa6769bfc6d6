// Package claudecode reads Claude Code's on-disk history: discovery of its
// transcript files in every layout Claude Code has used, the line decoder, and
// the line rules that turn a line into an agent-neutral transcript.Entry.
// It knows Claude Code's field names and nothing else.
package claudecode

import (
	"errors"
	"strings"
	"unsafe"

	"github.com/bytedance/sonic"
	"github.com/bytedance/sonic/decoder"

	"github.com/agent-activity/agent-activity/transcript"
)

// This file holds every sonic call of the package. Lines are decoded into small
// structs that carry only the fields agent-activity uses; large payloads
// (tool inputs, tool result content) stay raw and are looked at only on demand.
//
// The decoder does not copy strings: decoded strings point into the line buffer,
// which the reader reuses. Anything kept past the current line must be cloned.

// CaseSensitive: key lookups skip sonic's case-insensitive retry, which costs
// a lot on lines full of fields we do not decode.
var lineAPI = sonic.Config{CaseSensitive: true}.Froze()

// rawLine is the envelope of one JSONL line, for every line kind.
type rawLine struct {
	Type              string      `json:"type"`
	Subtype           string      `json:"subtype"`
	UUID              string      `json:"uuid"`
	SessionID         string      `json:"sessionId"`
	Timestamp         string      `json:"timestamp"`
	Cwd               string      `json:"cwd"`
	GitBranch         string      `json:"gitBranch"`
	Version           string      `json:"version"`
	IsSidechain       bool        `json:"isSidechain"`
	IsMeta            bool        `json:"isMeta"`
	IsCompactSummary  bool        `json:"isCompactSummary"`
	IsAPIErrorMessage bool        `json:"isApiErrorMessage"`
	RequestID         string      `json:"requestId"`
	AgentID           string      `json:"agentId"`
	Message           *rawMessage `json:"message"`

	// summary, titles, links
	Summary     string `json:"summary"`
	LeafUUID    string `json:"leafUuid"`
	AITitle     string `json:"aiTitle"`
	CustomTitle string `json:"customTitle"`
	PRURL       string `json:"prUrl"`
	PRNumber    int64  `json:"prNumber"`
	PRRepo      string `json:"prRepository"`

	// cost-state (2.1.328+)
	ModelUsage   map[string]rawModelUsage `json:"modelUsage"`
	TotalCostUSD float64                  `json:"totalCostUSD"`
}

type rawMessage struct {
	ID      string                 `json:"id"`
	Model   string                 `json:"model"`
	Role    string                 `json:"role"`
	Content sonic.NoCopyRawMessage `json:"content"`
	Usage   *rawUsage              `json:"usage"`
}

type rawUsage struct {
	InputTokens              int64             `json:"input_tokens"`
	OutputTokens             int64             `json:"output_tokens"`
	CacheCreationInputTokens int64             `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int64             `json:"cache_read_input_tokens"`
	Speed                    string            `json:"speed"`
	CacheCreation            *rawCacheCreation `json:"cache_creation"`
	Iterations               []rawIteration    `json:"iterations"`
}

// rawCacheCreation is the split of cache writes by lifetime; a nil count is
// one the line does not have.
type rawCacheCreation struct {
	Ephemeral5m *int64 `json:"ephemeral_5m_input_tokens"`
	Ephemeral1h *int64 `json:"ephemeral_1h_input_tokens"`
}

// rawIteration is one inference behind a response; advisor_message entries
// are a second model's usage, not in the top-level fields.
type rawIteration struct {
	Type  string `json:"type"`
	Model string `json:"model"`
	rawUsage
}

type rawModelUsage struct {
	InputTokens              int64 `json:"inputTokens"`
	OutputTokens             int64 `json:"outputTokens"`
	CacheReadInputTokens     int64 `json:"cacheReadInputTokens"`
	CacheCreationInputTokens int64 `json:"cacheCreationInputTokens"`
}

// rawBlock is one content block of a message.
type rawBlock struct {
	Type      string                 `json:"type"`
	Text      string                 `json:"text"`
	ID        string                 `json:"id"`
	Name      string                 `json:"name"`
	Input     sonic.NoCopyRawMessage `json:"input"`
	ToolUseID string                 `json:"tool_use_id"`
	Content   sonic.NoCopyRawMessage `json:"content"`
	IsError   bool                   `json:"is_error"`

	// escapedText is Text still quoted, when the fast path left it for
	// text() to unquote on first use (only some passes read text).
	escapedText []byte
}

// text is the block's text.
func (b *rawBlock) text() string {
	if b.escapedText != nil {
		if unmarshal(b.escapedText, &b.Text) != nil {
			b.Text = ""
		}
		b.escapedText = nil
	}
	return b.Text
}

// rawToolInput holds the tool input fields agent-activity reads.
type rawToolInput struct {
	FilePath     string    `json:"file_path"`
	NotebookPath string    `json:"notebook_path"`
	Path         string    `json:"path"`
	Command      string    `json:"command"`
	Description  string    `json:"description"`
	Prompt       string    `json:"prompt"`
	SubagentType string    `json:"subagent_type"`
	Todos        []rawTodo `json:"todos"`
	Subject      string    `json:"subject"`
	TaskID       string    `json:"taskId"`
	Status       string    `json:"status"`
}

// rawTodo is one item of a TodoWrite list.
type rawTodo struct {
	Content    string `json:"content"`
	Status     string `json:"status"`
	ActiveForm string `json:"activeForm"`
}

type rawAgentMeta struct {
	AgentType   string `json:"agentType"`
	Description string `json:"description"`
}

// decodeStatus tells how well a line decoded.
type decodeStatus int

const (
	decodedOK      decodeStatus = iota
	decodedDrifted              // valid JSON, but some field had an unexpected type
	decodeFailed                // not a JSON object
)

func decodeLine(b []byte, l *rawLine) decodeStatus {
	*l = rawLine{}
	return classify(unmarshal(b, l))
}

// unmarshal decodes b without copying it first (sonic's []byte entry point
// copies the whole input into a string). Decoded strings alias b.
func unmarshal(b []byte, v any) error {
	if len(b) == 0 {
		return lineAPI.UnmarshalFromString("", v)
	}
	return lineAPI.UnmarshalFromString(unsafe.String(unsafe.SliceData(b), len(b)), v)
}

func classify(err error) decodeStatus {
	if err == nil {
		return decodedOK
	}
	var mt *decoder.MismatchTypeError
	if errors.As(err, &mt) {
		return decodedDrifted
	}
	return decodeFailed
}

// decodeBlocks decodes message content: a JSON string becomes one text block.
// Content that is neither is returned as nil.
func decodeBlocks(raw []byte) []rawBlock { return decodeBlocksInto(nil, raw) }

// decodeBlocksInto is decodeBlocks reusing dst's storage.
func decodeBlocksInto(dst []rawBlock, raw []byte) []rawBlock {
	raw = trimSpace(raw)
	if len(raw) == 0 {
		return dst[:0]
	}
	switch raw[0] {
	case '"':
		var s string
		if unmarshal(raw, &s) != nil {
			return dst[:0]
		}
		return append(dst[:0], rawBlock{Type: "text", Text: s})
	case '[':
		bs := dst[:0]
		if classify(unmarshal(raw, &bs)) == decodeFailed {
			return dst[:0]
		}
		return bs
	}
	return dst[:0]
}

// resultText flattens tool_result content (a string or a list of blocks) to its
// text parts. Image and other non-text blocks are skipped.
func resultText(raw []byte) string {
	raw = trimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		var s string
		if unmarshal(raw, &s) != nil {
			return ""
		}
		return s
	case '[':
		var bs []rawBlock
		if classify(unmarshal(raw, &bs)) == decodeFailed {
			return ""
		}
		return joinText(bs)
	}
	return ""
}

// joinText joins the non-empty text blocks of a tool result, one a line.
// Image and other non-text blocks are skipped.
func joinText(bs []rawBlock) string {
	var sb strings.Builder
	for i := range bs {
		if t := bs[i].text(); bs[i].Type == "text" && t != "" {
			if sb.Len() > 0 {
				sb.WriteByte('\n')
			}
			sb.WriteString(t)
		}
	}
	return sb.String()
}

func decodeToolInput(raw []byte) rawToolInput {
	var in rawToolInput
	raw = trimSpace(raw)
	if len(raw) > 0 && raw[0] == '{' {
		_ = unmarshal(raw, &in)
	}
	return in
}

// compactJSON renders a raw JSON value as one line for excerpts.
func compactJSON(raw []byte, max int) string {
	raw = trimSpace(raw)
	if len(raw) > max*4 {
		raw = raw[:max*4]
	}
	return transcript.Truncate(string(raw), max)
}

func decodeAgentMeta(b []byte) (rawAgentMeta, bool) {
	var m rawAgentMeta
	var d fastDecoder
	if d.agentMeta(b, &m) {
		return m, true
	}
	if classify(unmarshal(b, &m)) == decodeFailed {
		return m, false
	}
	return m, true
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r' || b[len(b)-1] == '\n') {
		b = b[:len(b)-1]
	}
	return b
}
