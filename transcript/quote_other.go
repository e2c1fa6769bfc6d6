//go:build !amd64

package transcript

// quoteScan is the byte-wise search where no vector classifier is written.
func quoteScan(b []byte, from int) (int, bool) { return closingFrom(b, from-1, from, false) }

// quoteAVX2 is never set here; the tests of the amd64 classifier read it.
var quoteAVX2 = false

// quoteBatch is never set here either.
var quoteBatch = false

// quoteIndexed: no block walk of QuoteIndex's is written here.
const quoteIndexed = false

func quoteIndex(b []byte, from int, state uint64, dst []uint32) (n int, next int, after uint64) {
	panic("quoteIndex without a block walk")
}
