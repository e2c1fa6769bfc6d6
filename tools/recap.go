package tools

import (
	"context"

	"github.com/agent-activity/agent-activity/logs"
)

// RecapArgs are the arguments of session_recap.
type RecapArgs struct {
	SessionArgs
	DetailArg
	MachineArg
}

// RecapFile is a file the session changed.
type RecapFile struct {
	Path      string   `json:"path"`
	Tools     []string `json:"tools"`
	Count     int      `json:"count"`
	Last      string   `json:"last,omitempty"`
	SessionID string   `json:"session_id,omitempty" jsonschema:"absent in answers about one session"`
}

// RecapCommand is a shell command with its outcome.
type RecapCommand struct {
	ToolUseID string `json:"tool_use_id,omitempty"`
	Command   string `json:"command"`
	Outcome   string `json:"outcome"`
	Timestamp string `json:"timestamp,omitempty"`
	Source    string `json:"source"`
	SessionID string `json:"session_id,omitempty" jsonschema:"absent in answers about one session"`
}

// RecapTodo is an open todo item.
type RecapTodo struct {
	Text      string `json:"text"`
	Status    string `json:"status"`
	SessionID string `json:"session_id,omitempty" jsonschema:"absent in answers about one session"`
}

// RecapSubagent is one subagent of the session.
type RecapSubagent struct {
	File        string     `json:"file" jsonschema:"path relative to the log root"`
	AgentID     string     `json:"agent_id,omitempty"`
	AgentType   string     `json:"agent_type,omitempty"`
	Description string     `json:"description,omitempty"`
	FirstPrompt string     `json:"first_prompt,omitempty"`
	Usage       UsageBlock `json:"usage"`
	SessionID   string     `json:"session_id,omitempty" jsonschema:"absent in answers about one session"`
}

// RecapOut is the answer of session_recap. Lists and text that are empty
// are left out.
type RecapOut struct {
	SessionID          string            `json:"session_id"`
	Agent              string            `json:"agent" jsonschema:"claude-code or codex"`
	Repo               string            `json:"repo"`
	Cwd                string            `json:"cwd,omitempty"`
	GitBranch          string            `json:"git_branch,omitempty"`
	Title              string            `json:"title,omitempty"`
	Start              string            `json:"start,omitempty"`
	End                string            `json:"end,omitempty"`
	DurationSeconds    float64           `json:"duration_seconds"`
	IsLive             bool              `json:"is_live"`
	FirstPrompt        string            `json:"first_prompt,omitempty"`
	LastPrompts        []string          `json:"last_prompts,omitempty" jsonschema:"the last (at most 5) human prompts, oldest first"`
	PromptCount        int               `json:"prompt_count"`
	FinalAssistantText string            `json:"final_assistant_text,omitempty"`
	FilesChanged       []RecapFile       `json:"files_changed,omitempty"`
	FilesTotal         int               `json:"files_changed_total,omitempty"`
	FilesTruncated     bool              `json:"files_changed_truncated,omitempty"`
	Commands           []RecapCommand    `json:"commands,omitempty" jsonschema:"the last (at most 20) Bash/PowerShell commands, oldest first"`
	CommandTotal       int               `json:"command_total"`
	FailingCalls       []FailingCall     `json:"failing_calls,omitempty" jsonschema:"the newest (at most 20) failing calls, oldest first"`
	FailingTotal       int               `json:"failing_total"`
	OpenTodos          []RecapTodo       `json:"open_todos,omitempty"`
	Summaries          []string          `json:"summaries,omitempty"`
	Compactions        int               `json:"compactions"`
	Subagents          []RecapSubagent   `json:"subagents,omitempty"`
	SubagentsTotal     int               `json:"subagents_total,omitempty"`
	PRLinks            []string          `json:"pr_links,omitempty"`
	Outcomes           []OutcomeEvidence `json:"outcomes,omitempty" jsonschema:"what the session achieved, each with the call or line that decided it"`
	Recoveries         []RecoveryItem    `json:"recoveries,omitempty" jsonschema:"failing calls followed later by an ok call of the same tool on the same target (Bash: the same command; file tools: the same file; others: the same input)"`
	Usage              SessionUsageBlock `json:"usage"`
	Gaps               []string          `json:"gaps" jsonschema:"what this recap could not know"`
	Truncated          bool              `json:"truncated,omitempty" jsonschema:"true when lists were shortened to fit the answer budget (the totals count everything)"`
	CostBasis          string            `json:"cost_basis"`
}

func (o *RecapOut) cutLen() int {
	return max(len(o.LastPrompts), len(o.FilesChanged), len(o.Commands), len(o.FailingCalls), len(o.OpenTodos),
		len(o.Summaries), len(o.Subagents), len(o.PRLinks), len(o.Recoveries), len(o.Usage.ByModel))
}

// keep keeps the newest n prompts, commands and failing calls and the first
// n of every other list.
func (o *RecapOut) keep(n int) {
	o.LastPrompts, o.Commands, o.FailingCalls = lastN(o.LastPrompts, n), lastN(o.Commands, n), lastN(o.FailingCalls, n)
	o.FilesChanged, o.OpenTodos, o.Summaries = firstN(o.FilesChanged, n), firstN(o.OpenTodos, n), firstN(o.Summaries, n)
	o.Subagents, o.PRLinks, o.Recoveries = firstN(o.Subagents, n), firstN(o.PRLinks, n), lastN(o.Recoveries, n)
	o.Usage.topModels(n)
	if len(o.FilesChanged) < o.FilesTotal {
		o.FilesTruncated = true
	}
	o.Truncated = true
	o.Gaps = append(o.Gaps[:len(o.Gaps):len(o.Gaps)], "lists were shortened to fit the answer budget; detail: true allows a longer answer")
}

func firstN[T any](xs []T, n int) []T { return xs[:min(n, len(xs))] }
func lastN[T any](xs []T, n int) []T  { return xs[len(xs)-min(n, len(xs)):] }

const (
	maxRecapFiles     = 50
	maxRecapFailing   = 20
	maxRecapSubagents = 30
)

// SessionRecap is the session_recap tool.
func SessionRecap(d Deps) Spec {
	return define("session_recap", "Recap a session (handoff note)",
		"A deterministic handoff note for one session, built from its transcript without any model: first and "+
			"last prompts, the final assistant text, files changed, the last shell commands with outcomes, failing "+
			"calls, open todos, titles and summaries, compactions, subagents, PR links, outcomes with evidence and recoveries, usage, and gaps (what the "+
			"recap could not know). Use it to pick up where a previous session stopped; find the session with "+
			"list_recent_sessions or pass \"latest\"."+dataNotice,
		nil,
		func(ctx context.Context, a RecapArgs) (RecapOut, error) {
			snap, s, err := d.resolve(ctx, a.Session, a.resolveOptions())
			if err != nil {
				return RecapOut{}, err
			}
			return recap(ctx, snap, s, a.Detail)
		}).withHints("session recap handoff summary what happened previous session files changed commands todos", false)
}

// recap is the handoff note of s, for the tool and the recap resource.
func recap(ctx context.Context, snap *logs.Snapshot, s *logs.Session, detail bool) (RecapOut, error) {
	r, err := snap.Recap(ctx, s, maxRecapFailing)
	if err != nil {
		return RecapOut{}, err
	}
	live := snap.IsLive(s)
	out := RecapOut{SessionID: s.ID, Agent: s.Agent, Repo: clip(s.Repo), Cwd: clip(s.Cwd), GitBranch: name(s.GitBranch), Title: text(s.Title, 200),
		Start: rfc(s.Start), End: rfc(s.End), IsLive: live, FirstPrompt: text(s.FirstPrompt(), 500),
		PromptCount: r.PromptCount, FinalAssistantText: text(r.FinalText, 2000), CommandTotal: r.CommandTotal,
		Compactions: r.Compactions, Usage: sessionUsage(s.Usage, detail), CostBasis: costBasis,
		FilesTotal: len(r.Files), SubagentsTotal: len(r.Subagents)}
	if s.Start != 0 && s.End != 0 {
		out.DurationSeconds = float64(s.End-s.Start) / 1000
	}
	for _, p := range lastN(r.Prompts, 5) {
		out.LastPrompts = append(out.LastPrompts, text(p, 500))
	}
	for i, f := range r.Files {
		if i == maxRecapFiles {
			out.FilesTruncated = true
			break
		}
		out.FilesChanged = append(out.FilesChanged, RecapFile{Path: text(f.Path, 500), Tools: f.Tools, Count: f.Count, Last: rfc(f.Last)})
	}
	for _, c := range r.Commands {
		out.Commands = append(out.Commands, RecapCommand{ToolUseID: clip(c.ToolUseID), Command: text(c.Text, 300), Outcome: c.Outcome,
			Timestamp: rfc(c.Time), Source: source(c.Sidechain)})
	}
	out.FailingCalls, out.FailingTotal = failingItems(r.Failing, r.Details, live), r.FailingTotal
	for _, t := range r.Todos {
		out.OpenTodos = append(out.OpenTodos, RecapTodo{Text: text(t.Text, 300), Status: name(t.Status)})
	}
	for _, sm := range r.Summaries {
		out.Summaries = append(out.Summaries, text(sm, 300))
	}
	for i, sa := range r.Subagents {
		if i == maxRecapSubagents {
			break
		}
		out.Subagents = append(out.Subagents, RecapSubagent{File: clip(sa.File), AgentID: clip(sa.AgentID), AgentType: name(sa.AgentType),
			Description: text(sa.Description, 200), FirstPrompt: text(sa.FirstPrompt, 300), Usage: usageBlock(sa.Usage)})
	}
	for _, l := range r.PRLinks {
		out.PRLinks = append(out.PRLinks, text(l, 300))
	}
	out.Outcomes, out.Recoveries = outcomeEvidence(s, r), recoveryItems(r)
	out.Gaps = recapGaps(snap, s, r, live, len(r.Subagents) > maxRecapSubagents, r.FailingTotal > len(r.Failing))
	return out, nil
}

func recapGaps(snap *logs.Snapshot, s *logs.Session, r *logs.Recap, live, subTrunc, failTrunc bool) []string {
	gaps := []string{}
	if r.EndedOnAPIError {
		gaps = append(gaps, "the session ended on an API error: the last reply is not the model's; final_assistant_text is the last real model text")
	}
	if s.Main == nil {
		gaps = append(gaps, "the main transcript is missing; only subagent files were found")
	}
	if r.FinalText == "" {
		gaps = append(gaps, "no final assistant text: the session ended on a tool call, an error or an interrupt")
	}
	if r.Compactions > 0 {
		gaps = append(gaps, "the conversation was compacted; earlier context was summarized for the model")
	}
	if live {
		gaps = append(gaps, "the session is live: this recap may already be out of date")
	}
	st := logs.CountCalls(s, live)
	if st.Total.Pending > 0 {
		gaps = append(gaps, "some tool calls have no result (the session stopped before they finished)")
	}
	if n := s.SkippedLines(live); n > 0 {
		gaps = append(gaps, "some lines could not be read and were skipped")
	}
	if s.Unverified {
		gaps = append(gaps, "the transcript does not have the expected shape (schema unverified); fields may be missing")
	}
	if r.PromptCount > 5 {
		gaps = append(gaps, "only the last 5 prompts are listed")
	}
	if r.CommandTotal > len(r.Commands) {
		gaps = append(gaps, "only the last 20 shell commands are listed")
	}
	if failTrunc {
		gaps = append(gaps, "only the newest 20 failing calls are listed")
	}
	if subTrunc {
		gaps = append(gaps, "only the first 30 subagents are listed")
	}
	gaps = append(gaps, "files changed through shell commands (sed, git, scripts) are not listed")
	return gaps
}
