package tools

// Cursor paging (SPEC §7). Every list that can stop early pages by keyset:
// each item has a position, a key whose order is the list's order, and a
// cursor is the position of the last item a page returned, sealed with the
// tool and the filters it was given. So a cursor stays valid while the
// history only grows (a position is made of stable keys — times, hashes of
// ids — never an index into a list that shifts), a page starts exactly after
// the previous one, and a cursor that was altered, or is used with other
// filters, is invalid_argument.

import (
	"bytes"
	"cmp"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"iter"
	"slices"

	"github.com/agent-activity/agent-activity/logs"
	"github.com/agent-activity/agent-activity/transcript"
)

// pos is an item's position in its list, compared by S, then N element by
// element. S holds only text the answer shows itself (already redacted);
// everything else is a number or a hash, so a cursor carries nothing out
// that the answer does not.
type pos struct {
	S string  `json:"s,omitempty"`
	N []int64 `json:"n,omitempty"`
}

func (a pos) compare(b pos) int {
	switch {
	case a.S < b.S:
		return -1
	case a.S > b.S:
		return 1
	}
	for i := 0; i < len(a.N) && i < len(b.N); i++ {
		switch {
		case a.N[i] < b.N[i]:
			return -1
		case a.N[i] > b.N[i]:
			return 1
		}
	}
	return len(a.N) - len(b.N)
}

// hash63 is a stable, non-negative 63-bit hash of strings, the tie-breaker
// of positions (so a position never holds an id or a path itself).
var hash63 = transcript.Hash63

// sessionTie tells sessions apart in positions: agent, machine, project
// folder and id, not the absolute key, so a position does not depend on
// where the log root is. Each session computes it once.
func sessionTie(s *logs.Session) int64 { return s.Tie() }

// CursorArg is the paging argument of every tool whose list pages. define
// opens the cursor before the tool runs.
type CursorArg struct {
	Cursor string `json:"cursor,omitempty" jsonschema:"next_cursor from the previous answer: the same call with it returns the next page (same filters and order); a cursor from other arguments is rejected"`

	after *pos     // the opened cursor; nil on a first page
	bind  [16]byte // digest of the tool and its filters
}

func (c *CursorArg) cursorArg() *CursorArg { return c }

// pagedArgs is an argument struct that embeds CursorArg.
type pagedArgs interface{ cursorArg() *CursorArg }

// positional is an argument struct with arguments that say where a page
// starts (tail_agent_log's offset and around): like the page size, they are
// not filters, so a cursor is not bound to them.
type positional interface{ clearPosition() }

// admits reports whether an item at k comes after the cursor.
func (c *CursorArg) admits(k pos) bool { return c.after == nil || c.after.compare(k) < 0 }

// cursorKey keys the cursor's checksum. It is not a secret: the checksum
// only makes a cursor that was edited, truncated or made for other
// arguments fail to open, and must stay the same across processes (the
// `call` command is one process per call).
var cursorKey = []byte("agent-activity cursor v1")

const cursorVersion = 1

// bindCursor binds c to the tool name and the filters in args (a copy with
// the cursor, the page size, detail and position cleared) and opens the
// cursor, if any.
func bindCursor(name string, c *CursorArg, filters any) error {
	b, err := json.Marshal(filters)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(append([]byte(name+"\x00"), b...))
	copy(c.bind[:], sum[:])
	if c.Cursor == "" {
		return nil
	}
	p, ok := openCursor(c.bind, c.Cursor)
	if !ok {
		return logs.InvalidArgument("cursor", "cursor is not a next_cursor this tool gave for these arguments; repeat the call with the same filters, or without cursor to start again")
	}
	c.after = &p
	return nil
}

// sealCursor makes the cursor of position p. A salt byte is varied until
// the text passes the redactor unchanged, so no rule can ever rewrite a
// cursor on its way out.
func sealCursor(bind [16]byte, p pos) string {
	payload, _ := json.Marshal(p)
	for salt := 0; ; salt++ {
		raw := []byte{cursorVersion, byte(salt)}
		raw = append(raw, cursorMAC(bind, byte(salt), payload)...)
		raw = append(raw, payload...)
		c := base64.RawURLEncoding.EncodeToString(raw)
		if redactString(c) == c || salt == 255 {
			return c
		}
	}
}

func cursorMAC(bind [16]byte, salt byte, payload []byte) []byte {
	m := hmac.New(sha256.New, cursorKey)
	m.Write(bind[:])
	m.Write([]byte{salt})
	m.Write(payload)
	return m.Sum(nil)[:10]
}

func openCursor(bind [16]byte, c string) (pos, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || len(raw) < 12 || len(c) > 4096 || raw[0] != cursorVersion {
		return pos{}, false
	}
	payload := raw[12:]
	if !hmac.Equal(raw[2:12], cursorMAC(bind, raw[1], payload)) {
		return pos{}, false
	}
	var p pos
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	if dec.Decode(&p) != nil {
		return pos{}, false
	}
	return p, true
}

// pager is the paging state an answer keeps beside its list (unexported, so
// it never leaves): the position of each item and what cursors are bound to.
type pager struct {
	bind [16]byte
	keys []pos
}

func (c *CursorArg) pager() pager { return pager{bind: c.bind} }

// after is the cursor that continues after the first n items; "" for none.
func (p pager) after(n int) string {
	if n <= 0 || n > len(p.keys) {
		return ""
	}
	return sealCursor(p.bind, p.keys[n-1])
}

// page returns, in key order, at most limit of the items after the cursor,
// the pager of those items, and whether more items follow them. Items of
// equal keys keep their order. It holds at most 2*limit candidates at a time
// (a whole history's file touches are tens of thousands).
func page[T any](items []T, key func(*T) pos, c *CursorArg, limit int) ([]T, pager, bool) {
	return pageSeq(func(yield func(*T) bool) {
		for i := range items {
			if !yield(&items[i]) {
				return
			}
		}
	}, key, c, limit)
}

// pageSeq is page of the items seq yields, in that order: the candidates
// are copies, so an item need not outlive its turn.
func pageSeq[T any](seq iter.Seq[*T], key func(*T) pos, c *CursorArg, limit int) ([]T, pager, bool) {
	type keyed struct {
		i int
		k pos
		v T
	}
	order := func(a, b keyed) int {
		if d := a.k.compare(b.k); d != 0 {
			return d
		}
		return cmp.Compare(a.i, b.i)
	}
	limit = max(limit, 0)
	keep := max(64, limit) // after a cut the first keep candidates remain: the first limit so far are among them
	var best []keyed
	admitted, i := 0, -1
	for it := range seq {
		i++
		k := key(it)
		if !c.admits(k) {
			continue
		}
		admitted++
		best = append(best, keyed{i, k, *it})
		if len(best) >= 2*keep {
			slices.SortFunc(best, order)
			best = best[:keep]
		}
	}
	slices.SortFunc(best, order)
	pg := c.pager()
	n := min(limit, len(best))
	out := make([]T, 0, n)
	for _, a := range best[:n] {
		out = append(out, a.v)
		pg.keys = append(pg.keys, a.k)
	}
	return out, pg, admitted > n
}
