package redact

import (
	"math/bits"
	"testing"
	"unsafe"
)

// pairVariants are the vector classifiers this processor runs, each
// compared with the model.
func pairVariants() map[string]func(string, []uint64, *pairTables) {
	v := map[string]func(string, []uint64, *pairTables){}
	if pairBlocks {
		v["SSSE3"] = func(s string, masks []uint64, t *pairTables) { pairClassify(s, masks, t, false) }
	}
	if pairAVX2 {
		v["AVX2"] = func(s string, masks []uint64, t *pairTables) { pairClassify(s, masks, t, true) }
	}
	return v
}

// TestJSONCleanSSSE3 runs jsonClean with the SSSE3 classifier where AVX2
// would be chosen, over the corpora and random lines.
func TestJSONCleanSSSE3(t *testing.T) {
	if !pairBlocks || !pairAVX2 {
		t.Skip("the SSSE3 classifier is jsonClean's own here, or absent")
	}
	pairAVX2 = false
	defer func() { pairAVX2 = true }()
	TestPairCandidates(t)
	corpusLines(t, func(line string) {
		if got, want := jsonClean(line), jsonCleanPairs(line); got != want {
			t.Fatalf("jsonClean(%.300q) = %v, the plain loop says %v", line, got, want)
		}
	})
}

// BenchmarkPairCandidates is the classifier alone over the lines of
// benchLines, a chunk at a time as rawBlocks calls it. It also reports the
// pairs it marks in a hundred bytes (marked/100B, counted once outside the
// timed loop), what pairClass is chosen to keep low.
func BenchmarkPairCandidates(b *testing.B) {
	lines, n := benchLines(b)
	var masks [pairChunk / 64]uint64
	chunks := func(classify func(string, []uint64, *pairTables), visit func(words []uint64)) {
		for _, l := range lines {
			s := unsafe.String(unsafe.SliceData(l), len(l))
			for off := 0; len(s)-off >= pairBlockMin; off += pairChunk {
				end := min(off+pairChunk+1, len(s))
				classify(s[off:end], masks[:], &pairNibbles)
				visit(masks[:(end-off-1+63)/64])
			}
		}
	}
	for name, classify := range pairVariants() {
		b.Run(name, func(b *testing.B) {
			marked := 0
			chunks(classify, func(words []uint64) {
				for _, m := range words {
					marked += bits.OnesCount64(m)
				}
			})
			b.SetBytes(n)
			b.ReportAllocs()
			for b.Loop() {
				chunks(classify, func([]uint64) {})
			}
			b.ReportMetric(100*float64(marked)/float64(n), "marked/100B")
		})
	}
}
