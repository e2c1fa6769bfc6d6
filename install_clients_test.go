package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runClient runs install (or uninstall) for a client into a scratch home.
func runClient(t *testing.T, opt installOptions) (code int, stdout, stderr string) {
	t.Helper()
	var out, errw strings.Builder
	if opt.Exe == "" {
		opt.Exe = testExe
	}
	code = install(opt, &out, &errw)
	return code, out.String(), errw.String()
}

func TestInstallClientTargets(t *testing.T) {
	home := "/h"
	for _, c := range []struct {
		opt  installOptions
		want string
	}{
		{installOptions{Client: "claude-desktop", GOOS: "darwin"}, "/h/Library/Application Support/Claude/claude_desktop_config.json"},
		{installOptions{Client: "claude-desktop", GOOS: "linux"}, "/h/.config/Claude/claude_desktop_config.json"},
		{installOptions{Client: "claude-desktop", GOOS: "windows", AppData: "/h/AppData/Roaming"}, "/h/AppData/Roaming/Claude/claude_desktop_config.json"},
		{installOptions{Client: "claude-desktop", GOOS: "windows"}, "/h/AppData/Roaming/Claude/claude_desktop_config.json"},
		{installOptions{Client: "cursor"}, "/h/.cursor/mcp.json"},
		{installOptions{Client: "codex"}, "/h/.codex/config.toml"},
		{installOptions{Client: "codex", CodexHome: "/c"}, "/c/config.toml"},
		{installOptions{Client: "claude-code", Scope: "user"}, "/h/.claude.json"},
	} {
		c.opt.Home = home
		if got := filepath.ToSlash(c.opt.target()); got != c.want {
			t.Errorf("%+v: %s, want %s", c.opt, got, c.want)
		}
	}
}

// Claude Desktop and Cursor: the entry goes in beside the others (no
// "type": they take a command alone), the folder is made when the client
// never ran, and uninstall removes exactly ours.
func TestInstallJSONClients(t *testing.T) {
	for _, client := range []string{"claude-desktop", "cursor"} {
		t.Run(client, func(t *testing.T) {
			home := t.TempDir()
			opt := installOptions{Client: client, Home: home, GOOS: "linux"}
			target := opt.target()
			if code, _, stderr := runClient(t, opt); code != 0 {
				t.Fatalf("new file: code %d %s", code, stderr)
			}
			const fresh = "{\n  \"mcpServers\": {\n    \"agent-activity\": {\n      \"command\": \"/opt/agent activity/bin/agent-activity\",\n      \"args\": [],\n      \"env\": {}\n    }\n  }\n}\n"
			if got := readFile(t, target); got != fresh {
				t.Errorf("new file:\n%s", got)
			}
			const before = "{\n  \"globalShortcut\": \"Ctrl+Space\",\n  \"mcpServers\": {\n    \"fs\": {\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\"]\n    }\n  }\n}\n"
			os.WriteFile(target, []byte(before), 0o644)
			code, stdout, stderr := runClient(t, opt)
			if code != 0 || !strings.Contains(stdout, "Restart") {
				t.Fatalf("code %d %s %s", code, stdout, stderr)
			}
			after := readFile(t, target)
			if !strings.Contains(after, `"fs": {`) || !strings.Contains(after, `"globalShortcut": "Ctrl+Space"`) || strings.Contains(after, `"type"`) ||
				!strings.Contains(after, `"command": "/opt/agent activity/bin/agent-activity"`) {
				t.Errorf("after install:\n%s", after)
			}
			if code, stdout, _ := runClient(t, opt); code != 0 || !strings.Contains(stdout, "nothing to do") {
				t.Errorf("second install: %d %s", code, stdout)
			}
			opt.Remove = true
			if code, _, stderr := runClient(t, opt); code != 0 {
				t.Fatalf("uninstall: %d %s", code, stderr)
			}
			if got := readFile(t, target); got != "{\n  \"globalShortcut\": \"Ctrl+Space\",\n  \"mcpServers\": {\n    \"fs\": {\n      \"command\": \"npx\",\n      \"args\": [\n        \"-y\",\n        \"@modelcontextprotocol/server-filesystem\"\n      ]\n    }\n  }\n}\n" {
				t.Errorf("after uninstall:\n%s", got)
			}
			if code, stdout, _ := runClient(t, opt); code != 0 || !strings.Contains(stdout, "nothing to do") {
				t.Errorf("second uninstall: %d %s", code, stdout)
			}
			noTempFiles(t, filepath.Dir(target))
		})
	}
}

// Malformed and symlinked targets are refused unchanged, by every client
// and by uninstall too.
func TestInstallClientRefusals(t *testing.T) {
	for _, client := range []string{"claude-code", "claude-desktop", "cursor", "codex"} {
		for _, remove := range []bool{false, true} {
			home := t.TempDir()
			opt := installOptions{Client: client, Scope: "user", Home: home, GOOS: "linux", Remove: remove}
			target := opt.target()
			os.MkdirAll(filepath.Dir(target), 0o755)
			bad := "{\"mcpServers\": {\n"
			if client == "codex" {
				bad = "[mcp_servers.other\ncommand = \"x\"\n"
			}
			os.WriteFile(target, []byte(bad), 0o644)
			if code, _, stderr := runClient(t, opt); code != 1 || !strings.Contains(stderr, "nothing was changed") || readFile(t, target) != bad {
				t.Errorf("%s remove=%v malformed: code %d %s", client, remove, code, stderr)
			}
			real := filepath.Join(t.TempDir(), "real")
			os.WriteFile(real, []byte("{}"), 0o644)
			os.Remove(target)
			if err := os.Symlink(real, target); err != nil {
				t.Skipf("symlinks: %v", err)
			}
			if code, _, stderr := runClient(t, opt); code != 1 || !strings.Contains(stderr, "symbolic link") || readFile(t, real) != "{}" {
				t.Errorf("%s remove=%v symlink: code %d %s", client, remove, code, stderr)
			}
		}
	}
}

// A config.toml as people write it: comments, other tables, a server of
// their own. Install appends our table and changes no byte before it;
// uninstall gives back the file byte for byte.
func TestInstallCodex(t *testing.T) {
	home := t.TempDir()
	opt := installOptions{Client: "codex", Home: home}
	target := opt.target()
	os.MkdirAll(filepath.Dir(target), 0o700)
	const before = `# my Codex settings
model = "gpt-5.5"   # the default
approval_policy = "on-request"

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]

[mcp_servers.docs.env]
TOKEN_FILE = "~/.docs"

[profiles.fast]
model = "gpt-5.4-mini"`
	os.WriteFile(target, []byte(before), 0o640)
	code, stdout, stderr := runClient(t, opt)
	if code != 0 || !strings.Contains(stdout, "codex mcp list") {
		t.Fatalf("install: %d %s %s", code, stdout, stderr)
	}
	after := readFile(t, target)
	want := before + "\n\n[mcp_servers.agent-activity]\ncommand = \"/opt/agent activity/bin/agent-activity\"\nargs = []\n"
	if after != want {
		t.Errorf("after install:\n%s\nwant:\n%s", after, want)
	}
	if m := modeOf(t, target); m != 0o640 {
		t.Errorf("mode %o, want the file's own 640", m)
	}
	if code, stdout, _ := runClient(t, opt); code != 0 || !strings.Contains(stdout, "nothing to do") || readFile(t, target) != want {
		t.Errorf("second install: %d %s", code, stdout)
	}
	// Another binary under our name is someone's entry: refused, with why.
	other := opt
	other.Exe = "/usr/bin/agent-activity"
	if code, _, stderr := runClient(t, other); code != 1 || !strings.Contains(stderr, `already there with command "/opt/agent activity/bin/agent-activity"`) {
		t.Errorf("different entry: %d %s", code, stderr)
	}
	opt.Remove = true
	if code, _, stderr := runClient(t, opt); code != 0 {
		t.Fatalf("uninstall: %d %s", code, stderr)
	}
	if got := readFile(t, target); got != before+"\n" {
		t.Errorf("after uninstall:\n%q\nwant\n%q", got, before+"\n")
	}
	if code, stdout, _ := runClient(t, opt); code != 0 || !strings.Contains(stdout, "nothing to do") {
		t.Errorf("second uninstall: %d %s", code, stdout)
	}
	noTempFiles(t, filepath.Dir(target))

	// Our table with an env table of its own, between two others: both go,
	// the rest stays.
	mid := "a = 1\n\n[mcp_servers.agent-activity]\ncommand = \"x\"\n\n[mcp_servers.agent-activity.env]\nK = \"v\"\n\n[z]\nb = 2\n"
	os.WriteFile(target, []byte(mid), 0o600)
	if code, _, stderr := runClient(t, opt); code != 0 || readFile(t, target) != "a = 1\n\n[z]\nb = 2\n" {
		t.Errorf("uninstall between tables: %d %s\n%s", code, stderr, readFile(t, target))
	}
	// An entry written as an inline table is a human's edit to undo.
	inline := "mcp_servers = { agent-activity = { command = \"x\" } }\n"
	os.WriteFile(target, []byte(inline), 0o600)
	if code, _, stderr := runClient(t, opt); code != 1 || !strings.Contains(stderr, "remove it by hand") || readFile(t, target) != inline {
		t.Errorf("inline entry: %d %s", code, stderr)
	}
	// No config yet: a new file with our table alone.
	os.Remove(target)
	opt.Remove = false
	if code, _, stderr := runClient(t, opt); code != 0 || readFile(t, target) != "[mcp_servers.agent-activity]\ncommand = \"/opt/agent activity/bin/agent-activity\"\nargs = []\n" {
		t.Errorf("new config.toml: %d %s\n%s", code, stderr, readFile(t, target))
	}
}

func TestTOMLString(t *testing.T) {
	for in, want := range map[string]string{
		`/usr/bin/aa`:             `"/usr/bin/aa"`,
		`C:\Program Files\aa.exe`: `"C:\\Program Files\\aa.exe"`,
		"a\"b\tc":                 `"a\"b\u0009c"`,
	} {
		if got := tomlString(in); got != want {
			t.Errorf("%q: %s, want %s", in, got, want)
		}
		if m, err := parseTOML([]byte("k = " + tomlString(in))); err != nil || m["k"] != in {
			t.Errorf("%q does not read back: %v %v", in, m, err)
		}
	}
}

func TestUninstallFlags(t *testing.T) {
	for _, args := range [][]string{{"--client", "vim"}, {"--client", "cursor", "--scope", "project"}, {"extra"}} {
		var stdout, stderr strings.Builder
		if code := uninstallCommand(args, &stdout, &stderr); code != 2 || stdout.Len() != 0 || stderr.Len() == 0 {
			t.Errorf("%v: code %d stdout %q stderr %q; want 2 and a usage message", args, code, stdout.String(), stderr.String())
		}
	}
}
