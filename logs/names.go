package logs

import (
	"sync"
	"sync/atomic"
)

// nameTable numbers the model names of the process's responses and the
// tool names of its calls: a Response keeps its model and a Call its tool
// as a 4-byte number instead of a 16-byte string (a history holds a few
// dozen models and tools, and hundreds of thousands of responses and
// calls). Numbers are never reused or taken back. Reading a name takes
// no lock: names live in chunks that never move, and a number reaches a
// reader only through a snapshot published after its name was written.
var nameTable struct {
	mu     sync.Mutex
	ids    map[string]uint32
	chunks atomic.Pointer[[]*[nameChunk]string]
	n      uint32 // names numbered; 0 is ""
}

const nameChunk = 256

// nameID is the number of the name.
func nameID(name string) uint32 {
	if name == "" {
		return 0
	}
	t := &nameTable
	t.mu.Lock()
	defer t.mu.Unlock()
	if id, ok := t.ids[name]; ok {
		return id
	}
	if t.ids == nil {
		t.ids = map[string]uint32{}
		t.n = 1 // 0 stays ""
		t.chunks.Store(&[]*[nameChunk]string{new([nameChunk]string)})
	}
	id := t.n
	chunks := *t.chunks.Load()
	if int(id/nameChunk) == len(chunks) {
		grown := append(chunks[:len(chunks):len(chunks)], new([nameChunk]string))
		t.chunks.Store(&grown)
		chunks = grown
	}
	name = intern(name)
	chunks[id/nameChunk][id%nameChunk] = name
	t.ids[name] = id
	t.n++
	return id
}

// nameOf is the name numbered id by nameID.
func nameOf(id uint32) string {
	if id == 0 {
		return ""
	}
	return (*nameTable.chunks.Load())[id/nameChunk][id%nameChunk]
}

// lastName remembers the last name numbered: a file's messages name one
// model or a few, one after another, so a pass over them (packing a file's
// messages, claiming them for a snapshot) numbers each run of a model once
// instead of taking the table's lock for every message. The zero value is
// ready ("" is 0).
type lastName struct {
	name string
	id   uint32
}

// of is nameID(name).
func (l *lastName) of(name string) uint32 {
	if name != l.name {
		l.name, l.id = name, nameID(name)
	}
	return l.id
}
