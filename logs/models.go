package logs

import (
	"sync"
	"sync/atomic"
)

// modelTable numbers the model names of the process's responses: a
// Response keeps its model as a 4-byte number instead of a 16-byte string
// (a history holds a few dozen models and hundreds of thousands of
// responses). Numbers are never reused or taken back. Reading a name takes
// no lock: names live in chunks that never move, and a number reaches a
// reader only through a snapshot published after its name was written.
var modelTable struct {
	mu     sync.Mutex
	ids    map[string]uint32
	chunks atomic.Pointer[[]*[modelChunk]string]
	n      uint32 // names numbered; 0 is ""
}

const modelChunk = 256

// modelID is the number of the model name.
func modelID(name string) uint32 {
	if name == "" {
		return 0
	}
	t := &modelTable
	t.mu.Lock()
	defer t.mu.Unlock()
	if id, ok := t.ids[name]; ok {
		return id
	}
	if t.ids == nil {
		t.ids = map[string]uint32{}
		t.n = 1 // 0 stays ""
		t.chunks.Store(&[]*[modelChunk]string{new([modelChunk]string)})
	}
	id := t.n
	chunks := *t.chunks.Load()
	if int(id/modelChunk) == len(chunks) {
		grown := append(chunks[:len(chunks):len(chunks)], new([modelChunk]string))
		t.chunks.Store(&grown)
		chunks = grown
	}
	name = intern(name)
	chunks[id/modelChunk][id%modelChunk] = name
	t.ids[name] = id
	t.n++
	return id
}

// modelName is the name numbered id by modelID.
func modelName(id uint32) string {
	if id == 0 {
		return ""
	}
	return (*modelTable.chunks.Load())[id/modelChunk][id%modelChunk]
}
