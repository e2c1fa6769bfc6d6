package tools

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/agent-activity/agent-activity/logs"
)

// UsageReportArgs are the arguments of usage_report.
type UsageReportArgs struct {
	GroupBy string `json:"group_by,omitempty" jsonschema:"day, week, month, session, model, repo, agent or machine, or two of them comma-separated (day,model); default day"`
	TimeRangeArgs
	RepoArg
	AgentArg
	MachineArg
	Model string `json:"model,omitempty" jsonschema:"case-insensitive substring of the model id (opus, claude-sonnet-4-5)"`
	Limit *int   `json:"limit,omitempty" jsonschema:"how many rows to return, 1..1000 (default 200); totals always cover every row"`
	CursorArg
}

// UsageRow is one group of a usage report; only the grouped key fields are set.
type UsageRow struct {
	Day      string     `json:"day,omitempty"`
	Week     string     `json:"week,omitempty"`
	Month    string     `json:"month,omitempty"`
	Session  string     `json:"session,omitempty"`
	Model    string     `json:"model,omitempty"`
	Repo     string     `json:"repo,omitempty"`
	Agent    string     `json:"agent,omitempty"`
	Machine  string     `json:"machine,omitempty"`
	Sessions int        `json:"sessions"`
	Usage    UsageBlock `json:"usage"`
}

// UsageTotals sums every row.
type UsageTotals struct {
	Sessions int        `json:"sessions"`
	Usage    UsageBlock `json:"usage"`
}

// UsageReportOut is the answer of usage_report.
type UsageReportOut struct {
	GroupBy        []string    `json:"group_by"`
	Rows           []UsageRow  `json:"rows"`
	TotalRows      int         `json:"total_rows"`
	Truncated      bool        `json:"truncated" jsonschema:"true when more rows exist than are listed: next_cursor continues"`
	NextCursor     string      `json:"next_cursor,omitempty"`
	Totals         UsageTotals `json:"totals"`
	CostBasis      string      `json:"cost_basis"`
	Timezone       string      `json:"timezone"`
	CoverageFrom   string      `json:"coverage_from"`
	UnpricedModels []string    `json:"unpriced_models,omitempty"`

	page pager
}

func (o *UsageReportOut) cutLen() int { return len(o.Rows) }
func (o *UsageReportOut) keep(n int) {
	o.Rows, o.Truncated, o.NextCursor = firstN(o.Rows, n), true, o.page.after(n)
}

// keyedRow is a row with its place in the report: sorted by its keys as the
// answer shows them (redacted), then by a hash of the raw keys.
type keyedRow struct {
	row UsageRow
	at  pos
}

// UsageReport is the usage_report tool.
func UsageReport(d Deps) Spec {
	return define("usage_report", "Usage and cost report",
		"Token usage and estimated cost (API list price, not a bill) rolled up by day, week, month, session, "+
			"model, repo, agent (claude-code, codex) or machine, or a pair of them, with filters for time, repo, model, agent and machine; "+
			"next_cursor pages through the rows. Each API response counts once, on its own day in the configured time zone. "+
			"Use it for \"what did this month cost per repo\"; use pacing_window for the current burn rate.",
		[]bound{intBound[UsageReportArgs]("limit", 1, 1000, 200, func(a *UsageReportArgs) **int { return &a.Limit })},
		func(ctx context.Context, a UsageReportArgs) (UsageReportOut, error) {
			keys, err := logs.ParseGroupBy(a.GroupBy)
			if err != nil {
				return UsageReportOut{}, err
			}
			if err := logs.CheckAgent(a.Agent); err != nil {
				return UsageReportOut{}, err
			}
			snap, tr, err := d.window(ctx, a.Since, a.Until)
			if err != nil {
				return UsageReportOut{}, err
			}
			rep := snap.Report(logs.ReportQuery{GroupBy: keys, Range: tr, Repo: a.Repo, Model: a.Model, Agent: a.Agent})
			totals := usageBlock(rep.Totals)
			// Each row made as the page goes past it: a page keeps a few of
			// them, and a report by session over a large history has tens of
			// thousands (13,885 rows made at once were 5 MB at 4 GB).
			rows := func(yield func(*keyedRow) bool) {
				var kr keyedRow
				for _, r := range rep.Rows {
					row := UsageRow{Sessions: r.Sessions, Usage: usageBlock(r.Usage)}
					for i, k := range r.GroupBy {
						setRowKey(&row, k, r.Vals[i])
					}
					var shown, raw []string
					for i, k := range r.GroupBy {
						shown, raw = append(shown, redactString(rowKey(row, k))), append(raw, r.Vals[i])
					}
					kr = keyedRow{row, pos{S: strings.Join(shown, "\x00"), N: []int64{hash63(raw...)}}}
					if !yield(&kr) {
						return
					}
				}
			}
			pg, pager, more := pageSeq(rows, func(r *keyedRow) pos { return r.at }, &a.CursorArg, *a.Limit)
			out := UsageReportOut{GroupBy: keys, Rows: []UsageRow{}, TotalRows: len(rep.Rows),
				Totals: UsageTotals{Sessions: rep.Sessions, Usage: totals}, CostBasis: costBasis, Timezone: zoneName(snap.Config().Location),
				CoverageFrom: rfcTime(snap.CoverageFrom()), UnpricedModels: totals.UnpricedModels, page: pager}
			for _, r := range pg {
				out.Rows = append(out.Rows, r.row)
			}
			if more {
				out.Truncated, out.NextCursor = true, pager.after(len(pg))
			}
			return out, nil
		}).withHints("usage cost tokens spend report per day week month model repo session how much did it cost", false)
}

// setRowKey sets the row's field of a grouping key from the report's value:
// a repo or machine clipped, a model by its name.
func setRowKey(r *UsageRow, key, v string) {
	switch key {
	case "day":
		r.Day = v
	case "week":
		r.Week = v
	case "month":
		r.Month = v
	case "session":
		r.Session = v
	case "model":
		r.Model = modelName(v)
	case "agent":
		r.Agent = v
	case "machine":
		r.Machine = clip(v)
	default:
		r.Repo = clip(v)
	}
}

// rowKey is the value of one grouping key of a row, as the row shows it.
func rowKey(r UsageRow, key string) string {
	switch key {
	case "day":
		return r.Day
	case "week":
		return r.Week
	case "month":
		return r.Month
	case "session":
		return r.Session
	case "model":
		return r.Model
	case "agent":
		return r.Agent
	case "machine":
		return r.Machine
	}
	return r.Repo
}

func zoneName(loc *time.Location) string {
	if loc == nil {
		return "UTC"
	}
	return loc.String()
}

// PacingArgs are the arguments of pacing_window.
type PacingArgs struct {
	Hours *int `json:"hours,omitempty" jsonschema:"the window: the last N hours, 1..168 (default 5)"`
	AgentArg
	MachineArg
}

// ActiveSession is a session with usage in the window.
type ActiveSession struct {
	SessionID string `json:"session_id"`
	Repo      string `json:"repo"`
	IsLive    bool   `json:"is_live"`
}

// PacingOut is the answer of pacing_window.
type PacingOut struct {
	Hours          int                   `json:"hours"`
	WindowStart    string                `json:"window_start"`
	WindowEnd      string                `json:"window_end"`
	TokensPerHour  float64               `json:"tokens_per_hour"`
	CostPerHour    float64               `json:"cost_per_hour"`
	Usage          UsageBlock            `json:"usage"`
	ByModel        map[string]UsageBlock `json:"by_model"`
	ActiveSessions []ActiveSession       `json:"active_sessions" jsonschema:"most recently active first, at most 50"`
	SessionsTotal  int                   `json:"sessions_total"`
	FirstActivity  string                `json:"first_activity,omitempty"`
	LastActivity   string                `json:"last_activity,omitempty"`
	CoverageFrom   string                `json:"coverage_from"`
	CostBasis      string                `json:"cost_basis"`
	Truncated      bool                  `json:"truncated,omitempty" jsonschema:"true when active_sessions or by_model were shortened to fit the answer budget"`
}

func (o *PacingOut) cutLen() int { return max(len(o.ActiveSessions), len(o.ByModel)) }
func (o *PacingOut) keep(n int) {
	o.ActiveSessions, o.ByModel, o.Truncated = firstN(o.ActiveSessions, n), topUsage(o.ByModel, n), true
}

// topUsage is the n entries of m with the most tokens (a new map).
func topUsage(m map[string]UsageBlock, n int) map[string]UsageBlock {
	return topN(m, n, func(b UsageBlock) int64 { return b.TotalTokens })
}

// topN is the n entries of m of largest weight, ties by key (a new map; nil
// for nil).
func topN[V any](m map[string]V, n int, weight func(V) int64) map[string]V {
	if m == nil {
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if a, b := weight(m[keys[i]]), weight(m[keys[j]]); a != b {
			return a > b
		}
		return keys[i] < keys[j]
	})
	out := make(map[string]V, min(n, len(keys)))
	for _, k := range firstN(keys, n) {
		out[k] = m[k]
	}
	return out
}

// PacingWindow is the pacing_window tool.
func PacingWindow(d Deps) Spec {
	return define("pacing_window", "Current burn rate",
		"What is being burned right now: tokens and estimated cost per hour over the last N hours (the window's "+
			"totals divided by N), the usage by model, the sessions active in the window and the first and last "+
			"activity in it. Use usage_report for longer periods.",
		[]bound{intBound[PacingArgs]("hours", 1, 168, 5, func(a *PacingArgs) **int { return &a.Hours })},
		func(ctx context.Context, a PacingArgs) (PacingOut, error) {
			if err := logs.CheckAgent(a.Agent); err != nil {
				return PacingOut{}, err
			}
			snap, err := d.snapshot(ctx)
			if err != nil {
				return PacingOut{}, err
			}
			hours := *a.Hours
			now := snap.Now()
			start := now.Add(-time.Duration(hours) * time.Hour)
			p := snap.Pace(start.UnixMilli(), a.Agent)
			u := usageBlock(p.Usage)
			out := PacingOut{Hours: hours, WindowStart: rfcTime(start), WindowEnd: rfcTime(now),
				TokensPerHour: round6(float64(u.TotalTokens) / float64(hours)), CostPerHour: round6(u.Cost / float64(hours)),
				Usage: u, ByModel: map[string]UsageBlock{}, ActiveSessions: []ActiveSession{}, SessionsTotal: len(p.Sessions),
				FirstActivity: rfc(p.First), LastActivity: rfc(p.Last), CoverageFrom: rfcTime(snap.CoverageFrom()), CostBasis: costBasis}
			for m, t := range p.ByModel {
				out.ByModel[modelName(m)] = usageBlock(*t)
			}
			for i, s := range p.Sessions {
				if i == 50 {
					break
				}
				out.ActiveSessions = append(out.ActiveSessions, ActiveSession{SessionID: s.ID, Repo: s.Repo, IsLive: snap.IsLive(s)})
			}
			return out, nil
		}).withHints("burn rate pacing tokens per hour cost per hour right now current spend active sessions", false)
}

// CoverageArgs: coverage_stats takes only the machine filter.
type CoverageArgs struct {
	MachineArg
}

// ToolCount is how often a tool was called.
type ToolCount struct {
	Tool  string
	Calls int
}

// VersionCount is how many sessions a Claude Code version wrote.
type VersionCount struct {
	Version  string `json:"version"`
	Sessions int    `json:"sessions"`
}

// AccountingOut is the cost-state cross-check.
type AccountingOut struct {
	SessionsChecked int      `json:"sessions_checked"`
	Agreeing        int      `json:"agreeing"`
	Differing       []string `json:"differing" jsonschema:"ids of sessions whose own cost-state totals differ from ours (at most 20)"`
}

// CoverageOut is the answer of coverage_stats.
type CoverageOut struct {
	LogRoots           []RootOut             `json:"log_roots"`
	Projects           int                   `json:"projects"`
	Sessions           int                   `json:"sessions"`
	SubagentFiles      int                   `json:"subagent_files"`
	Entries            int                   `json:"entries"`
	Bytes              int64                 `json:"bytes"`
	SkippedLines       int                   `json:"skipped_lines"`
	UnverifiedSessions int                   `json:"unverified_sessions"`
	FirstActivity      string                `json:"first_activity"`
	LastActivity       string                `json:"last_activity"`
	CoverageFrom       string                `json:"coverage_from"`
	Models             map[string]UsageBlock `json:"models"`
	TopTools           map[string]int        `json:"top_tools" jsonschema:"tool name -> calls, for the 25 most called tools"`
	ToolsTotal         int                   `json:"tools_total" jsonschema:"how many distinct tools were called (top_tools keeps 25)"`
	ClaudeCodeVersions []VersionCount        `json:"claude_code_versions"`
	AccountingCheck    AccountingOut         `json:"accounting_check"`
	CostBasis          string                `json:"cost_basis"`
	Truncated          bool                  `json:"truncated,omitempty" jsonschema:"true when models, top_tools or claude_code_versions were shortened to fit the answer budget (the most used and newest are kept)"`
}

func (o *CoverageOut) cutLen() int {
	return max(len(o.Models), len(o.TopTools), len(o.ClaudeCodeVersions), len(o.LogRoots))
}
func (o *CoverageOut) keep(n int) {
	o.Models, o.ClaudeCodeVersions, o.LogRoots = topUsage(o.Models, n), lastN(o.ClaudeCodeVersions, n), firstN(o.LogRoots, n)
	o.TopTools, o.Truncated = topN(o.TopTools, n, func(c int) int64 { return int64(c) }), true
}

// RootOut is one configured log root.
type RootOut struct {
	Path    string `json:"path"`
	Machine string `json:"machine" jsonschema:"the root's label in AGENT_ACTIVITY_LOG_ROOT (laptop=...), local when it has none"`
	Exists  bool   `json:"exists"`
}

// CoverageStats is the coverage_stats tool.
func CoverageStats(d Deps) Spec {
	return define("coverage_stats", "What history this machine holds",
		"Describes the history on this machine: log roots, projects, sessions, subagent files, entries, bytes, "+
			"skipped lines, sessions whose format drifted, first and last activity, usage per model, the most used "+
			"tools, Claude Code versions, and an accounting check against Claude Code's own cost-state totals "+
			"where sessions have them. Claude Code deletes transcripts after 30 days by default, so coverage_from "+
			"says how far back answers can reach.",
		nil,
		func(ctx context.Context, _ CoverageArgs) (CoverageOut, error) {
			snap, err := d.snapshot(ctx)
			if err != nil {
				return CoverageOut{}, err
			}
			c := snap.Coverage()
			out := CoverageOut{Projects: c.Projects, Sessions: c.Sessions, SubagentFiles: c.SubagentFiles, Entries: c.Entries,
				Bytes: c.Bytes, SkippedLines: c.SkippedLines, UnverifiedSessions: c.Unverified, FirstActivity: rfc(c.First),
				LastActivity: rfc(c.Last), CoverageFrom: rfc(c.First), Models: map[string]UsageBlock{}, TopTools: map[string]int{},
				ClaudeCodeVersions: []VersionCount{}, CostBasis: costBasis,
				AccountingCheck: AccountingOut{SessionsChecked: c.Accounting.SessionsChecked, Agreeing: c.Accounting.Agreeing,
					Differing: nonNil(c.Accounting.Differing)}}
			for _, r := range snap.Roots {
				out.LogRoots = append(out.LogRoots, RootOut{Path: r.Path, Machine: r.Machine, Exists: r.Exists})
			}
			for m, t := range c.Models {
				out.Models[modelName(m)] = usageBlock(*t)
			}
			tools := make([]ToolCount, 0, len(c.Tools))
			for tool, n := range c.Tools {
				tools = append(tools, ToolCount{Tool: tool, Calls: n})
			}
			sort.Slice(tools, func(i, j int) bool {
				if tools[i].Calls != tools[j].Calls {
					return tools[i].Calls > tools[j].Calls
				}
				return tools[i].Tool < tools[j].Tool
			})
			out.ToolsTotal = len(tools)
			for i, tc := range tools {
				if i == 25 {
					break
				}
				out.TopTools[name(tc.Tool)] += tc.Calls
			}
			for v, n := range c.Versions {
				out.ClaudeCodeVersions = append(out.ClaudeCodeVersions, VersionCount{Version: v, Sessions: n})
			}
			sort.Slice(out.ClaudeCodeVersions, func(i, j int) bool {
				return logs.CompareVersions(out.ClaudeCodeVersions[i].Version, out.ClaudeCodeVersions[j].Version) < 0
			})
			return out, nil
		}).withHints("coverage history stats how much history machine sessions models tools versions accounting check", false)
}
