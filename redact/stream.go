package redact

import (
	"io"
	"math"
	"sync"
	"unsafe"
)

// Bounds of how far the matchers read around a trigger, which let a
// stream be scanned a piece at a time with the answer Find gives for the
// whole of it.
const (
	// streamAhead is more than any matcher reads past its trigger: a JWT's
	// segments (8 KB + 64 KB + 8 KB and two more of 64 KB), a PEM body of
	// 128 KB, a value of 4 KB.
	streamAhead = 256 << 10
	// streamBehind is more than any matcher reads before its trigger: an
	// assignment's name with its blanks and quote (about 90 bytes).
	streamBehind = 128
	// candidateLead is more than any candidate starts before its trigger
	// (github_pat_ starts 6 bytes before its '_').
	candidateLead = 8
)

// streamPiece is how much FindReader scans per read (a variable for the
// tests, which make it small to cross many piece boundaries).
var streamPiece = 1 << 20

// FindReader reports to visit, in order, the findings Find would return
// for all of r's bytes, reading r a piece at a time: it holds about 1.5 MB
// however long r is. Start and End are offsets from r's first byte; each
// Secret is a copy. It returns the first error r returns other than io.EOF,
// after which the findings visited are those of the bytes before it, and
// may differ from Find's for them.
func FindReader(r io.Reader, visit func(Finding)) error {
	var (
		buf     []byte      // the stream from offset base
		base    int         // the offset of buf[0]
		next    int         // the offset of the first trigger not scanned
		pending []candidate // found, in stream offsets, not yet resolved
		kept    resolver
		eof     bool
	)
	emit := func(c candidate) {
		visit(Finding{Rule: c.rule, Start: c.start, End: c.end, Secret: string(buf[c.start-base : c.end-base])})
	}
	bp := streamBufs.Get().(*[]byte)
	buf = (*bp)[:0]
	defer func() {
		if cap(buf) <= 2<<20 {
			*bp = buf[:0]
			streamBufs.Put(bp)
		}
	}()
	for !eof {
		// Hold streamAhead bytes past the next piece, or the rest of r;
		// the buffer grows with what r holds, so a short r needs little.
		want := next - base + streamPiece + streamAhead
		for len(buf) < want && !eof {
			if len(buf) == cap(buf) {
				grown := make([]byte, len(buf), min(max(2*cap(buf), 32<<10), want))
				buf = grown[:copy(grown, buf)]
			}
			n, err := r.Read(buf[len(buf):min(cap(buf), want)])
			buf = buf[:len(buf)+n]
			if err == io.EOF {
				eof = true
			} else if err != nil {
				return err
			}
		}
		to := base + len(buf) // scan the triggers up to here
		if !eof {
			to -= streamAhead
		}
		sc := scanner{s: unsafe.String(unsafe.SliceData(buf), len(buf))}
		sc.runRange(next-base, to-base)
		for _, c := range sc.cands {
			c.start += base
			c.end += base
			pending = append(pending, c)
		}
		next = to
		// Resolve the candidates no later trigger can start before; a kept
		// one that no later candidate can overlap is final.
		limit := next - candidateLead
		if eof {
			limit = math.MaxInt
		}
		sortCandidates(pending)
		k := 0
		for k < len(pending) && pending[k].start < limit {
			kept.add(pending[k], emit)
			k++
		}
		pending = append(pending[:0], pending[k:]...)
		if kept.have && kept.last.end <= limit {
			kept.flush(emit)
		}
		// Keep what the next scan and the unresolved candidates read.
		keep := next - streamBehind
		if kept.have {
			keep = min(keep, kept.last.start)
		}
		if len(pending) > 0 {
			keep = min(keep, pending[0].start)
		}
		if keep > base {
			buf = buf[:copy(buf, buf[keep-base:])]
			base = keep
		}
	}
	kept.flush(emit)
	return nil
}

var streamBufs = sync.Pool{New: func() any { return new([]byte) }}

// resolver is resolve run over candidates that arrive in order: the last
// kept candidate may still lose to a later one that overlaps it.
type resolver struct {
	last candidate
	have bool
}

func (k *resolver) add(c candidate, emit func(candidate)) {
	if k.have && c.start < k.last.end {
		if better(c, k.last) {
			k.last = c
		}
		return
	}
	k.flush(emit)
	k.last, k.have = c, true
}

func (k *resolver) flush(emit func(candidate)) {
	if k.have {
		emit(k.last)
		k.have = false
	}
}
