package logs

import "sync"

// fileStates holds a value of T for each file a first look reads, for a
// pass done while reading (a search, a secret scan): its line hook makes a
// file's value once, before the file's first line (add), its lines change
// it from the one goroutine that reads the file, and the pass takes what it
// needs of each file once the snapshot is made (get).
type fileStates[T any] struct {
	mu    sync.Mutex
	files map[*FileSummary]*T
}

// add is f's value, zero, made for the read of f that starts.
func (fs *fileStates[T]) add(f *FileSummary) *T {
	v := new(T)
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fs.files == nil {
		fs.files = map[*FileSummary]*T{}
	}
	fs.files[f] = v
	return v
}

// get is f's value, if the look read f; for after the look.
func (fs *fileStates[T]) get(f *FileSummary) (*T, bool) {
	v, ok := fs.files[f]
	return v, ok
}
