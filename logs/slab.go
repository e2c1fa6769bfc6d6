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
	mu    sync.Mutex
	chunk []T
	size  int // elements per chunk
}

// copyOf is list copied into the slab (nil when it is empty). A list longer
// than a quarter of a chunk is allocated alone: it is in a span of its own,
// or nearly.
func (s *slab[T]) copyOf(list []T) []T {
	n := len(list)
	if n == 0 {
		return nil
	}
	if n > s.size/4 {
		return slices.Clone(list)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if cap(s.chunk)-len(s.chunk) < n {
		s.chunk = make([]T, 0, s.size)
	}
	start := len(s.chunk)
	s.chunk = append(s.chunk, list...)
	return s.chunk[start:len(s.chunk):len(s.chunk)]
}

var (
	callSlab    = slab[Call]{size: 2048}      // 112 KB chunks
	messageSlab = slab[byte]{size: 128 << 10} // packed messages (messageLog.b)
	toolSlab    = slab[toolCount]{size: 4096} // a file's calls by tool (32 KB chunks)
)
