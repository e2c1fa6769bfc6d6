package claudecode

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkFastDecode measures the one-pass line decoder alone, on lines
// already in memory: the public corpus's, or up to 128 MB of
// AGENT_ACTIVITY_BENCH_ROOT's (':'-separated roots, a generated history from
// scripts/gencorpus).
func BenchmarkFastDecode(b *testing.B) {
	lines := corpusLines(b)
	if r := os.Getenv("AGENT_ACTIVITY_BENCH_ROOT"); r != "" {
		lines = benchLines(b, filepath.SplitList(r), 128<<20)
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

// benchLines is the non-blank lines of the JSONL files under roots, up to
// about max bytes.
func benchLines(b *testing.B, roots []string, max int) [][]byte {
	var lines [][]byte
	n := 0
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") || n >= max {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			n += len(data)
			for _, l := range bytes.Split(data, []byte("\n")) {
				if len(bytes.TrimSpace(l)) > 0 {
					lines = append(lines, l)
				}
			}
			return nil
		})
	}
	return lines
}
