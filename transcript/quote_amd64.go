package transcript

import "golang.org/x/sys/cpu"

// quoteAVX2: where the processor has AVX2, quoteScan classifies a block
// with two 32-byte compares per byte kind instead of four of SSE2's 16
// (which every amd64 processor has). The assembly reads it.
var quoteAVX2 = cpu.X86.HasAVX2

// quoteBatch: where the processor has BMI1 and POPCNT (all but the oldest
// amd64 ones; every one with AVX2), quoteIndex writes a block's quotes
// eight at a time without a test between them, instead of one a turn of a
// loop whose end is hard to foretell; the few after a backslash are
// flagged afterwards.
var quoteBatch = cpu.X86.HasBMI1 && cpu.X86.HasPOPCNT

// quoteScan is ClosingQuote's search from b[from] on, b[from-1] being the
// opening quote: the index of the first quote not escaped, or -1, and
// whether a backslash comes before it (before the end of b when none).
//
//go:noescape
func quoteScan(b []byte, from int) (end int, saw bool)

// quoteIndex is QuoteIndex's walk over blocks (see the assembly for its
// contract); quoteIndexed says it is there.
//
//go:noescape
func quoteIndex(b []byte, from int, state uint64, dst []uint32) (n int, next int, after uint64)

const quoteIndexed = true
