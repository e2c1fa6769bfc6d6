package logs

// The search pre-check's kernel: where two bytes of a needle both occur at
// their distance, folding ASCII case.
//
// A needle found by jumping from one occurrence of its rarest byte to the
// next stops at every occurrence: in these logs even the rarest letter of a
// word (the q of "quasar", which every "requestId" holds) comes thousands of
// times a file, and each stop restarts a byte search. Testing two of the
// needle's bytes, each at its place, in one pass over whole blocks stops
// only where both are (pairScan, in assembly where there is one).

// pair is two positions of a needle, p1 <= p2, and the bytes the line must
// hold there: a line byte b matches (c, m) when b|m == c, m being 0x20 for
// a letter (either case) and 0 for any other byte.
type pair struct {
	p1, p2 int
	c1, m1 byte
	c2, m2 byte
}

// pairOf picks the needle's two rarest bytes (by anchorRank) at distinct
// positions; a needle of one byte tests it twice.
func pairOf(needle []byte) pair {
	a := anchorOf(needle)
	b, bRank := a, 1000
	for i, c := range needle {
		if r := anchorRank(c); i != a && r < bRank {
			b, bRank = i, r
		}
	}
	if b < a {
		a, b = b, a
	}
	p := pair{p1: a, p2: b}
	p.c1, p.m1 = foldTest(needle[a])
	p.c2, p.m2 = foldTest(needle[b])
	return p
}

// foldTest is the (c, m) of a lower-case needle byte.
func foldTest(c byte) (byte, byte) {
	if c >= 'a' && c <= 'z' {
		return c, 0x20
	}
	return c, 0
}

// indexFoldASCII is where needle (lower case) first occurs in line, folding
// ASCII case, or -1.
func indexFoldASCII(line, needle []byte, p pair) int {
	n := len(needle)
	last := len(line) - n // the last place the needle could start
	for k := 0; k <= last; {
		at := nextPair(line[p.p1+k:p.p1+last+1], line[p.p2+k:p.p2+last+1], p)
		if at < 0 {
			return -1
		}
		pos := k + at
		if asciiEqualFold(line[pos:pos+n], needle) {
			return pos
		}
		k = pos + 1
	}
	return -1
}

// nextPair is the first k with a[k] and b[k] matching p's two tests, or -1;
// len(a) == len(b). Whole blocks go to pairScan, the rest byte by byte.
func nextPair(a, b []byte, p pair) int {
	from := 0
	if pairBlocks && len(a) >= 16 {
		at, reached := pairScan(a, b, p.c1, p.m1, p.c2, p.m2)
		if at >= 0 {
			return at
		}
		from = reached
	}
	return nextPairFrom(a, b, p, from)
}

// nextPairFrom is nextPair byte by byte from a[from].
func nextPairFrom(a, b []byte, p pair, from int) int {
	b = b[:len(a)]
	for k := from; k < len(a); k++ {
		if a[k]|p.m1 == p.c1 && b[k]|p.m2 == p.c2 {
			return k
		}
	}
	return -1
}
