package redact

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text is a string read from the logs on its way to an answer: a prompt, an
// excerpt, a command, an error message, a title. Every way out of it is
// redacted — Redacted, Clip, ClipInfo, String, Format (so every fmt verb,
// %#v included), MarshalJSON, MarshalText and LogValue — and none returns the
// raw string, so a Text placed in an output by mistake still leaves
// redacted. Invalid UTF-8 is never an error: it leaves as U+FFFD.
//
// The zero Text is the empty string. A Text is a small value, safe to copy
// and to use from any number of goroutines. It is not comparable with ==;
// use Equal.
//
// The string sits behind a pointer because fmt formats a struct's
// unexported fields by reflection, without calling their methods: a Text in
// an unexported field of a struct printed with %v (or a Text printed with
// %p) would otherwise show its raw string. Behind a pointer it shows as an
// address.
type Text struct {
	_   [0]func() // not comparable: == would compare pointers
	raw *string
}

// FromLog wraps s, a string read from a transcript. The Text keeps s itself:
// a caller reading into a reused buffer must pass a copy (strings.Clone),
// not a view of the buffer.
func FromLog(s string) Text { return Text{raw: box(s)} }

// Redacted returns the text with every secret replaced by
// "[REDACTED:<rule>]". It is not clipped.
func (t Text) Redacted() string { return String(validUTF8(unbox(t.raw))) }

// Clip returns the redacted text cut to at most max characters (runes), the
// last being "…" when anything was cut. The cut is made after redaction, so
// it cannot leave part of a secret that the redactor would no longer
// recognise; it never falls inside a "[REDACTED:<rule>]" marker (the whole
// marker goes); it falls at whitespace when there is some in the last third
// of what fits, and otherwise mid-word (a long path or URL is cut rather
// than dropped). A max below 1 returns "".
func (t Text) Clip(max int) string {
	return clip(t.Redacted(), max, true)
}

// ClipInfo returns what Clip returns and the length in runes of the whole
// redacted text, so an answer can say how long the text was.
func (t Text) ClipInfo(max int) (string, int) {
	r := t.Redacted()
	return clip(r, max, true), utf8.RuneCountInString(r)
}

// IsZero reports whether the text is empty. It also makes the json
// "omitzero" option leave an empty Text out.
func (t Text) IsZero() bool { return unbox(t.raw) == "" }

// ContainsFold reports whether sub occurs in the text, ignoring case
// (Unicode simple folding, as strings.EqualFold). It matches the text as
// read, except that secrets count as their markers: a filter cannot be used
// to guess a secret one character at a time. The empty sub is in every text.
func (t Text) ContainsFold(sub string) bool {
	return containsFoldRunes(t.Redacted(), sub)
}

// Equal reports whether two texts are the same string as read.
func (t Text) Equal(o Text) bool { return unbox(t.raw) == unbox(o.raw) }

// String returns Redacted, so that printing a Text cannot leak it.
func (t Text) String() string { return t.Redacted() }

// Format formats the redacted text with any verb and flags.
func (t Text) Format(f fmt.State, verb rune) { formatRedacted(f, verb, t.Redacted()) }

// MarshalJSON encodes the redacted text as a JSON string.
func (t Text) MarshalJSON() ([]byte, error) { return json.Marshal(t.Redacted()) }

// MarshalText returns the redacted text, for encoders that use
// encoding.TextMarshaler (encoding/xml, slog's text handler).
func (t Text) MarshalText() ([]byte, error) { return []byte(t.Redacted()), nil }

// LogValue makes log/slog record the redacted text.
func (t Text) LogValue() slog.Value { return slog.StringValue(t.Redacted()) }

// maxID bounds an identifier's output; real ids are far shorter.
const maxID = 200

// ID is an identifier read from the logs: a tool_use_id, an entry uuid, a
// session or agent id, a message or request id, a branch or model name. It
// leaves redacted like Text (a token-shaped id comes back as a marker) and
// cut to at most 200 runes, the last being "…", since an id is never clipped
// for the answer budget. Every way out is redacted, as for Text; invalid
// UTF-8 leaves as U+FFFD and is never an error.
//
// The zero ID is empty. IDs are small values, safe for concurrent use; like
// Text they hold the string behind a pointer and are not comparable with
// ==; use Equal.
type ID struct {
	_   [0]func()
	raw *string
}

// FromLogID wraps s, an identifier read from a transcript; like FromLog it
// keeps s itself.
func FromLogID(s string) ID { return ID{raw: box(s)} }

// Redacted returns the id with secrets replaced by "[REDACTED:<rule>]",
// cut to at most 200 runes.
func (id ID) Redacted() string { return clip(String(validUTF8(unbox(id.raw))), maxID, false) }

// IsZero reports whether the id is empty.
func (id ID) IsZero() bool { return unbox(id.raw) == "" }

// Equal reports whether two ids are the same string as read.
func (id ID) Equal(o ID) bool { return unbox(id.raw) == unbox(o.raw) }

// HasPrefixFold reports whether the id starts with prefix, ignoring case,
// as a session prefix is resolved. Like Text.ContainsFold it sees secrets
// as their markers.
func (id ID) HasPrefixFold(prefix string) bool {
	return prefixFold(String(validUTF8(unbox(id.raw))), prefix)
}

// String returns Redacted.
func (id ID) String() string { return id.Redacted() }

// Format formats the redacted id with any verb and flags.
func (id ID) Format(f fmt.State, verb rune) { formatRedacted(f, verb, id.Redacted()) }

// MarshalJSON encodes the redacted id as a JSON string.
func (id ID) MarshalJSON() ([]byte, error) { return json.Marshal(id.Redacted()) }

// MarshalText returns the redacted id.
func (id ID) MarshalText() ([]byte, error) { return []byte(id.Redacted()), nil }

// LogValue makes log/slog record the redacted id.
func (id ID) LogValue() slog.Value { return slog.StringValue(id.Redacted()) }

// formatRedacted prints s, already redacted, as fmt would print a string
// with the same verb and flags: %q quotes it, %x hexes it, %d reports a bad
// verb showing s — never the raw value.
func formatRedacted(f fmt.State, verb rune, s string) {
	fmt.Fprintf(f, fmt.FormatString(f, verb), s)
}

// box and unbox hold a raw string out of fmt's reach; "" is nil, so the
// zero value needs no allocation.
func box(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func unbox(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

const (
	ellipsis     = "…"
	markerPrefix = "[REDACTED:"
	// maxMarker is longer than any marker; a "[REDACTED:" whose ']' is
	// farther away is text from the log, not a marker.
	maxMarker = 48
)

// clip cuts s, valid UTF-8 and already redacted, to at most max runes, the
// last being "…" when anything was cut; see Text.Clip. words asks for the
// cut to fall at whitespace when there is some in the last third of what
// fits.
func clip(s string, max int, words bool) string {
	if len(s) <= max {
		return s // a rune is at least one byte
	}
	if max < 1 {
		return ""
	}
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	keep := max - 1 // runes before the ellipsis
	cut := 0
	for n := 0; n < keep; n++ {
		_, size := utf8.DecodeRuneInString(s[cut:])
		cut += size
	}
	if words {
		if w := spaceBefore(s, cut, keep/3); w >= 0 {
			cut = w
		}
	}
	cut = outsideMarkers(s, cut)
	return strings.TrimRightFunc(s[:cut], unicode.IsSpace) + ellipsis
}

// spaceBefore returns the offset of the whitespace at or before cut, looking
// back at most lookback runes, or -1.
func spaceBefore(s string, cut, lookback int) int {
	if cut < len(s) {
		if r, _ := utf8.DecodeRuneInString(s[cut:]); unicode.IsSpace(r) {
			return cut
		}
	}
	i := cut
	for k := 0; k < lookback && i > 0; k++ {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
		if unicode.IsSpace(r) {
			return i
		}
	}
	return -1
}

// outsideMarkers moves cut back to the start of any marker it falls inside.
func outsideMarkers(s string, cut int) int {
	for cut > 0 {
		limit := cut + len(markerPrefix) - 1 // a marker starting before cut ends its prefix by here
		if limit > len(s) {
			limit = len(s)
		}
		a := strings.LastIndex(s[:limit], markerPrefix)
		if a < 0 {
			return cut
		}
		tail := s[a:]
		if len(tail) > maxMarker {
			tail = tail[:maxMarker]
		}
		e := strings.IndexByte(tail, ']')
		if e < 0 || a+e+1 <= cut {
			return cut
		}
		cut = a
	}
	return cut
}

// containsFoldRunes reports whether sub occurs in s under Unicode simple
// case folding.
func containsFoldRunes(s, sub string) bool {
	if sub == "" {
		return true
	}
	for i := 0; i < len(s); {
		if prefixFold(s[i:], sub) {
			return true
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return false
}

// prefixFold reports whether s starts with p under Unicode simple case
// folding.
func prefixFold(s, p string) bool {
	for p != "" {
		if s == "" {
			return false
		}
		r1, n1 := utf8.DecodeRuneInString(s)
		r2, n2 := utf8.DecodeRuneInString(p)
		if r1 != r2 && !equalFoldRune(r1, r2) {
			return false
		}
		s, p = s[n1:], p[n2:]
	}
	return true
}

func equalFoldRune(a, b rune) bool {
	for r := unicode.SimpleFold(a); r != a; r = unicode.SimpleFold(r) {
		if r == b {
			return true
		}
	}
	return false
}
