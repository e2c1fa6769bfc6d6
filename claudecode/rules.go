package claudecode

import (
	"strings"

	"github.com/agent-activity/agent-activity/transcript"
)

// The line rules of Claude Code's format: what is a prompt, what a result's
// error means, which tools touch files, how usage fields map onto the
// neutral usage block. SPEC §3 is their source.

// classifyError decides between error and rejected for an is_error result.
func classifyError(text string) transcript.ResultState {
	if strings.HasPrefix(text, "The user doesn't want to proceed with this tool use") ||
		strings.HasPrefix(text, "The user doesn't want to take this action") ||
		strings.Contains(text, "[Request interrupted by user for tool use]") {
		return transcript.ResultRejected
	}
	return transcript.ResultError
}

// nonPromptPrefixes mark user text that a human did not type as a prompt.
var nonPromptPrefixes = []string{
	"<command-name>", "<command-message>", "<command-args>", "<local-command-stdout>",
	"<local-command-stderr>", "<local-command-caveat>", "Caveat: The messages below were generated",
	"This session is being continued from a previous conversation", "<system-reminder>",
	"<task-notification>", "[Request interrupted by user", "<bash-input>", "<bash-stdout>",
	"<bash-stderr>", "<user-memory-input>", "<tool_use_error>",
}

// blocksText joins the text blocks of a line (a user's or the assistant's),
// each trimmed, the empty ones left out, one per line. With d (the
// reader's borrower), a text still quoted is unquoted onto d's buffer,
// where it lives as long as the line (see Reader.fill), instead of into a
// string of its own.
func blocksText(blocks []rawBlock, d *fastDecoder) string {
	var parts []string
	for i := range blocks {
		if b := &blocks[i]; b.Type == "text" {
			var t string
			if d != nil {
				t = d.borrowText(b)
			} else {
				t = b.text()
			}
			if t = strings.TrimSpace(t); t != "" {
				parts = append(parts, t)
			}
		}
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts, "\n")
}

// promptText returns the human text of a user line when it is a real prompt:
// not meta, not a compaction summary, no tool result, and not one of the
// wrappers Claude Code writes on the user's side. d is blocksText's.
func promptText(l *rawLine, blocks []rawBlock, d *fastDecoder) (string, bool) {
	if l.IsMeta || l.IsCompactSummary {
		return "", false
	}
	for _, b := range blocks {
		if b.Type == "tool_result" {
			return "", false
		}
	}
	text := blocksText(blocks, d)
	if text == "" {
		return "", false
	}
	for _, p := range nonPromptPrefixes {
		if strings.HasPrefix(text, p) {
			return "", false
		}
	}
	return text, true
}

// usageOf converts a usage object; negative counts (corrupt or hostile lines)
// are read as 0 so they can never lower a total.
func usageOf(u *rawUsage) transcript.Usage {
	out := transcript.Usage{Input: nonNeg(u.InputTokens), Output: nonNeg(u.OutputTokens), CacheRead: nonNeg(u.CacheReadInputTokens), Fast: u.Speed == "fast"}
	cc := nonNeg(u.CacheCreationInputTokens)
	if u.CacheCreation != nil && (u.CacheCreation.Ephemeral5m != nil || u.CacheCreation.Ephemeral1h != nil) {
		var m5, h1 int64
		if u.CacheCreation.Ephemeral5m != nil {
			m5 = nonNeg(*u.CacheCreation.Ephemeral5m)
		}
		if u.CacheCreation.Ephemeral1h != nil {
			h1 = nonNeg(*u.CacheCreation.Ephemeral1h)
		}
		// A split with a non-zero sum is authoritative, even where the total
		// field is 0 or smaller (Claude Code 2.1.152 writes 0 there). A split
		// of zeros says nothing: the total counts at the 5-minute rate.
		if m5+h1 == 0 {
			m5 = cc
		}
		out.CacheCreate5m, out.CacheCreate1h = m5, h1
	} else {
		out.CacheCreate5m = cc
	}
	return out
}

// advisorsOf returns the advisor iterations of a usage object: a second
// model's usage inside one response.
func advisorsOf(u *rawUsage) []transcript.Advisor {
	var out []transcript.Advisor
	for i := range u.Iterations {
		it := &u.Iterations[i]
		if it.Type != "advisor_message" {
			continue
		}
		out = append(out, transcript.Advisor{Model: it.Model, Usage: usageOf(&it.rawUsage)})
	}
	return out
}

func nonNeg(n int64) int64 {
	if n < 0 {
		return 0
	}
	return n
}

// fileActionOf says how a tool touches the file its input names. MCP tools
// whose last name segment is a built-in file tool act like it.
func fileActionOf(tool string) transcript.FileAction {
	name := tool
	if i := strings.LastIndex(tool, "__"); i >= 0 && strings.HasPrefix(tool, "mcp__") {
		name = tool[i+2:]
	}
	switch name {
	case "Read", "NotebookRead", "read_file":
		return transcript.ActionRead
	case "Edit", "MultiEdit", "NotebookEdit":
		return transcript.ActionEdit
	case "Write", "write_file":
		return transcript.ActionWrite
	}
	return transcript.ActionNone
}

// isShellTool reports whether a tool runs a shell command: Bash, PowerShell,
// and MCP tools whose last name segment is one of them.
func isShellTool(tool string) bool {
	name := tool
	if i := strings.LastIndex(tool, "__"); i >= 0 && strings.HasPrefix(tool, "mcp__") {
		name = tool[i+2:]
	}
	return name == "Bash" || name == "PowerShell"
}

func toolPath(in rawToolInput) string {
	switch {
	case in.FilePath != "":
		return in.FilePath
	case in.NotebookPath != "":
		return in.NotebookPath
	}
	return in.Path
}
