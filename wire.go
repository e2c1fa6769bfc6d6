package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// answerWire writes a tool's answer to stdout as it is, instead of letting
// mcp-go encode it again. An answer is compact JSON already (tools.leave
// made it), carried twice in a result: as the structured content and as its
// text. mcp-go's writer marshals the result through a map, so
// encoding/json validates and compacts the structured copy, escapes the
// text, then compacts the whole result once more: for a 17 KB answer
// (list_recent_sessions, 20 sessions) about half a millisecond, more than
// the tool's own work once warm, and 100 KB of garbage per answer.
//
// hold gives mcp-go a result whose two copies are placeholders (tokens of
// this process, made of letters, digits and dashes, which no encoder
// escapes) and keeps the answer; Write, which receives every line mcp-go
// writes whole (one Write per message), puts the answer in place of the
// placeholders: the text escaped as a JSON string, the structured content
// as is. A line without placeholders is written unchanged.
type answerWire struct {
	out    io.Writer
	prefix []byte // `"` and this process's token, then the answer's number

	mu   sync.Mutex
	next uint64
	held map[uint64]json.RawMessage
	line []byte // the spliced line, reused
}

func newAnswerWire(out io.Writer) *answerWire {
	return &answerWire{out: out, prefix: []byte(`"agent-activity-answer-` + uuid.NewString() + `-`), held: map[uint64]json.RawMessage{}}
}

// hold wraps a tool's handler. Results that are not one answer carried
// twice (an error result, or a handler of another shape) pass unchanged.
func (w *answerWire) hold(h server.ToolHandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := h(ctx, req)
		if err != nil || res == nil || res.Meta != nil || len(res.Content) != 1 {
			return res, err
		}
		raw, ok := res.StructuredContent.(json.RawMessage)
		text, isText := res.Content[0].(mcp.TextContent)
		if !ok || !isText || text.Text != string(raw) || text.Annotations != nil || text.Meta != nil {
			return res, err
		}
		w.mu.Lock()
		w.next++
		n := w.next
		w.held[n] = raw
		w.mu.Unlock()
		tok := string(w.prefix[1:]) + strconv.FormatUint(n, 10)
		return &mcp.CallToolResult{
			Content:           []mcp.Content{mcp.TextContent{Type: text.Type, Text: tok + "-text"}},
			StructuredContent: json.RawMessage(`"` + tok + `-json"`),
			IsError:           res.IsError,
		}, nil
	}
}

// Write writes one line mcp-go wrote, with any held answer in place of its
// placeholders.
func (w *answerWire) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	at := bytes.Index(p, w.prefix)
	if at < 0 {
		return w.out.Write(p)
	}
	digits := p[at+len(w.prefix):]
	end := 0
	for end < len(digits) && digits[end] >= '0' && digits[end] <= '9' {
		end++
	}
	n, err := strconv.ParseUint(string(digits[:end]), 10, 64)
	raw, ok := w.held[n]
	if err != nil || !ok {
		return w.out.Write(p)
	}
	num := string(w.prefix) + string(digits[:end])
	// The two placeholders, in the order they are in the line (mcp-go's map
	// puts "content" first, but nothing here depends on it).
	first, second := slot{tok: []byte(num + `-text"`), text: true}, slot{tok: []byte(num + `-json"`)}
	first.at, second.at = bytes.Index(p, first.tok), bytes.Index(p, second.tok)
	if first.at < 0 || second.at < 0 {
		return w.out.Write(p)
	}
	if second.at < first.at {
		first, second = second, first
	}
	delete(w.held, n)
	line := append(w.line[:0], p[:first.at]...)
	line = first.fill(line, raw)
	line = append(line, p[first.at+len(first.tok):second.at]...)
	line = second.fill(line, raw)
	line = append(line, p[second.at+len(second.tok):]...)
	if cap(line) <= 64<<10 {
		w.line = line
	}
	if _, err := w.out.Write(line); err != nil {
		return 0, err
	}
	return len(p), nil
}

// slot is a placeholder found in a line: where, and whether the answer goes
// there as text or as JSON.
type slot struct {
	tok  []byte // the placeholder, quotes included
	at   int
	text bool
}

func (s slot) fill(dst, raw []byte) []byte {
	if s.text {
		return appendJSONString(dst, raw)
	}
	return append(dst, raw...)
}

// asciiEscape is how encoding/json writes each ASCII byte in a string: ""
// for a byte written as it is.
var asciiEscape = func() (t [utf8.RuneSelf]string) {
	const hex = "0123456789abcdef"
	for b := range 0x20 {
		t[b] = `\u00` + string(hex[b>>4]) + string(hex[b&0xF])
	}
	for b, e := range map[byte]string{'\n': `\n`, '\r': `\r`, '\t': `\t`, '\b': `\b`, '\f': `\f`,
		'"': `\"`, '\\': `\\`, '<': `\u003c`, '>': `\u003e`, '&': `\u0026`} {
		t[b] = e
	}
	return t
}()

// appendJSONString appends s as a JSON string, escaped as encoding/json
// escapes a string: quotes, backslashes and control characters, <, > and &,
// U+2028 and U+2029, and each invalid UTF-8 byte as U+FFFD.
func appendJSONString(dst, s []byte) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		esc, size := "", 1
		if b := s[i]; b < utf8.RuneSelf {
			esc = asciiEscape[b]
		} else {
			var r rune
			r, size = utf8.DecodeRune(s[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				esc = `\ufffd`
			case r == '\u2028':
				esc = `\u2028`
			case r == '\u2029':
				esc = `\u2029`
			}
		}
		i += size
		if esc != "" {
			dst = append(append(dst, s[start:i-size]...), esc...)
			start = i
		}
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
