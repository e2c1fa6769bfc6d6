package transcript

import "slices"

// QuoteIndex appends to dst the offset in b of every quote that no
// backslash escapes (the one after an odd run of backslashes is escaped,
// as ClosingQuote reads them), in order, with QuoteEscaped set on each
// one that has a backslash between it and the quote before it in the list
// (or the start of b). In a line of JSON these are the quotes that open and
// close its strings, in pairs: the quote after an opening one closes its
// string, and QuoteEscaped on it says the string holds an escape. A walk
// that meets a string at the next listed offset can take its end from the
// list instead of searching for it.
//
// It may write past the entries it appends, within dst's capacity.
//
// ok is false, and dst is returned as it is, where no block walk is written
// (all but amd64) or b is shorter than a block (64 bytes) or too long for
// its offsets to fit QuoteOffset: a caller then searches each string.
func QuoteIndex(b []byte, dst []uint32) (_ []uint32, ok bool) {
	if !quoteIndexed || len(b) < 64 || len(b) > QuoteOffset {
		return dst, false
	}
	var state uint64
	for from := 0; ; {
		if cap(dst)-len(dst) < 64 {
			dst = slices.Grow(dst, max(256, len(dst)))
		}
		n, next, after := quoteIndex(b, from, state, dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		if next >= len(b) {
			return dst, true
		}
		from, state = next, after
	}
}

// An entry of QuoteIndex: the quote's offset (QuoteOffset bits) and the
// escape flag.
const (
	QuoteEscaped = 1 << 31
	QuoteOffset  = QuoteEscaped - 1
)
