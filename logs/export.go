package logs

import (
	"iter"

	"github.com/agent-activity/agent-activity/pricing"
)

// The export's two tables (SPEC §11): one row per counted API response and
// one per tool call, counted exactly as the tools count them, so that an
// engine summing them gets the tools' answers. Rows hold identifiers and
// numbers only, never transcript text; their strings are raw (the caller
// redacts them on the way out).

// ResponseRow is one deduplicated API response: the response usage_report
// sums, on the machine and in the session it was attributed to.
type ResponseRow struct {
	Time          int64 // unix ms; 0 when the line had no timestamp
	Machine       string
	Agent         string
	SessionID     string
	Repo          string
	Model         string // "(unknown)" when the line named none, as usage_report says
	Input         int64
	Output        int64
	CacheCreation int64 // both lifetimes
	CacheRead     int64
	Cost          float64 // USD at list price, unrounded; 0 when unpriced
	CostStatus    string  // estimated, or unknown for an unpriced model
}

// ToolCallRow is one tool call, as summarize_tool_calls counts it.
type ToolCallRow struct {
	Time      int64 // unix ms; 0 when the line had no timestamp
	Machine   string
	Agent     string
	SessionID string
	Repo      string
	Tool      string
	Outcome   string // ok, error, rejected, pending, in_progress
	Source    string // main or sidechain
}

// ExportResponses iterates the responses whose time is in r, session by
// session (most recently active first), each once.
func (snap *Snapshot) ExportResponses(r TimeRange) iter.Seq[ResponseRow] {
	return func(yield func(ResponseRow) bool) {
		for s, resp := range snap.AllResponses() {
			if !r.Contains(resp.Time) {
				continue
			}
			u := s.UsageOf(resp)
			row := ResponseRow{Time: resp.Time, Machine: s.Machine, Agent: s.Agent, SessionID: s.ID, Repo: s.Repo,
				Model: resp.Model(), Input: u.Input, Output: u.Output, CacheCreation: u.CacheCreate(),
				CacheRead: u.CacheRead, CostStatus: pricing.StatusEstimated}
			usd, priced := s.PriceOf(resp)
			row.Cost = usd
			if row.Model == "" {
				row.Model = "(unknown)"
			}
			if !priced {
				row.Cost, row.CostStatus = 0, pricing.StatusUnknown
			}
			if !yield(row) {
				return
			}
		}
	}
}

// ExportToolCalls iterates the tool calls whose time is in r: every call of
// every file of every session, with its outcome at the snapshot's clock.
func (snap *Snapshot) ExportToolCalls(r TimeRange) iter.Seq[ToolCallRow] {
	return func(yield func(ToolCallRow) bool) {
		for _, s := range snap.Sessions {
			live := snap.IsLive(s)
			for _, f := range s.Files() {
				for i := range f.Calls {
					c := &f.Calls[i]
					if !r.Contains(c.Time) {
						continue
					}
					row := ToolCallRow{Time: c.Time, Machine: s.Machine, Agent: s.Agent, SessionID: s.ID, Repo: s.Repo,
						Tool: c.Name(), Outcome: c.Outcome(live), Source: "main"}
					if c.Sidechain {
						row.Source = "sidechain"
					}
					if !yield(row) {
						return
					}
				}
			}
		}
	}
}
