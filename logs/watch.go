package logs

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
//
// It vouches for the disk as of the moment of the look: the kernel queues a
// change's event before the writing call returns, and take reads the queue
// to its end, so a line written before a question is in its answer. (A
// watcher that delivers events from a goroutine of its own, as fsnotify does,
// answered 496 of 500 questions asked right after an append from the
// snapshot before it.) The implementation is per platform: watch_linux.go
// reads inotify; elsewhere there is none and every look sweeps.
//
// The platform's watcher implements these methods:
//
//	take() (dirty []string, relist map[string]bool, sweep bool) // what changed since the last look
//	track(dirs []string)                // watch every folder a sweep listed
//	close()
