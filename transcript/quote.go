package transcript

import "bytes"

// ClosingQuote returns the index of the quote that closes the JSON string
// opening at b[open] (a '"'), and whether the string holds an escape; -1
// when no quote closes it (the flag is then meaningless). The closing quote is
// the first one preceded by an even run of backslashes; the inside of the
// string is not checked, as a JSON skipper does not check it. The line
// decoders and the answer exit find strings this one way.
//
// Where the processor can classify 64 bytes at once (quoteBlocks), the string
// is walked a block at a time (blockScan): a block's quotes and backslashes
// become two bit masks, the escaped positions follow from the backslash mask
// by carry arithmetic, and the first quote not escaped closes the string.
// Tool output holds an escaped quote or newline every few dozen bytes, which
// makes a byte search stop and restart that often; the block walk does not
// stop. The last bytes of b, fewer than a block, are searched byte-wise.
func ClosingQuote(b []byte, open int) (int, bool) {
	from, saw := open+1, false
	if quoteBlocks && len(b)-from >= 64 {
		end, reached, esc := blockScan(b[from:])
		if end >= 0 {
			return from + end, esc
		}
		from, saw = from+reached, esc
	}
	return closingFrom(b, open, from, saw)
}

// closingFrom searches byte-wise from b[from] for the quote that closes the
// string opening at b[open]; saw reports an escape met before from.
func closingFrom(b []byte, open, from int, saw bool) (int, bool) {
	esc := saw
	for j := from; ; {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1, esc
		}
		q := j + k
		n := 0
		for p := q - 1; p > open && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q, esc || bytes.IndexByte(b[from:q], '\\') >= 0
		}
		esc, j = true, q+1
	}
}
