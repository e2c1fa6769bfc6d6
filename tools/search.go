package tools

import (
	"context"
	"strings"

	"github.com/agent-activity/agent-activity/logs"
	"github.com/agent-activity/agent-activity/redact"
)

// SearchArgs are the arguments of search_transcripts.
type SearchArgs struct {
	Query   string   `json:"query" jsonschema:"text to find; case-insensitive unless regex is true"`
	Regex   bool     `json:"regex,omitempty" jsonschema:"treat query as a Go RE2 regular expression (case-sensitive unless it starts with (?i))"`
	Repo    string   `json:"repo,omitempty" jsonschema:"case-insensitive substring of the repo name or cwd"`
	Session string   `json:"session,omitempty" jsonschema:"limit to one session: id, unique prefix or \"latest\""`
	Since   string   `json:"since,omitempty" jsonschema:"RFC 3339, a date, today, yesterday, or a duration back from now (24h, 7d)"`
	Until   string   `json:"until,omitempty" jsonschema:"same forms as since; a date means through that day"`
	Roles   []string `json:"roles,omitempty" jsonschema:"any of user (human prompts), assistant (assistant text), tool_result (tool output); default all"`
	Limit   *int     `json:"limit,omitempty" jsonschema:"how many matches to return, 1..200 (default 20)"`
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
		[]bound{intBound[SearchArgs]("limit", 1, 200, 20, func(a *SearchArgs) *int { return a.Limit })},
		func(ctx context.Context, a SearchArgs) (SearchOut, error) {
			m, err := logs.CompileSearch(a.Query, a.Regex)
			if err != nil {
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
			limit := intOr(a.Limit, 20)
			q := logs.SearchQuery{Roles: roles, Limit: limit, Redact: redact.String}
			var snap *logs.Snapshot
			var res *logs.SearchResult
			if a.Session == "" && a.Repo == "" {
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

// scope resolves the common filters: an optional session, a repo, a time range.
func (d Deps) scope(ctx context.Context, session, repo, since, until string) (*logs.Snapshot, []*logs.Session, logs.TimeRange, error) {
	if session != "" {
		if err := logs.CheckSessionArg(session); err != nil {
			return nil, nil, logs.TimeRange{}, err
		}
	}
	snap, err := d.snapshot(ctx)
	if err != nil {
		return nil, nil, logs.TimeRange{}, err
	}
	tr, err := logs.ParseTimeRange(since, until, snap.Now(), snap.Config().Location)
	if err != nil {
		return nil, nil, tr, err
	}
	if session != "" {
		s, err := snap.Resolve(session, logs.ResolveOptions{IncludeCurrent: true})
		if err != nil {
			return nil, nil, tr, err
		}
		if !logs.MatchRepo(s, repo) {
			return snap, nil, tr, nil
		}
		return snap, []*logs.Session{s}, tr, nil
	}
	var out []*logs.Session
	for _, s := range snap.Sessions {
		if logs.MatchRepo(s, repo) {
			out = append(out, s)
		}
	}
	return snap, out, tr, nil
}
