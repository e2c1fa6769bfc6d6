package tools

import (
	"context"
	"math"

	"github.com/agent-activity/agent-activity/logs"
)

// ToolCallsArgs are the arguments of summarize_tool_calls.
type ToolCallsArgs struct {
	Session string `json:"session" jsonschema:"session id, a unique prefix of at least 4 characters, or \"latest\" (here including the caller's own session)"`
	CwdArg
	MachineArg
	Limit *int `json:"limit,omitempty" jsonschema:"how many failing calls to list, newest first, 1..200 (default 20); failing_total counts all"`
	DetailArg
	CursorArg
}

// OutcomeBlock counts calls by outcome; the five counts add up to total.
type OutcomeBlock struct {
	OK         int `json:"ok"`
	Error      int `json:"error"`
	Rejected   int `json:"rejected"`
	Pending    int `json:"pending"`
	InProgress int `json:"in_progress"`
	Total      int `json:"total"`
}

// ToolCallsOut is the answer of summarize_tool_calls.
type ToolCallsOut struct {
	SessionID       string                  `json:"session_id"`
	Agent           string                  `json:"agent" jsonschema:"claude-code or codex"`
	Repo            string                  `json:"repo"`
	SchemaStatus    string                  `json:"schema_status"`
	IsLiveSession   bool                    `json:"is_live_session"`
	PerTool         map[string]OutcomeBlock `json:"per_tool"`
	PerToolTotal    int                     `json:"per_tool_total" jsonschema:"how many distinct tools were called (per_tool lists the most called when it is cut)"`
	Totals          OutcomeBlock            `json:"totals"`
	BySource        map[string]OutcomeBlock `json:"by_source" jsonschema:"main and sidechain; sidechain absent when no subagent called a tool, unless detail"`
	FailingCalls    []FailingCall           `json:"failing_calls" jsonschema:"calls that ended in error or were rejected, newest first"`
	FailingTotal    int                     `json:"failing_total"`
	FailingTruncate bool                    `json:"failing_truncated" jsonschema:"true when more failing calls exist than are listed: next_cursor continues with older ones"`
	NextCursor      string                  `json:"next_cursor,omitempty"`
	Usage           SessionUsageBlock       `json:"usage"`
	CostBasis       string                  `json:"cost_basis"`
	Truncated       bool                    `json:"truncated,omitempty" jsonschema:"true when a list was shortened to fit the answer budget"`

	page pager
}

func (o *ToolCallsOut) cutLen() int {
	return max(len(o.FailingCalls), len(o.PerTool), len(o.Usage.ByModel))
}
func (o *ToolCallsOut) keep(n int) {
	o.FailingCalls, o.FailingTruncate, o.NextCursor = firstN(o.FailingCalls, n), true, o.page.after(n)
	o.PerTool, o.Truncated = topOutcomes(o.PerTool, n), true
	o.Usage.topModels(n)
}

// topOutcomes is the n most called tools of m (a new map).
func topOutcomes(m map[string]OutcomeBlock, n int) map[string]OutcomeBlock {
	return topN(m, n, func(b OutcomeBlock) int64 { return int64(b.Total) })
}

// SummarizeToolCalls is the summarize_tool_calls tool.
func SummarizeToolCalls(d Deps) Spec {
	return define("summarize_tool_calls", "Summarize tool calls",
		"Counts one session's tool calls per tool and by source (main thread or subagents) with outcomes "+
			"ok / error / rejected (stopped by the user) / pending / in_progress, lists the failing calls, newest "+
			"first, with redacted input and error excerpts (next_cursor pages to older ones), and gives the "+
			"session's usage. Use it to see why calls failed."+dataNotice,
		[]bound{intBound[ToolCallsArgs]("limit", 1, 200, 20, func(a *ToolCallsArgs) **int { return &a.Limit })},
		func(ctx context.Context, a ToolCallsArgs) (ToolCallsOut, error) {
			snap, s, err := d.resolve(ctx, a.Session, logs.ResolveOptions{IncludeCurrent: true, Cwd: a.Cwd})
			if err != nil {
				return ToolCallsOut{}, err
			}
			live := snap.IsLive(s)
			st := logs.CountCalls(s, live)
			out := ToolCallsOut{SessionID: s.ID, Agent: s.Agent, Repo: clip(s.Repo), SchemaStatus: s.SchemaStatus(), IsLiveSession: live,
				PerTool: map[string]OutcomeBlock{}, BySource: map[string]OutcomeBlock{"main": outcomeBlock(st.Main)},
				Totals: outcomeBlock(st.Total), Usage: sessionUsage(s.Usage, a.Detail), CostBasis: costBasis}
			if a.Detail || st.Sidechain.Total > 0 {
				out.BySource["sidechain"] = outcomeBlock(st.Sidechain)
			}
			for tool, c := range st.PerTool {
				out.PerTool[name(tool)] = outcomeBlock(*c)
			}
			out.PerToolTotal = len(out.PerTool)
			all, total := logs.FailingCalls(s, live, math.MaxInt)
			calls, pager, more := page(all, failingPos, &a.CursorArg, *a.Limit)
			ids := map[uint64]bool{}
			for _, c := range calls {
				ids[c.Key] = true
			}
			details, err := snap.CallDetails(ctx, s, ids)
			if err != nil {
				return ToolCallsOut{}, err
			}
			out.FailingCalls, out.FailingTotal, out.page = failingItems(calls, details, live), total, pager
			if more {
				out.FailingTruncate, out.NextCursor = true, pager.after(len(calls))
			}
			return out, nil
		}).withHints("tool calls failures errors rejected outcomes why did calls fail bash errors per tool", false)
}

// failingPos orders failing calls newest first. (Call.Key is a hash seeded
// per process, so it cannot be part of a cursor the next process reads.)
func failingPos(c *logs.Call) pos {
	return pos{N: []int64{-c.Time, int64(c.Line), hash63(c.Name(), source(c.Sidechain))}}
}

func outcomeBlock(c logs.OutcomeCounts) OutcomeBlock {
	return OutcomeBlock{OK: c.OK, Error: c.Error, Rejected: c.Rejected, Pending: c.Pending, InProgress: c.InProgress, Total: c.Total}
}
