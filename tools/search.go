package tools

import (
	"context"
	"strings"

	"github.com/agent-activity/agent-activity/logs"
	"github.com/agent-activity/agent-activity/redact"
)

// SearchArgs are the arguments of search_transcripts.
type SearchArgs struct {
	Query string `json:"query" jsonschema:"text to find; case-insensitive unless regex is true"`
	Regex bool   `json:"regex,omitempty" jsonschema:"treat query as a Go RE2 regular expression (case-sensitive unless it starts with (?i))"`
	RepoArg
	AgentArg
	SessionFilterArg
	TimeRangeArgs
	MachineArg
	Roles []string `json:"roles,omitempty" jsonschema:"any of user (human prompts), assistant (assistant text), tool_result (tool output); default all"`
	Limit *int     `json:"limit,omitempty" jsonschema:"how many matches to return, 1..200 (default 20)"`
}

// SearchMatch is one matching entry.
type SearchMatch struct {
	SessionID string `json:"session_id"`
	Repo      string `json:"repo"`
	Timestamp string `json:"timestamp"`
	EntryUUID string `json:"entry_uuid"`
	Role      string `json:"role"`
	Snippet   string `json:"snippet"`
}

// SearchOut is the answer of search_transcripts.
type SearchOut struct {
	Matches      []SearchMatch `json:"matches"`
	TotalMatches int           `json:"total_matches"`
	Truncated    bool          `json:"truncated"`
	ScannedBytes int64         `json:"scanned_bytes"`
	CoverageFrom string        `json:"coverage_from"`
}

// SearchTranscripts is the search_transcripts tool.
func SearchTranscripts(d Deps) Spec {
	return define("search_transcripts", "Search transcripts",
		"Searches human prompts, assistant text and tool results (including large spilled outputs) across "+
			"sessions, newest first, with a redacted snippet around each hit (one match per entry). Filter by "+
			"repo, session, time and role. Use it for \"what did I decide about X\" or \"where did this error "+
			"appear\"; follow up with tail_agent_log or session_recap on a matching session."+dataNotice,
		[]bound{intBound[SearchArgs]("limit", 1, 200, 20, func(a *SearchArgs) **int { return &a.Limit })},
		func(ctx context.Context, a SearchArgs) (SearchOut, error) {
			m, err := logs.CompileSearch(a.Query, a.Regex)
			if err != nil {
				return SearchOut{}, err
			}
			if err := logs.CheckAgent(a.Agent); err != nil {
				return SearchOut{}, err
			}
			roles := map[string]bool{}
			for _, raw := range a.Roles {
				r := strings.ToLower(strings.TrimSpace(raw))
				if r != logs.RoleUser && r != logs.RoleAssistant && r != logs.RoleToolResult {
					return SearchOut{}, logs.InvalidArgument("roles", "roles must contain only user, assistant or tool_result; got %q", raw)
				}
				roles[r] = true
			}
			q := logs.SearchQuery{Roles: roles, Limit: *a.Limit, Redact: redact.String}
			var snap *logs.Snapshot
			var res *logs.SearchResult
			if a.Session == "" && a.Repo == "" && a.Agent == "" && a.Machine == "" {
				// Unfiltered: on a cold store, search while reading the files
				// for their summaries, so each file is read once.
				cfg := d.Store.Config()
				if q.Range, err = logs.ParseTimeRange(a.Since, a.Until, cfg.Now(), cfg.Location); err != nil {
					return SearchOut{}, err
				}
				if snap, res, err = d.Store.SearchWhileReading(ctx, progressFrom(ctx), q, m); err != nil {
					return SearchOut{}, err
				}
				q.Sessions = snap.Sessions
			}
			if res == nil {
				if snap, q.Sessions, q.Range, err = d.scope(ctx, a.Session, a.Repo, a.Since, a.Until); err != nil {
					return SearchOut{}, err
				}
				q.Sessions = a.filter(q.Sessions)
				r, err := snap.Search(ctx, q, m)
				if err != nil {
					return SearchOut{}, err
				}
				res = &r
			}
			out := SearchOut{Matches: []SearchMatch{}, TotalMatches: res.Total, ScannedBytes: res.ScannedBytes,
				CoverageFrom: rfcTime(snap.CoverageFrom())}
			for _, h := range res.Hits {
				out.Matches = append(out.Matches, SearchMatch{SessionID: h.Session.ID, Repo: h.Session.Repo, Timestamp: rfc(h.Time),
					EntryUUID: h.UUID, Role: h.Role, Snippet: strings.Join(strings.Fields(h.Snippet), " ")})
			}
			out.Truncated = out.TotalMatches > len(out.Matches)
			return out, nil
		})
}
