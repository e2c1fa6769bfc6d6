package redact

import (
	"encoding/binary"
	"math/bits"
	"strings"
	"sync"
	"unsafe"
)

// FindJSON returns the findings in the text of line, one raw line of JSON:
// the line read as text with its string escapes decoded (\n, \t, \r, \",
// \\, \/ and \uXXXX; any other escape stays as written), so that a secret
// written across an escaped line break, a PEM block in a JSON string, is
// one finding. Start and End index that decoded text, not line; each
// Secret is a copy, not a view of line. Like Find it never fails and never
// panics.
//
// The result is Find(decodeJSON(nil, line)). The decoding, a copy of the
// line, is made only for a line that a pre-check over its raw bytes could
// not clear; most lines are cleared without it (see jsonClean).
func FindJSON(line []byte) []Finding {
	if len(line) == 0 || jsonClean(unsafe.String(unsafe.SliceData(line), len(line))) {
		return nil
	}
	return findDecoded(line)
}

// findDecoded is FindJSON without the pre-check: decode, then Find.
func findDecoded(line []byte) []Finding {
	bp := decodeBufs.Get().(*[]byte)
	b := decodeJSON((*bp)[:0], line)
	fs := Find(unsafe.String(unsafe.SliceData(b), len(b)))
	for i := range fs {
		fs[i].Secret = strings.Clone(fs[i].Secret) // b is reused
	}
	if cap(b) <= 1<<20 { // a multi-megabyte line's buffer is not kept
		*bp = b
		decodeBufs.Put(bp)
	}
	return fs
}

var decodeBufs = sync.Pool{New: func() any { return new([]byte) }}

// decodeJSON appends to dst the text of src, a raw line of JSON, with its
// string escapes decoded in place of a full parse: the structure stays,
// string contents read as text. \n, \t, \r, \", \\ and \/ become the byte
// they stand for and \uXXXX its UTF-8 (U+FFFD for a lone surrogate); an
// unknown or cut-off escape is copied as written.
func decodeJSON(dst, src []byte) []byte {
	for i := 0; i < len(src); i++ {
		// Copy the run up to the next escape at once: most of a line has none.
		if j := indexByte(src[i:], '\\'); j != 0 {
			if j < 0 {
				return append(dst, src[i:]...)
			}
			dst = append(dst, src[i:i+j]...)
			i += j
		}
		if i+1 >= len(src) {
			dst = append(dst, src[i])
			continue
		}
		i++
		switch src[i] {
		case 'n':
			dst = append(dst, '\n')
		case 't':
			dst = append(dst, '\t')
		case 'r':
			dst = append(dst, '\r')
		case '"', '\\', '/':
			dst = append(dst, src[i])
		case 'u':
			if i+4 < len(src) {
				var r rune
				ok := true
				for _, h := range src[i+1 : i+5] {
					r <<= 4
					switch {
					case h >= '0' && h <= '9':
						r |= rune(h - '0')
					case h >= 'a' && h <= 'f':
						r |= rune(h-'a') + 10
					case h >= 'A' && h <= 'F':
						r |= rune(h-'A') + 10
					default:
						ok = false
					}
				}
				if ok {
					dst = append(dst, string(r)...)
					i += 4
					continue
				}
			}
			dst = append(dst, '\\', 'u')
		default:
			dst = append(dst, '\\', src[i])
		}
	}
	return dst
}

func indexByte(b []byte, c byte) int {
	return strings.IndexByte(unsafe.String(unsafe.SliceData(b), len(b)), c)
}

// The pre-check.
//
// jsonClean reads a raw JSON line s and reports whether its decoded text
// (decodeJSON) certainly holds no finding; false means it may. It is the
// detector run over the raw bytes, made sound for them:
//
//   - A trigger of the decoded text is the same byte in the raw line: no
//     escape decodes to '-', '_', '.', ':', '=' or a letter, except \u00XX
//     for an ASCII XX, and a line holding one of those (never written by
//     JSON encoders for printable text) is not cleared.
//   - Most rules read only bytes no escape produces (letters, digits, '-',
//     '_', '.'), and boundaryBefore already takes \n, \uXXXX and the like
//     for boundaries: run over the raw line such a rule finds exactly what
//     it finds in the decoded text, so it is run as is.
//   - The rules whose bytes an escape can produce (a tab among blanks, a
//     '/' in a token, a line break in a PEM body, a quote around a value)
//     answer "maybe" (scanner.maybe) wherever an escape could change their
//     answer, and a private key header, a Slack webhook host or a secret
//     name is always "maybe": their values are left to the full detector.
//   - Each trigger is looked at only where the byte before it can start a
//     match (a gate on the pair of bytes), so the loop stops at a few in a
//     hundred bytes, mostly the ':' of JSON keys, which the name's letters
//     clear (mayHoldSecretWord).
func jsonClean(s string) bool {
	sc := scanner{s: s, raw: true}
	prev := byte(0)
	i := 0
	for ; i+8 <= len(s); i += 8 {
		// Eight pairs at once: the table holds which pairs are triggers.
		w := binary.LittleEndian.Uint64([]byte(s[i : i+8]))
		m := uint(rawPair[uint16(prev)|uint16(w<<8)]) | uint(rawPair[uint16(w)])<<1 |
			uint(rawPair[uint16(w>>8)])<<2 | uint(rawPair[uint16(w>>16)])<<3 |
			uint(rawPair[uint16(w>>24)])<<4 | uint(rawPair[uint16(w>>32)])<<5 |
			uint(rawPair[uint16(w>>40)])<<6 | uint(rawPair[uint16(w>>48)])<<7
		prev = byte(w >> 56)
		for ; m != 0; m &= m - 1 {
			if !sc.rawAt(i + bits.TrailingZeros(m)) {
				return false
			}
		}
	}
	for ; i < len(s); i++ {
		if rawPair[uint16(prev)|uint16(s[i])<<8] != 0 && !sc.rawAt(i) {
			return false
		}
		prev = s[i]
	}
	return true
}

// rawAt runs the pre-check's matcher of the trigger at i and reports
// whether the line is still clear.
func (sc *scanner) rawAt(i int) bool {
	s := sc.s
	prev := byte(0)
	if i > 0 {
		prev = s[i-1]
	}
	switch rawTrigger[s[i]] & rawAfter[prev] {
	case 0:
		return true
	case rtColon:
		if plainKey(s, i) {
			return true
		}
		sc.rawColon(i)
	case rtEq:
		if plainKey(s, i) {
			return true
		}
		sc.rawAssignment(i)
	case rtDash:
		sc.atDash(i)
	case rtPEM: // the fifth '-' of "-----BEGIN "
		if i >= 4 && s[i-4:i] == "----" && strings.HasPrefix(s[i+1:], "BEGIN ") {
			return false
		}
	case rtUnder:
		sc.atUnderscore(i)
	case rtDot:
		sc.atDot(i)
	case rtAWS:
		sc.atA(i - 1)
	case rtTwilio:
		sc.atS(i - 1)
	case rtJWT:
		sc.atJ(i)
	case rtAuth:
		sc.atB(i - 1)
	case rtASCIIEscape: // the first 0 of \u00XX with XX printable ASCII
		if i >= 2 && s[i-2] == '\\' && i+2 < len(s) && s[i+1] == '0' && s[i+2] >= '2' && s[i+2] <= '7' {
			return false
		}
	}
	return !sc.maybe && len(sc.cands) == 0
}

// The pre-check's triggers: a byte c is looked at when rawTrigger[c] and
// rawAfter[the byte before it] share a bit. A bit stands for one matcher.
const (
	rtColon       = 1 << iota // ':' after a name, a quote or a blank
	rtEq                      // '=' likewise, or after ':'
	rtDash                    // '-' after sk, glpat.., xox?, pypi
	rtPEM                     // '-' after '-'
	rtUnder                   // '_' after gh?, github, hf, npm, sk/rk, whsec
	rtDot                     // '.' after SG, hooks
	rtAWS                     // K, S or I after A (AKIA, ASIA, AIza)
	rtTwilio                  // K after S
	rtJWT                     // J after y (eyJ)
	rtAuth                    // e or a after b (Bearer, Basic; any case)
	rtASCIIEscape             // 0 after u (\u00XX)
)

var rawTrigger, rawAfter = func() (trig, after [256]uint16) {
	set := func(t *[256]uint16, chars string, bit uint16) {
		for i := 0; i < len(chars); i++ {
			t[chars[i]] |= bit
		}
	}
	set(&trig, ":", rtColon)
	set(&trig, "=", rtEq)
	set(&trig, "-", rtDash|rtPEM)
	set(&trig, "_", rtUnder)
	set(&trig, ".", rtDot)
	set(&trig, "KSI", rtAWS)
	set(&trig, "K", rtTwilio)
	set(&trig, "J", rtJWT)
	set(&trig, "eEaA", rtAuth)
	set(&trig, "0", rtASCIIEscape)
	// What may stand before an assignment's operator, raw: a name, the
	// blanks, '?', ']' and quotes nameBefore skips, and the backslash of
	// an escape (\t, \", \\).
	for c := 0; c < 256; c++ {
		if classes[c]&cName != 0 {
			after[c] |= rtColon | rtEq
		}
	}
	set(&after, " \t?]\"'`\\", rtColon|rtEq)
	set(&after, ":", rtEq)
	set(&after, "ktabeprsi", rtDash)
	set(&after, "-", rtPEM)
	set(&after, "pousrbfmkc", rtUnder)
	set(&after, "Gs", rtDot)
	set(&after, "A", rtAWS)
	set(&after, "S", rtTwilio)
	set(&after, "y", rtJWT)
	set(&after, "bB", rtAuth)
	set(&after, "u", rtASCIIEscape)
	return trig, after
}()

// rawPair[prev | c<<8] is 1 when the pair is a trigger: rawTrigger[c] and
// rawAfter[prev] share a bit.
var rawPair = func() (t [1 << 16]uint8) {
	for p := 0; p < 256; p++ {
		for c := 0; c < 256; c++ {
			if rawTrigger[c]&rawAfter[p] != 0 {
				t[p|c<<8] = 1
			}
		}
	}
	return t
}()

// plainKey is the cheap, exact answer for most operators of a raw line,
// the ':' after a JSON key: true when no rule can match there, because the
// value is an object, an array or shorter than a secret, or because the name
// cannot hold a secret word. False means the full matchers must decide.
func plainKey(s string, p int) bool {
	if s[p] == ':' && p+1 < len(s) && (s[p+1] == '/' || s[p+1] == '\\') {
		return false // maybe a URL's "://"
	}
	// The value: after a ':' or '=' (not ==, =~, =>) that starts with no
	// blank, an object or an array is no secret, nor a string or a bare
	// word of fewer than 8 bytes.
	if p+1 < len(s) {
		switch c := s[p+1]; {
		case c == '{' || c == '[':
			return true
		case c == '"':
			for k := p + 2; k < len(s) && k < p+10; k++ {
				if s[k] == '"' {
					return true
				}
				if s[k] == '\\' {
					break
				}
			}
		case classes[c]&cValue != 0 && c != '/' && c != '>' && c != '~':
			for k := p + 1; k < len(s) && k < p+9; k++ {
				if classes[s[k]]&cValue == 0 {
					if s[k] != '=' && s[k] != '\\' {
						return true
					}
					break
				}
			}
		}
	}
	// The name: a quoted JSON key, or a bare name, whose letters hold no
	// secret word (see mayHoldSecretWord). Any escape at either end of it
	// is left to nameBefore.
	j := p
	if j > 0 && s[j-1] == '"' {
		j--
	}
	var m uint32
	k := j
	for ; k > 0 && j-k <= maxName && classes[s[k-1]]&cName != 0; k-- {
		m |= letterBit[s[k-1]]
	}
	if k == j || (k > 0 && s[k-1] == '\\') {
		return false
	}
	return !mayHoldSecretWord(m)
}

// rawColon is the ':' of a raw line: a URL's "://" (whose slashes may be
// written \/) or an assignment.
func (sc *scanner) rawColon(i int) {
	s := sc.s
	if i+1 < len(s) && (s[i+1] == '\\' || (s[i+1] == '/' && i+2 < len(s) && s[i+2] == '\\')) {
		sc.rawURL(i) // either reading
		if !sc.maybe {
			sc.rawAssignment(i)
		}
		return
	}
	if i+2 < len(s) && s[i+1] == '/' && s[i+2] == '/' {
		sc.rawURL(i)
		return
	}
	sc.rawAssignment(i)
}

// rawURL answers maybe when the authority after "://" at i, read as
// urlCredentials reads it, may hold an '@'.
func (sc *scanner) rawURL(i int) {
	s := sc.s
	if i == 0 || classes[s[i-1]]&cAlnum == 0 {
		return
	}
	a := i + 1
	for k := 0; k < 2; k++ { // the two slashes, either written "/" or "\/"
		switch {
		case a < len(s) && s[a] == '/':
			a++
		case a+1 < len(s) && s[a] == '\\' && s[a+1] == '/':
			a += 2
		default:
			return
		}
	}
	// The authority ends at a stop byte, at most 513 bytes on; in the raw
	// line an escape ends it too, except \uXXXX of a non-ASCII letter (up
	// to 6 raw bytes for 2 decoded), so three raw bytes per decoded byte
	// cover it.
	for e := a; e < len(s) && e-a <= 3*513; e++ {
		c := s[e]
		if c == '@' {
			sc.maybe = true
			return
		}
		if classes[c]&cURLStop == 0 {
			continue
		}
		if c != '\\' || e+1 >= len(s) || s[e+1] != 'u' {
			return
		}
		e++
	}
}

// rawAssignment is assignment over a raw line. The name and the value are
// read as the decoded text has them where no escape is in the way, and an
// escape that could change either is a maybe.
func (sc *scanner) rawAssignment(p int) {
	s := sc.s
	nameEnd, v, ok := assignOp(s, p)
	if !ok {
		return
	}
	kind := nameAWS // not known: either rule
	start, end, sure := nameBefore(s, nameEnd)
	if sure {
		if start >= end {
			return
		}
		if kind = classifyName(s[start:end]); kind == nameNone {
			return
		}
	} else {
		// An escape near the name: the decoded name's letters are among
		// those of the raw bytes a name, its blanks, quotes and escapes can
		// be made of, in the 128 before the operator (80 name bytes, four
		// blanks written \u0009, an escaped '?', quote and backslash).
		var m uint32
		for k := nameEnd; k > 0 && nameEnd-k < 128 && nameRegion[s[k-1]]; k-- {
			m |= letterBit[s[k-1]]
		}
		if !mayHoldSecretWord(m) {
			return
		}
	}
	vs, ve, st := sc.rawValue(v)
	switch st {
	case rawMaybe:
		sc.maybe = true
	case rawExact:
		if val := s[vs:ve]; (kind == nameAWS && awsSecretValue(val)) || genericValueOK(val) {
			sc.maybe = true
		}
	}
}

// How a raw line's bytes stand for the decoded text's.
const (
	rawNone  = iota // the decoded text has none (no value)
	rawExact        // the same bytes
	rawMaybe        // an escape may change them
)

// rawValue is parseValue over a raw line: the value after the blanks at v,
// when it is written without escapes, or whether there is none.
func (sc *scanner) rawValue(v int) (start, end, state int) {
	s := sc.s
	n := len(s)
	for k := 0; k < 8 && v < n; k++ {
		if s[v] == ' ' || s[v] == '\t' {
			v++
		} else if s[v] == '\\' && v+1 < n && s[v+1] == 't' {
			v += 2
		} else {
			break
		}
	}
	if v >= n {
		return 0, 0, rawNone
	}
	switch c := s[v]; {
	case c == '\\':
		if v+1 >= n {
			return 0, 0, rawNone
		}
		switch s[v+1] {
		case '"': // a quote: the value runs to the next one
			return rawQuoted(s, v+2, '"')
		case 'n', 'r': // a line break: an empty bare value
			return 0, 0, rawNone
		case '\\', '/', 'u': // \" after all, a '/' or anything
			return 0, 0, rawMaybe
		}
		return 0, 0, rawNone // an unknown escape stays: '\' ends a bare value
	case isQuote(c):
		return rawQuoted(s, v+1, c)
	default:
		e := sc.span(v, cValue, maxValue+1)
		for e < n && s[e] == '=' && e-v <= maxValue {
			e++
		}
		if e+1 < n && s[e] == '\\' && s[e+1] == '/' {
			return 0, 0, rawMaybe // an escaped '/' goes on with the value
		}
		start, end, ok := sc.parseValue(v) // the same bytes decoded
		if !ok {
			return 0, 0, rawNone
		}
		return start, end, rawExact
	}
}

// rawQuoted reads a value quoted with q that starts at i in a raw line. It
// ends at the decoded q; the decoded text's \, line breaks and escapes that
// stay as written end it with no value, and a tab makes it no secret.
func rawQuoted(s string, i int, q byte) (start, end, state int) {
	start = i
	for ; i < len(s) && i-start <= maxValue; i++ {
		switch c := s[i]; c {
		case q:
			return start, i, rawExact
		case '\n', '\r':
			return 0, 0, rawNone
		case '\\':
			if i+1 >= len(s) {
				return 0, 0, rawNone
			}
			switch s[i+1] {
			case '"':
				if q == '"' {
					return start, i, rawExact
				}
				return 0, 0, rawMaybe
			case '/', 'u':
				return 0, 0, rawMaybe
			}
			return 0, 0, rawNone // \n, \r, \\, an unknown escape; \t: whitespace
		}
	}
	return 0, 0, rawNone
}

// nameRegion holds the raw bytes of a name and what nameBefore skips.
var nameRegion = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = classes[c]&cName != 0
	}
	for _, c := range []byte(" \t?]\"'`\\") {
		t[c] = true
	}
	return t
}()
