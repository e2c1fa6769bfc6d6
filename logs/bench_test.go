package logs

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-activity/agent-activity/internal/fixture"
	"github.com/agent-activity/agent-activity/transcript"
)

func corpusBytes(b *testing.B, roots []string) int64 {
	var n int64
	for _, r := range roots {
		filepath.Walk(r, func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() && filepath.Ext(p) == ".jsonl" {
				n += info.Size()
			}
			return nil
		})
	}
	return n
}

// benchRoots is the public corpus, or AGENT_ACTIVITY_BENCH_ROOT when set (a
// generated corpus from scripts/gencorpus).
func benchRoots(b *testing.B) []string {
	if r := os.Getenv("AGENT_ACTIVITY_BENCH_ROOT"); r != "" {
		return filepath.SplitList(r)
	}
	return corpusRoots(b)
}

// BenchmarkFullScan measures a cold summary of every file (a fresh process).
func BenchmarkFullScan(b *testing.B) {
	roots := benchRoots(b)
	b.SetBytes(corpusBytes(b, roots))
	b.ReportAllocs()
	pt := testPricing(b)
	for i := 0; i < b.N; i++ {
		st := NewStore(Config{Agents: testAgents, Roots: roots, Now: func() time.Time { return testNow }, Pricing: pt})
		if _, err := st.Snapshot(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWarmRefresh measures a question asked again with nothing changed.
func BenchmarkWarmRefresh(b *testing.B) {
	roots := benchRoots(b)
	st := NewStore(Config{Agents: testAgents, Roots: roots, Now: func() time.Time { return testNow }, Pricing: testPricing(b)})
	if _, err := st.Snapshot(context.Background(), nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := st.Snapshot(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLineReader measures splitting lines alone.
func BenchmarkLineReader(b *testing.B) {
	var data []byte
	for _, r := range benchRoots(b) {
		filepath.Walk(r, func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() && filepath.Ext(p) == ".jsonl" && len(data) < 64<<20 {
				d, _ := os.ReadFile(p)
				data = append(data, d...)
			}
			return nil
		})
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		lr := transcript.NewLines(context.Background(), bytes.NewReader(data), 0, 0)
		for lr.Scan() {
		}
		lr.Close()
	}
}

// BenchmarkBuildSnapshot measures grouping and global deduplication alone,
// the work a refresh repeats when any file changed.
func BenchmarkBuildSnapshot(b *testing.B) {
	roots := benchRoots(b)
	st := NewStore(Config{Agents: testAgents, Roots: roots, Now: func() time.Time { return testNow }, Pricing: testPricing(b)})
	snap, err := st.Snapshot(context.Background(), nil)
	if err != nil {
		b.Fatal(err)
	}
	_, infos := discover(transcript.NewDirCache(), Config{Roots: roots, Agents: testAgents}, nil)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buildSnapshot(snap.cfg, st.files, infos)
	}
}

// BenchmarkAppendRefresh measures a look after one line was appended to a
// session (a live session writing), including usage_report-style work.
func BenchmarkAppendRefresh(b *testing.B) {
	// Appends go to a copy: a benchmark never writes to the corpus it reads.
	var roots []string
	for i, r := range benchRoots(b) {
		dst := filepath.Join(b.TempDir(), fmt.Sprint(i))
		if err := fixture.CopyTree(r, dst); err != nil {
			b.Fatal(err)
		}
		roots = append(roots, dst)
	}
	st := NewStore(Config{Agents: testAgents, Roots: roots, Now: func() time.Time { return testNow }, Pricing: testPricing(b)})
	snap, err := st.Snapshot(context.Background(), nil)
	if err != nil {
		b.Fatal(err)
	}
	s := snap.Sessions[0]
	if s.Main == nil {
		b.Skip("newest session has no main file")
	}
	path := s.Main.Path
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		fmt.Fprintf(f, `{"type":"assistant","sessionId":%q,"uuid":"b-%d","timestamp":"2026-11-29T23:59:00.000Z","message":{"id":"msg_b_%d","model":"claude-opus-4-5","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}`+"\n", s.ID, i, i)
		f.Close()
		sn, err := st.Snapshot(context.Background(), nil)
		if err != nil {
			b.Fatal(err)
		}
		sn.Report(ReportQuery{GroupBy: []string{"day"}})
	}
	b.StopTimer()
	b.ReportMetric(float64(st.extensions), "extensions")
	b.ReportMetric(float64(st.fullBuilds), "fullbuilds")
}
