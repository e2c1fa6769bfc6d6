package transcript

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"sync"
)

// Lines scans a JSONL stream the one way every pass over a transcript does,
// shaped like bufio.Scanner: Scan advances to the next non-blank line, Bytes
// and Raw return it, Err reports the first I/O error or the context's error.
//
// The rules, in one place:
//   - a line number is the physical line, 1-based; blank lines count as lines
//     but are never yielded;
//   - a line ends at '\n'; a '\r' before it is dropped; lines have no length
//     limit (real lines hold images of several MB);
//   - a last line without '\n' is yielded with Torn true: the caller decides
//     whether it is being written right now;
//   - the context is checked every 256 lines and before each run SkipRuns
//     passes over, so a pass over a huge file stops promptly when its
//     request is cancelled.
//
// The slices returned by Bytes and Raw are valid until the next Scan.
// Consumed and Marks describe the bytes up to the last line passed to Commit
// (blank lines are committed by Scan), which is where an incremental reader
// resumes.
type Lines struct {
	ctx     context.Context
	pooled  *pooledBuffers
	r       *bufio.Reader
	src     io.Reader   // the stream bufio reads
	at      io.ReaderAt // src as a file read from offset on, once a long line asked (see long)
	atKnown bool
	may     func(b []byte) bool // with span and seam: which long lines to read (see SkipLong)
	every   bool                // SkipLong is refused (see YieldEvery)
	skipped func(n int)
	span    int
	runs    func(lines int, bytes int64) // told of the runs passRuns passes over (see SkipRuns)
	single  int64                        // passRuns leaves the lines before this offset to next
	seam    []byte
	raw     []byte
	line    []byte
	buf     []byte
	offset  int64 // bytes read through the end of the current line
	start   int64 // offset of the current line's first byte
	number  int   // physical number of the current line
	torn    bool
	err     error
	done    bool

	consumed      int64
	consumedLines int
	fromStart     bool
	head, tail    []byte
}

// pooledBuffers are the read buffer and the long-line buffer, recycled
// between files so a scan allocates per worker, not per file.
type pooledBuffers struct {
	br   *bufio.Reader
	long []byte
	seam []byte
}

var readerPool = sync.Pool{New: func() any { return &pooledBuffers{br: bufio.NewReaderSize(nil, 256<<10)} }}

// MarkLen is how many bytes Marks keeps at each end.
const MarkLen = 128

// NewLines reads r, which starts at byte offset of its file, after lines
// physical lines. Call Close when done to recycle the buffers.
func NewLines(ctx context.Context, r io.Reader, offset int64, lines int) *Lines {
	pb := readerPool.Get().(*pooledBuffers)
	pb.br.Reset(r)
	return &Lines{ctx: ctx, r: pb.br, src: r, buf: pb.long[:0], seam: pb.seam[:0], pooled: pb, offset: offset, number: lines,
		consumed: offset, consumedLines: lines, fromStart: offset == 0}
}

// readerAt is r as an io.ReaderAt when it is one (a file) that has been
// read up to pos, by Lines' count; nil otherwise (a decompressed or limited
// stream, or a file read from another place than the offset Lines was
// given).
func readerAt(r io.Reader, pos int64) io.ReaderAt {
	ra, ok := r.(io.ReaderAt)
	s, seeks := r.(io.Seeker)
	if !ok || !seeks {
		return nil
	}
	if at, err := s.Seek(0, io.SeekCurrent); err != nil || at != pos {
		return nil
	}
	return ra
}

// fileAt is the stream as a file to read a long line again from, or nil.
// It is asked at the first long line (few files have one: a seek for each
// file was a system call more per file), whose first piece frag is the
// whole read buffer, so the file has been read to just past it.
func (l *Lines) fileAt(frag []byte) io.ReaderAt {
	if !l.atKnown {
		l.at, l.atKnown = readerAt(l.src, l.start+int64(len(frag))), true
	}
	return l.at
}

// Close returns the buffers to the pool; the scanner is unusable after.
func (l *Lines) Close() {
	if l.pooled != nil {
		l.pooled.br.Reset(nil)
		l.pooled.long = nil
		if cap(l.buf) <= 8<<20 { // keep ordinary long lines' buffer, not a 100 MB one
			l.pooled.long = l.buf[:0]
		}
		l.pooled.seam = l.seam[:0] // at most span and a read buffer
		readerPool.Put(l.pooled)
		l.pooled, l.r = nil, nil
	}
	l.buf, l.line, l.raw, l.seam = nil, nil, nil, nil
	l.done = true
}

// Scan reads up to the next non-blank line. It returns false at the end of
// the stream, on an I/O error, or when the context is done.
func (l *Lines) Scan() bool {
	for l.next() {
		if len(bytes.TrimSpace(l.line)) > 0 {
			return true
		}
		l.Commit()
	}
	return false
}

func (l *Lines) next() bool {
	if l.done {
		return false
	}
	if l.number%256 == 0 && l.cancelled() {
		return false
	}
	if l.runs != nil && l.offset >= l.single && l.r.Buffered() > 0 {
		if l.cancelled() {
			return false
		}
		l.passRuns()
	}
	l.torn = false
	l.start = l.offset
	frag, err := l.r.ReadSlice('\n')
	n := len(frag)
	if err == bufio.ErrBufferFull {
		if frag, n, err = l.long(frag); err == errChanged {
			l.err, l.done = err, true
			return false
		}
	}
	l.offset += int64(n)
	if err != nil {
		l.done = true
		if !errors.Is(err, io.EOF) {
			l.err = err
			return false
		}
		if n == 0 {
			return false
		}
		l.torn = true
	}
	l.number++
	l.raw = frag
	l.line = bytes.TrimSuffix(frag, []byte{'\n'})
	l.line = bytes.TrimSuffix(l.line, []byte{'\r'})
	return true
}

// cancelled ends the scan with the context's error once it is done.
func (l *Lines) cancelled() bool {
	if l.ctx == nil {
		return false
	}
	if err := l.ctx.Err(); err != nil {
		l.err, l.done = err, true
		return true
	}
	return false
}

// errChanged is the error of a scan whose file was cut short or rewritten
// between two reads of one long line.
var errChanged = errors.New("the file changed while it was read")

// SkipLong lets a pass that only reads lines (not one that summarises a
// file, or decodes each line for the next one's sake) go past a long line
// it does not want without holding it. may sees such a line in pieces as
// they stream past, and each seam between two pieces with span bytes on
// either side, so every run of up to span+1 bytes of the line is inside one
// of the calls. A line for which may is never true is not read again: Scan
// goes past it as past a blank line, and Marks no longer describe the scan.
// skipped is told the length such a line's Bytes would have had (a line of
// white space alone is blank, and not told). Only a long line read again
// from its file (see long) is skipped; other streams yield every line.
func (l *Lines) SkipLong(span int, may func(b []byte) bool, skipped func(n int)) {
	if l.every {
		return
	}
	l.may, l.skipped, l.span = may, skipped, max(span, 2) // seam keeps the line end
}

// SkipRuns lets a scan set up by SkipLong go past whole lines that may
// rejects without yielding them one at a time: may is shown what the read
// buffer holds after the current line (whole lines, and the start of the
// next one), and when it is false the whole lines are passed over at once,
// as SkipLong passes over a long line, and skipped is told how many there
// were and the total length their Bytes would have had. A line that is
// blank or ends in anything but a printable ASCII byte (a '\r', a space, a
// multi-byte character) stops the run and is read as usual, so the lines a
// run holds are non-blank and their Bytes end where their '\n' is: Number
// stays the physical line's, and the lengths told are exact. Where may is
// true, every line it was shown is read as usual.
//
// may must be false for bytes that hold several lines only when it is
// false for each of them, as a test of whether some text occurs in the
// bytes is. It is not SkipLong's contract: the secret scan's pre-check reads
// past a trigger, and past a line's end it would read the next line.
func (l *Lines) SkipRuns(skipped func(lines int, bytes int64)) {
	if l.may != nil {
		l.runs = skipped
	}
}

// passRuns goes past the whole lines of the read buffer that may rejects,
// up to the first line that it must read as usual (see SkipRuns), which it
// marks in single. The buffer is not filled here: the line read as usual
// after a run fills it, and its read's error stays bufio's to report.
func (l *Lines) passRuns() {
	b, _ := l.r.Peek(l.r.Buffered())
	e := bytes.IndexByte(b, '\n')
	if e < 0 {
		return // the start of a line longer than what is buffered
	}
	if l.may(b) {
		l.single = l.offset + int64(len(b))
		return
	}
	n, lines := 0, 0 // the run: its first n bytes, that many lines
	for {
		if e == n || b[e-1] < '!' || b[e-1] > '~' { // blank, or not plainly ended
			l.single = l.offset + int64(e+1)
			break
		}
		n, lines = e+1, lines+1
		j := bytes.IndexByte(b[n:], '\n')
		if j < 0 {
			break
		}
		e = n + j
	}
	if lines > 0 {
		l.r.Discard(n)
		l.offset += int64(n)
		l.number += lines
		l.runs(lines, int64(n-lines))
	}
}

// YieldEvery makes SkipLong do nothing: the reader of a format whose
// entries depend on the lines before them (a Codex rollout: the fork's
// copied prefix, the model in force) asks for every line, whatever pass
// reads through it.
func (l *Lines) YieldEvery() {
	l.every = true
	l.may, l.skipped, l.runs = nil, nil, nil
}

// wanted reports whether may is true for frag, a long line's next piece, or
// for the seam before it; seam then keeps the last span bytes read.
func (l *Lines) wanted(frag []byte) bool {
	t := append(l.seam, frag[:min(len(frag), l.span)]...)
	// With a seam and a piece no longer than span, the seam holds all of
	// the piece: one call for both.
	if (len(l.seam) == 0 || len(frag) > l.span) && l.may(frag) {
		return true
	}
	if len(l.seam) > 0 && l.may(t) {
		return true
	}
	if len(frag) >= l.span {
		t = append(t[:0], frag[len(frag)-l.span:]...)
	} else if len(t) > l.span {
		t = t[:copy(t, t[len(t)-l.span:])]
	}
	l.seam = t
	return false
}

// long reads the rest of a line longer than the read buffer, whose first
// frag bytes were read, and returns it whole, its length and the error of
// its last read (nil, io.EOF, or another). A line SkipLong's may does not
// want is returned as nil, with its length.
//
// From a file, the line's bytes are only counted as they stream past, and
// the line is then read again from the file at its exact length, into the
// long-line buffer when it is big enough and otherwise into one of exactly
// that size. Grown by doubling as it is read (the way for other streams),
// the buffer of an n-byte line was up to 2n, and 3n while it last grew.
// Both reads copy the line once, as the doubling's appends did. The bytes
// read again are the ones the stream passed unless the file was cut short
// or rewritten in between (Claude Code only appends): then the scan ends
// with errChanged.
func (l *Lines) long(frag []byte) ([]byte, int, error) {
	err := bufio.ErrBufferFull
	if l.fileAt(frag) == nil {
		l.buf = appendDoubling(l.buf[:0], frag)
		for err == bufio.ErrBufferFull {
			frag, err = l.r.ReadSlice('\n')
			l.buf = appendDoubling(l.buf, frag)
		}
		return l.buf, len(l.buf), err
	}
	l.seam = l.seam[:0]
	n, want := len(frag), l.may == nil || l.wanted(frag)
	blank := !want && len(bytes.TrimSpace(frag)) == 0 // only a skipped line's is asked
	for err == bufio.ErrBufferFull {
		frag, err = l.r.ReadSlice('\n')
		n += len(frag)
		want = want || l.wanted(frag)
		blank = blank && !want && len(bytes.TrimSpace(frag)) == 0
	}
	if err != nil && err != io.EOF {
		return nil, n, err // the stream failed: there is no line to read again
	}
	if !want {
		if !blank && l.skipped != nil {
			l.skipped(n - len(l.seam) + len(bytes.TrimSuffix(bytes.TrimSuffix(l.seam, []byte{'\n'}), []byte{'\r'})))
		}
		return nil, n, err
	}
	if cap(l.buf) < n {
		l.buf = make([]byte, n)
	}
	line := l.buf[:n]
	if m, _ := l.at.ReadAt(line, l.start); m < n || err == nil && line[n-1] != '\n' {
		return nil, 0, errChanged
	}
	return line, n, err
}

// appendDoubling is append for the long-line buffer, which grows by
// doubling: append grows a large slice by about a quarter, so a 2 MB line
// read 256 KB at a time went through ten buffers (10 MB allocated).
func appendDoubling(dst, src []byte) []byte {
	if need := len(dst) + len(src); need > cap(dst) {
		grown := make([]byte, len(dst), max(need, 2*cap(dst)))
		copy(grown, dst)
		dst = grown
	}
	return append(dst, src...)
}

// Commit marks the current line as consumed: Consumed moves past it and
// Marks include its bytes.
func (l *Lines) Commit() {
	l.consumed, l.consumedLines = l.offset, l.number
	raw := l.raw
	if l.fromStart && len(l.head) < MarkLen {
		l.head = append(l.head, raw[:min(len(raw), MarkLen-len(l.head))]...)
	}
	if len(raw) >= MarkLen {
		l.tail = append(l.tail[:0], raw[len(raw)-MarkLen:]...)
		return
	}
	t := append(l.tail, raw...)
	if len(t) > MarkLen {
		t = t[len(t)-MarkLen:]
	}
	l.tail = append([]byte(nil), t...)
}

// Bytes returns the current line without its line end.
func (l *Lines) Bytes() []byte { return l.line }

// Raw returns the current line with its line end exactly as read.
func (l *Lines) Raw() []byte { return l.raw }

// Number returns the physical, 1-based number of the current line.
func (l *Lines) Number() int { return l.number }

// Torn reports whether the current line ended at the end of the stream
// without '\n'.
func (l *Lines) Torn() bool { return l.torn }

// Start returns the file offset of the current line.
func (l *Lines) Start() int64 { return l.start }

// Consumed returns the offset just past the last committed line, and the
// number of physical lines up to it.
func (l *Lines) Consumed() (offset int64, lines int) { return l.consumed, l.consumedLines }

// Marks returns the first bytes committed (when the scan began at offset 0;
// nil otherwise) and the bytes just before Consumed: a later look checks
// they are still in place before reading only what was appended. They are
// the scan's buffers, valid until its next Commit.
func (l *Lines) Marks() (head, tail []byte) { return l.head, l.tail }

// Resume seeds the tail mark of a scan that continues an earlier one from
// its Consumed offset with the bytes just before it, so short appends still
// give a full tail mark.
func (l *Lines) Resume(tail []byte) {
	l.tail = append([]byte(nil), tail...)
}

// Err returns the first I/O error, or the context's error when the scan
// stopped for it; nil at a clean end.
func (l *Lines) Err() error { return l.err }
