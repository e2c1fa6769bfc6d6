package transcript

import (
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Truncate cuts s to at most max runes, on a rune boundary, the last being
// "…" when it cut anything. It does not copy.
func Truncate(s string, max int) string {
	if len(s) <= max || utf8.RuneCountInString(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if n == max-1 {
			return strings.ToValidUTF8(s[:i], "") + "…"
		}
		n++
	}
	return s
}

// Clip returns a copy of s cut to max runes (invalid UTF-8 repaired), safe to
// keep after the line buffer is reused. Text is cut before it is redacted,
// so a cut must never leave part of a secret the redactor can no longer
// recognise: a cut drops the partial word at its end, and a PEM block whose
// END line was cut off.
func Clip(s string, max int) string {
	v := ClipView(s, max)
	if unsafe.StringData(v) == unsafe.StringData(s) { // s itself: a cut or a repair is a new string already
		return strings.Clone(v)
	}
	return v
}

// ClipView is Clip without the copy: what it returns may share s's bytes,
// for a caller that copies it where it keeps it.
func ClipView(s string, max int) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if len(s) <= max || utf8.RuneCountInString(s) <= max {
		return s
	}
	cut := strings.TrimSuffix(Truncate(s, max), "…")
	if next := s[len(cut):]; next == "" || !strings.ContainsAny(next[:1], " \t\n\r") {
		// The cut fell inside a word: drop the partial word.
		if i := strings.LastIndexAny(cut, " \t\n\r"); i >= 0 {
			cut = cut[:i]
		} else {
			cut = ""
		}
	}
	if b := strings.LastIndex(cut, "-----BEGIN"); b >= 0 && !strings.Contains(cut[b:], "-----END") {
		cut = cut[:b]
	}
	return strings.TrimRight(cut, " \t\n\r") + "…"
}

// Hash63 is a stable, non-negative 63-bit hash of strings: FNV-1a (hash/fnv's
// New64a) over each part and a 0 byte after it, shifted right once. Cursor
// positions use it to tell items apart without holding an id or a path, so it
// must never change.
func Hash63(parts ...string) int64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for _, p := range parts {
		for i := 0; i < len(p); i++ {
			h = (h ^ uint64(p[i])) * prime
		}
		h *= prime // the 0 byte after each part: h ^ 0 == h
	}
	return int64(h >> 1)
}
