package tools

import (
	"context"
	"sort"

	"github.com/agent-activity/agent-activity/logs"
)

// ListSessionsArgs are the arguments of list_recent_sessions.
type ListSessionsArgs struct {
	Limit *int `json:"limit,omitempty" jsonschema:"how many sessions to return, 1..200 (default 20)"`
	RepoArg
	AgentArg
	Since   string `json:"since,omitempty" jsonschema:"only sessions active at or after this time: RFC 3339, a date (2026-11-28), today, yesterday, or a duration back from now (24h, 7d)"`
	Until   string `json:"until,omitempty" jsonschema:"only sessions active before this time (a date means through that whole day); same forms as since"`
	Outcome string `json:"outcome,omitempty" jsonschema:"only sessions with this outcome: files_changed, commit_observed, pushed, pr_opened, tests_passed, tests_failed, build_passed, build_failed or ended_on_error"`
	MachineArg
	DetailArg
	CursorArg
}

// SessionItem is one session in a list: what an agent needs to choose one.
type SessionItem struct {
	SessionID     string            `json:"session_id"`
	Agent         string            `json:"agent" jsonschema:"claude-code or codex"`
	Machine       string            `json:"machine" jsonschema:"the machine whose log root holds the session (its AGENT_ACTIVITY_LOG_ROOT label, local when unlabelled)"`
	Repo          string            `json:"repo"`
	Cwd           string            `json:"cwd,omitempty"`
	GitBranch     string            `json:"git_branch,omitempty"`
	Title         string            `json:"title,omitempty"`
	Start         string            `json:"start,omitempty"`
	End           string            `json:"end,omitempty"`
	MessageCount  int               `json:"message_count"`
	SubagentCount int               `json:"subagent_count,omitempty"`
	APIErrors     int               `json:"api_errors,omitempty"`
	IsLive        bool              `json:"is_live"`
	SchemaStatus  string            `json:"schema_status"`
	SkippedLines  int               `json:"skipped_lines,omitempty"`
	FirstPrompt   string            `json:"first_prompt,omitempty"`
	Outcomes      []string          `json:"outcomes,omitempty" jsonschema:"outcome kinds, e.g. files_changed, tests_passed (session_recap shows their evidence)"`
	Usage         SessionUsageBlock `json:"usage" jsonschema:"the session's total; with detail, also split by thread and model"`
}

// ListSessionsOut is the answer of list_recent_sessions.
type ListSessionsOut struct {
	Sessions     []SessionItem `json:"sessions"`
	TotalMatched int           `json:"total_matched"`
	Truncated    bool          `json:"truncated" jsonschema:"true when more sessions match than are listed: next_cursor continues"`
	NextCursor   string        `json:"next_cursor,omitempty"`
	LogRoot      string        `json:"log_root"`
	LogRootNote  string        `json:"log_root_note,omitempty" jsonschema:"set when no configured log root exists"`
	CoverageFrom string        `json:"coverage_from" jsonschema:"oldest activity still on disk; when a cold server answered from the newest files alone, how far back what it read reaches"`
	CostBasis    string        `json:"cost_basis"`

	page pager
}

func (o *ListSessionsOut) cutLen() int { return len(o.Sessions) }
func (o *ListSessionsOut) keep(n int) {
	o.Sessions, o.Truncated, o.NextCursor = o.Sessions[:min(n, len(o.Sessions))], true, o.page.after(n)
}

// sessionWindow is the part of sessions, which are most recently active
// first as a snapshot lists them, that a page after c can hold or tell more
// from: from the cursor's end time, the sessions that end then (either side
// of the cursor), limit+1 more, and those that end when the last of them
// does. page over it is page over all of them, without a position for each.
func sessionWindow(sessions []*logs.Session, c *CursorArg, limit int) []*logs.Session {
	start, j := 0, 0
	if c.after != nil && len(c.after.N) > 0 {
		end := -c.after.N[0]
		start = sort.Search(len(sessions), func(i int) bool { return sessions[i].End <= end })
		for j = start; j < len(sessions) && sessions[j].End == end; j++ {
		}
	}
	j = min(len(sessions), max(j, start)+limit+1)
	for j > 0 && j < len(sessions) && sessions[j].End == sessions[j-1].End {
		j++
	}
	return sessions[start:j]
}

// sessionPos orders sessions most recently active first.
func sessionPos(s **logs.Session) pos { return pos{N: []int64{-(*s).End, sessionTie(*s)}} }

// ListRecentSessions is the list_recent_sessions tool.
func ListRecentSessions(d Deps) Spec {
	return define("list_recent_sessions", "List recent sessions",
		"Lists Claude Code and Codex sessions on this machine, most recently active first, with repo, branch, title, "+
			"start/end, message and subagent counts, API errors, liveness, outcome kinds (filter with outcome) and token usage with estimated cost. "+
			"Use it first to find a session id for tail_agent_log, summarize_tool_calls or session_recap; "+
			"next_cursor pages through the rest."+dataNotice,
		[]bound{intBound[ListSessionsArgs]("limit", 1, 200, 20, func(a *ListSessionsArgs) **int { return &a.Limit })},
		func(ctx context.Context, a ListSessionsArgs) (ListSessionsOut, error) {
			limit := *a.Limit
			if err := logs.CheckAgent(a.Agent); err != nil {
				return ListSessionsOut{}, err
			}
			outcome, err := logs.ParseOutcomeKind(a.Outcome)
			if err != nil {
				return ListSessionsOut{}, err
			}
			if a.Since == "" && a.Until == "" && a.Agent == "" && a.Machine == "" && outcome == "" && a.Cursor == "" {
				// A cold store answers from the newest files alone. One more
				// session than asked tells whether the page ends on a tie.
				res, ok, err := d.Store.Recent(ctx, limit+1, a.Repo)
				if err != nil {
					return ListSessionsOut{}, err
				}
				if ok && (len(res.Sessions) <= limit || res.Sessions[limit-1].End != res.Sessions[limit].End) {
					return listSessions(res.Snapshot, res.Sessions, res.Total, a), nil
				}
			}
			snap, tr, err := d.window(ctx, a.Since, a.Until)
			if err != nil {
				return ListSessionsOut{}, err
			}
			if a.Repo == "" && a.Agent == "" && outcome == "" && tr == (logs.TimeRange{}) {
				return listSessions(snap, snap.Sessions, len(snap.Sessions), a), nil // every session matches
			}
			var matched []*logs.Session
			for _, s := range snap.Sessions {
				if logs.MatchRepo(s, a.Repo) && logs.MatchAgent(s, a.Agent) && tr.Overlaps(s.Start, s.End) && (outcome == "" || snap.HasOutcome(s, outcome)) {
					matched = append(matched, s)
				}
			}
			return listSessions(snap, matched, len(matched), a), nil
		}).withHints("recent sessions history list find session id conversations transcripts what was I doing", true)
}

// listSessions is the page after a.Cursor of sessions (total of them match).
func listSessions(snap *logs.Snapshot, sessions []*logs.Session, total int, a ListSessionsArgs) ListSessionsOut {
	pg, pager, more := page(sessionWindow(sessions, &a.CursorArg, *a.Limit), sessionPos, &a.CursorArg, *a.Limit)
	out := ListSessionsOut{Sessions: []SessionItem{}, TotalMatched: total, LogRoot: rootsString(snap), LogRootNote: rootNote(snap),
		CoverageFrom: rfcTime(snap.CoverageFrom()), CostBasis: costBasis, page: pager}
	for _, s := range pg {
		out.Sessions = append(out.Sessions, sessionItem(snap, s, a.Detail))
	}
	if more {
		out.Truncated, out.NextCursor = true, pager.after(len(pg))
	}
	return out
}

func sessionItem(snap *logs.Snapshot, s *logs.Session, detail bool) SessionItem {
	live := snap.IsLive(s)
	item := SessionItem{
		SessionID: s.ID, Agent: s.Agent, Machine: s.Machine, Repo: clip(s.Repo), Cwd: clip(s.Cwd), GitBranch: name(s.GitBranch), Title: text(s.Title, 200),
		Start: rfc(s.Start), End: rfc(s.End), MessageCount: s.MessageCount, SubagentCount: len(s.Subagents),
		APIErrors: s.APIErrors, IsLive: live, SchemaStatus: s.SchemaStatus(), SkippedLines: s.SkippedLines(live),
		FirstPrompt: text(s.FirstPrompt(), 200), Outcomes: outcomeKinds(snap, s), Usage: SessionUsageBlock{UsageBlock: usageBlock(s.Usage.Total)},
	}
	if detail {
		item.Usage = sessionUsage(s.Usage, true)
	}
	return item
}

func outcomeKinds(snap *logs.Snapshot, s *logs.Session) []string {
	out := []string{}
	for _, k := range snap.OutcomeKindsOf(s) {
		out = append(out, string(k))
	}
	return out
}
