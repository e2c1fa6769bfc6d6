package logs

import (
	"sync"
	"unsafe"
)

// readScratch is what a read from a file's start builds only to drop at its
// end: the open message list (packed, then dropped), the list its calls grow
// in (copied out at their length) and its lookups. A full build reads
// thousands of files, and each of these grew to its file's size by doubling
// and was then garbage: at 1 GB the calls' lists alone were 14 of the 118 MB
// a fresh usage_report allocated, the lookups 7 MB more. Recycled between
// reads, they are allocated about once per worker instead.
//
// It also hands out the records of file calls (callFiles) and the strings
// the summary keeps, which live as long as their summaries: from chunks it
// fills from the start, so that they are dense in memory rather than one by
// one among the read's garbage (see slab). The chunks go on from read to
// read; they are never cleared.
type readScratch struct {
	msgs     []Message
	calls    []Call
	msgIdx   map[uint64]int32
	callIdx  map[uint64]int32
	lastByID map[uint64]int32
	paths    map[string]string
	files    chunks[callFiles] // the records handed out, then room
	text     chunks[byte]      // the strings summaries keep (keep)
}

// keep is x copied into the scratch's chunk of kept strings (a long one
// alone): the file paths, prompts and titles a summary keeps, dense rather
// than one by one among the read's garbage. The bytes of a chunk are never
// written again once handed out.
func (s *readScratch) keep(x string) string {
	b := s.text.copyOf(unsafe.Slice(unsafe.StringData(x), len(x)))
	return unsafe.String(unsafe.SliceData(b), len(b))
}

var scratches sync.Pool // *readScratch

// The largest lists and lookups kept for the next read: a very long file's
// are left to the collector, so that no worker holds them between builds.
const (
	maxRecycled     = 1 << 11 // messages (240 KB)
	maxRecycledCall = 1 << 12 // calls (256 KB)
	maxRecycledKeys = 1 << 12 // entries of a lookup
)

// takeScratch is an empty recycled scratch, or a new one.
func takeScratch() *readScratch {
	if s, _ := scratches.Get().(*readScratch); s != nil {
		return s
	}
	return &readScratch{msgIdx: map[uint64]int32{}, callIdx: map[uint64]int32{}, lastByID: map[uint64]int32{}, paths: map[string]string{},
		files: chunks[callFiles]{size: 1024}, text: chunks[byte]{size: 32 << 10}} // 56 and 32 KB
}

// give empties s and recycles it. Its lists are the ones the read left
// (append may have moved them), which nothing else holds.
func (s *readScratch) give() {
	s.msgs = recycledList(s.msgs, maxRecycled)
	s.calls = recycledList(s.calls, maxRecycledCall)
	s.msgIdx = recycledMap(s.msgIdx)
	s.callIdx = recycledMap(s.callIdx)
	s.lastByID = recycledMap(s.lastByID)
	s.paths = recycledMap(s.paths)
	scratches.Put(s)
}

func recycledList[T any](list []T, most int) []T {
	if cap(list) > most {
		return nil
	}
	// The elements hold pointers. Those past the length (a slot a read
	// took back) are written over by the next read's appends; clearing
	// the whole capacity cost a clear of 240 KB per file read.
	clear(list)
	return list[:0]
}

func recycledMap[K comparable, V any](m map[K]V) map[K]V {
	if len(m) > maxRecycledKeys { // clearing costs what it grew to, every read after
		return map[K]V{}
	}
	clear(m)
	return m
}
