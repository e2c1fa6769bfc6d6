package redact

import "golang.org/x/sys/cpu"

// pairBlocks: the classifier is SSSE3's PSHUFB, a table lookup of sixteen
// nibbles at once, which all but the oldest amd64 processors have; AVX2's
// VPSHUFB does thirty-two.
var (
	pairBlocks = cpu.X86.HasSSSE3
	pairAVX2   = cpu.X86.HasAVX2
)

// pairCandidates marks in masks, a bit per pair of bytes (s[j], s[j+1]),
// bit j%64 of masks[j/64], the pairs the classifier of t selects: a
// superset of those for which rawPair is not 0. It writes the
// (len(s)-1+63)/64 words the pairs need, and zero bits past the last
// pair; len(s) must be at least pairBlockMin, and masks long enough.
func pairCandidates(s string, masks []uint64, t *pairTables) {
	if len(s) < pairBlockMin {
		panic("redact: pairCandidates of a string shorter than pairBlockMin")
	}
	_ = masks[(len(s)-2)/64] // a short masks panics here, not in the assembly
	pairClassify(s, masks, t, pairAVX2)
}

// pairClassify is pairCandidates with SSSE3, or with AVX2.
//
//go:noescape
func pairClassify(s string, masks []uint64, t *pairTables, avx2 bool)
