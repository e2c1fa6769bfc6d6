package codex

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkSummarize folds the largest public rollout (public-codex #13,
// 1.8 MB, 744 lines with 24 session_meta copies of the system prompt).
func BenchmarkSummarize(b *testing.B) {
	path := filepath.Join(corpusBase, "doudouqie66__CommonTools", "sessions", "2026", "06", "23",
		"rollout-2026-06-23T10-14-16-019ef241-b093-76a3-88f5-feaa328642e1.jsonl")
	st, err := os.Stat(path)
	if err != nil {
		b.Skipf("corpus: %v", err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Summarize(context.Background(), path); err != nil {
			b.Fatal(err)
		}
	}
}
