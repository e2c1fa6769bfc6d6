// Package transcript is the agent-neutral ground every agent's reader stands
// on: the one containment check through which every file and folder is opened
// (Root), per-OS file identity (Stat), the physical-line scanner (Lines), and
// the decoded Entry that an agent's reader yields for each line.
//
// Agent readers (claudecode for Claude Code, later codex for Codex CLI) know an
// on-disk format; they discover their files under a Root, and turn each line
// into an Entry. Everything above them (summaries, sessions, dedup, queries in
// package logs) sees only Entries and never a format's own field names.
package transcript
