package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agent-activity/agent-activity/logs"
)

// rootEntry is one entry of AGENT_ACTIVITY_LOG_ROOT: a path, and the machine
// it holds when the entry was written label=path ("" when it was not).
type rootEntry struct {
	Label, Path string
}

// parseRootList reads AGENT_ACTIVITY_LOG_ROOT: entries separated by sep (the
// OS path-list separator: ':' on Unix, ';' on Windows, where, as
// filepath.SplitList does, a double-quoted stretch may hold ';'). An entry
// "laptop=~/.claude/projects" labels its root; the part before the first '='
// is taken for a label only when it is one (letters, digits, '-', '_'), so
// C:\Users\me\.claude\projects and /mnt/a=b/projects stay paths. A part before
// '=' that is neither a label nor path-like ("lap top=...", "=...") and a
// label with nothing after it are errors: one line naming the entry.
func parseRootList(list string, sep rune) ([]rootEntry, error) {
	var out []rootEntry
	for _, raw := range splitRootList(list, sep) {
		entry := strings.TrimSpace(raw)
		if entry == "" {
			continue
		}
		e := rootEntry{Path: entry}
		if before, after, ok := strings.Cut(entry, "="); ok {
			label := strings.TrimSpace(before)
			switch {
			case logs.ValidMachineLabel(label):
				e = rootEntry{Label: label, Path: strings.TrimSpace(after)}
				if e.Path == "" {
					return nil, fmt.Errorf("AGENT_ACTIVITY_LOG_ROOT entry %q has a label but no path (write label=path)", entry)
				}
			case !pathLike(label):
				return nil, fmt.Errorf("AGENT_ACTIVITY_LOG_ROOT entry %q: %q is not a machine label (1 to 64 letters, digits, - or _, as in laptop=~/.claude/projects)", entry, label)
			}
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("AGENT_ACTIVITY_LOG_ROOT is empty")
	}
	return out, nil
}

// pathLike reports whether s, found before an '=', reads as the start of a
// path rather than as a mistyped label.
func pathLike(s string) bool {
	return strings.ContainsAny(s, `/\:`) || strings.HasPrefix(s, "~") || strings.HasPrefix(s, ".")
}

// splitRootList splits at sep; with ';' (Windows) double quotes group, and
// are dropped, as in filepath.SplitList.
func splitRootList(list string, sep rune) []string {
	if sep != ';' {
		return strings.Split(list, string(sep))
	}
	var parts []string
	var cur strings.Builder
	quoted := false
	for _, c := range list {
		switch {
		case c == '"':
			quoted = !quoted
		case c == sep && !quoted:
			parts = append(parts, cur.String())
			cur.Reset()
		default:
			cur.WriteRune(c)
		}
	}
	return append(parts, cur.String())
}

// logRoots turns the entries into the roots and labels of logs.Config: each
// path with ~ expanded and cleaned. One path given two labels is an error.
func logRoots(entries []rootEntry) ([]string, map[string]string, error) {
	var roots []string
	labels := map[string]string{}
	for _, e := range entries {
		p := filepath.Clean(expandHome(e.Path))
		if old, seen := labels[p]; seen && old != e.Label {
			return nil, nil, fmt.Errorf("AGENT_ACTIVITY_LOG_ROOT lists %s twice, as machine %q and as %q", p, machineName(old), machineName(e.Label))
		}
		labels[p] = e.Label
		roots = append(roots, p)
	}
	for p, l := range labels {
		if l == "" {
			delete(labels, p)
		}
	}
	return roots, labels, nil
}

func machineName(label string) string {
	if label == "" {
		return logs.LocalMachine
	}
	return label
}
