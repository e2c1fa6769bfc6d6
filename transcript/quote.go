package transcript

import "bytes"

// ClosingQuote returns the index of the quote that closes the JSON string
// opening at b[open] (a '"'), and whether the string holds an escape; -1
// when no quote closes it. The closing quote is the first one preceded by an
// even run of backslashes; the inside of the string is not checked, as a
// JSON skipper does not check it. The line decoders and the answer exit find
// strings this one way.
func ClosingQuote(b []byte, open int) (int, bool) {
	esc := false
	for j := open + 1; ; {
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
			return q, esc || bytes.IndexByte(b[open+1:q], '\\') >= 0
		}
		esc, j = true, q+1
	}
}
