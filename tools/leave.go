package tools

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"

	"github.com/agent-activity/agent-activity/redact"
)

// leave is the one way an answer leaves the server, for the MCP handler and
// the `call` command alike: the answer as JSON, with every string in it (object
// keys included) passed through the redactor, so a field added to an output
// type tomorrow cannot carry a secret out by omission. Strings are treated as
// paths too: a home directory at the start of one is shown as "~" (SPEC §6).
// Field order and number literals are kept as marshalled.
func leave(out any) (json.RawMessage, error) {
	b, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	return redactJSON(b)
}

// redactJSON rewrites every string token of a JSON document through the
// redactor, keeping everything else byte for byte in meaning.
func redactJSON(b []byte) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out bytes.Buffer
	out.Grow(len(b) + len(b)/16)
	// stack holds, per open container, whether it is an object and whether the
	// next token is its first.
	type frame struct{ object, first, wantValue bool }
	var stack []frame
	enc := func(s string) {
		v, _ := json.Marshal(s)
		out.Write(v)
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			out.WriteByte(byte(d))
			if n := len(stack); n > 0 && stack[n-1].object {
				stack[n-1].wantValue = false
			}
			continue
		}
		isKey := false
		if n := len(stack); n > 0 {
			f := &stack[n-1]
			switch {
			case f.object && !f.wantValue:
				if !f.first {
					out.WriteByte(',')
				}
				isKey = true
			case f.object:
				out.WriteByte(':')
			case !f.first:
				out.WriteByte(',')
			}
			f.first = false
		}
		switch t := tok.(type) {
		case json.Delim:
			out.WriteByte(byte(t))
			stack = append(stack, frame{object: t == '{', first: true})
			continue
		case string:
			enc(redactString(t))
		case json.Number:
			out.WriteString(t.String())
		case bool:
			if t {
				out.WriteString("true")
			} else {
				out.WriteString("false")
			}
		case nil:
			out.WriteString("null")
		}
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].wantValue = isKey
		}
	}
	return out.Bytes(), nil
}

// redactString skips the redactor for the strings most of an answer is made
// of (ids, times, enum values) when they hold nothing it could act on.
func redactString(s string) string {
	if s == "" || plainWord(s) {
		return s
	}
	return redact.Output(s)
}

// plainWord reports a short string of letters, digits, '-', '_', '.' and ':'
// with no path separator: no rule of the redactor matches fewer than 16 such
// characters.
func plainWord(s string) bool {
	if len(s) >= 16 || strings.HasPrefix(s, "-") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == ':') {
			return false
		}
	}
	return true
}
