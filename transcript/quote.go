package transcript

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// ClosingQuote returns the index of the quote that closes the JSON string
// opening at b[open] (a '"'), and whether the string holds an escape; -1
// when no quote closes it (the flag is then meaningless). The closing quote is
// the first one preceded by an even run of backslashes; the inside of the
// string is not checked, as a JSON skipper does not check it. The line
// decoders and the answer exit find strings this way, or, for a whole
// line at once, by QuoteIndex, which follows the same rule.
//
// On amd64 the string is walked a block of 64 bytes at a time, in assembly
// (quoteScan): a block's quotes and backslashes become two bit masks, the
// escaped positions follow from the backslash mask by carry arithmetic, and
// the first quote not escaped closes the string. Tool output holds an
// escaped quote or newline every few dozen bytes, which makes a byte search
// stop and restart that often; the block walk does not stop. Most strings
// are keys and short values, which end in the first block: ClosingQuote is
// the one call to the walk, small enough to be inlined into its callers,
// with no test of its own before it. Elsewhere the search is byte-wise
// (closingFrom).
func ClosingQuote(b []byte, open int) (int, bool) {
	return quoteScan(b, open+1)
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

// Unquote decodes the inside of a JSON string that holds escapes, as sonic
// does (and as encoding/json does for valid UTF-8): other bytes are kept as they are (no UTF-8 check), a surrogate
// escape not paired with its other half reads as U+FFFD. ok is false for an
// escape JSON does not have.
func Unquote(s []byte) (string, bool) {
	out, ok := AppendUnquote(make([]byte, 0, len(s)), s)
	if !ok || len(out) == 0 {
		return "", ok
	}
	return unsafe.String(unsafe.SliceData(out), len(out)), true // out is this string's alone: no second copy
}

// AppendUnquote is Unquote appending the decoded bytes to out, for a caller
// that reuses a buffer (the text then lives as long as the buffer's bytes
// stay unchanged).
func AppendUnquote(out, s []byte) ([]byte, bool) {
	for i := 0; i < len(s); {
		k := bytes.IndexByte(s[i:], '\\')
		if k < 0 {
			out = append(out, s[i:]...)
			break
		}
		out = append(out, s[i:i+k]...)
		i += k
		if i+1 >= len(s) {
			return out, false
		}
		switch c := s[i+1]; c {
		case '"', '\\', '/':
			out = append(out, c)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(s[i+2:])
			if !ok {
				return out, false
			}
			i += 6
			if utf16.IsSurrogate(r) {
				r2, ok := rune(0), false
				if r < 0xdc00 && i+1 < len(s) && s[i] == '\\' && s[i+1] == 'u' {
					r2, ok = hex4(s[i+2:])
				}
				if ok && r2 >= 0xdc00 && r2 < 0xe000 {
					r, i = utf16.DecodeRune(r, r2), i+6
				} else {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
			continue
		default:
			return out, false
		}
		i += 2
	}
	return out, true
}

// hex4 reads the four hex digits of a \u escape.
func hex4(s []byte) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
