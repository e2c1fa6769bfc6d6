//go:build unix

package logs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHostileSpecialFiles: FIFOs, devices and directories where transcripts,
// meta files and spilled results are expected must never block a read.
func TestHostileSpecialFiles(t *testing.T) {
	if isolate(t, 60*time.Second) {
		return
	}
	e := newHostileEnv(t)
	e.write(hostileSID+".jsonl", []byte(strings.Replace(hostileBody("\n"), `"content":"a b c"`, `"content":"<persisted-output>preview</persisted-output>"`, 1)))
	e.write(hostileSID+"/subagents/agent-x.jsonl", []byte(hostileAgent("x")))
	mkfifo := func(p string) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	fifoSID := "ffffffff-8888-4888-8888-888888888888"
	mkfifo(e.hostile(fifoSID + ".jsonl"))                                       // a FIFO as a transcript
	mkfifo(e.hostile(hostileSID + "/subagents/agent-x.meta.json"))              // a FIFO as a meta file
	mkfifo(e.hostile(hostileSID + "/subagents/agent-fifo.jsonl"))               // a FIFO as a subagent file
	mkfifo(e.hostile(hostileSID + "/tool-results/toolu_h1.txt"))                // a FIFO as a spilled output
	os.MkdirAll(e.hostile("ffffffff-9999-4999-8999-999999999999.jsonl"), 0o755) // a folder named like a transcript
	if err := os.Symlink("/dev/zero", e.hostile("ffffffff-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl")); err != nil {
		t.Fatal(err)
	}
	snap := e.snapshotFresh()
	s := wantFlags(t, snap, hostileSID, 0, "verified")
	if len(s.Subagents) != 1 {
		t.Errorf("subagent_count %d, want 1 (the FIFO is not a transcript)", len(s.Subagents))
	}
	for _, id := range []string{fifoSID, "ffffffff-9999-4999-8999-999999999999", "ffffffff-aaaa-4aaa-8aaa-aaaaaaaaaaaa"} {
		if findSession(snap, id) != nil {
			t.Errorf("%s (not a regular file) is listed as a session", id)
		}
	}
	m, _ := CompileSearch("preview", false)
	noHang(t, 10*time.Second, "search with a FIFO spill", func() error {
		_, err := snap.Search(context.Background(), SearchQuery{Sessions: []*Session{s}, Limit: 5}, m)
		return err
	})
	e.checkNeighbour(snap)
}
