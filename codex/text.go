package codex

import (
	"strings"
)

// ideRequestMarker ends the context block the VS Code extension and Codex
// Desktop put before a typed prompt (§8).
const ideRequestMarker = "## My request for Codex:"

// promptText is the typed part of a user_message: everything after the IDE
// wrapper's marker when there is one, trimmed.
func promptText(s string) string {
	if i := strings.Index(s, ideRequestMarker); i >= 0 {
		s = s[i+len(ideRequestMarker):]
	}
	return strings.TrimSpace(s)
}

// injectedPrefixes name the injected texts of §8 by their opening.
var injectedPrefixes = []struct{ prefix, name string }{
	{"# AGENTS.md instructions", "agents_md"},
	{"<environment_context>", "environment_context"},
	{"<user_instructions>", "user_instructions"},
	{"<recommended_plugins>", "recommended_plugins"},
	{"<turn_aborted>", "turn_aborted"},
	{"<skill>", "skill"},
	{"<user_shell_command>", "user_shell_command"},
	{"<user_action>", "user_action"},
	{"<permissions instructions>", "permissions_instructions"},
	{"<collaboration_mode>", "collaboration_mode"},
	{"<multi_agent_mode>", "multi_agent_mode"},
	{"<model_switch>", "model_switch"},
	{"<skills_instructions>", "skills_instructions"},
	{"<personality_spec>", "personality_spec"},
	{"<developer_instructions>", "developer_instructions"},
}

// injectedKind names injected text by its opening (§8); "" when it is not
// one of the known forms (a history copy of a prompt, or something new).
func injectedKind(text string) string {
	t := strings.TrimLeft(text, " \t\r\n")
	for _, p := range injectedPrefixes {
		if strings.HasPrefix(t, p.prefix) {
			return p.name
		}
	}
	return ""
}

// excerpt cuts s to at most max runes without copying (it may alias the line
// buffer); the cut is not at a word boundary.
func excerpt(s string, max int) string {
	if len(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if n == max {
			return s[:i]
		}
		n++
	}
	return s
}
