//go:build !amd64

package transcript

// quoteBlocks is false where no vector classifier is written: strings are
// searched byte-wise.
const quoteBlocks = false

func blockScan(b []byte) (end, reached int, saw bool) { return -1, 0, false }

// quoteAVX2 is never set here; the tests of the amd64 classifier read it.
var quoteAVX2 = false
