package tools

// constructors are the tools, in the order they are listed to clients.
var constructors = []struct {
	name string
	make func(Deps) Spec
}{
	{"list_recent_sessions", ListRecentSessions},
	{"summarize_work", SummarizeWork},
	{"tail_agent_log", TailAgentLog},
	{"summarize_tool_calls", SummarizeToolCalls},
	{"session_recap", SessionRecap},
	{"search_transcripts", SearchTranscripts},
	{"file_activity", FileActivity},
	{"usage_report", UsageReport},
	{"pacing_window", PacingWindow},
	{"coverage_stats", CoverageStats},
	{"scan_secrets", ScanSecrets},
}

// All returns every tool, in the order they are listed to clients.
func All(d Deps) []Spec {
	out := make([]Spec, 0, len(constructors))
	for _, c := range constructors {
		out = append(out, c.make(d))
	}
	return out
}

// Named returns the tool called name. It builds that tool alone: building
// every tool's schemas costs a one-shot process (agent-activity call) about
// 9 ms before it reads anything, one tool's about 1 ms.
func Named(d Deps, name string) (Spec, bool) {
	for _, c := range constructors {
		if c.name == name {
			return c.make(d), true
		}
	}
	return Spec{}, false
}

// Names lists the tools' names, in the order they are listed to clients.
func Names() []string {
	out := make([]string, 0, len(constructors))
	for _, c := range constructors {
		out = append(out, c.name)
	}
	return out
}
