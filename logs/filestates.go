package logs

import "sync"

// fileStates holds a value of T for each file a line hook of the store's
// first look sees: what a pass done while reading (a search, a secret scan)
// keeps of each file, to take what it needs of each when the snapshot is
// made. The hook's calls for one file come from one goroutine at a time,
// so a file's value is changed unlocked; finding it takes the lock only
// when the worker's last file was another one.
type fileStates[T any] struct {
	mu    sync.Mutex
	files map[*FileSummary]*fileState[T]
	last  sync.Pool // *fileState[T] of the file a worker's hook saw last
}

type fileState[T any] struct {
	f *FileSummary
	v T
}

// of is f's state, its value zero at f's first line. The hook hands it
// back with keep when done with the line.
func (fs *fileStates[T]) of(f *FileSummary) *fileState[T] {
	s, _ := fs.last.Get().(*fileState[T])
	if s != nil && s.f == f {
		return s
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fs.files == nil {
		fs.files = map[*FileSummary]*fileState[T]{}
	}
	if s = fs.files[f]; s == nil {
		s = &fileState[T]{f: f}
		fs.files[f] = s
	}
	return s
}

// keep makes s the state the next line of this worker tries first.
func (fs *fileStates[T]) keep(s *fileState[T]) { fs.last.Put(s) }

// get is f's value, if the hook saw f; for after the look.
func (fs *fileStates[T]) get(f *FileSummary) (*T, bool) {
	s, ok := fs.files[f]
	if !ok {
		return nil, false
	}
	return &s.v, true
}
