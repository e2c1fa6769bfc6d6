package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/agent-activity/agent-activity/redact"
	"github.com/agent-activity/agent-activity/transcript"
)

// The answer budget (SPEC §7): what a model's client shows inline. The
// sizes are of the answer's JSON text as the client receives it (compact,
// HTML characters escaped), in bytes, which is never less than its length in
// characters.
const (
	// maxAnswer bounds every answer, for every allowed argument, on any history.
	maxAnswer = 40000
	// defaultAnswer bounds the answer to a call that sets no bound (limit,
	// max_findings, ...) and asks for no detail.
	defaultAnswer = 12000
)

// exit is the one way an answer leaves the server, for the MCP handler, the
// `call` command and the resources alike: leave's redacted JSON, shortened
// to the budget. budget is defaultAnswer or maxAnswer.
func exit[O any](out O, budget int) (json.RawMessage, error) {
	return fit(out, budget, func(o O) ([]byte, error) { return leave(o) })
}

// leave renders an answer as JSON, with every string in it (object keys
// included) passed through the redactor, so a field added to an output type
// tomorrow cannot carry a secret out by omission. Strings are treated as
// paths too: a home directory at the start of one is shown as "~" (SPEC §6).
// Field order and number literals are kept as marshalled.
func leave(out any) (json.RawMessage, error) {
	b, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	return redactJSON(b)
}

// cuttable is an answer with lists that fit may shorten: the types that
// carry lists implement it, so no handler invents a cap of its own.
type cuttable interface {
	// cutLen is the length of the longest list that may be cut.
	cutLen() int
	// keep shortens every list that may be cut to at most n items, keeping
	// the items a next page would not repeat, and says so in the answer
	// (truncated, and next_cursor where the list pages). It only reslices
	// and sets fields, never writes into a shared array or map, so another
	// copy of the answer can be cut again with another n.
	keep(n int)
}

// fit renders out and, when the text is over budget, cuts its lists (never
// the JSON) to the most items whose rendering fits. When not even one item
// fits (an item of text that JSON escapes six-fold), the answer exceeds the
// budget as little as it can: one item, or none, within maxAnswer. An answer
// that cannot be made to fit maxAnswer is an internal error: it never leaves
// over the cap.
func fit[O any](out O, budget int, render func(O) ([]byte, error)) ([]byte, error) {
	b, err := render(out)
	if err != nil || len(b) <= budget {
		return b, err
	}
	full := len(b)
	if _, ok := any(&out).(cuttable); !ok {
		if full <= maxAnswer {
			return b, nil // nothing to cut (the answer bounds itself): within the cap, it may go
		}
		return nil, overBudget(full)
	}
	n := any(&out).(cuttable).cutLen()
	cut := func(k int) ([]byte, error) {
		v := out
		any(&v).(cuttable).keep(k)
		return render(v)
	}
	// The largest k in [1, n] whose answer fits; sizes grow with k. The
	// first probe is where a list of even items would fit.
	var best []byte
	lo, hi := 1, n
	mid := min(hi, max(lo, n*budget/full))
	for lo <= hi {
		b, err := cut(mid)
		if err != nil {
			return nil, err
		}
		if len(b) <= budget {
			best, lo = b, mid+1
		} else {
			hi = mid - 1
		}
		mid = lo + (hi-lo)/2
	}
	if best != nil {
		return best, nil
	}
	for _, k := range []int{1, 0} {
		if b, err := cut(k); err != nil || len(b) <= maxAnswer {
			return b, err
		}
	}
	return nil, overBudget(full)
}

func overBudget(size int) error {
	return fmt.Errorf("an answer of %d bytes cannot be cut to the %d-character budget", size, maxAnswer)
}

// redactJSON rewrites every string token of a JSON document (as
// encoding/json writes it: compact and valid) through the redactor, keeping
// everything else byte for byte. A string the redactor leaves alone keeps its
// bytes; one it changes is encoded again by encoding/json, as the whole
// document was.
func redactJSON(b []byte) (json.RawMessage, error) {
	var out []byte
	done := 0 // b[:done] is in out
	for i := 0; i < len(b); {
		k := bytes.IndexByte(b[i:], '"')
		if k < 0 {
			break
		}
		start := i + k
		end, esc := transcript.ClosingQuote(b, start)
		if end < 0 {
			return nil, fmt.Errorf("answer JSON has an unterminated string at byte %d", start)
		}
		i = end + 1
		quoted := b[start : end+1]
		rep, known := recall(quoted)
		if known {
			if rep != "" {
				if out == nil {
					out = make([]byte, 0, len(b)+len(b)/16)
				}
				out = append(append(out, b[done:start]...), rep...)
				done = end + 1
			}
			continue
		}
		var v string
		if esc {
			var ok bool
			if v, ok = transcript.Unquote(quoted[1 : len(quoted)-1]); !ok {
				return nil, fmt.Errorf("answer JSON has a bad escape in the string at byte %d", start)
			}
		} else {
			v = string(quoted[1 : len(quoted)-1])
		}
		r := redactString(v)
		if r == v {
			remember(quoted, nil)
			continue
		}
		enc, err := json.Marshal(r)
		if err != nil {
			return nil, err
		}
		remember(quoted, enc)
		if out == nil {
			out = make([]byte, 0, len(b)+len(b)/16)
		}
		out = append(append(out, b[done:start]...), enc...)
		done = end + 1
	}
	if out == nil {
		return b, nil
	}
	return append(out, b[done:]...), nil
}

// tokenMemo remembers how the short string tokens of recent answers came
// out of the redactor, keyed by the token as marshalled: an answer asked
// again, or its next page, is mostly the same ids, paths and titles, and
// redacting them was most of a warm answer's exit. It forgets everything when
// it is full or when the home directory changes (redact.SetHome).
var tokenMemo struct {
	sync.Mutex
	home any
	m    map[string]string // quoted token -> its replacement; "" when it stays as it is
}

const memoTokens, memoTokenLen = 4096, 160

// recall returns what the redactor made of a token before ("" for nothing),
// and whether it is remembered.
func recall(quoted []byte) (string, bool) {
	if len(quoted) > memoTokenLen {
		return "", false
	}
	tokenMemo.Lock()
	defer tokenMemo.Unlock()
	if tokenMemo.home != redact.HomeIdentity() {
		return "", false
	}
	rep, ok := tokenMemo.m[string(quoted)]
	return rep, ok
}

// remember notes a token's replacement (nil: it stays as it is).
func remember(quoted, enc []byte) {
	if len(quoted) > memoTokenLen {
		return
	}
	tokenMemo.Lock()
	defer tokenMemo.Unlock()
	if h := redact.HomeIdentity(); tokenMemo.home != h || len(tokenMemo.m) >= memoTokens {
		tokenMemo.home, tokenMemo.m = h, make(map[string]string, 256)
	}
	tokenMemo.m[string(quoted)] = string(enc)
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
