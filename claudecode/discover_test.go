package claudecode

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agent-activity/agent-activity/transcript"
)

// TestSubagentMetaReadWhenAsked: discovery leaves a subagent's sidecar
// unread, and SubagentMeta reads it each time it is asked, so it follows
// the file (absent, written, changed, removed); a main file has none, a
// long description is clipped, and a sidecar symlinked from outside the
// root is refused.
func TestSubagentMetaReadWhenAsked(t *testing.T) {
	dir := t.TempDir()
	sid := "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee"
	subs := filepath.Join(dir, "p", sid, "subagents")
	if err := os.MkdirAll(subs, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(path, body string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "p", sid+".jsonl"), "{}\n")
	write(filepath.Join(subs, "agent-a1.jsonl"), "{}\n")
	root := transcript.NewRoot(dir, "")
	files := Agent{}.Discover(root, transcript.NewDirCache(), nil)
	var main, sub *transcript.File
	for i := range files {
		switch files[i].Kind {
		case transcript.MainFile:
			main = &files[i]
		case transcript.SubagentFile:
			sub = &files[i]
		}
	}
	if main == nil || sub == nil || sub.AgentID != "a1" {
		t.Fatalf("discovered %+v", files)
	}
	meta := func() string {
		typ, desc := Agent{}.SubagentMeta(sub)
		return typ + "|" + desc
	}
	if got := meta(); got != "|" {
		t.Fatalf("no sidecar: %q", got)
	}
	side := filepath.Join(subs, "agent-a1.meta.json")
	write(side, `{"agentType":"Explore","description":"look around"}`)
	if got := meta(); got != "Explore|look around" {
		t.Fatalf("sidecar written after discovery: %q", got)
	}
	long := strings.Repeat("d", 400)
	write(side, `{"agentType":"Plan","description":"`+long+`"}`)
	if typ, desc := (Agent{}).SubagentMeta(sub); typ != "Plan" || desc != transcript.Clip(long, 300) || len(desc) >= len(long) {
		t.Fatalf("changed sidecar: %q, %d bytes", typ, len(desc))
	}
	if typ, desc := (Agent{}).SubagentMeta(main); typ != "" || desc != "" {
		t.Fatalf("a main file's meta: %q %q", typ, desc)
	}
	if err := os.Remove(side); err != nil {
		t.Fatal(err)
	}
	if got := meta(); got != "|" {
		t.Fatalf("removed sidecar still read: %q", got)
	}
	if runtime.GOOS == "windows" {
		return // symlinks need a privilege there
	}
	outside := filepath.Join(t.TempDir(), "meta.json")
	write(outside, `{"agentType":"OUTSIDE","description":"x"}`)
	if err := os.Symlink(outside, side); err != nil {
		t.Fatal(err)
	}
	if got := meta(); got != "|" {
		t.Fatalf("sidecar read through a symlink out of the root: %q", got)
	}
}
