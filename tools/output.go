package tools

import (
	"math"
	"os"
	"strings"
	"time"

	"github.com/agent-activity/agent-activity/logs"
	"github.com/agent-activity/agent-activity/pricing"
	"github.com/agent-activity/agent-activity/redact"
	"github.com/agent-activity/agent-activity/transcript"
)

// The output shapes and formatting several tools share: usage blocks, times,
// redacted text, failing calls, log roots.

const costBasis = pricing.CostBasis

// UsageBlock is the usage shape used everywhere.
type UsageBlock struct {
	InputTokens         int64    `json:"input_tokens"`
	OutputTokens        int64    `json:"output_tokens"`
	CacheCreationTokens int64    `json:"cache_creation_tokens"`
	CacheReadTokens     int64    `json:"cache_read_tokens"`
	ReasoningTokens     int64    `json:"reasoning_tokens,omitempty" jsonschema:"the part of output_tokens spent reasoning, where the agent reports it (Codex); already inside output_tokens"`
	TotalTokens         int64    `json:"total_tokens"`
	Cost                float64  `json:"cost"`
	CostStatus          string   `json:"cost_status" jsonschema:"estimated (every token priced), partial (some usage from unpriced models), unknown (nothing priced)"`
	UnpricedModels      []string `json:"unpriced_models,omitempty" jsonschema:"models without a price (at most 10 named)"`
	UnpricedTotal       int      `json:"unpriced_models_total,omitempty" jsonschema:"how many models have no price, when more than 10"`
}

// SessionUsageBlock is a session's usage: the block of its total and, where
// they tell something (or with detail), the thread split and the models.
type SessionUsageBlock struct {
	UsageBlock
	Main      *UsageBlock           `json:"main,omitempty" jsonschema:"the main thread's usage; absent when there is no subagent usage (the total is all main), unless detail"`
	Sidechain *UsageBlock           `json:"sidechain,omitempty" jsonschema:"the subagents' usage; absent when there is none, unless detail"`
	ByModel   map[string]UsageBlock `json:"by_model,omitempty" jsonschema:"model -> usage (the 20 with the most tokens); absent when one model did everything (it would repeat the total), unless detail"`
	Models    int                   `json:"models_total,omitempty" jsonschema:"how many models the session used, when by_model lists fewer"`
}

// Bounds on the lists inside a usage block, so one block never outgrows
// an answer.
const (
	maxUnpriced = 10
	maxModels   = 20
)

func usageBlock(t logs.Tally) UsageBlock {
	b := UsageBlock{
		InputTokens: t.Input, OutputTokens: t.Output, CacheCreationTokens: t.CacheCreate(),
		CacheReadTokens: t.CacheRead, ReasoningTokens: t.Reasoning, TotalTokens: t.Total(), Cost: round6(t.Cost.USD()),
		CostStatus: t.Cost.Status(), UnpricedModels: names(t.Cost.UnpricedModels()),
	}
	if n := len(b.UnpricedModels); n > maxUnpriced {
		b.UnpricedModels, b.UnpricedTotal = b.UnpricedModels[:maxUnpriced], n
	}
	return b
}

// sessionUsage is a session's usage without the blocks that repeat the total
// or are zero, or with all of them when detail is set.
func sessionUsage(u logs.SessionUsage, detail bool) SessionUsageBlock {
	out := SessionUsageBlock{UsageBlock: usageBlock(u.Total)}
	mainUsed, sideUsed := !zeroTally(u.Main), !zeroTally(u.Sidechain)
	if detail || mainUsed && sideUsed {
		b := usageBlock(u.Main)
		out.Main = &b
	}
	if detail || sideUsed {
		b := usageBlock(u.Sidechain)
		out.Sidechain = &b
	}
	if detail || len(u.ByModel) > 1 {
		out.ByModel = map[string]UsageBlock{}
		for _, mt := range u.ByModel {
			out.ByModel[modelName(mt.Model)] = usageBlock(mt.Tally)
		}
		if len(out.ByModel) > maxModels {
			out.ByModel, out.Models = topUsage(out.ByModel, maxModels), len(out.ByModel)
		}
	}
	return out
}

// topModels cuts by_model to the n models with the most tokens.
func (u *SessionUsageBlock) topModels(n int) {
	if len(u.ByModel) > n {
		u.Models = max(u.Models, len(u.ByModel))
		u.ByModel = topUsage(u.ByModel, n)
	}
}

func zeroTally(t logs.Tally) bool { return t.Total() == 0 && t.Cost.USD() == 0 }

func round6(f float64) float64 { return math.Round(f*1e6) / 1e6 }

// FailingCall is one call that ended in error or was rejected.
type FailingCall struct {
	ToolUseID    string `json:"tool_use_id,omitempty"`
	ToolName     string `json:"tool_name"`
	Status       string `json:"status" jsonschema:"error or rejected"`
	Timestamp    string `json:"timestamp,omitempty"`
	Source       string `json:"source" jsonschema:"main or sidechain"`
	SessionID    string `json:"session_id,omitempty" jsonschema:"absent in answers about one session"`
	InputExcerpt string `json:"input_excerpt,omitempty"`
	ErrorExcerpt string `json:"error_excerpt,omitempty"`
}

// failingList renders failing calls with their redacted excerpts, each
// naming its session.
func failingList(s *logs.Session, calls []logs.Call, details map[uint64]*logs.CallDetail, live bool) []FailingCall {
	out := failingItems(calls, details, live)
	for i := range out {
		out[i].SessionID = s.ID
	}
	return out
}

// failingItems renders failing calls for an answer about their one session.
func failingItems(calls []logs.Call, details map[uint64]*logs.CallDetail, live bool) []FailingCall {
	out := []FailingCall{}
	for _, c := range calls {
		fc := FailingCall{ToolName: name(c.Name()), Status: c.Outcome(live), Timestamp: rfc(c.Time), Source: source(c.Sidechain)}
		if dt := details[c.Key]; dt != nil {
			fc.ToolUseID = clip(dt.ID)
			fc.InputExcerpt, fc.ErrorExcerpt = text(dt.Input, 300), text(dt.ResultText, 300)
		}
		out = append(out, fc)
	}
	return out
}

// source names the thread a call ran in.
func source(sidechain bool) string {
	if sidechain {
		return "sidechain"
	}
	return "main"
}

// rootsString lists the configured log roots as one path list.
func rootsString(snap *logs.Snapshot) string {
	var parts []string
	for _, r := range snap.Roots {
		parts = append(parts, r.Path)
	}
	return strings.Join(parts, string(os.PathListSeparator))
}

// rootNote says when no configured log root exists; "" otherwise.
func rootNote(snap *logs.Snapshot) string {
	if !snap.RootsMissing() {
		return ""
	}
	return "the log root does not exist: " + rootsString(snap) + " (set AGENT_ACTIVITY_LOG_ROOT)"
}

// rfc formats unix milliseconds as RFC 3339 UTC with milliseconds; "" for 0.
func rfc(ms int64) string {
	if ms == 0 {
		return ""
	}
	return rfcTime(time.UnixMilli(ms))
}

// rfcTime formats t as RFC 3339 UTC with milliseconds; "" for the zero time.
func rfcTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z07:00")
}

// text redacts transcript text and cuts it to max characters.
func text(s string, max int) string {
	return truncate(redact.String(s), max)
}

// name redacts a short identifier taken from a transcript (tool, model, branch,
// agent type): not prose, but still transcript text.
func name(s string) string { return truncate(redact.String(s), maxName) }

// maxName bounds names taken from transcripts (a tool name is whatever an
// MCP server chose), so they cannot outgrow an answer either.
const maxName = 120

func names(xs []string) []string {
	for i, x := range xs {
		xs[i] = name(x)
	}
	return xs
}

// modelName is a redacted model id, "(unknown)" for none.
func modelName(m string) string {
	if m == "" {
		return "(unknown)"
	}
	return name(m)
}

func truncate(s string, max int) string { return transcript.Truncate(s, max) }

// maxIdent bounds strings that identify rather than tell (paths, cwd,
// repo names), so one item of a list can never outgrow the answer budget.
const maxIdent = 300

// clip is an identifier from a transcript, redacted and bounded.
func clip(s string) string { return text(s, maxIdent) }

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
