// Package codex reads OpenAI Codex CLI rollouts ($CODEX_HOME/sessions and
// archived_sessions): discovery of the files, a line reader shaped like
// bufio.Scanner, decoding, and the counting rules of
// shared/docs/codex-format.md (§14), folded into one Rollout per file.
//
// It knows the Codex format and nothing else: it does not import the MCP
// layer or the Claude Code reader, and it prices nothing. Every file it opens
// passes one containment check (openInside).
package codex
