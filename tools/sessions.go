package tools

import (
	"context"

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
}

// SessionItem is one session in a list.
type SessionItem struct {
	SessionID     string            `json:"session_id"`
	Agent         string            `json:"agent" jsonschema:"claude-code or codex"`
	Machine       string            `json:"machine" jsonschema:"the machine whose log root holds the session (its AGENT_ACTIVITY_LOG_ROOT label, local when unlabelled)"`
	Repo          string            `json:"repo"`
	Cwd           string            `json:"cwd"`
	GitBranch     string            `json:"git_branch"`
	Title         string            `json:"title"`
	Start         string            `json:"start"`
	End           string            `json:"end"`
	MessageCount  int               `json:"message_count"`
	SubagentCount int               `json:"subagent_count"`
	APIErrors     int               `json:"api_errors"`
	IsLive        bool              `json:"is_live"`
	SchemaStatus  string            `json:"schema_status"`
	SkippedLines  int               `json:"skipped_lines"`
	FirstPrompt   string            `json:"first_prompt"`
	Outcomes      []string          `json:"outcomes" jsonschema:"outcome kinds, e.g. files_changed, tests_passed (session_recap shows their evidence)"`
	Usage         SessionUsageBlock `json:"usage"`
}

// ListSessionsOut is the answer of list_recent_sessions.
type ListSessionsOut struct {
	Sessions     []SessionItem `json:"sessions"`
	TotalMatched int           `json:"total_matched"`
	Truncated    bool          `json:"truncated"`
	LogRoot      string        `json:"log_root"`
	LogRootNote  string        `json:"log_root_note,omitempty" jsonschema:"set when no configured log root exists"`
	CoverageFrom string        `json:"coverage_from" jsonschema:"oldest activity still on disk; when a cold server answered from the newest files alone, how far back what it read reaches"`
	CostBasis    string        `json:"cost_basis"`
}

// ListRecentSessions is the list_recent_sessions tool.
func ListRecentSessions(d Deps) Spec {
	return define("list_recent_sessions", "List recent sessions",
		"Lists Claude Code and Codex sessions on this machine, most recently active first, with repo, branch, title, "+
			"start/end, message and subagent counts, API errors, liveness, outcome kinds (filter with outcome) and token usage with estimated cost. "+
			"Use it first to find a session id for tail_agent_log, summarize_tool_calls or session_recap."+dataNotice,
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
			if a.Since == "" && a.Until == "" && a.Agent == "" && a.Machine == "" && outcome == "" {
				// A cold store answers from the newest files alone.
				res, ok, err := d.Store.Recent(ctx, limit, a.Repo)
				if err != nil {
					return ListSessionsOut{}, err
				}
				if ok {
					out := ListSessionsOut{Sessions: []SessionItem{}, LogRoot: rootsString(res.Snapshot), LogRootNote: rootNote(res.Snapshot),
						CoverageFrom: rfcTime(res.Snapshot.CoverageFrom()), CostBasis: costBasis, TotalMatched: res.Total, Truncated: res.Total > len(res.Sessions)}
					for _, s := range res.Sessions {
						out.Sessions = append(out.Sessions, sessionItem(res.Snapshot, s))
					}
					return out, nil
				}
			}
			snap, tr, err := d.window(ctx, a.Since, a.Until)
			if err != nil {
				return ListSessionsOut{}, err
			}
			out := ListSessionsOut{Sessions: []SessionItem{}, LogRoot: rootsString(snap), LogRootNote: rootNote(snap),
				CoverageFrom: rfcTime(snap.CoverageFrom()), CostBasis: costBasis}
			for _, s := range snap.Sessions {
				if !logs.MatchRepo(s, a.Repo) || !logs.MatchAgent(s, a.Agent) || !tr.Overlaps(s.Start, s.End) || (outcome != "" && !snap.HasOutcome(s, outcome)) {
					continue
				}
				out.TotalMatched++
				if len(out.Sessions) < limit {
					out.Sessions = append(out.Sessions, sessionItem(snap, s))
				}
			}
			out.Truncated = out.TotalMatched > len(out.Sessions)
			return out, nil
		})
}

func sessionItem(snap *logs.Snapshot, s *logs.Session) SessionItem {
	live := snap.IsLive(s)
	return SessionItem{
		SessionID: s.ID, Agent: s.Agent, Machine: s.Machine, Repo: s.Repo, Cwd: s.Cwd, GitBranch: name(s.GitBranch), Title: text(s.Title, 200),
		Start: rfc(s.Start), End: rfc(s.End), MessageCount: s.MessageCount, SubagentCount: len(s.Subagents),
		APIErrors: s.APIErrors, IsLive: live, SchemaStatus: s.SchemaStatus(), SkippedLines: s.SkippedLines(live),
		FirstPrompt: text(s.FirstPrompt(), 200), Outcomes: outcomeKinds(snap, s), Usage: sessionUsage(s.Usage),
	}
}

func outcomeKinds(snap *logs.Snapshot, s *logs.Session) []string {
	out := []string{}
	for _, k := range snap.OutcomeKindsOf(s) {
		out = append(out, string(k))
	}
	return out
}
