package claudecode

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkFastDecode measures the one-pass line decoder alone, on lines
// already in memory: the public corpus's, or up to 128 MB of
// AGENT_ACTIVITY_BENCH_ROOT's (':'-separated roots, a generated history from
// scripts/gencorpus).
func BenchmarkFastDecode(b *testing.B) {
	var lines [][]byte
	if r := os.Getenv("AGENT_ACTIVITY_BENCH_ROOT"); r != "" {
		lines = treeLines(b, filepath.SplitList(r), 128<<20)
	} else {
		lines = corpusLines(b)
	}
	n := 0
	for _, l := range lines {
		n += len(l)
	}
	b.SetBytes(int64(n))
	d := &fastDecoder{}
	declined := 0
	for b.Loop() {
		declined = 0
		for _, l := range lines {
			if !d.decode(l) {
				declined++
			}
		}
	}
	b.ReportMetric(float64(declined), "declined")
}
