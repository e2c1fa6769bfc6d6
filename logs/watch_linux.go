package logs

import (
	"bytes"
	"errors"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/unix"
)

// watcher reads inotify without a goroutine: take drains the queue at the
// moment of the look (see watch.go).
type watcher struct {
	fd      int
	watched map[string]bool  // folder -> watched
	dirs    map[int32]string // watch descriptor -> folder
	dirty   map[string]bool  // known files written since the last look
	relist  map[string]bool  // folders in which a file appeared, went or moved
	sweep   bool             // something only a full sweep can account for
	broken  bool             // the watcher failed: sweep from now on
	buf     []byte
}

// watchMask is what a folder's watch reports: writes and attribute changes of
// the files in it, and every way an entry appears, goes or moves.
const watchMask = unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_CREATE | unix.IN_DELETE |
	unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF

// newWatcher returns a watcher, or nil when inotify is not available (every
// look then sweeps).
func newWatcher() *watcher {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil
	}
	return &watcher{fd: fd, watched: map[string]bool{}, dirs: map[int32]string{}, dirty: map[string]bool{},
		relist: map[string]bool{}, sweep: true, buf: make([]byte, 64<<10)}
}

// take reads every event queued so far and returns what changed since the
// last look: sweep is true when only a full sweep can say; otherwise dirty
// lists the files written in place and relist the folders in which a file
// appeared, went or was renamed (both empty: nothing changed). relist is the
// caller's until the next take.
func (w *watcher) take() (dirty []string, relist map[string]bool, sweep bool) {
	w.drain()
	sweep = w.sweep || w.broken
	for p := range w.dirty {
		dirty = append(dirty, p)
	}
	clear(w.dirty)
	if len(w.relist) > 0 {
		relist, w.relist = w.relist, map[string]bool{}
	}
	w.sweep = w.broken
	return dirty, relist, sweep
}

// drain reads the queue until it is empty.
func (w *watcher) drain() {
	for !w.broken {
		n, err := unix.Read(w.fd, w.buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if errors.Is(err, unix.EAGAIN) {
			return
		}
		if err != nil || n <= 0 {
			w.broken = true // events may be lost: sweep from now on
			return
		}
		w.note(w.buf[:n])
	}
}

// note folds a buffer of events.
func (w *watcher) note(b []byte) {
	for len(b) >= unix.SizeofInotifyEvent {
		ev := (*unix.InotifyEvent)(unsafe.Pointer(&b[0]))
		end := unix.SizeofInotifyEvent + int(ev.Len)
		if end > len(b) {
			w.broken = true
			return
		}
		name := string(bytes.TrimRight(b[unix.SizeofInotifyEvent:end], "\x00"))
		b = b[end:]
		switch {
		case ev.Mask&unix.IN_Q_OVERFLOW != 0:
			w.broken = true // events were lost
		case name == "" && ev.Mask&(unix.IN_MOVE_SELF|unix.IN_DELETE_SELF) != 0:
			// The watched folder itself moved or went: its old path is no
			// longer watched (a new folder there must be), and the sweep finds
			// where it went (a watch of the same folder keeps its descriptor).
			if dir, ok := w.dirs[ev.Wd]; ok {
				delete(w.watched, dir)
			}
			w.sweep = true
		case ev.Mask&unix.IN_IGNORED != 0:
			// The folder went (or was unwatched): a sweep lists again, and a
			// folder it lists again is watched again.
			if dir, ok := w.dirs[ev.Wd]; ok {
				delete(w.dirs, ev.Wd)
				delete(w.watched, dir)
			}
			w.sweep = true
		case name != "" && ev.Mask&unix.IN_ISDIR == 0 && ev.Mask&(unix.IN_MODIFY|unix.IN_ATTRIB) != 0 &&
			ev.Mask&(unix.IN_CREATE|unix.IN_DELETE|unix.IN_MOVED_FROM|unix.IN_MOVED_TO) == 0:
			dir, ok := w.dirs[ev.Wd]
			if !ok {
				w.sweep = true
				continue
			}
			w.dirty[filepath.Join(dir, name)] = true // a file written in place (an append, a truncation)
		case name != "" && ev.Mask&unix.IN_ISDIR == 0 && ev.Mask&(unix.IN_CREATE|unix.IN_DELETE|unix.IN_MOVED_FROM|unix.IN_MOVED_TO) != 0:
			dir, ok := w.dirs[ev.Wd]
			if !ok {
				w.sweep = true
				continue
			}
			w.relist[dir] = true // a file (or a symlink) appeared, went or moved: list its folder again
		default:
			w.sweep = true // a folder appeared, went or moved, or an event not understood: list everything again
		}
	}
}

// track watches every folder a sweep listed. A folder watched for the first
// time may have changed between its listing and its watch, so the next look
// sweeps once more; after that, the watches vouch for it.
func (w *watcher) track(dirs []string) {
	added := false
	for _, d := range dirs {
		if w.watched[d] {
			continue
		}
		if remote(d) {
			w.broken = true // writes made elsewhere send no event: sweep always
			return
		}
		wd, err := unix.InotifyAddWatch(w.fd, d, watchMask)
		if err != nil {
			w.broken = true // a watch limit or a vanished folder: the sweep takes over
			return
		}
		w.watched[d] = true
		w.dirs[int32(wd)] = d
		added = true
	}
	if added {
		w.sweep = true
	}
}

// remote reports whether dir is on a file system whose changes can be made
// by another machine or kernel (NFS, SMB, FUSE such as sshfs, 9p such as
// WSL's /mnt/c, Ceph, AFS, Coda): inotify sees only the writes made here, so
// the watcher cannot vouch for it. A statfs that fails counts as remote.
func remote(dir string) bool {
	var fs unix.Statfs_t
	if unix.Statfs(dir, &fs) != nil {
		return true
	}
	switch uint32(fs.Type) {
	case unix.NFS_SUPER_MAGIC, unix.SMB_SUPER_MAGIC, unix.SMB2_SUPER_MAGIC, unix.CIFS_SUPER_MAGIC,
		unix.FUSE_SUPER_MAGIC, unix.V9FS_MAGIC, unix.CEPH_SUPER_MAGIC, unix.AFS_SUPER_MAGIC,
		unix.AFS_FS_MAGIC, unix.CODA_SUPER_MAGIC:
		return true
	}
	return false
}

func (w *watcher) close() {
	if w.fd >= 0 {
		unix.Close(w.fd)
		w.fd = -1
		w.broken = true
	}
}
