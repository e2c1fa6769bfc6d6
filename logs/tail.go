package logs

import (
	"context"
	"strings"

	"github.com/agent-activity/agent-activity/transcript"
)

// Entry is one line of a main transcript, reduced to what a reader needs.
// Text fields are raw (unredacted) and clipped; callers redact before output.
type Entry struct {
	UUID        string
	Type        string
	Time        int64
	Sidechain   bool
	Text        string
	ToolCalls   []EntryCall
	ToolResults []EntryResult
	Model       string
	Usage       *Usage // on the first line of an API response attributed to this session
}

// EntryCall is a tool_use block of an entry.
type EntryCall struct {
	ID, Name string
	Key      uint64 // IDKey(ID)
}

// EntryResult is a tool_result block of an entry.
type EntryResult struct {
	ToolUseID string
	IsError   bool
	Text      string // clipped result text, for errors only
}

// Tail returns the last limit entries of the session's main transcript, oldest
// first, and the number of entries in it.
func (snap *Snapshot) Tail(ctx context.Context, s *Session, limit int) ([]Entry, int, error) {
	if s.Main == nil {
		return nil, 0, nil
	}
	// The summary knows how many entries the file had: lines before the last
	// limit of them are only counted, not turned into entries. JSONL only
	// grows; if the file turns out shorter, it is read again without skipping.
	skip := s.Main.Entries - limit
	entries, total, err := snap.tail(ctx, s, limit, skip)
	if err == nil && skip > 0 && total < s.Main.Entries {
		entries, total, err = snap.tail(ctx, s, limit, 0)
	}
	return entries, total, unreadable(s, err)
}

func (snap *Snapshot) tail(ctx context.Context, s *Session, limit, skip int) ([]Entry, int, error) {
	eb := snap.newEntryBuilder(s)
	ring := make([]Entry, limit) // circular: the entry of line n is at n % limit
	total := 0
	err := s.Main.eachEntry(ctx, transcript.WantProse, func(l *transcript.Entry) bool {
		total++
		if total <= skip {
			eb.skip(l)
			return true
		}
		ring[(total-1)%limit] = eb.entry(l)
		return true
	})
	n := min(total, limit)
	out := make([]Entry, 0, n)
	for i := total - n; i < total; i++ {
		out = append(out, ring[i%limit])
	}
	return out, total, err
}

// Window returns the entries from index from (0-based) to from+n of the
// session's main transcript, oldest first, and the number of entries in it.
// Lines outside the window are only counted, not turned into entries.
func (snap *Snapshot) Window(ctx context.Context, s *Session, from, n int) ([]Entry, int, error) {
	if s.Main == nil {
		return nil, 0, nil
	}
	eb := snap.newEntryBuilder(s)
	var out []Entry
	total := 0
	err := s.Main.eachEntryLazy(ctx, func(er transcript.EntryReader, l *transcript.Entry) bool {
		i := total
		total++
		switch {
		case i < from:
			eb.skip(l)
		case i < from+n:
			if full, ok := er.Entry(transcript.WantProse); ok {
				l = full
			}
			out = append(out, eb.entry(l))
		}
		return true
	})
	return out, total, unreadable(s, err)
}

// EntryIndex returns the 0-based index of the entry with this uuid in the
// session's main transcript (-1 when no entry has it) and the number of
// entries in it.
func (snap *Snapshot) EntryIndex(ctx context.Context, s *Session, uuid string) (int, int, error) {
	if s.Main == nil || uuid == "" {
		return -1, 0, nil
	}
	at, total := -1, 0
	err := s.Main.eachEntryLazy(ctx, func(_ transcript.EntryReader, l *transcript.Entry) bool {
		if at < 0 && l.UUID == uuid {
			at = total
		}
		total++
		return true
	})
	return at, total, unreadable(s, err)
}

// entryBuilder turns the lines of one main transcript, read in order, into
// Entries; usage shows on the first line of each response the session owns.
type entryBuilder struct {
	owned map[uint64]Usage
	seen  map[uint64]bool
}

func (snap *Snapshot) newEntryBuilder(s *Session) *entryBuilder {
	return &entryBuilder{owned: snap.ownedIDs(s), seen: map[uint64]bool{}}
}

// skip notes a line before the entries wanted: a response seen there has
// had its first line.
func (eb *entryBuilder) skip(l *transcript.Entry) {
	if l.Response != nil && l.Response.ID != "" {
		eb.seen[responseKey(l.Response)] = true // usage shows on a response's first line only
	}
}

// entry converts a line decoded with WantProse (or WantText): it shows the
// text of tool results only for errors, which every pass fills.
func (eb *entryBuilder) entry(l *transcript.Entry) Entry {
	e := Entry{UUID: strings.Clone(l.UUID), Type: strings.Clone(l.Type), Time: l.Time, Sidechain: l.Sidechain}
	text := l.UserText
	if l.Response != nil {
		text = strings.TrimSpace(l.Text)
	}
	if l.Role == transcript.RoleOther {
		if l.Summary != "" {
			e.Text = transcript.Clip(l.Summary, 1000)
		}
		return e
	}
	for _, c := range l.Calls {
		e.ToolCalls = append(e.ToolCalls, EntryCall{ID: strings.Clone(c.ID), Name: transcript.Clip(c.Name, 120), Key: IDKey(c.ID)})
	}
	for _, res := range l.Results {
		r := EntryResult{ToolUseID: strings.Clone(res.ToolUseID), IsError: res.State == transcript.ResultError || res.State == transcript.ResultRejected}
		if r.IsError {
			r.Text = transcript.Clip(res.Text, 1000)
		}
		e.ToolResults = append(e.ToolResults, r)
	}
	if text != "" {
		e.Text = transcript.Clip(text, 1000)
	}
	if r := l.Response; r != nil {
		e.Model = strings.Clone(r.Model)
		if k := responseKey(r); r.ID != "" && !eb.seen[k] {
			eb.seen[k] = true
			if u, ok := eb.owned[k]; ok {
				uu := u
				e.Usage = &uu
			}
		}
	}
	return e
}

// ownedIDs maps the message ids whose usage is attributed to s's main thread
// to that usage.
func (snap *Snapshot) ownedIDs(s *Session) map[uint64]Usage {
	out := map[uint64]Usage{}
	if s.Main == nil {
		return out
	}
	ids := map[uint64]bool{}
	for _, m := range s.Main.Messages() {
		if m.Key != 0 && !m.Sidechain && m.Counts() {
			ids[m.Key] = true
		}
	}
	for _, r := range s.responses {
		if !r.Sidechain && r.key != 0 && ids[r.key] {
			out[r.key] = s.UsageOf(&r)
		}
	}
	return out
}
