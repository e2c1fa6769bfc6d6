package logs

import (
	"slices"
	"sync"
)

// slab keeps the lists that summaries hold for as long as the process
// lives, copied at their length into large shared chunks. Made one by one
// in the middle of a read's garbage, such lists sat in spans of every size
// class among that garbage, and after a collection those spans stayed,
// mostly empty, for the few lists in them: at 4 GB the heap in use after a
// collection was a third more than the live heap. A chunk is allocated once
// and filled from its start, so the lists it holds are dense.
//
// A list in a chunk has no room past its length (an append copies it out),
// and each list is its holder's alone: a chunk's lists never overlap. A
// chunk stays while any of its lists is held: a summary dropped or read
// again leaves its part of a chunk unused until the chunk's last list goes,
// which a history that only grows (the common case) rarely does.
type slab[T any] struct {
	mu sync.Mutex
	chunks[T]
}

// copyOf is chunks.copyOf, for goroutines at once.
func (s *slab[T]) copyOf(list []T) []T {
	if len(list) == 0 || len(list) > s.size/4 {
		return s.chunks.copyOf(list) // no chunk is touched
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.chunks.copyOf(list)
}

// chunks hands out room from a chunk of size elements, filled from its
// start, and from a new chunk once it is full: one goroutine's, as a read's
// scratch is (slab is the shared one).
type chunks[T any] struct {
	chunk []T
	size  int // elements per chunk
}

// copyOf is list copied into the chunk (nil when it is empty), with no room
// past its length. A list longer than a quarter of a chunk is allocated
// alone: it is in a span of its own, or nearly.
func (c *chunks[T]) copyOf(list []T) []T {
	n := len(list)
	if n == 0 {
		return nil
	}
	if n > c.size/4 {
		return slices.Clone(list)
	}
	if cap(c.chunk)-len(c.chunk) < n {
		c.chunk = make([]T, 0, c.size)
	}
	start := len(c.chunk)
	c.chunk = append(c.chunk, list...)
	return c.chunk[start:len(c.chunk):len(c.chunk)]
}

// next is a zero element of the chunk, the caller's alone.
func (c *chunks[T]) next() *T {
	if len(c.chunk) == cap(c.chunk) {
		c.chunk = make([]T, 0, c.size)
	}
	c.chunk = c.chunk[:len(c.chunk)+1]
	return &c.chunk[len(c.chunk)-1]
}

var (
	callSlab    = slab[Call]{chunks: chunks[Call]{size: 2048}}           // 112 KB chunks
	messageSlab = slab[byte]{chunks: chunks[byte]{size: 128 << 10}}      // packed messages (messageLog.b)
	toolSlab    = slab[toolCount]{chunks: chunks[toolCount]{size: 4096}} // a file's calls by tool (32 KB chunks)
)
