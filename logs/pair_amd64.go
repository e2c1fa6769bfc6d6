package logs

import "golang.org/x/sys/cpu"

// pairBlocks: every amd64 processor has SSE2, which tests 16 bytes in one
// compare; with AVX2 (pairAVX2) pairScan tests 32.
const pairBlocks = true

var pairAVX2 = cpu.X86.HasAVX2

// pairScan is nextPair over the whole 16-byte blocks of a (len(b) >=
// len(a)): at is the first k with a[k]|m1 == c1 and b[k]|m2 == c2, or -1
// when none is in the blocks; reached is where the blocks ended (a multiple
// of 16, len(a)-reached < 16).
//
//go:noescape
func pairScanSSE2(a, b []byte, c1, m1, c2, m2 byte) (at, reached int)

// pairScanAVX2 is pairScanSSE2 over whole 64-byte blocks (reached is a
// multiple of 64, len(a)-reached < 64 when at is -1).
//
//go:noescape
func pairScanAVX2(a, b []byte, c1, m1, c2, m2 byte) (at, reached int)

func pairScan(a, b []byte, c1, m1, c2, m2 byte) (at, reached int) {
	if !pairAVX2 {
		return pairScanSSE2(a, b, c1, m1, c2, m2)
	}
	at, reached = pairScanAVX2(a, b, c1, m1, c2, m2)
	if at >= 0 || len(a)-reached < 16 {
		return at, reached
	}
	at, n := pairScanSSE2(a[reached:], b[reached:], c1, m1, c2, m2) // the blocks of 16 left
	if at >= 0 {
		at += reached
	}
	return at, reached + n
}
