package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// serverName is the key this server is registered under in mcpServers.
const serverName = "agent-activity"

// installOptions is everything install needs from the world, so tests can
// point it at temp directories instead of the real home and binary.
type installOptions struct {
	Client string // claude-code (the default), claude-desktop, cursor or codex
	Scope  string // claude-code: "user" (~/.claude.json) or "project" (./.mcp.json)
	Remove bool   // uninstall: remove our entry instead of adding it
	DryRun bool
	Home   string // the user's home directory
	Cwd    string // the project directory for --scope project
	Exe    string // absolute path of the binary to register

	GOOS      string // the OS whose Claude Desktop path to use ("" = this one)
	AppData   string // %APPDATA% (Windows), where Claude Desktop keeps its config
	CodexHome string // $CODEX_HOME; "" means ~/.codex
}

// clients are the MCP clients install knows, in the order --help lists them.
var clients = []string{"claude-code", "claude-desktop", "cursor", "codex"}

// installCommand parses the flags of `agent-activity install` (remove false)
// or `agent-activity uninstall` (remove true), finds the home directory, the
// working directory and this binary, and registers or removes the server.
func installCommand(args []string, stdout, stderr io.Writer) int {
	return clientCommand("install", false, args, stdout, stderr)
}

func uninstallCommand(args []string, stdout, stderr io.Writer) int {
	return clientCommand("uninstall", true, args, stdout, stderr)
}

func clientCommand(name string, remove bool, args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet(name, flag.ContinueOnError)
	fset.SetOutput(stderr)
	client := fset.String("client", "claude-code", "the client whose config to change: "+strings.Join(clients, ", "))
	scope := fset.String("scope", "user", "claude-code only: user (~/.claude.json) or project (./.mcp.json)")
	dryRun := fset.Bool("dry-run", false, "print the resulting config to stdout and change nothing")
	fset.Usage = func() {
		fmt.Fprintf(stderr, "Usage: agent-activity %s [--client %s] [--scope user|project] [--dry-run]\n", name, strings.Join(clients, "|"))
		fset.PrintDefaults()
	}
	if err := fset.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fset.NArg() > 0 {
		fmt.Fprintf(stderr, "agent-activity %s: unexpected argument %q; see --help\n", name, fset.Arg(0))
		return 2
	}
	if !slices.Contains(clients, *client) {
		fmt.Fprintf(stderr, "agent-activity %s: --client must be one of %s, not %q\n", name, strings.Join(clients, ", "), *client)
		return 2
	}
	if *scope != "user" && *scope != "project" {
		fmt.Fprintf(stderr, "agent-activity %s: --scope must be user or project, not %q\n", name, *scope)
		return 2
	}
	if *scope == "project" && *client != "claude-code" {
		fmt.Fprintf(stderr, "agent-activity %s: --scope project is for claude-code only; %s has one config per user\n", name, *client)
		return 2
	}
	opt := installOptions{Client: *client, Scope: *scope, Remove: remove, DryRun: *dryRun,
		AppData: os.Getenv("APPDATA"), CodexHome: os.Getenv("CODEX_HOME")}
	var err error
	if opt.Exe, err = os.Executable(); err == nil {
		opt.Exe, err = filepath.EvalSymlinks(opt.Exe)
	}
	if err != nil {
		fmt.Fprintf(stderr, "agent-activity %s: cannot find this binary's path: %v\n", name, err)
		return 1
	}
	if opt.Scope == "user" {
		if opt.Home, err = os.UserHomeDir(); err != nil {
			fmt.Fprintf(stderr, "agent-activity %s: cannot find the home directory: %v\n", name, err)
			return 1
		}
	} else if opt.Cwd, err = os.Getwd(); err != nil {
		fmt.Fprintf(stderr, "agent-activity %s: cannot find the working directory: %v\n", name, err)
		return 1
	}
	return install(opt, stdout, stderr)
}

// target is the config file of opt's client.
func (opt installOptions) target() string {
	switch opt.Client {
	case "claude-desktop":
		goos := opt.GOOS
		if goos == "" {
			goos = runtime.GOOS
		}
		switch goos {
		case "darwin":
			return filepath.Join(opt.Home, "Library", "Application Support", "Claude", "claude_desktop_config.json")
		case "windows":
			base := opt.AppData
			if base == "" {
				base = filepath.Join(opt.Home, "AppData", "Roaming")
			}
			return filepath.Join(base, "Claude", "claude_desktop_config.json")
		}
		return filepath.Join(opt.Home, ".config", "Claude", "claude_desktop_config.json")
	case "cursor":
		return filepath.Join(opt.Home, ".cursor", "mcp.json")
	case "codex":
		home := opt.CodexHome
		if home == "" {
			home = filepath.Join(opt.Home, ".codex")
		}
		return filepath.Join(home, "config.toml")
	}
	if opt.Scope == "project" {
		return filepath.Join(opt.Cwd, ".mcp.json")
	}
	return filepath.Join(opt.Home, ".claude.json")
}

// edit computes the new config from the old: our entry added or removed,
// everything else kept, and a note saying what changed.
func (opt installOptions) edit(old []byte) ([]byte, string, error) {
	switch {
	case opt.Client == "codex" && opt.Remove:
		return removeCodexServer(old)
	case opt.Client == "codex":
		return addCodexServer(old, opt.Exe)
	case opt.Remove:
		return removeServer(old)
	}
	// Claude Code wants the transport named; Claude Desktop and Cursor take
	// a command alone.
	return addServer(old, opt.Exe, opt.Client == "claude-code" || opt.Client == "")
}

// hint is what to do after a change, in the client's own words.
func (opt installOptions) hint() string {
	switch opt.Client {
	case "claude-desktop":
		return "Restart Claude Desktop to pick it up."
	case "cursor":
		return "Restart Cursor (or toggle the server in Settings > MCP) to pick it up."
	case "codex":
		return "Check it with `codex mcp list`; new Codex sessions pick it up."
	}
	if opt.Remove {
		return "Check it with `claude mcp list`; restart running Claude Code sessions to drop it."
	}
	return "Check it with `claude mcp list`; restart running Claude Code sessions to pick it up."
}

// install registers (or with Remove, unregisters) the server as opt says.
// Exit codes: 0 done (or nothing to do), 1 refused or failed with the file
// unchanged.
func install(opt installOptions, stdout, stderr io.Writer) int {
	if opt.Client == "" {
		opt.Client = "claude-code"
	}
	verb := "install"
	if opt.Remove {
		verb = "uninstall"
	}
	target := opt.target()
	claude := opt.Client == "claude-code"
	if isTemporary(opt.Exe) && !opt.Remove {
		fmt.Fprintf(stderr, "agent-activity install: warning: %s looks like a temporary build (go run?); "+
			"install the binary first with `go install github.com/agent-activity/agent-activity@latest`\n", opt.Exe)
	}
	// Claude Code rewrites ~/.claude.json often. Compute the new content from
	// what is on disk, and retry when the file changed under us before the rename.
	for attempt := 0; ; attempt++ {
		old, mode, exists, err := readTarget(target)
		if err != nil {
			fmt.Fprintf(stderr, "agent-activity %s: %v; nothing was changed\n", verb, err)
			return 1
		}
		if opt.Remove && !exists {
			fmt.Fprintf(stdout, "%s does not exist; there is no %s entry to remove; nothing to do.\n", target, serverName)
			return 0
		}
		updated, note, err := opt.edit(old)
		if err != nil {
			fmt.Fprintf(stderr, "agent-activity %s: %s: %v; nothing was changed\n", verb, target, err)
			return 1
		}
		if opt.DryRun {
			stdout.Write(updated)
			fmt.Fprintf(stderr, "dry run: %s was not changed; this is what %s would write.\n", target, verb)
			if claude {
				fmt.Fprintln(stderr, "Equivalent command:", claudeCommand(opt.Scope, opt.Exe, opt.Remove))
			}
			return 0
		}
		if exists && bytes.Equal(old, updated) {
			if opt.Remove {
				fmt.Fprintf(stdout, "%s has no %s entry; nothing to do.\n", target, serverName)
			} else {
				fmt.Fprintf(stdout, "%s already registers %s as %s; nothing to do.\n", target, serverName, opt.Exe)
			}
			if claude {
				fmt.Fprintln(stdout, "Equivalent command:", claudeCommand(opt.Scope, opt.Exe, opt.Remove))
			}
			return 0
		}
		if !exists {
			mode = 0o600
			// A client that never ran has no config folder yet.
			if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
				fmt.Fprintf(stderr, "agent-activity %s: %v; nothing was changed\n", verb, err)
				return 1
			}
		}
		err = writeAtomic(target, updated, mode, func() bool {
			now, _, nowExists, err := readTarget(target)
			return err == nil && nowExists == exists && bytes.Equal(now, old)
		})
		if errors.Is(err, errChanged) && attempt < 3 {
			continue
		}
		if err != nil {
			fmt.Fprintf(stderr, "agent-activity %s: writing %s: %v; nothing was changed\n", verb, target, err)
			return 1
		}
		if opt.Remove {
			fmt.Fprintf(stdout, "Removed %s from %s: %s.\n", serverName, target, note)
		} else {
			fmt.Fprintf(stdout, "Registered %s (%s) in %s: %s.\n", serverName, opt.Exe, target, note)
		}
		if claude {
			fmt.Fprintln(stdout, "Equivalent command:", claudeCommand(opt.Scope, opt.Exe, opt.Remove))
		}
		fmt.Fprintln(stdout, opt.hint())
		return 0
	}
}

// readTarget reads the config file, refusing anything but a regular file.
// A missing file is not an error: exists is false and data nil.
func readTarget(path string) (data []byte, mode fs.FileMode, exists bool, err error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, false, nil
	}
	if err != nil {
		return nil, 0, false, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, 0, true, fmt.Errorf("%s is a symbolic link; refusing to replace it with a file "+
			"(edit the file it points to by hand, or use `claude mcp add`)", path)
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, true, fmt.Errorf("%s is not a regular file", path)
	}
	data, err = os.ReadFile(path)
	if err != nil {
		return nil, 0, true, err
	}
	return data, fi.Mode().Perm(), true, nil
}

var errChanged = errors.New("the file changed while it was being updated")

// writeAtomic writes data to a temp file beside path, syncs it, and renames it
// over path, so readers see the old file or the new one, never a mix. unchanged
// is checked just before the rename; when it reports false nothing is written.
func writeAtomic(path string, data []byte, mode fs.FileMode, unchanged func() bool) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = tmp.Chmod(mode); err != nil {
		return err
	}
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if !unchanged() {
		return errChanged
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if d, derr := os.Open(dir); derr == nil {
		d.Sync() // best effort: make the rename itself durable
		d.Close()
	}
	return nil
}

// member is one "key": value pair of a JSON object, both kept as written.
type member struct {
	key   json.RawMessage // the key with its quotes and escapes as in the file
	name  string          // the decoded key
	value json.RawMessage
}

// objectMembers splits a JSON object into its members in file order, keeping
// keys and values byte for byte. Anything but exactly one object is an error.
func objectMembers(data []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("not valid JSON (%v)", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	var out []member
	for dec.More() {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("not valid JSON (%v)", err)
		}
		name, _ := tok.(string)
		rawKey := bytes.TrimLeft(data[start:dec.InputOffset()], " \t\r\n,")
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("not valid JSON (%v)", err)
		}
		out = append(out, member{key: append(json.RawMessage(nil), rawKey...), name: name, value: v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("not valid JSON (%v)", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("not valid JSON (more data after the object)")
	}
	return out, nil
}

// encodeMembers writes members back as one compact object.
func encodeMembers(ms []member) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(m.key)
		b.WriteByte(':')
		b.Write(m.value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// find returns the index of the member called name, or -1. A name present
// twice is an error: which one a reader honours is not ours to guess.
func find(ms []member, name string) (int, error) {
	at := -1
	for i, m := range ms {
		if m.name == name {
			if at >= 0 {
				return -1, fmt.Errorf("the key %q appears twice", name)
			}
			at = i
		}
	}
	return at, nil
}

func jsonString(s string) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return bytes.TrimRight(b.Bytes(), "\n")
}

// set replaces the value of name, or appends name when absent.
func set(ms []member, name string, value json.RawMessage) []member {
	for i := range ms {
		if ms[i].name == name {
			ms[i].value = value
			return ms
		}
	}
	return append(ms, member{key: jsonString(name), name: name, value: value})
}

// addServer returns config with mcpServers["agent-activity"] pointing at exe
// (with "type": "stdio" when withType), and a note saying what changed.
// Every other key and server is kept as written, in order; the result is
// indented like the input (two spaces when the input gives no hint), so a
// file the client wrote changes only where the entry is. An existing
// agent-activity entry keeps its env and any extra keys.
func addServer(config []byte, exe string, withType bool) ([]byte, string, error) {
	if len(bytes.TrimSpace(config)) == 0 {
		config = []byte("{}")
	}
	top, err := objectMembers(config)
	if err != nil {
		return nil, "", err
	}
	at, err := find(top, "mcpServers")
	if err != nil {
		return nil, "", err
	}
	var servers []member
	if at >= 0 {
		if servers, err = objectMembers(top[at].value); err != nil {
			return nil, "", fmt.Errorf("mcpServers is %s, not an object; fix it by hand first", kindOf(top[at].value))
		}
	}
	si, err := find(servers, serverName)
	if err != nil {
		return nil, "", fmt.Errorf("mcpServers: %v", err)
	}
	note := "added a new entry"
	var entry []member
	if si >= 0 {
		if entry, err = objectMembers(servers[si].value); err != nil {
			return nil, "", fmt.Errorf("mcpServers.%s is %s, not an object; fix it by hand first", serverName, kindOf(servers[si].value))
		}
		note = "updated the existing entry (its env and other keys kept)"
	}
	if withType {
		entry = set(entry, "type", jsonString("stdio"))
	}
	entry = set(entry, "command", jsonString(exe))
	entry = set(entry, "args", json.RawMessage("[]"))
	if i, _ := find(entry, "env"); i < 0 {
		entry = set(entry, "env", json.RawMessage("{}"))
	}
	servers = set(servers, serverName, encodeMembers(entry))
	top = set(top, "mcpServers", encodeMembers(servers))
	out, err := reindent(top, config)
	return out, note, err
}

// removeServer returns config without mcpServers["agent-activity"], every
// other key and server kept as written; config itself when it has none.
func removeServer(config []byte) ([]byte, string, error) {
	if len(bytes.TrimSpace(config)) == 0 {
		return config, "", nil
	}
	top, err := objectMembers(config)
	if err != nil {
		return nil, "", err
	}
	at, err := find(top, "mcpServers")
	if err != nil || at < 0 {
		return config, "", err
	}
	servers, err := objectMembers(top[at].value)
	if err != nil {
		return nil, "", fmt.Errorf("mcpServers is %s, not an object; fix it by hand first", kindOf(top[at].value))
	}
	si, err := find(servers, serverName)
	if err != nil {
		return nil, "", fmt.Errorf("mcpServers: %v", err)
	}
	if si < 0 {
		return config, "", nil
	}
	servers = slices.Delete(servers, si, si+1)
	top[at].value = encodeMembers(servers)
	out, err := reindent(top, config)
	return out, "removed its entry; every other server and key kept", err
}

// reindent writes members as JSON indented like the original config.
func reindent(top []member, config []byte) ([]byte, error) {
	var compact, out bytes.Buffer
	if err := json.Compact(&compact, encodeMembers(top)); err != nil {
		return nil, err // cannot happen: every piece was valid JSON
	}
	if err := json.Indent(&out, compact.Bytes(), "", indentOf(config)); err != nil {
		return nil, err
	}
	if len(config) == 0 || config[len(config)-1] == '\n' || len(bytes.TrimSpace(config)) == 2 {
		out.WriteByte('\n')
	}
	return out.Bytes(), nil
}

// indentOf returns the indentation of the first indented line, "  " by default.
func indentOf(config []byte) string {
	for _, line := range bytes.Split(config, []byte("\n"))[1:] {
		ws := line[:len(line)-len(bytes.TrimLeft(line, " \t"))]
		if len(ws) > 0 && len(ws) < len(line) {
			return string(ws)
		}
	}
	return "  "
}

func kindOf(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "empty"
	}
	switch v[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	case '{':
		return "a malformed object"
	}
	return "a number"
}

// claudeCommand is the `claude mcp add` (or remove) line that has the same effect.
func claudeCommand(scope, exe string, remove bool) string {
	if remove {
		return "claude mcp remove " + serverName + " --scope " + scope
	}
	return "claude mcp add " + serverName + " --scope " + scope + " -- " + shellQuote(exe)
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:@%,=", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// isTemporary reports whether exe looks like a `go run` or `go test` build.
func isTemporary(exe string) bool {
	return strings.Contains(exe, string(filepath.Separator)+"go-build")
}
