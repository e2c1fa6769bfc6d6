package logs

// pairBlocks: every amd64 processor has SSE2, which tests 16 bytes in one
// compare.
const pairBlocks = true

// pairScan is nextPair over the whole 16-byte blocks of a (len(b) >=
// len(a)): at is the first k with a[k]|m1 == c1 and b[k]|m2 == c2, or -1
// when none is in the blocks; reached is where the blocks ended (a multiple
// of 16, len(a)-reached < 16).
//
//go:noescape
func pairScan(a, b []byte, c1, m1, c2, m2 byte) (at, reached int)
