package tools

import (
	"context"

	"github.com/agent-activity/agent-activity/logs"
)

// TailArgs are the arguments of tail_agent_log.
type TailArgs struct {
	SessionArgs
	MachineArg
	Limit *int `json:"limit,omitempty" jsonschema:"how many entries from the end, 1..1000 (default 100)"`
}

// TailEntry is one transcript line.
type TailEntry struct {
	UUID        string       `json:"uuid"`
	Type        string       `json:"type"`
	Timestamp   string       `json:"timestamp"`
	IsSidechain bool         `json:"is_sidechain"`
	Text        string       `json:"text,omitempty"`
	ToolCalls   []TailCall   `json:"tool_calls,omitempty"`
	ToolResults []TailResult `json:"tool_results,omitempty"`
	Usage       *EntryUsage  `json:"usage,omitempty" jsonschema:"on the first line of each API response only, so summing entries never double counts"`
}

// TailCall is a tool call with its outcome joined over the whole session.
type TailCall struct {
	ToolUseID string `json:"tool_use_id"`
	ToolName  string `json:"tool_name"`
	Outcome   string `json:"outcome" jsonschema:"ok, error, rejected, pending or in_progress"`
}

// TailResult is a tool result.
type TailResult struct {
	ToolUseID    string `json:"tool_use_id"`
	IsError      bool   `json:"is_error"`
	ErrorExcerpt string `json:"error_excerpt,omitempty"`
}

// EntryUsage is the usage of one API response.
type EntryUsage struct {
	Model string `json:"model"`
	UsageBlock
}

// TailOut is the answer of tail_agent_log.
type TailOut struct {
	SessionID    string      `json:"session_id"`
	Agent        string      `json:"agent" jsonschema:"claude-code or codex"`
	Repo         string      `json:"repo"`
	SchemaStatus string      `json:"schema_status"`
	TotalEntries int         `json:"total_entries"`
	Truncated    bool        `json:"truncated" jsonschema:"true when earlier entries were left out"`
	Entries      []TailEntry `json:"entries"`
	CostBasis    string      `json:"cost_basis"`
}

// TailAgentLog is the tail_agent_log tool.
func TailAgentLog(d Deps) Spec {
	return define("tail_agent_log", "Tail a session transcript",
		"Returns the last entries of one session's main transcript, oldest first: type, time, a redacted text "+
			"excerpt, tool calls with their outcome (joined over the whole session), tool results with error "+
			"excerpts, and usage on the first line of each API response. Use list_recent_sessions first to find "+
			"the session, or pass \"latest\"."+dataNotice,
		[]bound{intBound[TailArgs]("limit", 1, 1000, 100, func(a *TailArgs) **int { return &a.Limit })},
		func(ctx context.Context, a TailArgs) (TailOut, error) {
			snap, s, err := d.resolve(ctx, a.Session, a.resolveOptions())
			if err != nil {
				return TailOut{}, err
			}
			entries, total, err := snap.Tail(ctx, s, *a.Limit)
			if err != nil {
				return TailOut{}, err
			}
			live := snap.IsLive(s)
			outcomes := callOutcomes(s, live)
			out := TailOut{SessionID: s.ID, Agent: s.Agent, Repo: s.Repo, SchemaStatus: s.SchemaStatus(), TotalEntries: total,
				Truncated: total > len(entries), Entries: make([]TailEntry, 0, len(entries)), CostBasis: costBasis}
			for _, e := range entries {
				te := TailEntry{UUID: e.UUID, Type: e.Type, Timestamp: rfc(e.Time), IsSidechain: e.Sidechain, Text: text(e.Text, 300)}
				for _, c := range e.ToolCalls {
					te.ToolCalls = append(te.ToolCalls, TailCall{ToolUseID: c.ID, ToolName: name(c.Name), Outcome: outcomes[c.Key]})
				}
				for _, r := range e.ToolResults {
					tr := TailResult{ToolUseID: r.ToolUseID, IsError: r.IsError}
					if r.IsError {
						tr.ErrorExcerpt = text(r.Text, 300)
					}
					te.ToolResults = append(te.ToolResults, tr)
				}
				if e.Usage != nil {
					var t logs.Tally
					t.AddUsage(snap.Pricing, e.Model, *e.Usage)
					te.Usage = &EntryUsage{Model: modelName(e.Model), UsageBlock: usageBlock(t)}
				}
				out.Entries = append(out.Entries, te)
			}
			return out, nil
		})
}

// callOutcomes maps every tool_use id of the session to its outcome.
func callOutcomes(s *logs.Session, live bool) map[uint64]string {
	out := map[uint64]string{}
	for _, f := range s.Files() {
		for _, c := range f.Calls {
			out[c.Key] = c.Outcome(live)
		}
	}
	return out
}
