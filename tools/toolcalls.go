package tools

import (
	"context"

	"github.com/agent-activity/agent-activity/logs"
)

// ToolCallsArgs are the arguments of summarize_tool_calls.
type ToolCallsArgs struct {
	Session string `json:"session" jsonschema:"session id, a unique prefix of at least 4 characters, or \"latest\" (here including the caller's own session)"`
	CwdArg
	MachineArg
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
	Totals          OutcomeBlock            `json:"totals"`
	BySource        map[string]OutcomeBlock `json:"by_source"`
	FailingCalls    []FailingCall           `json:"failing_calls"`
	FailingTotal    int                     `json:"failing_total"`
	FailingTruncate bool                    `json:"failing_truncated" jsonschema:"true when more failing calls exist than are listed (the newest are kept)"`
	Usage           SessionUsageBlock       `json:"usage"`
	CostBasis       string                  `json:"cost_basis"`
}

const maxFailing = 50

// SummarizeToolCalls is the summarize_tool_calls tool.
func SummarizeToolCalls(d Deps) Spec {
	return define("summarize_tool_calls", "Summarize tool calls",
		"Counts one session's tool calls per tool and by source (main thread or subagents) with outcomes "+
			"ok / error / rejected (stopped by the user) / pending / in_progress, lists the failing calls with "+
			"redacted input and error excerpts, and gives the session's usage. Use it to see why calls failed."+dataNotice,
		nil,
		func(ctx context.Context, a ToolCallsArgs) (ToolCallsOut, error) {
			snap, s, err := d.resolve(ctx, a.Session, logs.ResolveOptions{IncludeCurrent: true, Cwd: a.Cwd})
			if err != nil {
				return ToolCallsOut{}, err
			}
			live := snap.IsLive(s)
			st := logs.CountCalls(s, live)
			out := ToolCallsOut{SessionID: s.ID, Agent: s.Agent, Repo: s.Repo, SchemaStatus: s.SchemaStatus(), IsLiveSession: live,
				PerTool: map[string]OutcomeBlock{}, BySource: map[string]OutcomeBlock{
					"main": outcomeBlock(st.Main), "sidechain": outcomeBlock(st.Sidechain)},
				Totals: outcomeBlock(st.Total), FailingCalls: []FailingCall{}, Usage: sessionUsage(s.Usage), CostBasis: costBasis}
			for tool, c := range st.PerTool {
				out.PerTool[name(tool)] = outcomeBlock(*c)
			}
			fc, err := failingCalls(ctx, snap, s, live, maxFailing)
			if err != nil {
				return ToolCallsOut{}, err
			}
			out.FailingCalls, out.FailingTotal = fc.list, fc.total
			out.FailingTruncate = fc.total > len(fc.list)
			return out, nil
		})
}

func outcomeBlock(c logs.OutcomeCounts) OutcomeBlock {
	return OutcomeBlock{OK: c.OK, Error: c.Error, Rejected: c.Rejected, Pending: c.Pending, InProgress: c.InProgress, Total: c.Total}
}

type failing struct {
	list  []FailingCall
	total int
}

// failingCalls lists the newest max failing calls of a session, with excerpts.
func failingCalls(ctx context.Context, snap *logs.Snapshot, s *logs.Session, live bool, max int) (failing, error) {
	calls, total := logs.FailingCalls(s, live, max)
	ids := map[uint64]bool{}
	for _, c := range calls {
		ids[c.Key] = true
	}
	details, err := snap.CallDetails(ctx, s, ids)
	if err != nil {
		return failing{}, err
	}
	return failing{list: failingList(s, calls, details, live), total: total}, nil
}
