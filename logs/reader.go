package logs

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"
)

// LineReader reads JSONL lines of any length, shaped like bufio.Scanner:
// Scan advances, Line returns the current line, Err reports the first I/O error.
// A line is returned without its '\n'. The slice returned by Line is valid only
// until the next call to Scan. A final line without '\n' is returned with
// Torn reporting true, so the caller can decide whether it is being written.
type LineReader struct {
	pooled *pooledBuffers
	r      *bufio.Reader
	raw    []byte // the current line with its line end, as read
	line   []byte
	buf    []byte
	offset int64 // bytes consumed through the end of the current line
	start  int64 // offset of the current line's first byte
	torn   bool
	err    error
	done   bool
}

// pooledBuffers are the read buffer and the long-line buffer, recycled
// between files so a scan allocates per worker, not per file.
type pooledBuffers struct {
	br   *bufio.Reader
	long []byte
}

var readerPool = sync.Pool{New: func() any { return &pooledBuffers{br: bufio.NewReaderSize(nil, 256<<10)} }}

// NewLineReader reads from r; base is the file offset r starts at. Call
// Close when done to recycle the buffers.
func NewLineReader(r io.Reader, base int64) *LineReader {
	pb := readerPool.Get().(*pooledBuffers)
	pb.br.Reset(r)
	return &LineReader{r: pb.br, buf: pb.long[:0], pooled: pb, offset: base}
}

// Close returns the reader's buffers to the pool; the reader is unusable after.
func (lr *LineReader) Close() {
	if lr.pooled != nil {
		lr.pooled.br.Reset(nil)
		lr.pooled.long = nil
		if cap(lr.buf) <= 8<<20 { // keep ordinary long lines' buffer, not a 100 MB one
			lr.pooled.long = lr.buf[:0]
		}
		readerPool.Put(lr.pooled)
		lr.pooled, lr.r = nil, nil
	}
	lr.buf, lr.line, lr.raw = nil, nil, nil
	lr.done = true
}

// Scan reads the next line. It returns false at EOF or on an I/O error.
func (lr *LineReader) Scan() bool {
	if lr.done {
		return false
	}
	lr.torn = false
	lr.start = lr.offset
	frag, err := lr.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		// A long line: collect fragments into our own buffer.
		lr.buf = append(lr.buf[:0], frag...)
		for err == bufio.ErrBufferFull {
			frag, err = lr.r.ReadSlice('\n')
			lr.buf = append(lr.buf, frag...)
		}
		frag = lr.buf
	}
	lr.offset += int64(len(frag))
	if err != nil {
		lr.done = true
		if !errors.Is(err, io.EOF) {
			lr.err = err
			return false
		}
		if len(frag) == 0 {
			return false
		}
		lr.torn = true
	}
	lr.raw = frag
	lr.line = bytes.TrimSuffix(frag, []byte{'\n'})
	lr.line = bytes.TrimSuffix(lr.line, []byte{'\r'})
	return true
}

// Line returns the current line without its line end.
func (lr *LineReader) Line() []byte { return lr.line }

// Raw returns the current line with its line end exactly as read; valid
// until the next Scan.
func (lr *LineReader) Raw() []byte { return lr.raw }

// Torn reports whether the current line ended at EOF without '\n'.
func (lr *LineReader) Torn() bool { return lr.torn }

// Start returns the file offset of the current line.
func (lr *LineReader) Start() int64 { return lr.start }

// Offset returns the file offset just past the current line.
func (lr *LineReader) Offset() int64 { return lr.offset }

// Err returns the first non-EOF read error.
func (lr *LineReader) Err() error { return lr.err }
