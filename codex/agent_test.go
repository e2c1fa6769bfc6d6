package codex

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/agent-activity/agent-activity/logs"
	"github.com/agent-activity/agent-activity/pricing"
	"github.com/agent-activity/agent-activity/transcript"
)

// entrySig is what logs reads of an entry, as text.
func entrySig(e *transcript.Entry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s %d sid=%s cwd=%s meta=%v", e.Line, e.Type, e.Role, e.SessionID, e.Cwd, e.Meta)
	if r := e.Response; r != nil {
		fmt.Fprintf(&b, " resp=%s/%s/%v/%+v/%v", r.ID, r.Model, r.HasUsage, r.Usage, r.APIError)
	}
	for _, c := range e.Calls {
		fmt.Fprintf(&b, " call=%s/%s/%s/%d/%v", c.ID, c.Name, c.Path, c.Action, c.More)
	}
	for _, r := range e.Results {
		fmt.Fprintf(&b, " res=%s/%d", r.ToolUseID, r.State)
	}
	if e.HasPrompt {
		fmt.Fprintf(&b, " prompt=%q", e.Prompt)
	}
	return b.String()
}

// readEntries reads path from byte offset (after lines lines) with the
// agent's reader, as logs does when a file grew.
func readEntries(t *testing.T, path string, offset int64, lines int) (sigs []string, consumed int64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(offset, 0); err != nil {
		t.Fatal(err)
	}
	er := Agent{}.NewReader(context.Background(), f, offset, lines)
	defer er.Close()
	for er.Scan() {
		if e, ok := er.Entry(0); ok {
			sigs = append(sigs, entrySig(e))
		}
		er.Lines().Commit()
	}
	if err := er.Err(); err != nil {
		t.Fatal(err)
	}
	consumed, _ = er.Lines().Consumed()
	return sigs, consumed
}

// A read resumed at any line boundary yields exactly the entries a whole
// read yields from there: same response ids (so the same totals count), same
// models, prompts and calls. Offsets and line numbers stay the file's.
func TestReaderResumes(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(fixtureHome, "sessions", "*", "*", "*", "*.jsonl"))
	corpus, _ := filepath.Glob(filepath.Join(corpusBase, "*", "sessions", "*", "*", "*", "*.jsonl"))
	for _, path := range append(paths, corpus...) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		whole, end := readEntries(t, path, 0, 0)
		if end != int64(len(data)) {
			t.Errorf("%s: consumed %d of %d bytes", path, end, len(data))
		}
		lines := bytes.SplitAfter(data, []byte("\n"))
		step := max(1, len(lines)/7)
		var offset int64
		for n := 0; n < len(lines); n++ {
			if n > 0 && n%step == 0 {
				got, end := readEntries(t, path, offset, n)
				var want []string
				for _, w := range whole {
					if line, _, _ := strings.Cut(w, " "); atoi(line) > n {
						want = append(want, w)
					}
				}
				if strings.Join(got, "\n") != strings.Join(want, "\n") || end != int64(len(data)) {
					t.Errorf("%s resumed after line %d: %d entries, first %q; want %d from %q", filepath.Base(path), n, len(got), first(got), len(whole)-n, first(want))
					break
				}
			}
			offset += int64(len(lines[n]))
		}
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// store reads a Codex root through logs, as the server does.
func store(root string) *logs.Store {
	table, _ := pricing.Load([]byte(`{}`), nil, "")
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	return logs.NewStore(logs.Config{Sources: []logs.Source{{Agent: Agent{}, Roots: []string{root}}},
		Now: func() time.Time { return now }, Pricing: table})
}

// figures sums what the tools report of every session.
func figures(t *testing.T, st *logs.Store) string {
	t.Helper()
	snap, err := st.Snapshot(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, s := range snap.Sessions {
		c := logs.CountCalls(s, false)
		fmt.Fprintf(&b, "%s %s %+v msgs=%d prompts=%q calls=%+v\n", s.ID, s.Agent, s.Usage.Total.Usage, s.MessageCount, s.FirstPrompt(), c.Total)
	}
	return b.String()
}

// A rollout that grows (plain, then as a .zst rewritten whole) reads the
// same through the store's incremental path as from scratch.
func TestStoreGrowingRollout(t *testing.T) {
	src, _ := filepath.Glob(filepath.Join(corpusBase, "*", "sessions", "*", "*", "*", "*019f4efb-ae76*.jsonl"))
	if len(src) != 1 {
		t.Skip("public Codex corpus not found")
	}
	data, _ := os.ReadFile(src[0])
	cut := bytes.Index(data[len(data)/2:], []byte("\n")) + len(data)/2 + 1
	for _, compressed := range []bool{false, true} {
		root := t.TempDir()
		dir := filepath.Join(root, "sessions", "2026", "07", "11")
		os.MkdirAll(dir, 0o755)
		path := filepath.Join(dir, filepath.Base(src[0]))
		write := func(b []byte) {
			if compressed {
				enc, _ := zstd.NewWriter(nil)
				b = enc.EncodeAll(b, nil)
			}
			if err := os.WriteFile(path+map[bool]string{true: ".zst"}[compressed], b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		write(data[:cut])
		st := store(root)
		half := figures(t, st)
		write(data)
		grown := figures(t, st)
		fresh := figures(t, store(root))
		if grown != fresh || grown == half {
			t.Errorf("compressed=%v: after growing\n%s\nfrom scratch\n%s", compressed, grown, fresh)
		}
		if !strings.Contains(fresh, "{Input:468845 Output:15166 CacheCreate5m:0 CacheCreate1h:0 CacheRead:4668032 Reasoning:4694") {
			t.Errorf("compressed=%v: figures %s", compressed, fresh)
		}
	}
}

// A long line of a plain rollout (read again from its file at its length)
// and of a compressed one (grown as it is read) yields what the line did
// before it was long: a tool output padded past the read buffer changes no
// entry.
func TestLongLineOfARollout(t *testing.T) {
	src, _ := filepath.Glob(filepath.Join(corpusBase, "*", "sessions", "*", "*", "*", "*019f4efb-ae76*.jsonl"))
	if len(src) != 1 {
		t.Skip("public Codex corpus not found")
	}
	data, _ := os.ReadFile(src[0])
	want, _ := readEntries(t, src[0], 0, 0)
	marker := []byte(`"text":"Script completed`)
	at := bytes.Index(data, marker)
	if at < 0 {
		t.Fatal("no tool output to pad")
	}
	at += len(`"text":"`)
	padded := append(append(append([]byte(nil), data[:at]...), bytes.Repeat([]byte("y"), 600<<10)...), data[at:]...)
	dir := t.TempDir()
	for name, b := range map[string][]byte{"plain.jsonl": padded, "packed.jsonl.zst": nil} {
		if b == nil {
			enc, _ := zstd.NewWriter(nil)
			b = enc.EncodeAll(padded, nil)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		got, consumed := readEntries(t, path, 0, 0)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: %d entries, first %q; want %d", name, len(got), first(got), len(want))
		}
		if name == "plain.jsonl" && consumed != int64(len(padded)) {
			t.Errorf("%s: consumed %d of %d bytes", name, consumed, len(padded))
		}
	}
	// The plain one is read again from its file, at offsets.
	f, err := os.Open(filepath.Join(dir, "plain.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	spy := &readsAt{File: f}
	er := Agent{}.NewReader(context.Background(), spy, 0, 0)
	for er.Scan() {
	}
	er.Close()
	if spy.n != 1 {
		t.Errorf("the plain rollout's long line was read again %d times at offsets, want 1", spy.n)
	}
}

// readsAt is a file that counts its ReadAt calls.
type readsAt struct {
	*os.File
	n int
}

func (r *readsAt) ReadAt(p []byte, off int64) (int, error) {
	r.n++
	return r.File.ReadAt(p, off)
}
