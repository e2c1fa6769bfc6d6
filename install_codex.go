package main

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"
)

// Codex keeps its MCP servers in config.toml as [mcp_servers.<name>] tables.
// The file is the user's: install appends our table and touches no other
// byte, uninstall cuts out exactly the lines of our table; both parse the
// result and check that every other setting reads as before, so a file whose
// layout they cannot edit safely is refused unchanged, with the reason.

// parseTOML decodes a config, refusing a malformed one.
func parseTOML(config []byte) (map[string]any, error) {
	m := map[string]any{}
	if _, err := toml.Decode(string(config), &m); err != nil {
		return nil, fmt.Errorf("not valid TOML (%v); fix it by hand first", firstLine(err.Error()))
	}
	return m, nil
}

// ourEntry returns mcp_servers.agent-activity of a decoded config.
func ourEntry(m map[string]any) (entry map[string]any, present bool, err error) {
	servers, ok := m["mcp_servers"]
	if !ok {
		return nil, false, nil
	}
	sm, ok := servers.(map[string]any)
	if !ok {
		return nil, false, errors.New("mcp_servers is not a table; fix it by hand first")
	}
	e, ok := sm[serverName]
	if !ok {
		return nil, false, nil
	}
	if entry, ok = e.(map[string]any); !ok {
		return nil, true, fmt.Errorf("mcp_servers.%s is not a table; fix it by hand first", serverName)
	}
	return entry, true, nil
}

// addCodexServer returns config with an [mcp_servers.agent-activity] table
// running exe appended, and a note. A config that already runs exe with no
// arguments is returned as it is; one whose agent-activity entry says
// anything else is refused, with what it says: it is the user's to change.
func addCodexServer(config []byte, exe string) ([]byte, string, error) {
	before, err := parseTOML(config)
	if err != nil {
		return nil, "", err
	}
	entry, present, err := ourEntry(before)
	if err != nil {
		return nil, "", err
	}
	if present {
		command, _ := entry["command"].(string)
		args, isList := entry["args"].([]any)
		if command == exe && (entry["args"] == nil || isList && len(args) == 0) {
			return config, "", nil
		}
		return nil, "", fmt.Errorf("[mcp_servers.%s] is already there with command %q; refusing to change an entry "+
			"someone wrote (run `agent-activity uninstall --client codex` first, or edit it by hand)", serverName, command)
	}
	var b bytes.Buffer
	b.Write(config)
	if len(config) > 0 {
		if config[len(config)-1] != '\n' {
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "[mcp_servers.%s]\ncommand = %s\nargs = []\n", serverName, tomlString(exe))
	out := b.Bytes()
	after, err := parseTOML(out)
	if err != nil {
		return nil, "", fmt.Errorf("appending a table would not leave valid TOML (%v); add it by hand", err)
	}
	got, _, _ := ourEntry(after)
	delete(after["mcp_servers"].(map[string]any), serverName)
	if len(after["mcp_servers"].(map[string]any)) == 0 {
		if _, had := before["mcp_servers"]; !had {
			delete(after, "mcp_servers")
		}
	}
	if got["command"] != exe || !reflect.DeepEqual(after, before) {
		return nil, "", errors.New("appending a table would change how other settings read; add it by hand")
	}
	return out, "appended an [mcp_servers." + serverName + "] table; nothing else changed", nil
}

// ourHeader is the header line of our table, in any of TOML's spellings of
// the key; a table below it ([mcp_servers.agent-activity.env]) is ours too.
var ourHeader = regexp.MustCompile(`^\s*\[\s*mcp_servers\s*\.\s*(?:agent-activity|"agent-activity"|'agent-activity')\s*(\.[^\]]*)?\]\s*(#.*)?$`)

// tableHeader is any table header line ([x] or [[x]]).
var tableHeader = regexp.MustCompile(`^\s*\[`)

// removeCodexServer returns config without our table's lines (and the blank
// line install put before it); config itself when there is no entry. An
// entry written some other way (an inline table, dotted keys) is refused:
// cutting it out is an edit for a human.
func removeCodexServer(config []byte) ([]byte, string, error) {
	before, err := parseTOML(config)
	if err != nil {
		return nil, "", err
	}
	if _, present, err := ourEntry(before); err != nil || !present {
		return config, "", err
	}
	lines := strings.SplitAfter(string(config), "\n")
	var kept []string
	inOurs, found, dropped := false, false, false
	for _, l := range lines {
		switch {
		case ourHeader.MatchString(strings.TrimRight(l, "\r\n")):
			// The blank line before our table goes with it (install wrote
			// it); when a table follows ours, the blank before that stays.
			if n := len(kept); !inOurs && n > 0 && strings.TrimSpace(kept[n-1]) == "" {
				kept, dropped = kept[:n-1], true
			}
			inOurs, found = true, true
			continue
		case tableHeader.MatchString(l) && inOurs:
			inOurs = false
			if dropped {
				kept, dropped = append(kept, "\n"), false
			}
		}
		if !inOurs {
			kept = append(kept, l)
		}
	}
	out := []byte(strings.Join(kept, ""))
	if !found {
		return nil, "", fmt.Errorf("mcp_servers.%s is not written as a [mcp_servers.%s] table; remove it by hand", serverName, serverName)
	}
	after, err := parseTOML(out)
	if err != nil {
		return nil, "", fmt.Errorf("cutting out the table would not leave valid TOML (%v); remove it by hand", err)
	}
	want := before
	servers := want["mcp_servers"].(map[string]any)
	delete(servers, serverName)
	if len(servers) == 0 {
		if _, ok := after["mcp_servers"]; !ok {
			delete(want, "mcp_servers")
		}
	}
	if !reflect.DeepEqual(after, want) {
		return nil, "", errors.New("cutting out the table would change how other settings read; remove it by hand")
	}
	return out, "removed the [mcp_servers." + serverName + "] table; nothing else changed", nil
}

// tomlString writes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
