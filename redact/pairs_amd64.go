package redact

import "golang.org/x/sys/cpu"

// pairBlocks: the classifier is SSSE3's PSHUFB, a table lookup of sixteen
// nibbles at once, which all but the oldest amd64 processors have.
var pairBlocks = cpu.X86.HasSSSE3

// pairCandidates marks in masks, a bit per pair of bytes (s[j], s[j+1]),
// bit j%64 of masks[j/64], the pairs the classifier of t selects: a
// superset of those for which rawPair is not 0. It writes the
// (len(s)-1+63)/64 words the pairs need, and zero bits past the last
// pair; len(s) must be at least pairBlockMin, and masks long enough.
//
//go:noescape
func pairCandidates(s string, masks []uint64, t *pairTables)
