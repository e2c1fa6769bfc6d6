package logs

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// watcher tells the store what changed on disk since its last look, so a
// look with nothing changed does no file system work and an append re-reads
// the one file that grew. It watches every folder the last discovery listed
// (folders, not files: a folder's watch reports writes to the files in it).
//
// It is only ever an optimisation of the stat sweep, never a replacement:
// the sweep runs whenever the watcher cannot vouch for the disk — before its
// watches cover every folder, after a folder it had not watched appeared,
// after an event it does not understand, an overflow or any error — so a
// failing watcher degrades to the sweep, never to a stale answer.
type watcher struct {
	w *fsnotify.Watcher

	mu      sync.Mutex
	watched map[string]bool
	dirty   map[string]bool // known files written since the last look
	sweep   bool            // something only a full sweep can account for
	broken  bool            // the watcher failed: sweep from now on
	marks   map[string]chan struct{}
}

// syncName is the file a test writes to wait for the events before it.
const syncName = ".agent-activity-sync"

// newWatcher starts a watcher, or returns nil where the platform's watcher
// is not used (the sweep is the reference everywhere; the watcher is used on
// Linux, where inotify reports appends in place).
func newWatcher() *watcher {
	if runtime.GOOS != "linux" {
		return nil
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil
	}
	w := &watcher{w: fw, watched: map[string]bool{}, dirty: map[string]bool{}, sweep: true, marks: map[string]chan struct{}{}}
	go w.loop()
	return w
}

func (w *watcher) loop() {
	for {
		select {
		case ev, ok := <-w.w.Events:
			if !ok {
				w.fail()
				return
			}
			w.note(ev)
		case _, ok := <-w.w.Errors:
			// An overflow or any other error: events were lost.
			w.fail()
			if !ok {
				return
			}
		}
	}
}

func (w *watcher) fail() {
	w.mu.Lock()
	w.broken, w.sweep = true, true
	w.mu.Unlock()
}

func (w *watcher) note(ev fsnotify.Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if filepath.Base(ev.Name) == syncName {
		if ch := w.marks[ev.Name]; ch != nil && ev.Op&fsnotify.Create != 0 {
			close(ch)
			delete(w.marks, ev.Name)
		}
		return
	}
	if ev.Op&(fsnotify.Write|fsnotify.Chmod) != 0 && ev.Op&(fsnotify.Create|fsnotify.Remove|fsnotify.Rename) == 0 && !w.watched[ev.Name] {
		w.dirty[ev.Name] = true // a file written in place (an append, a truncation)
		return
	}
	w.sweep = true // created, removed, renamed, or a folder changed: list again
}

// take returns what changed since the last look and starts a new period:
// sweep is true when only a full sweep can say; otherwise dirty lists the
// files written in place (nil: nothing changed).
func (w *watcher) take() (dirty []string, sweep bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	sweep = w.sweep || w.broken
	for p := range w.dirty {
		dirty = append(dirty, p)
	}
	clear(w.dirty)
	w.sweep = w.broken
	return dirty, sweep
}

// track watches every folder a sweep listed. A folder watched for the first
// time may have changed between its listing and its watch, so the next look
// sweeps once more; after that, the watches vouch for it.
func (w *watcher) track(dirs []string) {
	added := false
	for _, d := range dirs {
		w.mu.Lock()
		known := w.watched[d]
		w.mu.Unlock()
		if known {
			continue
		}
		if err := w.w.Add(d); err != nil {
			w.fail() // a watch limit or a vanished folder: the sweep takes over
			return
		}
		w.mu.Lock()
		w.watched[d] = true
		w.mu.Unlock()
		added = true
	}
	if added {
		w.mu.Lock()
		w.sweep = true
		w.mu.Unlock()
	}
}

// sync writes a marker file in dir and waits until the watcher has seen it,
// so every event before it has been noted (inotify keeps one queue in
// order). Tests use it; false when the marker was not seen within limit.
func (w *watcher) sync(dir string, limit time.Duration) bool {
	p := filepath.Join(dir, syncName)
	ch := make(chan struct{})
	w.mu.Lock()
	w.marks[p] = ch
	w.mu.Unlock()
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		return false
	}
	defer os.Remove(p)
	select {
	case <-ch:
		return true
	case <-time.After(limit):
		return false
	}
}

func (w *watcher) close() { w.w.Close() }
