package tools

import (
	"context"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/agent-activity/agent-activity/logs"
	"github.com/mark3labs/mcp-go/mcp"
)

// SummarizeArgs are the arguments of summarize_work.
type SummarizeArgs struct {
	RepoArg
	AgentArg
	MachineArg
	Since  string `json:"since,omitempty" jsonschema:"start of the window (default 24h): RFC 3339, a date (2026-11-28), today, yesterday, or a duration back from now (24h, 7d)"`
	Until  string `json:"until,omitempty" jsonschema:"end of the window (default now); same forms as since, a date means through that whole day: since=yesterday until=yesterday is yesterday"`
	Limit  *int   `json:"limit,omitempty" jsonschema:"how many sessions to list, 1..50 (default 10), most recently active first; the merged lists always cover every session of the window"`
	Cursor string `json:"cursor,omitempty" jsonschema:"next_cursor of an earlier answer with the same repo, since and until: lists the next sessions"`
}

// WorkSessionItem is one session of the window.
type WorkSessionItem struct {
	SessionID          string   `json:"session_id"`
	Repo               string   `json:"repo"`
	GitBranch          string   `json:"git_branch,omitempty"`
	Title              string   `json:"title,omitempty" jsonschema:"absent when the session has no title but its first prompt"`
	Start              string   `json:"start"`
	End                string   `json:"end"`
	IsLive             bool     `json:"is_live"`
	FirstPrompt        string   `json:"first_prompt,omitempty"`
	FinalAssistantText string   `json:"final_assistant_text,omitempty" jsonschema:"the last real model text of the main thread, at most 300 characters"`
	Outcomes           []string `json:"outcomes" jsonschema:"outcome kinds: files_changed, commit_observed, pushed, pr_opened, tests_passed, tests_failed, build_passed, build_failed, ended_on_error"`
	TotalTokens        int64    `json:"total_tokens"`
	Cost               float64  `json:"cost"`
}

// WorkFileItem is a file changed in the window, merged across sessions.
type WorkFileItem struct {
	Path          string   `json:"path"`
	Sessions      []string `json:"sessions" jsonschema:"ids of the sessions that changed it, most recently active first (at most 10)"`
	SessionsTotal int      `json:"sessions_total,omitempty" jsonschema:"how many sessions changed it, when sessions is cut"`
	Edits         int      `json:"edits" jsonschema:"ok Edit, Write, MultiEdit and NotebookEdit calls on it"`
	Last          string   `json:"last"`
}

// WorkCommit is a git commit call.
type WorkCommit struct {
	SessionID string `json:"session_id"`
	ToolUseID string `json:"tool_use_id,omitempty"`
	Timestamp string `json:"timestamp"`
	Message   string `json:"message,omitempty" jsonschema:"the -m text or heredoc of the git commit"`
	Command   string `json:"command,omitempty" jsonschema:"the command, when it carries no message"`
	Outcome   string `json:"outcome" jsonschema:"ok, error, rejected, pending or in_progress"`
}

// WorkPR is a pull request opened in the window.
type WorkPR struct {
	URL       string `json:"url"`
	SessionID string `json:"session_id"`
	ToolUseID string `json:"tool_use_id,omitempty" jsonschema:"the gh pr create call, when a call opened it"`
}

// WorkCheck is the last run of one distinct test or build command.
type WorkCheck struct {
	Command   string `json:"command" jsonschema:"the command, normalized: cd, wrappers, variables and redirections left out"`
	Kind      string `json:"kind" jsonschema:"test, build, or build_and_test for a command that runs both"`
	Outcome   string `json:"outcome" jsonschema:"passed or failed"`
	SessionID string `json:"session_id"`
	ToolUseID string `json:"tool_use_id,omitempty"`
	Timestamp string `json:"timestamp"`
}

// WorkTodo is an open item of the newest task list.
type WorkTodo struct {
	Text   string `json:"text"`
	Status string `json:"status"`
}

// WorkFailure is a failing call nothing in the window recovered from.
type WorkFailure struct {
	SessionID    string `json:"session_id"`
	ToolUseID    string `json:"tool_use_id,omitempty"`
	ToolName     string `json:"tool_name"`
	Timestamp    string `json:"timestamp"`
	Source       string `json:"source" jsonschema:"main or sidechain"`
	InputExcerpt string `json:"input_excerpt,omitempty"`
	ErrorExcerpt string `json:"error_excerpt,omitempty"`
}

// SummarizeOut is the answer of summarize_work.
type SummarizeOut struct {
	Since                   string            `json:"since"`
	Until                   string            `json:"until,omitempty" jsonschema:"absent when the window is open (up to now)"`
	Timezone                string            `json:"timezone"`
	Sessions                []WorkSessionItem `json:"sessions"`
	SessionsTotal           int               `json:"sessions_total"`
	NextCursor              string            `json:"next_cursor,omitempty" jsonschema:"pass as cursor, with the same repo, since and until, for the next sessions"`
	FilesChanged            []WorkFileItem    `json:"files_changed"`
	FilesChangedTotal       int               `json:"files_changed_total"`
	Commits                 []WorkCommit      `json:"commits"`
	CommitsTotal            int               `json:"commits_total"`
	PRs                     []WorkPR          `json:"prs"`
	PRsTotal                int               `json:"prs_total"`
	TestsAndBuilds          []WorkCheck       `json:"tests_and_builds"`
	TestsAndBuildsTotal     int               `json:"tests_and_builds_total"`
	OpenTodos               []WorkTodo        `json:"open_todos"`
	OpenTodosTotal          int               `json:"open_todos_total"`
	OpenTodosSessionID      string            `json:"open_todos_session_id,omitempty" jsonschema:"the newest session of the window with a task list"`
	OpenTodosToolUseID      string            `json:"open_todos_tool_use_id,omitempty" jsonschema:"the call that last changed that task list"`
	UnresolvedFailures      []WorkFailure     `json:"unresolved_failures"`
	UnresolvedFailuresTotal int               `json:"unresolved_failures_total"`
	Truncated               bool              `json:"truncated" jsonschema:"true when a list above is cut (its _total says how long it is) or more sessions follow (next_cursor)"`
	Usage                   UsageBlock        `json:"usage" jsonschema:"the usage of every session of the window, each whole"`
	CostBasis               string            `json:"cost_basis"`
	CoverageFrom            string            `json:"coverage_from" jsonschema:"oldest activity still on disk"`
	Gaps                    []string          `json:"gaps" jsonschema:"what this summary could not know or left out"`
	LogRootNote             string            `json:"log_root_note,omitempty" jsonschema:"set when no configured log root exists"`
}

// workCaps bound one rendering of the answer: how many items of each list and
// how long each text. Levels shrink until the answer fits its budget.
type workCaps struct {
	files, fileSessions, commits, prs, checks, todos, unresolved int
	title, prompt, final, message, excerpt, path                 int
}

var workLevels = []workCaps{
	{files: 30, fileSessions: 10, commits: 10, prs: 10, checks: 15, todos: 10, unresolved: 10,
		title: 120, prompt: 200, final: 300, message: 300, excerpt: 300, path: 300},
	{files: 15, fileSessions: 5, commits: 5, prs: 5, checks: 8, todos: 6, unresolved: 5,
		title: 80, prompt: 120, final: 200, message: 150, excerpt: 150, path: 200},
	{files: 8, fileSessions: 3, commits: 3, prs: 3, checks: 5, todos: 4, unresolved: 3,
		title: 60, prompt: 80, final: 120, message: 80, excerpt: 100, path: 150},
	{files: 3, fileSessions: 1, commits: 1, prs: 1, checks: 2, todos: 2, unresolved: 1,
		title: 40, prompt: 40, final: 60, message: 40, excerpt: 40, path: 100},
}

// summarizeBudget is the most characters an answer of summarize_work may
// take: 12,000 with the default limit, growing with limit up to 40,000.
func summarizeBudget(limit int) int {
	return min(40000, 12000+max(0, limit-10)*700)
}

// SummarizeWork is the summarize_work tool.
func SummarizeWork(d Deps) Spec {
	spec := define("summarize_work", "Summarize the work in a window (handoff)",
		"The handoff question in one call: what was done in a repo over a window (default the last 24h; "+
			"\"yesterday\" is since=yesterday until=yesterday). Deterministic, no model involved. Returns the sessions "+
			"active in the window (title, times, first prompt, final text, outcome kinds, tokens, cost), and merged over "+
			"every session of the window: files changed, commits with messages, PRs, the last outcome of each test and "+
			"build command, open todos of the newest task list, unresolved failures (failing calls not followed by an ok "+
			"run of the same tool on the same target), usage, coverage and gaps. Call it first when picking up work; "+
			"drill into one session with session_recap or tail_agent_log."+dataNotice,
		[]bound{intBound[SummarizeArgs]("limit", 1, 50, 10, func(a *SummarizeArgs) **int { return &a.Limit })},
		func(ctx context.Context, a SummarizeArgs) (SummarizeOut, error) {
			since := a.Since
			if strings.TrimSpace(since) == "" {
				since = "24h"
			}
			snap, tr, err := d.window(ctx, since, a.Until)
			if err != nil {
				return SummarizeOut{}, err
			}
			if err := logs.CheckAgent(a.Agent); err != nil {
				return SummarizeOut{}, err
			}
			var all []*logs.Session
			for _, s := range snap.Sessions {
				if logs.MatchRepo(s, a.Repo) && logs.MatchAgent(s, a.Agent) && tr.Overlaps(s.Start, s.End) {
					all = append(all, s)
				}
			}
			scope := a.Repo
			if a.Agent != "" || a.Machine != "" {
				scope += "\x00" + a.Agent + "\x00" + a.Machine // a cursor is only good for the filters it came with
			}
			filter := workFilter(scope, since, a.Until)
			from, err := pageStart(all, a.Cursor, filter)
			if err != nil {
				return SummarizeOut{}, err
			}
			limit := *a.Limit
			page := all[from:min(len(all), from+limit)]
			full := workLevels[0]
			w, err := snap.SummarizeWork(ctx, logs.WorkQuery{Sessions: all, Page: page,
				MaxCommits: full.commits, MaxChecks: full.checks, MaxUnresolved: full.unresolved, MaxFiles: full.files})
			if err != nil {
				return SummarizeOut{}, err
			}
			return fitWork(snap, tr, w, all, from, filter, summarizeBudget(limit))
		})
	spec.Tool.Meta = &mcp.Meta{AdditionalFields: map[string]any{
		"anthropic/alwaysLoad": true,
		"anthropic/searchHint": "handoff summary of recent work: what was I doing yesterday, files changed, commits, tests, todos",
	}}
	return spec
}

// fitWork renders the answer so that its JSON, as it leaves (redacted), fits
// the budget. It tries, in order: the whole page at the first two levels;
// fewer sessions at the second level (the rest are reached by next_cursor,
// never lost); then the smaller levels with one session. The last try is
// returned even if it does not fit (it cannot happen with the caps above).
func fitWork(snap *logs.Snapshot, tr logs.TimeRange, w *logs.Work, all []*logs.Session, from int, filter uint32, budget int) (SummarizeOut, error) {
	type try struct{ level, sessions int }
	n := len(w.Page)
	tries := []try{{0, n}, {1, n}}
	for k := n - 1; k >= 1; k-- {
		tries = append(tries, try{1, k})
	}
	for l := 2; l < len(workLevels); l++ {
		tries = append(tries, try{l, min(n, 1)})
	}
	var out SummarizeOut
	for _, t := range tries {
		out = renderWork(snap, tr, w, all, from, t.sessions, workLevels[t.level], filter)
		b, err := leave(out)
		if err != nil {
			return out, err
		}
		if len(b) <= budget {
			break
		}
	}
	return out, nil
}

// renderWork maps w onto the answer, showing n sessions of the page, with caps.
func renderWork(snap *logs.Snapshot, tr logs.TimeRange, w *logs.Work, all []*logs.Session, from, n int, caps workCaps, filter uint32) SummarizeOut {
	out := SummarizeOut{Since: rfc(tr.Since), Until: rfc(tr.Until), Timezone: snap.Config().Location.String(),
		SessionsTotal: len(all), Usage: usageBlock(w.Usage), CostBasis: costBasis,
		CoverageFrom: rfcTime(snap.CoverageFrom()), LogRootNote: rootNote(snap),
		Sessions: []WorkSessionItem{}, FilesChanged: []WorkFileItem{}, Commits: []WorkCommit{}, PRs: []WorkPR{},
		TestsAndBuilds: []WorkCheck{}, OpenTodos: []WorkTodo{}, UnresolvedFailures: []WorkFailure{}}
	for _, ws := range w.Page[:n] {
		s := ws.Session
		item := WorkSessionItem{SessionID: s.ID, Repo: s.Repo, GitBranch: name(s.GitBranch),
			Start: rfc(s.Start), End: rfc(s.End), IsLive: snap.IsLive(s), FirstPrompt: text(s.FirstPrompt(), caps.prompt),
			FinalAssistantText: text(ws.FinalText, caps.final), Outcomes: outcomeKinds(snap, s),
			TotalTokens: s.Usage.Total.Total(), Cost: round6(s.Usage.Total.Cost.USD())}
		if s.Title != s.FirstPrompt() {
			item.Title = text(s.Title, caps.title)
		}
		out.Sessions = append(out.Sessions, item)
	}
	if next := from + n; next < len(all) {
		out.NextCursor = workCursor(all[next-1], filter)
	}
	out.FilesChangedTotal = w.FilesTotal
	for _, f := range w.Files[:min(len(w.Files), caps.files)] {
		item := WorkFileItem{Path: text(f.Path, caps.path), Sessions: []string{}, Edits: f.Edits, Last: rfc(f.Last)}
		for _, s := range f.Sessions[:min(len(f.Sessions), caps.fileSessions)] {
			item.Sessions = append(item.Sessions, s.ID)
		}
		if len(f.Sessions) > len(item.Sessions) {
			item.SessionsTotal = len(f.Sessions)
		}
		out.FilesChanged = append(out.FilesChanged, item)
	}
	out.CommitsTotal = len(w.Commits)
	for _, c := range w.Commits[:min(len(w.Commits), caps.commits)] {
		item := WorkCommit{SessionID: c.Session.ID, ToolUseID: c.ID, Timestamp: rfc(c.Call.Time),
			Message: text(c.Message, caps.message), Outcome: c.Call.Outcome(snap.IsLive(c.Session))}
		if item.Message == "" {
			item.Command = text(c.Command, caps.excerpt)
		}
		out.Commits = append(out.Commits, item)
	}
	out.PRsTotal = len(w.PRs)
	for _, p := range w.PRs[:min(len(w.PRs), caps.prs)] {
		out.PRs = append(out.PRs, WorkPR{URL: text(p.URL, caps.path), SessionID: p.Session.ID, ToolUseID: p.ID})
	}
	out.TestsAndBuildsTotal = len(w.Checks)
	for _, c := range w.Checks[:min(len(w.Checks), caps.checks)] {
		out.TestsAndBuilds = append(out.TestsAndBuilds, WorkCheck{Command: text(c.Target, caps.excerpt), Kind: checkKind(c.Call),
			Outcome: passFail(c.Call), SessionID: c.Session.ID, ToolUseID: c.ID, Timestamp: rfc(c.Call.Time)})
	}
	out.OpenTodosTotal = len(w.Todos)
	if w.TodoSession != nil {
		out.OpenTodosSessionID, out.OpenTodosToolUseID = w.TodoSession.ID, w.TodoID
	}
	for _, t := range w.Todos[:min(len(w.Todos), caps.todos)] {
		out.OpenTodos = append(out.OpenTodos, WorkTodo{Text: text(t.Text, caps.excerpt), Status: name(t.Status)})
	}
	out.UnresolvedFailuresTotal = len(w.Unresolved)
	for _, u := range w.Unresolved[:min(len(w.Unresolved), caps.unresolved)] {
		out.UnresolvedFailures = append(out.UnresolvedFailures, WorkFailure{SessionID: u.Session.ID, ToolUseID: u.ID,
			ToolName: name(u.Call.Name()), Timestamp: rfc(u.Call.Time), Source: source(u.Call.Sidechain),
			InputExcerpt: text(u.Input, caps.excerpt), ErrorExcerpt: text(u.Result, caps.excerpt)})
	}
	out.Truncated = out.NextCursor != "" || len(out.FilesChanged) < out.FilesChangedTotal || len(out.Commits) < out.CommitsTotal ||
		len(out.PRs) < out.PRsTotal || len(out.TestsAndBuilds) < out.TestsAndBuildsTotal ||
		len(out.OpenTodos) < out.OpenTodosTotal || len(out.UnresolvedFailures) < out.UnresolvedFailuresTotal
	out.Gaps = workGaps(snap, tr, all)
	return out
}

func checkKind(c logs.Call) string {
	test, build := c.Kinds.Has(logs.CommandTest), c.Kinds.Has(logs.CommandBuild)
	switch {
	case test && build:
		return "build_and_test"
	case test:
		return "test"
	}
	return "build"
}

// passFail names a test or build run's outcome.
func passFail(c logs.Call) string {
	if c.Outcome(false) == logs.OutcomeOK {
		return "passed"
	}
	return "failed"
}

// workGaps says what the summary cannot know.
func workGaps(snap *logs.Snapshot, tr logs.TimeRange, all []*logs.Session) []string {
	gaps := []string{}
	if len(all) == 0 {
		return append(gaps, "no session was active in the window; try an earlier since or another repo spelling")
	}
	beyond, live, unverified := 0, 0, 0
	for _, s := range all {
		if (tr.Since != 0 && s.Start < tr.Since) || (tr.Until != 0 && s.End >= tr.Until) {
			beyond++
		}
		if snap.IsLive(s) {
			live++
		}
		if s.Unverified {
			unverified++
		}
	}
	if beyond > 0 {
		gaps = append(gaps, sessionsSay(beyond, "extends", "extend")+" beyond the window: each is summarized whole "+
			"(its files, commits, checks, failures and usage), not only its part inside the window")
	}
	if live > 0 {
		gaps = append(gaps, sessionsSay(live, "is", "are")+" live: this summary may already be out of date")
	}
	if unverified > 0 {
		gaps = append(gaps, sessionsSay(unverified, "has", "have")+" transcripts of an unexpected shape (schema unverified): some of their facts may be missing")
	}
	if from := snap.CoverageFrom(); !from.IsZero() && tr.Since != 0 && tr.Since < from.UnixMilli()-24*3600*1000 {
		gaps = append(gaps, "the window starts more than a day before the oldest history on disk ("+rfcTime(from)+
			"): Claude Code deletes transcripts after 30 days by default")
	}
	return append(gaps, "files changed through shell commands (sed, git, scripts) are not listed")
}

// sessionsSay writes "1 session extends" or "3 sessions extend".
func sessionsSay(n int, one, many string) string {
	if n == 1 {
		return "1 session " + one
	}
	return fmt.Sprintf("%d sessions %s", n, many)
}

// workFilter fingerprints the arguments a cursor belongs to.
func workFilter(repo, since, until string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(strings.ToLower(strings.TrimSpace(repo)) + "\x00" + strings.TrimSpace(since) + "\x00" + strings.TrimSpace(until)))
	return h.Sum32()
}

// keyHash identifies a session by its project folder's name and its id
// (not by the folder's path: a cursor outlives a moved root).
func keyHash(s *logs.Session) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s.Project + "/" + s.ID))
	return h.Sum32()
}

// workCursor is the opaque position after session last: its end, a hash of
// its key, and the fingerprint of the filters.
func workCursor(last *logs.Session, filter uint32) string {
	return fmt.Sprintf("sw1.%x.%08x.%08x", last.End, keyHash(last), filter)
}

// pageStart finds where the page after a cursor starts in all (most recently
// active first): after the session the cursor names, or, when that session
// moved (it grew since), at the first session that ended before it.
func pageStart(all []*logs.Session, cursor string, filter uint32) (int, error) {
	if cursor == "" {
		return 0, nil
	}
	bad := logs.InvalidArgument("cursor", "cursor is not a next_cursor of summarize_work with these repo, since and until arguments; "+
		"call again without cursor")
	parts := strings.Split(cursor, ".")
	if len(parts) != 4 || parts[0] != "sw1" {
		return 0, bad
	}
	end, err1 := strconv.ParseInt(parts[1], 16, 64)
	key, err2 := strconv.ParseUint(parts[2], 16, 32)
	f, err3 := strconv.ParseUint(parts[3], 16, 32)
	if err1 != nil || err2 != nil || err3 != nil || uint32(f) != filter {
		return 0, bad
	}
	for i, s := range all {
		if s.End == end && keyHash(s) == uint32(key) {
			return i + 1, nil
		}
	}
	for i, s := range all {
		if s.End < end {
			return i, nil
		}
	}
	return len(all), nil
}
