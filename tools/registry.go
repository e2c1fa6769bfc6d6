package tools

// All returns every tool, in the order they are listed to clients.
func All(d Deps) []Spec {
	return []Spec{
		ListRecentSessions(d),
		SummarizeWork(d),
		TailAgentLog(d),
		SummarizeToolCalls(d),
		SessionRecap(d),
		SearchTranscripts(d),
		FileActivity(d),
		UsageReport(d),
		PacingWindow(d),
		CoverageStats(d),
		ScanSecrets(d),
	}
}
