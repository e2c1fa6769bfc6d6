package logs

import (
	"encoding/binary"
	"iter"
	"slices"

	"github.com/agent-activity/agent-activity/transcript"
)

// messageLog is a file's messages between reads, packed: a read works on a
// []Message (a Message is 120 bytes, most of it zeros and repeats), and at
// its end the list is packed into about 25 bytes a message. A packed log is
// never changed, so a clone shares it.
//
// Each message is: a flags byte; the key (8 bytes, when not 0); the model's
// number in the process's name table (nameID); time and line as signed deltas from the message before;
// the six usage counts as signed varints. Advisors, rare, stay in a map.
type messageLog struct {
	b        []byte
	n        int
	advisors map[int32][]transcript.Advisor
}

const (
	mfSidechain = 1 << iota
	mfSynthetic
	mfHasUsage
	mfFast
	mfKeyed
)

// packMessages packs the messages of lists, one after another.
func packMessages(lists ...[]Message) messageLog { return pack(false, lists) }

// packMessagesDense is packMessages with the packed bytes in messageSlab:
// for the end of a read from a file's start, which happens once per file
// (a hot file's cooling, again and again, leaves its bytes to the heap).
func packMessagesDense(lists ...[]Message) messageLog { return pack(true, lists) }

func pack(dense bool, lists [][]Message) messageLog {
	var l messageLog
	for _, ms := range lists {
		l.n += len(ms)
	}
	if l.n == 0 {
		return l
	}
	b := make([]byte, 0, l.n*24)
	var prevTime, prevLine int64
	var models lastName
	for i, m := range allOf(lists) {
		var flags byte
		if m.Sidechain {
			flags |= mfSidechain
		}
		if m.Synthetic {
			flags |= mfSynthetic
		}
		if m.HasUsage {
			flags |= mfHasUsage
		}
		if m.Usage.Fast {
			flags |= mfFast
		}
		if m.Key != 0 {
			flags |= mfKeyed
		}
		b = append(b, flags)
		if m.Key != 0 {
			b = binary.LittleEndian.AppendUint64(b, m.Key)
		}
		b = binary.AppendUvarint(b, uint64(models.of(m.Model)))
		b = binary.AppendVarint(b, m.Time-prevTime)
		b = binary.AppendVarint(b, int64(m.Line)-prevLine)
		prevTime, prevLine = m.Time, int64(m.Line)
		u := &m.Usage
		for _, v := range [...]int64{u.Input, u.Output, u.CacheCreate5m, u.CacheCreate1h, u.CacheRead, u.Reasoning} {
			b = binary.AppendVarint(b, v)
		}
		if len(m.Advisors) > 0 {
			if l.advisors == nil {
				l.advisors = map[int32][]transcript.Advisor{}
			}
			l.advisors[int32(i)] = m.Advisors
		}
	}
	// Exact size: the log lives as long as the summary.
	if dense {
		l.b = messageSlab.copyOf(b)
	} else {
		l.b = append([]byte(nil), b...)
	}
	return l
}

// allOf yields pointers to the messages of lists, in order.
func allOf(lists [][]Message) iter.Seq2[int, *Message] {
	return func(yield func(int, *Message) bool) {
		n := 0
		for _, ms := range lists {
			for i := range ms {
				if !yield(n, &ms[i]) {
					return
				}
				n++
			}
		}
	}
}

// Len is the number of messages.
func (l *messageLog) Len() int { return l.n }

// All yields the messages in order, each decoded into a value.
func (l *messageLog) All() iter.Seq2[int, Message] {
	return func(yield func(int, Message) bool) {
		b := l.b
		var t, line int64
		for i := 0; i < l.n; i++ {
			var m Message
			flags := b[0]
			b = b[1:]
			if flags&mfKeyed != 0 {
				m.Key = binary.LittleEndian.Uint64(b)
				b = b[8:]
			}
			mi, k := binary.Uvarint(b)
			b = b[k:]
			m.Model = nameOf(uint32(mi))
			dt, k := binary.Varint(b)
			b = b[k:]
			dl, k := binary.Varint(b)
			b = b[k:]
			t, line = t+dt, line+dl
			m.Time, m.Line = t, int32(line)
			u := &m.Usage
			for _, p := range [...]*int64{&u.Input, &u.Output, &u.CacheCreate5m, &u.CacheCreate1h, &u.CacheRead, &u.Reasoning} {
				*p, k = binary.Varint(b)
				b = b[k:]
			}
			u.Fast = flags&mfFast != 0
			m.Sidechain, m.Synthetic, m.HasUsage = flags&mfSidechain != 0, flags&mfSynthetic != 0, flags&mfHasUsage != 0
			m.Advisors = l.advisors[int32(i)]
			if !yield(i, m) {
				return
			}
		}
	}
}

// unpack returns the messages as a list a read can change.
func (l *messageLog) unpack() []Message { return l.unpackInto(nil) }

// unpackInto is unpack into dst's memory (a recycled list, or nil).
func (l *messageLog) unpackInto(dst []Message) []Message {
	if l.n == 0 {
		return dst[:0]
	}
	out := slices.Grow(dst[:0], l.n+8)
	for _, m := range l.All() {
		out = append(out, m)
	}
	return out
}
