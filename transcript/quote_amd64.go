package transcript

import "golang.org/x/sys/cpu"

// quoteBlocks: every amd64 processor has SSE2, which classifies 16 bytes in
// one compare; quoteAVX2, where the processor has AVX2, has blockScan
// classify 32 at once (read by the assembly).
const quoteBlocks = true

var quoteAVX2 = cpu.X86.HasAVX2

// blockScan looks for the first quote of b that no backslash escapes, b being
// the inside of a JSON string and its rest, in whole 64-byte blocks. end is
// that quote's index, or -1 when none is in the blocks walked; reached is how
// far the walk got (a multiple of 64; len(b)-reached < 64 when end is -1);
// saw reports a backslash before end, or before reached.
//
//go:noescape
func blockScan(b []byte) (end, reached int, saw bool)
