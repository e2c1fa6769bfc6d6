package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

const testExe = "/opt/agent activity/bin/agent-activity"

// runInstall runs install against a temp home and project directory.
func runInstall(t *testing.T, home, cwd, scope string, dryRun bool) (code int, stdout, stderr string) {
	t.Helper()
	var out, errw strings.Builder
	code = install(installOptions{Scope: scope, DryRun: dryRun, Home: home, Cwd: cwd, Exe: testExe}, &out, &errw)
	return code, out.String(), errw.String()
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func modeOf(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// noTempFiles checks the atomic write left nothing behind.
func noTempFiles(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temp file left behind: %s", e.Name())
		}
	}
}

const newEntry = `{
  "mcpServers": {
    "agent-activity": {
      "type": "stdio",
      "command": "/opt/agent activity/bin/agent-activity",
      "args": [],
      "env": {}
    }
  }
}
`

func TestInstallNewFile(t *testing.T) {
	for _, scope := range []string{"user", "project"} {
		t.Run(scope, func(t *testing.T) {
			home, cwd := t.TempDir(), t.TempDir()
			code, stdout, stderr := runInstall(t, home, cwd, scope, false)
			if code != 0 {
				t.Fatalf("code %d, stderr %s", code, stderr)
			}
			target := filepath.Join(home, ".claude.json")
			if scope == "project" {
				target = filepath.Join(cwd, ".mcp.json")
			}
			if got := readFile(t, target); got != newEntry {
				t.Errorf("got\n%s\nwant\n%s", got, newEntry)
			}
			if m := modeOf(t, target); m != 0o600 {
				t.Errorf("new file mode %o, want 600", m)
			}
			want := "claude mcp add agent-activity --scope " + scope + " -- '/opt/agent activity/bin/agent-activity'"
			if !strings.Contains(stdout, want) {
				t.Errorf("stdout %q does not show %q", stdout, want)
			}
			noTempFiles(t, filepath.Dir(target))
		})
	}
}

// A file as Claude Code writes it (JSON.stringify with two spaces): after
// install it differs only by the new entry; odd numbers, escapes and
// characters Go would escape stay as written.
func TestInstallPreservesEverythingElse(t *testing.T) {
	const before = `{
  "numStartups": 42,
  "ratio": 1.50,
  "big": 1e400,
  "name": "caf\u00e9 <&> \u2028",
  "projects": {
    "/home/me/app": {
      "allowedTools": [],
      "history": [
        {
          "display": "fix the tests",
          "pastedContents": {}
        }
      ],
      "mcpServers": {
        "agent-activity": {
          "command": "local-scope-untouched"
        }
      }
    }
  },
  "mcpServers": {
    "github": {
      "type": "http",
      "url": "https://api.example.com/mcp",
      "headers": {
        "Authorization": "Bearer ${GITHUB_TOKEN}"
      }
    }
  },
  "zLast": null
}
`
	const after = `{
  "numStartups": 42,
  "ratio": 1.50,
  "big": 1e400,
  "name": "caf\u00e9 <&> \u2028",
  "projects": {
    "/home/me/app": {
      "allowedTools": [],
      "history": [
        {
          "display": "fix the tests",
          "pastedContents": {}
        }
      ],
      "mcpServers": {
        "agent-activity": {
          "command": "local-scope-untouched"
        }
      }
    }
  },
  "mcpServers": {
    "github": {
      "type": "http",
      "url": "https://api.example.com/mcp",
      "headers": {
        "Authorization": "Bearer ${GITHUB_TOKEN}"
      }
    },
    "agent-activity": {
      "type": "stdio",
      "command": "/opt/agent activity/bin/agent-activity",
      "args": [],
      "env": {}
    }
  },
  "zLast": null
}
`
	home := t.TempDir()
	target := filepath.Join(home, ".claude.json")
	if err := os.WriteFile(target, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(target, 0o640) // WriteFile's mode is filtered by umask
	if code, _, stderr := runInstall(t, home, "", "user", false); code != 0 {
		t.Fatalf("code %d, stderr %s", code, stderr)
	}
	if got := readFile(t, target); got != after {
		t.Errorf("got\n%s\nwant\n%s", got, after)
	}
	if m := modeOf(t, target); m != 0o640 {
		t.Errorf("mode %o, want the file's own 640", m)
	}
	noTempFiles(t, home)
}

func TestInstallKeepsIndentAndEntryFields(t *testing.T) {
	const before = "{\n\t\"mcpServers\": {\n\t\t\"agent-activity\": {\n\t\t\t\"command\": \"/old/path\",\n\t\t\t\"args\": [\"--old\"],\n" +
		"\t\t\t\"env\": {\"AGENT_ACTIVITY_LOG_ROOT\": \"/data/logs\"},\n\t\t\t\"timeout\": 5\n\t\t}\n\t}\n}"
	const after = "{\n\t\"mcpServers\": {\n\t\t\"agent-activity\": {\n\t\t\t\"command\": \"/opt/agent activity/bin/agent-activity\",\n" +
		"\t\t\t\"args\": [],\n\t\t\t\"env\": {\n\t\t\t\t\"AGENT_ACTIVITY_LOG_ROOT\": \"/data/logs\"\n\t\t\t},\n\t\t\t\"timeout\": 5,\n" +
		"\t\t\t\"type\": \"stdio\"\n\t\t}\n\t}\n}"
	cwd := t.TempDir()
	target := filepath.Join(cwd, ".mcp.json")
	os.WriteFile(target, []byte(before), 0o600)
	code, stdout, stderr := runInstall(t, "", cwd, "project", false)
	if code != 0 {
		t.Fatalf("code %d, stderr %s", code, stderr)
	}
	if got := readFile(t, target); got != after {
		t.Errorf("got\n%q\nwant\n%q", got, after)
	}
	if !strings.Contains(stdout, "updated the existing entry") {
		t.Errorf("stdout %q should say the entry was updated", stdout)
	}
}

func TestInstallIdempotent(t *testing.T) {
	home := t.TempDir()
	target := filepath.Join(home, ".claude.json")
	os.WriteFile(target, []byte(`{"a":1}`), 0o600)
	if code, _, stderr := runInstall(t, home, "", "user", false); code != 0 {
		t.Fatalf("first install: %d %s", code, stderr)
	}
	first := readFile(t, target)
	past := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	os.Chtimes(target, past, past)
	code, stdout, stderr := runInstall(t, home, "", "user", false)
	if code != 0 || !strings.Contains(stdout, "nothing to do") {
		t.Fatalf("second install: code %d stdout %q stderr %q", code, stdout, stderr)
	}
	if got := readFile(t, target); got != first {
		t.Errorf("second install changed the file:\n%s\nwas\n%s", got, first)
	}
	if fi, _ := os.Stat(target); !fi.ModTime().Equal(past) {
		t.Error("second install rewrote the file")
	}
}

func TestInstallEmptyFile(t *testing.T) {
	home := t.TempDir()
	target := filepath.Join(home, ".claude.json")
	os.WriteFile(target, nil, 0o644)
	os.Chmod(target, 0o644)
	if code, _, stderr := runInstall(t, home, "", "user", false); code != 0 {
		t.Fatalf("code %d %s", code, stderr)
	}
	if got := readFile(t, target); got != newEntry {
		t.Errorf("got %s", got)
	}
	if m := modeOf(t, target); m != 0o644 {
		t.Errorf("mode %o, want 644 kept", m)
	}
}

func TestInstallRefusals(t *testing.T) {
	cases := []struct {
		name    string
		content string
		reason  string
	}{
		{"malformed", `{"mcpServers": {`, "not valid JSON"},
		{"trailing garbage", `{"a": 1} {"b": 2}`, "more data after the object"},
		{"top-level array", `[1, 2]`, "not a JSON object"},
		{"mcpServers array", `{"mcpServers": []}`, "mcpServers is an array, not an object"},
		{"mcpServers string", `{"mcpServers": "x"}`, "mcpServers is a string, not an object"},
		{"mcpServers null", `{"mcpServers": null}`, "mcpServers is null, not an object"},
		{"entry not object", `{"mcpServers": {"agent-activity": "cmd"}}`, "mcpServers.agent-activity is a string"},
		{"duplicate mcpServers", `{"mcpServers": {}, "mcpServers": {}}`, `"mcpServers" appears twice`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			target := filepath.Join(home, ".claude.json")
			os.WriteFile(target, []byte(c.content), 0o600)
			code, stdout, stderr := runInstall(t, home, "", "user", false)
			if code != 1 || !strings.Contains(stderr, c.reason) || !strings.Contains(stderr, "nothing was changed") {
				t.Errorf("code %d stderr %q; want 1 and %q", code, stderr, c.reason)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if got := readFile(t, target); got != c.content {
				t.Errorf("file changed to %q", got)
			}
			noTempFiles(t, home)
		})
	}

	t.Run("symlink", func(t *testing.T) {
		home := t.TempDir()
		real := filepath.Join(t.TempDir(), "real.json")
		os.WriteFile(real, []byte(`{"a": 1}`), 0o600)
		target := filepath.Join(home, ".claude.json")
		if err := os.Symlink(real, target); err != nil {
			t.Skip("no symlinks here:", err)
		}
		code, _, stderr := runInstall(t, home, "", "user", false)
		if code != 1 || !strings.Contains(stderr, "symbolic link") {
			t.Errorf("code %d stderr %q; want 1 and a symlink refusal", code, stderr)
		}
		if fi, err := os.Lstat(target); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Error("the symlink was replaced")
		}
		if got := readFile(t, real); got != `{"a": 1}` {
			t.Errorf("the link's target changed to %q", got)
		}
		// --dry-run refuses too: it must show what install would really do.
		if code, _, _ := runInstall(t, home, "", "user", true); code != 1 {
			t.Errorf("dry run on a symlink: code %d, want 1", code)
		}
	})

	t.Run("directory", func(t *testing.T) {
		home := t.TempDir()
		os.Mkdir(filepath.Join(home, ".claude.json"), 0o700)
		if code, _, stderr := runInstall(t, home, "", "user", false); code != 1 || !strings.Contains(stderr, "not a regular file") {
			t.Errorf("code %d stderr %q", code, stderr)
		}
	})
}

func TestInstallDryRun(t *testing.T) {
	home := t.TempDir()
	target := filepath.Join(home, ".claude.json")
	code, stdout, stderr := runInstall(t, home, "", "user", true)
	if code != 0 || stdout != newEntry {
		t.Errorf("dry run on no file: code %d stdout %q", code, stdout)
	}
	if !strings.Contains(stderr, "was not changed") || !strings.Contains(stderr, "claude mcp add") {
		t.Errorf("stderr %q", stderr)
	}
	if _, err := os.Lstat(target); err == nil {
		t.Error("dry run created the file")
	}

	const existing = `{"numStartups": 3}`
	os.WriteFile(target, []byte(existing), 0o600)
	code, stdout, _ = runInstall(t, home, "", "user", true)
	var v map[string]json.RawMessage
	if code != 0 || json.Unmarshal([]byte(stdout), &v) != nil || v["mcpServers"] == nil || string(v["numStartups"]) != "3" {
		t.Errorf("dry run: code %d stdout %q", code, stdout)
	}
	if got := readFile(t, target); got != existing {
		t.Errorf("dry run changed the file to %q", got)
	}
	noTempFiles(t, home)
}

func TestInstallFlags(t *testing.T) {
	for _, args := range [][]string{{"--scope", "local"}, {"--bogus"}, {"extra"}} {
		var stdout, stderr strings.Builder
		if code := installCommand(args, &stdout, &stderr); code != 2 || stdout.Len() != 0 || stderr.Len() == 0 {
			t.Errorf("%v: code %d stdout %q stderr %q; want 2 and a usage message", args, code, stdout.String(), stderr.String())
		}
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/usr/local/bin/agent-activity": "/usr/local/bin/agent-activity",
		"/a b/c":                        "'/a b/c'",
		"/it's":                         `'/it'\''s'`,
		"":                              "''",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// installEnv is a minimal environment with HOME set to home.
func installEnv(home string) []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home}
}

// The real binary registers its own resolved path, even when started
// through a symlink, and `--scope project` writes ./.mcp.json.
func TestInstallBinary(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	link := filepath.Join(t.TempDir(), "aa-link")
	if err := os.Symlink(testBinary, link); err != nil {
		link = testBinary
	}
	realBin, err := filepath.EvalSymlinks(testBinary)
	if err != nil {
		t.Fatal(err)
	}
	for _, scope := range []string{"user", "project"} {
		cmd := exec.Command(link, "install", "--scope", scope)
		cmd.Env, cmd.Dir = installEnv(home), cwd
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("install --scope %s: %v\n%s", scope, err, out)
		}
		target := filepath.Join(home, ".claude.json")
		if scope == "project" {
			target = filepath.Join(cwd, ".mcp.json")
		}
		var cfg struct {
			MCPServers map[string]struct {
				Type    string   `json:"type"`
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"mcpServers"`
		}
		if err := json.Unmarshal([]byte(readFile(t, target)), &cfg); err != nil {
			t.Fatal(err)
		}
		got := cfg.MCPServers["agent-activity"]
		if got.Command != realBin || got.Type != "stdio" || got.Args == nil || len(got.Args) != 0 {
			t.Errorf("%s: entry %+v, want command %s", scope, got, realBin)
		}
		if !strings.Contains(string(out), "claude mcp add agent-activity --scope "+scope+" -- "+shellQuote(realBin)) {
			t.Errorf("output does not show the claude mcp add command:\n%s", out)
		}
	}
}

// TestInstallClaudeCode installs the real Claude Code from npm into a temp
// directory, registers the server in a temp HOME, and asks `claude mcp list`
// whether it connects. It skips when npm is absent or the install fails
// (offline without a cache). About 5 s with a warm npm cache.
func TestInstallClaudeCode(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short: installs Claude Code from npm")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed; skipping the test with the real Claude Code client")
	}
	npmCtx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	prefix := t.TempDir()
	start := time.Now()
	// npm runs with the real environment so it can use the user's npm cache.
	cmd := exec.CommandContext(npmCtx, npm, "install", "--prefix", prefix, "--no-audit", "--no-fund", "--no-save",
		"--loglevel=error", "@anthropic-ai/claude-code")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("npm install @anthropic-ai/claude-code failed (offline?); skipping: %v\n%s", err, out)
	}
	claude := filepath.Join(prefix, "node_modules", ".bin", "claude")
	t.Logf("npm install took %s", time.Since(start).Round(time.Millisecond))

	// The client gets its own deadline so a hang fails fast instead of
	// eating the package's test timeout.
	ctx, cancelClaude := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancelClaude()
	realBin, err := filepath.EvalSymlinks(testBinary)
	if err != nil {
		t.Fatal(err)
	}
	home, work := t.TempDir(), t.TempDir()
	env := append(installEnv(home), "DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "NO_COLOR=1")
	inst := exec.CommandContext(ctx, testBinary, "install", "--scope", "user")
	inst.Env, inst.Dir = env, work
	if out, err := inst.CombinedOutput(); err != nil {
		t.Fatalf("agent-activity install: %v\n%s", err, out)
	}
	version, err := exec.CommandContext(ctx, claude, "--version").Output()
	if err != nil {
		t.Skipf("the installed claude does not run here: %v", err)
	}
	list := exec.CommandContext(ctx, claude, "mcp", "list")
	list.Env, list.Dir = env, work
	out, err := list.CombinedOutput()
	if err != nil {
		t.Fatalf("claude mcp list: %v\n%s", err, out)
	}
	var line string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "agent-activity:") {
			line = l
		}
	}
	if !strings.Contains(line, "Connected") || !strings.Contains(line, realBin) {
		t.Errorf("claude mcp list does not report agent-activity connected:\n%s", out)
	}
	t.Logf("Claude Code %s: %s (whole test %s)", strings.TrimSpace(string(version)), strings.TrimSpace(line),
		time.Since(start).Round(time.Millisecond))
}

// A build without version information reports "dev".
func TestVersionDev(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "aa")
	if out, err := exec.Command("go", "build", "-buildvcs=false", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil || string(out) != "agent-activity dev\n" {
		t.Errorf("--version: %q %v, want \"agent-activity dev\"", out, err)
	}
}

// TestGoInstallLatest serves this module from a file-based module proxy as
// a fake release and checks that `go install <module>@latest` builds it and
// that --version prints the version from the build info. Dependencies come
// from the local module cache, so the test runs offline.
func TestGoInstallLatest(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short: builds the module from a fake proxy")
	}
	if runtime.GOOS == "windows" {
		t.Skip("file:// proxy paths differ on Windows")
	}
	const module, version = "github.com/agent-activity/agent-activity", "v1.0.0-installtest"
	modCache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	proxy := filepath.Join(tmp, "proxy", module, "@v")
	if err := os.MkdirAll(proxy, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"list":            []byte(version + "\n"),
		version + ".info": []byte(`{"Version":"` + version + `","Time":"2026-11-30T12:00:00Z"}`),
		version + ".mod":  gomod,
		version + ".zip":  moduleZip(t, ".", module+"@"+version),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(proxy, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gobin := filepath.Join(tmp, "bin")
	cmd := exec.Command("go", "install", module+"@latest")
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(),
		"GOPROXY=file://"+filepath.Join(tmp, "proxy")+",file://"+filepath.Join(strings.TrimSpace(string(modCache)), "cache", "download"),
		"GOMODCACHE="+filepath.Join(tmp, "modcache"), "GOBIN="+gobin, "GOSUMDB=off", "GOFLAGS=-modcacherw -trimpath",
		"GOTOOLCHAIN=local", "GOWORK=off")
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go install %s@latest: %v\n%s", module, err, out)
	}
	t.Logf("go install took %s", time.Since(start).Round(time.Millisecond))
	out, err := exec.Command(filepath.Join(gobin, "agent-activity"), "--version").Output()
	if err != nil || string(out) != "agent-activity "+version+"\n" {
		t.Errorf("--version: %q %v, want %q", out, err, "agent-activity "+version)
	}
}

// moduleZip zips the module's source the way the module proxy serves it:
// every file under prefix/, leaving out dot-directories, testdata and built
// binaries.
func moduleZip(t *testing.T, root, prefix string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(p)
		if !d.Type().IsRegular() || (ext != ".go" && ext != ".s" && ext != ".mod" && ext != ".sum" && ext != ".json" && ext != ".md") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		w, err := zw.Create(prefix + "/" + filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	})
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
