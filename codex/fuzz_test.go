package codex

// FuzzReader feeds arbitrary bytes to the reader and the summary fold: they
// must never panic, and the counts must stay consistent. `go test` runs the
// seeds; `go test -fuzz=^FuzzReader$ ./codex/` explores, and crashers land
// in testdata/fuzz/FuzzReader/ to be committed.

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-activity/agent-activity/transcript"
)

// fuzzSeeds are the fixture files whole and the first lines of every
// public rollout (lines capped so the seed corpus runs quickly).
func fuzzSeeds(tb testing.TB) [][]byte {
	var out [][]byte
	filepath.WalkDir(fixtureHome, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, err := os.ReadFile(p); err == nil {
				out = append(out, b)
			}
		}
		return nil
	})
	filepath.WalkDir(corpusBase, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return nil
		}
		defer f.Close()
		var buf bytes.Buffer
		br := bufio.NewReaderSize(f, 1<<20)
		for i := 0; i < 30; i++ {
			line, err := br.ReadBytes('\n')
			if len(line) <= 16<<10 {
				buf.Write(line)
			}
			if err != nil {
				break
			}
		}
		out = append(out, buf.Bytes())
		return nil
	})
	out = append(out, []byte(""), []byte("\n\n"), []byte("{"), []byte(`{"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":null}}}`),
		[]byte(`{"type":"response_item","payload":{"type":"function_call","arguments":"{\"command\":[1,2]}"}}`+"\n"),
		[]byte(`{"type":"session_meta","payload":{"id":"a","forked_from_id":"b"}}`+"\n"+`{"type":"session_meta","payload":{"id":"b"}}`+"\n"))
	return out
}

func FuzzReader(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rd := NewReader(context.Background(), bytes.NewReader(data))
		s := newSummarizer("rollout-2026-01-02T10-00-00-01900000-0001-7000-8000-000000000001.jsonl")
		entries, prev := 0, 0
		for rd.Scan() {
			e := rd.Entry()
			if rd.Line() <= prev || e.Line != rd.Line() {
				t.Fatalf("line %d after %d (entry says %d)", rd.Line(), prev, e.Line)
			}
			prev = rd.Line()
			_ = e.Clone()
			_ = e.Kind.String() + e.Result.String()
			s.fold(e)
			entries++
		}
		if rd.Err() != nil {
			t.Fatalf("err %v", rd.Err())
		}
		if rd.Lines() != entries+rd.Skipped() {
			t.Fatalf("lines %d, entries %d, skipped %d", rd.Lines(), entries, rd.Skipped())
		}
		if rd.Torn() && len(data) > 0 && data[len(data)-1] == '\n' {
			t.Fatalf("torn although the input ends with a newline")
		}
		r := s.finish(rd)
		if r.Entries != entries || len(r.OwnResponses())+r.CopiedResponses != len(r.Responses) {
			t.Fatalf("rollout counts: %d entries, %d responses (%d copied)", r.Entries, len(r.Responses), r.CopiedResponses)
		}
		_ = AssignOwners([]*Rollout{r, r})

		// The transcript reader over the same bytes: every part filled, and
		// as many responses with usage as the fold counted.
		er := Agent{}.NewReader(context.Background(), bytes.NewReader(data), 0, 0)
		defer er.Close()
		counted := 0
		for er.Scan() {
			if e, ok := er.Entry(transcript.WantText | transcript.WantInputs); ok && e.Response != nil && e.Response.HasUsage {
				counted++
			}
		}
		if er.Err() != nil || counted != len(r.Responses) {
			t.Fatalf("entry reader: err %v, %d responses with usage, the fold counted %d", er.Err(), counted, len(r.Responses))
		}
	})
}
