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
	CursorArg
}

// SearchMatch is one matching entry.
type SearchMatch struct {
	SessionID string `json:"session_id"`
	Repo      string `json:"repo"`
	Timestamp string `json:"timestamp,omitempty"`
	EntryUUID string `json:"entry_uuid,omitempty" jsonschema:"pass it to tail_agent_log as around to read the conversation there"`
	Role      string `json:"role"`
	Snippet   string `json:"snippet"`
}

// SearchOut is the answer of search_transcripts.
type SearchOut struct {
	Matches      []SearchMatch `json:"matches"`
	TotalMatches int           `json:"total_matches"`
	Truncated    bool          `json:"truncated" jsonschema:"true when more entries match than are listed: next_cursor continues"`
	NextCursor   string        `json:"next_cursor,omitempty"`
	ScannedBytes int64         `json:"scanned_bytes"`
	CoverageFrom string        `json:"coverage_from"`

	page pager
}

func (o *SearchOut) cutLen() int { return len(o.Matches) }
func (o *SearchOut) keep(n int) {
	o.Matches, o.Truncated, o.NextCursor = firstN(o.Matches, n), true, o.page.after(n)
}

// SearchTranscripts is the search_transcripts tool.
func SearchTranscripts(d Deps) Spec {
	return define("search_transcripts", "Search transcripts",
		"Searches human prompts, assistant text and tool results (including large spilled outputs) across "+
			"sessions, newest first, with a redacted snippet around each hit (one match per entry); next_cursor "+
			"pages through the rest. Filter by repo, session, time and role. Use it for \"what did I decide "+
			"about X\" or \"where did this error appear\"; then read the conversation around a match with "+
			"tail_agent_log (session and around=entry_uuid) or get session_recap."+dataNotice,
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
			q := logs.SearchQuery{Roles: roles, Limit: *a.Limit + 1, Redact: redact.String}
			if p := a.after; p != nil {
				if len(p.N) != 2 {
					return SearchOut{}, logs.InvalidArgument("cursor", "cursor is not one search_transcripts gave")
				}
				q.After = &logs.HitPos{Time: -p.N[0], Tie: p.N[1]}
			}
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
				if res == nil {
					// A warm store: that look's snapshot is every session's,
					// searched with the range as scope would give it from
					// the time the look ended; no second look.
					q.Sessions = snap.Sessions
					if q.Range, err = rangeAt(snap, a.Since, a.Until); err != nil {
						return SearchOut{}, err
					}
				}
			} else {
				if snap, q.Sessions, q.Range, err = d.scope(ctx, a.Session, a.Repo, a.Since, a.Until); err != nil {
					return SearchOut{}, err
				}
				q.Sessions = a.filter(q.Sessions)
			}
			if res == nil {
				r, err := snap.Search(ctx, q, m)
				if err != nil {
					return SearchOut{}, err
				}
				res = &r
			}
			// One hit more than asked says whether another page follows.
			hits := firstN(res.Hits, *a.Limit)
			out := SearchOut{Matches: []SearchMatch{}, TotalMatches: res.Total, ScannedBytes: res.ScannedBytes,
				CoverageFrom: rfcTime(snap.CoverageFrom()), page: a.pager()}
			for _, h := range hits {
				out.Matches = append(out.Matches, SearchMatch{SessionID: h.Session.ID, Repo: clip(h.Session.Repo), Timestamp: rfc(h.Time),
					EntryUUID: clip(h.UUID), Role: h.Role, Snippet: strings.Join(strings.Fields(h.Snippet), " ")})
				p := h.Pos()
				out.page.keys = append(out.page.keys, pos{N: []int64{-p.Time, p.Tie}})
			}
			if len(res.Hits) > len(hits) {
				out.Truncated, out.NextCursor = true, out.page.after(len(hits))
			}
			return out, nil
		}).withHints("search transcripts grep find text error message decision prompt conversation history", false)
}
