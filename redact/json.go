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

// MayHoldJSON is FindJSON's pre-check over any run of a raw line's bytes:
// false when no trigger in b starts a match that reads only b's bytes. A
// reader that cannot hold a long line whole may give it in pieces, each
// seam between two pieces with JSONReach bytes on either side as one more:
// when MayHoldJSON is false for every piece and every seam, FindJSON finds
// nothing in the line. Each matcher of the pre-check reads less than that
// around its trigger, so a match lies within one of them, read there as in
// the whole line (a piece's edges read as the line's: more maybes, never
// fewer).
func MayHoldJSON(b []byte) bool {
	return len(b) > 0 && !jsonClean(unsafe.String(unsafe.SliceData(b), len(b)))
}

// JSONReach is more than the pre-check reads around a trigger: a matcher's
// streamAhead after it, and before it an assignment's name with its
// blanks, quotes and escapes (rawAssignment's 128 bytes, plainKey's 81).
const JSONReach = streamAhead + 1<<10

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
//     clear (mayHoldSecretWord), the most common names by a table lookup
//     (commonKey). On amd64 a vector classifier finds those pairs
//     (rawBlocks), 64 at a time.
func jsonClean(s string) bool { return rawClean(s, pairBlocks) }

// rawClean is jsonClean, with the vector classifier or without (blocks).
func rawClean(s string, blocks bool) bool {
	if s == "" {
		return true
	}
	sc := scanner{s: s, raw: true}
	if rawPair[uint16(s[0])<<8] != 0 && !sc.rawAt(0, uint32(rawPair[uint16(s[0])<<8])) {
		return false
	}
	i := 1
	if blocks && len(s) >= pairBlockMin {
		if i = sc.rawBlocks(); i < 0 {
			return false
		}
	}
	return sc.rawPairs(i)
}

// rawPairs runs the pre-check's matchers over the pairs of bytes ending at
// i (at least 1) and after, in order, and reports whether the line is
// still clear: the loop of every platform, and the tail of the vector one.
func (sc *scanner) rawPairs(i int) bool {
	b := unsafe.Slice(unsafe.StringData(sc.s), len(sc.s))
	for ; i+8 <= len(b); i += 8 {
		// The pairs ending at i..i+7, a nibble each: the matcher of each.
		w := b[i-1 : i+8 : i+8]
		if rawPair[binary.LittleEndian.Uint16(w[0:])]|rawPair[binary.LittleEndian.Uint16(w[1:])]|
			rawPair[binary.LittleEndian.Uint16(w[2:])]|rawPair[binary.LittleEndian.Uint16(w[3:])]|
			rawPair[binary.LittleEndian.Uint16(w[4:])]|rawPair[binary.LittleEndian.Uint16(w[5:])]|
			rawPair[binary.LittleEndian.Uint16(w[6:])]|rawPair[binary.LittleEndian.Uint16(w[7:])] == 0 {
			continue
		}
		m := uint32(rawPair[binary.LittleEndian.Uint16(w[0:])]) | uint32(rawPair[binary.LittleEndian.Uint16(w[1:])])<<4 |
			uint32(rawPair[binary.LittleEndian.Uint16(w[2:])])<<8 | uint32(rawPair[binary.LittleEndian.Uint16(w[3:])])<<12 |
			uint32(rawPair[binary.LittleEndian.Uint16(w[4:])])<<16 | uint32(rawPair[binary.LittleEndian.Uint16(w[5:])])<<20 |
			uint32(rawPair[binary.LittleEndian.Uint16(w[6:])])<<24 | uint32(rawPair[binary.LittleEndian.Uint16(w[7:])])<<28
		for m != 0 {
			k := bits.TrailingZeros32(m) &^ 3
			if !sc.rawAt(i+k>>2, m>>k&15) {
				return false
			}
			m &^= 15 << k
		}
	}
	for ; i < len(b); i++ {
		if kind := rawPair[binary.LittleEndian.Uint16(b[i-1:])]; kind != 0 && !sc.rawAt(i, uint32(kind)) {
			return false
		}
	}
	return true
}

// rawBlocks runs the pre-check's matchers over the pairs of bytes ending at
// 1 and after, pairCandidates marking those a matcher may select, a chunk
// at a time, and rawPair choosing among them, in the order rawPairs runs
// them. It returns where rawPairs goes on (the pairs under pairBlockMin
// bytes from the end may be left to it), or -1 when the line is not clear.
// The answers rawAt would give first are given before its call: a common
// key's colon (commonKey), plainKey's, and a matcher whose first bytes are
// missing (mayStartAt).
func (sc *scanner) rawBlocks() int {
	s := sc.s
	var masks [pairChunk / 64]uint64
	off := 0 // the first byte of the chunk's first pair
	for ; len(s)-off >= pairBlockMin; off += pairChunk {
		end := min(off+pairChunk+1, len(s))
		pairCandidates(s[off:end], masks[:], &pairNibbles)
		for w, m := range masks[:(end-off-1+63)/64] {
			for base := off + w*64; m != 0; m &= m - 1 {
				j := base + bits.TrailingZeros64(m)
				var kind uint8
				if pair := uint16(s[j]) | uint16(s[j+1])<<8; pair == '"'|':'<<8 {
					if j+2 < len(s) && (s[j+2] == '{' || s[j+2] == '[') || commonKey(s, j+1) || plainKey(s, j+1) {
						// The most common: a JSON key's colon. An object or an
						// array after it is plainKey's first answer, taken
						// before commonKey's look back at the name.
						continue
					}
					kind = rtColon
				} else {
					kind = rawPair[pair]
					if kind == 0 || kind <= rtEq && plainKey(s, j+1) {
						continue // most: rawAt's first answer, without its switch
					}
					if kind >= rtUnder && !mayStartAt(s, j, kind) {
						continue // "ba", "be" in words, "s_" without "sk"
					}
				}
				if !sc.rawAt(j+1, uint32(kind)) {
					return -1
				}
			}
		}
	}
	return off + 1
}

// mayStartAt is a cheap test of the bytes that the matcher kind, selected
// by the pair at j, needs first: false when rawAt would find nothing
// there. It knows the most frequent matchers after the operators': Bearer
// and Basic (atB) need "eare" or "asic" after the b, any case, the AWS and
// Google key prefixes (atA) "IA" or "za" after the pair, and the token
// prefixes of atUnderscore one letter before the pair (underBefore).
func mayStartAt(s string, j int, kind uint8) bool {
	switch kind {
	case rtAuth:
		if j+6 > len(s) {
			return false
		}
		w := binary.LittleEndian.Uint32([]byte(s[j+1:j+5])) | 0x20202020
		return w == 'e'|'a'<<8|'r'<<16|'e'<<24 || w == 'a'|'s'<<8|'i'<<16|'c'<<24
	case rtAWS: // AKIA, ASIA, AIza
		return j+4 <= len(s) && (s[j+2] == 'I' && s[j+3] == 'A' || s[j+2] == 'z' && s[j+3] == 'a')
	case rtUnder:
		if j == 0 {
			return false
		}
		c := s[j-1] - 'a'
		return c < 26 && underBefore[s[j]]>>c&1 != 0
	}
	return true
}

// underBefore holds, for the letter before an '_' that atUnderscore looks
// at, the letters that may stand before it, a bit each (a is bit 0): the h
// of ghp_ (gho_, ghu_, ghs_, ghr_) and hf_, the u of github_, the p of
// npm_, the s and r of sk_ and rk_, the e of whsec_.
var underBefore = func() (t [256]uint32) {
	for _, prefix := range []string{"ghp", "gho", "ghu", "ghs", "ghr", "hub", "hf", "npm", "sk", "rk", "sec"} {
		t[prefix[len(prefix)-1]] |= 1 << (prefix[len(prefix)-2] - 'a')
	}
	return t
}()

// rawAt runs the pre-check's matcher kind (an rt constant) at i and
// reports whether the line is still clear.
func (sc *scanner) rawAt(i int, kind uint32) bool {
	s := sc.s
	switch kind {
	case rtColon:
		if i > 0 && s[i-1] == '"' && commonKey(s, i) || plainKey(s, i) {
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
	case rtPEM: // the B of "-----BEGIN "
		if i >= 5 && s[i-5:i] == "-----" && strings.HasPrefix(s[i:], "BEGIN ") {
			return false
		}
	case rtSlack: // the o of "xox?-"
		if i+3 < len(s) && s[i+1] == 'x' && s[i+3] == '-' {
			sc.atDash(i + 3)
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
// rawAfter[the byte before it] share a bit, bit n-1 for matcher n; rawPair
// holds the matcher of each pair of bytes.
const (
	rtColon       = 1 + iota // ':' after a name, a quote or a blank
	rtEq                     // '=' likewise, or after ':'
	rtDash                   // '-' after sk, glpat.., pypi
	rtPEM                    // B after '-' (-----BEGIN)
	rtSlack                  // o after x (xox?-)
	rtUnder                  // '_' after gh?, github, hf, npm, sk/rk, whsec
	rtDot                    // '.' after SG, hooks
	rtAWS                    // K, S or I after A (AKIA, ASIA, AIza)
	rtTwilio                 // K after S
	rtJWT                    // J after y (eyJ)
	rtAuth                   // e or a after b (Bearer, Basic; any case)
	rtASCIIEscape            // 0 after u (\u00XX)
)

var rawTrigger, rawAfter = func() (trig, after [256]uint16) {
	set := func(t *[256]uint16, chars string, matchers ...int) {
		for i := 0; i < len(chars); i++ {
			for _, m := range matchers {
				t[chars[i]] |= 1 << (m - 1)
			}
		}
	}
	set(&trig, ":", rtColon)
	set(&trig, "=", rtEq)
	set(&trig, "-", rtDash)
	set(&trig, "B", rtPEM)
	set(&trig, "o", rtSlack)
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
			after[c] |= 1<<(rtColon-1) | 1<<(rtEq-1)
		}
	}
	set(&after, " \t?]\"'`\\", rtColon, rtEq)
	set(&after, ":", rtEq)
	set(&after, "kti", rtDash)
	set(&after, "-", rtPEM)
	set(&after, "x", rtSlack)
	set(&after, "pousrbfmkc", rtUnder)
	set(&after, "Gs", rtDot)
	set(&after, "A", rtAWS)
	set(&after, "S", rtTwilio)
	set(&after, "y", rtJWT)
	set(&after, "bB", rtAuth)
	set(&after, "u", rtASCIIEscape)
	return trig, after
}()

// rawPair[prev | c<<8] is the number (1 to 12, the bit's position plus one)
// of the matcher of the pair, or 0: it fits a nibble.
var rawPair = func() (t [1 << 16]uint8) {
	for p := 0; p < 256; p++ {
		for c := 0; c < 256; c++ {
			if h := rawTrigger[c] & rawAfter[p]; h != 0 {
				t[p|c<<8] = uint8(bits.TrailingZeros16(h) + 1)
			}
		}
	}
	return t
}()

// pairChunk is how many pairs of bytes rawBlocks has classified at once,
// a bit each; pairBlockMin the shortest string pairCandidates takes.
const (
	pairChunk    = 4096
	pairBlockMin = 65
)

// pairTables are the four 16-byte tables of a vector classifier of pairs:
// the trigger classes of a byte's low nibble and of its high nibble, then
// the after classes of the two nibbles. A pair (p, c) is a candidate when
// trigger[c&15] & trigger[16+c>>4] & after[p&15] & after[16+p>>4] != 0.
type pairTables [64]byte

// pairClass puts the pre-check's matchers in the eight classes a byte of
// pairTables holds. A class stands for every pair of one of the bytes its
// matchers trigger on with one of the bytes they follow, and a nibble table
// can only say that the low and the high nibble each belong: so each class
// holds the pairs of a product of nibble sets, a superset of its matchers'
// pairs. The classes are chosen so that the extra pairs are rare in
// transcripts: a search over the assignments, weighing each extra pair by
// how often it occurs in the public corpus, gave these. There the
// classifier marks 3.09 pairs in a hundred bytes (BenchmarkPairCandidates
// reports it), against 3.39 with the classes before (B with J, K S I
// after A with K after S), whose extras were mostly the QI, CC and SI of
// base64 images; the pre-check took 6.5% less time (BenchmarkJSONClean).
// On a generated history 2.71 against 2.79, and no time measurably.
var pairClass = [...]uint8{
	rtColon:       0, // ':' and '=', 0x3a 0x3d, after most of ASCII
	rtEq:          0,
	rtDash:        1,
	rtDot:         2, // '.' after SG, hooks
	rtSlack:       3, // o after x, 0 after u
	rtASCIIEscape: 3,
	rtUnder:       4,
	rtAWS:         5, // K S I after A
	rtPEM:         6, // B after '-', J after y, K after S
	rtJWT:         6,
	rtTwilio:      6,
	rtAuth:        7,
}

// pairNibbles holds the tables of pairClass: whenever rawPair selects a
// matcher, the classifier marks the pair.
var pairNibbles = func() (t pairTables) {
	for c := 0; c < 256; c++ {
		for m := rtColon; m <= rtASCIIEscape; m++ {
			bit := byte(1) << pairClass[m]
			if rawTrigger[c]&(1<<(m-1)) != 0 {
				t[c&15] |= bit
				t[16+c>>4] |= bit
			}
			if rawAfter[c]&(1<<(m-1)) != 0 {
				t[32+c&15] |= bit
				t[48+c>>4] |= bit
			}
		}
	}
	return t
}()

// plainKey is the cheap, exact answer for most operators of a raw line,
// the ':' of JSON keys and of prose, the '=' and ':=' of code: true when no
// rule can match at p, because there is no value or name, the value is an
// object, an array or shorter than a secret (read as rawValue reads it: a
// bare word ends at an escape that decodes to no value byte too), or the
// name's letters hold no secret word. False leaves the decision to
// rawColon or rawAssignment, as does any other backslash in the way.
func plainKey(s string, p int) bool {
	// The URL check of rawColon, and assignOp for the two operators.
	n := len(s)
	v := p + 1
	if v >= n {
		return true
	}
	nameEnd := p
	if c := s[v]; s[p] == ':' {
		if v+1 < n && (c == '/' || c == '\\' && s[v+1] == '/') {
			return false // maybe a URL's "://"
		}
		if c == ':' || c == '=' || p > 0 && s[p-1] == ':' {
			return true // "::", ":=" or ":=:": no assignment
		}
	} else {
		if c == '=' || c == '~' {
			return true // "==", "=~"
		}
		if c == '>' {
			v++
		}
		if p > 0 {
			switch opBefore[s[p-1]] {
			case opColon:
				nameEnd = p - 1
			case opOther:
				return true
			}
		}
	}
	for k := 0; k < 8 && v < n && (s[v] == ' ' || s[v] == '\t'); k++ {
		v++
	}
	if v >= n {
		return true
	}
	switch c := s[v]; {
	case c == '\\':
		// An escape, read as rawValue reads it: a line break is no value,
		// and a value quoted \"...\" is short when its end, or an escape
		// that ends it with none, comes in the 8 bytes after \" (rawQuoted).
		if v+1 < n && (s[v+1] == 'n' || s[v+1] == 'r') {
			return true
		}
		if v+10 <= n && s[v+1] == '"' {
			w := binary.LittleEndian.Uint64([]byte(s[v+2 : v+10]))
			if q := zeroByte(w^(lsb*'"')) | zeroByte(w^(lsb*'\\')) | zeroByte(w^(lsb*'\n')) | zeroByte(w^(lsb*'\r')); q != 0 {
				if e := v + 2 + bits.TrailingZeros64(q)>>3; s[e] != '\\' || e+1 < n && s[e+1] != '/' && s[e+1] != 'u' {
					return true
				}
			}
		}
	case isQuote(c):
		// The closing quote or a line break in the 8 bytes after the
		// opening quote ends the value short of a secret, or with none:
		// escapes only shorten the decoded value.
		if v+9 <= n {
			w := binary.LittleEndian.Uint64([]byte(s[v+1 : v+9]))
			if zeroByte(w^(lsb*uint64(c)))|zeroByte(w^(lsb*'\n'))|zeroByte(w^(lsb*'\r')) != 0 {
				return true
			}
		}
	case classes[c]&cValue == 0:
		return true // an object, an array, no value
	default:
		// A bare word shorter than a secret: it ends at a byte that is
		// no value's, or at an escape of one (all but \/ and \uXXXX).
		for k := v + 1; k < n && k < v+8; k++ {
			if c := s[k]; classes[c]&cValue == 0 {
				if c != '=' && (c != '\\' || k+1 < n && s[k+1] != '/' && s[k+1] != 'u') {
					return true
				}
				break
			}
		}
	}
	// The name, walked as nameBefore walks it: at most maxName+1 bytes.
	j := nameEnd
	for k := 0; k < 4 && j > 0 && (s[j-1] == ' ' || s[j-1] == '\t'); k++ {
		j--
	}
	if j > 0 && (s[j-1] == '?' || s[j-1] == ']') {
		j--
	}
	if j > 0 && isQuote(s[j-1]) {
		j--
	}
	name := s[max(0, j-maxName-1):j]
	var m uint32
	k := len(name)
	for ; k > 0; k-- {
		t := nameLetters[name[k-1]]
		if t == 0 {
			break
		}
		m |= t
	}
	if start := j - len(name) + k; start > 0 && s[start-1] == '\\' {
		return false
	}
	return !mayHoldSecretWord(m)
}

// nameLetters holds letterBit for the bytes of a name (cName), with bit 31
// set, and 0 for the others.
var nameLetters = func() (t [256]uint32) {
	for c := range t {
		if classes[c]&cName != 0 {
			t[c] = letterBit[c] | 1<<31
		}
	}
	return t
}()

// opBefore classes the byte before an '=' as assignOp does: the ':' of
// ":=", or the first byte of another operator (==, !=, <=, +=, ...).
var opBefore = func() (t [256]uint8) {
	t[':'] = opColon
	for _, c := range []byte("=!<>+-*/%&|^?~") {
		t[c] = opOther
	}
	return t
}()

const (
	opColon = 1 + iota
	opOther
)

// lsb has the low bit of every byte set.
const lsb = 0x0101010101010101

// zeroByte has the high bit set in each byte of w that is zero, and no
// other bit.
func zeroByte(w uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	return ^((w&low7 + low7) | w | low7)
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
