package tools

import (
	"context"

	"github.com/agent-activity/agent-activity/logs"
)

// TailArgs are the arguments of tail_agent_log.
type TailArgs struct {
	SessionArgs
	MachineArg
	Limit  *int   `json:"limit,omitempty" jsonschema:"how many entries, 1..1000 (default 100): the last ones, or from offset, or centred on around"`
	Offset *int   `json:"offset,omitempty" jsonschema:"0-based index of the first entry to return, to read any part of the session (total_entries says how many there are)"`
	Around string `json:"around,omitempty" jsonschema:"an entry_uuid (e.g. from a search_transcripts match): limit entries centred on that entry"`
	DetailArg
	CursorArg
}

func (a *TailArgs) clearPosition() { a.Around = "" } // offset is a bound: filtersOf clears it

// TailEntry is one transcript line.
type TailEntry struct {
	UUID           string       `json:"uuid,omitempty"`
	Type           string       `json:"type"`
	Timestamp      string       `json:"timestamp,omitempty"`
	IsSidechain    bool         `json:"is_sidechain,omitempty" jsonschema:"written by a subagent (absent: the main thread)"`
	Text           string       `json:"text,omitempty"`
	ToolCalls      []TailCall   `json:"tool_calls,omitempty"`
	MoreToolCalls  int          `json:"more_tool_calls,omitempty" jsonschema:"calls of this entry beyond the 10 listed"`
	ToolResults    []TailResult `json:"tool_results,omitempty"`
	MoreToolResult int          `json:"more_tool_results,omitempty" jsonschema:"results of this entry beyond the 10 listed"`
	Usage          *EntryUsage  `json:"usage,omitempty" jsonschema:"on the first line of each API response only, so summing entries never double counts"`
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

// EntryUsage is the usage of one API response: its model, total and cost,
// and with detail every token field (absent fields are 0).
type EntryUsage struct {
	Model               string   `json:"model"`
	InputTokens         int64    `json:"input_tokens,omitempty"`
	OutputTokens        int64    `json:"output_tokens,omitempty"`
	CacheCreationTokens int64    `json:"cache_creation_tokens,omitempty"`
	CacheReadTokens     int64    `json:"cache_read_tokens,omitempty"`
	TotalTokens         int64    `json:"total_tokens"`
	Cost                float64  `json:"cost"`
	CostStatus          string   `json:"cost_status,omitempty" jsonschema:"with detail, or when not every token was priced"`
	UnpricedModels      []string `json:"unpriced_models,omitempty"`
}

// TailOut is the answer of tail_agent_log.
type TailOut struct {
	SessionID    string      `json:"session_id"`
	Agent        string      `json:"agent" jsonschema:"claude-code or codex"`
	Repo         string      `json:"repo"`
	SchemaStatus string      `json:"schema_status"`
	TotalEntries int         `json:"total_entries"`
	Offset       int         `json:"offset" jsonschema:"index of the first entry returned"`
	Entries      []TailEntry `json:"entries"`
	Truncated    bool        `json:"truncated" jsonschema:"true when the transcript has entries this answer leaves out (see offset and total_entries); next_cursor continues after the last one returned"`
	NextCursor   string      `json:"next_cursor,omitempty"`
	CostBasis    string      `json:"cost_basis"`

	around int // with around: the index of that entry in Entries; -1 otherwise
	atEnd  bool
	page   pager
}

func (o *TailOut) cutLen() int { return len(o.Entries) }

// keep keeps n entries: the last ones of a tail, those centred on the entry
// asked for with around, the first ones otherwise.
func (o *TailOut) keep(n int) {
	n = min(n, len(o.Entries))
	start := 0
	switch {
	case o.atEnd:
		start = len(o.Entries) - n
	case o.around >= 0:
		start = min(max(0, o.around-n/2), len(o.Entries)-n)
	}
	o.Entries, o.page.keys = o.Entries[start:start+n], o.page.keys[start:start+n]
	o.Offset += start
	o.Truncated, o.NextCursor = true, ""
	if o.Offset+n < o.TotalEntries {
		o.NextCursor = o.page.after(n)
	}
}

const (
	maxEntryBlocks = 10
	maxOffset      = 100_000_000 // far beyond any transcript; the schema needs a maximum
)

// TailAgentLog is the tail_agent_log tool.
func TailAgentLog(d Deps) Spec {
	return define("tail_agent_log", "Read a session transcript",
		"Returns entries of one session's main transcript, oldest first: by default the last ones; with offset "+
			"those from that index, with around (an entry_uuid from search_transcripts) those centred on that "+
			"entry, so any part of a session can be read; next_cursor pages forward. Each entry has type, time, a "+
			"redacted text excerpt, tool calls with their outcome (joined over the whole session), tool results "+
			"with error excerpts, and usage on the first line of each API response. Use list_recent_sessions "+
			"first to find the session, or pass \"latest\"."+dataNotice,
		[]bound{intBound[TailArgs]("limit", 1, 1000, 100, func(a *TailArgs) **int { return &a.Limit }),
			intRange[TailArgs]("offset", 0, maxOffset, func(a *TailArgs) **int { return &a.Offset })},
		func(ctx context.Context, a TailArgs) (TailOut, error) {
			if a.Offset != nil && a.Around != "" {
				return TailOut{}, logs.InvalidArgument("offset", "give offset or around, not both")
			}
			snap, s, err := d.resolve(ctx, a.Session, a.resolveOptions())
			if err != nil {
				return TailOut{}, err
			}
			w, err := tailWindow(ctx, snap, s, a)
			if err != nil {
				return TailOut{}, err
			}
			return tailOut(snap, s, w, a), nil
		}).withHints("read session transcript log entries conversation tail around offset context messages", false)
}

// window is the part of a transcript one answer shows.
type window struct {
	entries []logs.Entry
	offset  int
	total   int
	around  int // index in entries of the entry asked for; -1 for none
	atEnd   bool
}

// tailWindow reads the entries the arguments ask for.
func tailWindow(ctx context.Context, snap *logs.Snapshot, s *logs.Session, a TailArgs) (window, error) {
	limit := *a.Limit
	w := window{around: -1}
	var err error
	switch {
	case a.after != nil:
		// Resume: the entry before the position must still be the one the
		// cursor was made after, in the same session.
		n := a.after.N
		if len(n) != 3 || n[0] < 1 || n[1] != sessionTie(s) {
			return w, staleCursor()
		}
		w.offset = int(n[0])
		var prev []logs.Entry
		if prev, w.total, err = snap.Window(ctx, s, w.offset-1, limit+1); err != nil {
			return w, err
		}
		if len(prev) == 0 || hash63(prev[0].UUID) != n[2] {
			return w, staleCursor()
		}
		w.entries = prev[1:]
	case a.Around != "":
		at, total, err := snap.EntryIndex(ctx, s, a.Around)
		if err != nil {
			return w, err
		}
		if at < 0 {
			return w, logs.InvalidArgument("around", "no entry of session %s's main transcript has uuid %q; use an entry_uuid from search_transcripts or tail_agent_log", s.ID, truncate(a.Around, 80))
		}
		w.offset = min(max(0, at-limit/2), max(0, total-limit))
		if w.entries, w.total, err = snap.Window(ctx, s, w.offset, limit); err != nil {
			return w, err
		}
		w.around = at - w.offset
		if w.around >= len(w.entries) {
			return w, logs.InvalidArgument("around", "the transcript changed while it was read; call again")
		}
	case a.Offset != nil:
		w.offset = *a.Offset
		if w.entries, w.total, err = snap.Window(ctx, s, w.offset, limit); err != nil {
			return w, err
		}
		// An offset past the end is an empty page: nothing is there (yet).
	default:
		if w.entries, w.total, err = snap.Tail(ctx, s, limit); err != nil {
			return w, err
		}
		w.offset, w.atEnd = w.total-len(w.entries), true
	}
	return w, nil
}

func staleCursor() error {
	return logs.InvalidArgument("cursor", "cursor no longer matches this session's transcript; call again without cursor")
}

func tailOut(snap *logs.Snapshot, s *logs.Session, w window, a TailArgs) TailOut {
	outcomes := callOutcomes(s, snap.IsLive(s))
	out := TailOut{SessionID: s.ID, Agent: s.Agent, Repo: clip(s.Repo), SchemaStatus: s.SchemaStatus(), TotalEntries: w.total, Offset: w.offset,
		Entries: make([]TailEntry, 0, len(w.entries)), CostBasis: costBasis, around: w.around, atEnd: w.atEnd, page: a.pager()}
	sk := sessionTie(s)
	for i, e := range w.entries {
		out.Entries = append(out.Entries, tailEntry(snap, e, outcomes, a.Detail))
		out.page.keys = append(out.page.keys, pos{N: []int64{int64(w.offset + i + 1), sk, hash63(e.UUID)}})
	}
	end := w.offset + len(w.entries)
	out.Truncated = w.offset > 0 || end < w.total
	if end < w.total {
		out.NextCursor = out.page.after(len(w.entries))
	}
	return out
}

func tailEntry(snap *logs.Snapshot, e logs.Entry, outcomes map[uint64]string, detail bool) TailEntry {
	te := TailEntry{UUID: e.UUID, Type: e.Type, Timestamp: rfc(e.Time), IsSidechain: e.Sidechain, Text: text(e.Text, 300)}
	for i, c := range e.ToolCalls {
		if i == maxEntryBlocks {
			te.MoreToolCalls = len(e.ToolCalls) - i
			break
		}
		te.ToolCalls = append(te.ToolCalls, TailCall{ToolUseID: clip(c.ID), ToolName: name(c.Name), Outcome: outcomes[c.Key]})
	}
	for i, r := range e.ToolResults {
		if i == maxEntryBlocks {
			te.MoreToolResult = len(e.ToolResults) - i
			break
		}
		tr := TailResult{ToolUseID: clip(r.ToolUseID), IsError: r.IsError}
		if r.IsError {
			tr.ErrorExcerpt = text(r.Text, 300)
		}
		te.ToolResults = append(te.ToolResults, tr)
	}
	if e.Usage != nil {
		var t logs.Tally
		t.AddUsage(snap.Pricing, e.Model, *e.Usage)
		u := usageBlock(t)
		te.Usage = &EntryUsage{Model: modelName(e.Model), TotalTokens: u.TotalTokens, Cost: u.Cost}
		if detail {
			te.Usage.InputTokens, te.Usage.OutputTokens = u.InputTokens, u.OutputTokens
			te.Usage.CacheCreationTokens, te.Usage.CacheReadTokens = u.CacheCreationTokens, u.CacheReadTokens
		}
		if detail || u.CostStatus != "estimated" { // a cost of 0 never stands unexplained
			te.Usage.CostStatus, te.Usage.UnpricedModels = u.CostStatus, u.UnpricedModels
		}
	}
	return te
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
