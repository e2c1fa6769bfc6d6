// Package benchcalls is the bench's order of tool calls: every tool, at its
// defaults and with every bound at its maximum, as scripts/bench asks a
// server and the tools package's retention benchmark asks a store.
package benchcalls

// Call is a tool's arguments: Defaults asks with its defaults (and what it
// needs), Max with every bound at its maximum (nil: it has no bounds).
type Call struct {
	Tool          string
	Defaults, Max map[string]any
}

// Order lists every tool's arguments, in the bench's order; the session
// tools read session.
func Order(session string) []Call {
	return []Call{
		{"list_recent_sessions", map[string]any{}, map[string]any{"limit": 200, "detail": true}},
		{"summarize_work", map[string]any{}, map[string]any{"since": "30d", "limit": 50}},
		{"tail_agent_log", map[string]any{"session": session}, map[string]any{"session": session, "limit": 1000, "detail": true}},
		{"summarize_tool_calls", map[string]any{"session": session}, map[string]any{"session": session, "limit": 200, "detail": true}},
		{"session_recap", map[string]any{"session": session}, map[string]any{"session": session, "detail": true}},
		{"search_transcripts", map[string]any{"query": "error"}, map[string]any{"query": "error", "limit": 200}},
		{"file_activity", map[string]any{"path": "**/*"}, map[string]any{"path": "**/*", "limit": 500}},
		{"usage_report", map[string]any{}, map[string]any{"group_by": "session,model", "limit": 1000}},
		{"pacing_window", map[string]any{}, map[string]any{"hours": 168}},
		{"coverage_stats", map[string]any{}, nil},
		{"scan_secrets", map[string]any{}, map[string]any{"max_findings": 1000}},
	}
}
