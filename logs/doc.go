// Package logs is the agent-neutral history: per-file summaries and their
// cache (Store), sessions and the deduplication of responses and calls
// across files (Snapshot), session resolution, and the queries, one file per
// question.
//
// The layers, bottom up:
//
//   - transcript: containment (Root), file identity, the line scanner, the
//     neutral Entry. Agent readers (claudecode) discover files and turn lines
//     into Entries; logs never sees a format's own field names.
//   - summary.go folds Entries into a FileSummary (one pass per file, extended
//     from its offset when the file grows); store.go decides per file whether
//     to keep, extend or re-read it; snapshot.go groups files into Sessions and
//     attributes every response to the session where it first appeared
//     (incremental.go does the same for an append without a full rebuild).
//   - The queries read a Snapshot: usage.go (usage_report), pacing.go,
//     coverage.go, files.go (file_activity), calls.go (outcomes, failing
//     calls, call details), tail.go, recap.go, search.go, secrets.go,
//     recent.go (a cold list that reads only the newest files).
//   - errors.go and args.go hold the typed errors and argument parsing the
//     tools layer maps onto MCP results.
//
// Strings in the results are raw text from the logs; they reach a client
// only through the tools layer's single redacting boundary.
package logs
