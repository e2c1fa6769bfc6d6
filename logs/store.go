package logs

import (
	"cmp"
	"context"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agent-activity/agent-activity/pricing"
	"github.com/agent-activity/agent-activity/transcript"
)

// Config is everything the logs package needs from its caller. Nothing below
// main reads the environment or the home directory.
type Config struct {
	Roots      []string
	RootLabels map[string]string  // root path -> the machine it holds; a root not in it is LocalMachine
	Agents     []transcript.Agent // the formats read under every root of Roots
	// Sources are agents with roots of their own (Codex under ~/.codex
	// beside Claude Code under ~/.claude/projects), read as well.
	Sources []Source
	// Watch turns on the change watcher where the platform has one (Linux):
	// a look with nothing changed then does no file system work. The stat
	// sweep stays the fallback and the reference.
	Watch           bool
	LiveWindow      time.Duration
	Now             func() time.Time
	Location        *time.Location
	Pricing         *pricing.Table
	CallerSessionID string
	// Built, when set, is called after each full build of a snapshot (the
	// server lowers its GC target once the first scan is done).
	Built func()
}

// Source is one agent's format and the roots it is read under.
type Source struct {
	Agent transcript.Agent
	Roots []string
}

// sources is every (agent, roots) pair the configuration names: each agent
// of Agents under Roots, then Sources.
func (c Config) sources() []Source {
	var out []Source
	for _, a := range c.Agents {
		out = append(out, Source{Agent: a, Roots: c.Roots})
	}
	return append(out, c.Sources...)
}

// Store keeps a summary of every transcript file in memory, keyed by path and
// checked against its size, mtime and file identity (transcript.FileID) on
// every look; a file that grew, with the bytes read before still in place, is
// read only from where the last look stopped. It is safe for concurrent use.
type Store struct {
	cfg Config

	mu     sync.Mutex // serialises refreshes
	dirs   *transcript.DirCache
	found  []discovered   // the last discovery, reused as the next one's buffer
	spare  []discovered   // the one before it, the buffer of a narrow look's discovery
	synced bool           // files holds a summary of each of found, and nothing else
	at     map[string]int // path -> its index in found, made by the first restat after a sweep
	watch  *watcher       // nil: every look sweeps
	files  map[string]*FileSummary
	snap   *Snapshot
	index  *respIndex // message key -> its response in snap

	fullBuilds, extensions int // how snapshots were made (tests and benchmarks read them)
	ext                    extendStats
	sweeps, restats, quiet int // how looks were made
	narrows                int // looks that listed only the folders the watcher named
}

// NewStore returns an empty store; nothing is read until the first Snapshot.
func NewStore(cfg Config) *Store {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Location == nil {
		cfg.Location = time.UTC
	}
	if cfg.LiveWindow <= 0 {
		cfg.LiveWindow = 10 * time.Minute
	}
	st := &Store{cfg: cfg, files: map[string]*FileSummary{}, dirs: transcript.NewDirCache()}
	if cfg.Watch {
		st.watch = newWatcher()
	}
	return st
}

// Config returns the store's configuration.
func (s *Store) Config() Config { return s.cfg }

// Progress receives (done, total) file counts during a refresh.
type Progress func(done, total int)

// Snapshot brings the summaries up to date with the disk and returns an
// immutable view of the whole history. When nothing changed since the last
// call, the previous snapshot is returned as is.
func (s *Store) Snapshot(ctx context.Context, progress Progress) (*Snapshot, error) {
	snap, _, err := s.snapshot(ctx, progress, nil)
	return snap, err
}

// lineHook is called once for each file a first look reads, before its
// first line, and the function it returns (nil: none) sees every line of
// the file as a separate pass's reader of it would (a torn or undecodable
// line too), before the line is folded, from one goroutine, in order. What
// a pass keeps of each file lives in that function, found once per file.
type lineHook func(f *FileSummary) func(er transcript.EntryReader)

// snapshot is Snapshot with a hook run on each decoded line when this is the
// store's first look (every file is read from its start); hooked reports
// whether the hook saw every file.
func (s *Store) snapshot(ctx context.Context, progress Progress, hook lineHook) (*Snapshot, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()

	found, roots, dirty, ok := s.look()
	if !ok {
		return s.snap, false, nil // the watcher vouches that nothing changed: no file system work
	}
	// After a restat only the files it stated can have changed: the rest of
	// found is what files already summarises.
	cands := found
	if dirty != nil && s.synced && s.snap != nil {
		cands = make([]discovered, len(dirty))
		for i, j := range dirty {
			cands[i] = found[j]
		}
	} else {
		dirty = nil
	}
	if s.snap != nil && len(found) == len(s.files) && rootsEqual(s.snap.Roots, roots) && unchanged(cands, s.files) {
		s.synced = true
		return s.snap, false, nil // the common case, answered without allocating
	}
	// The hook runs only when every file is read from its start.
	for _, d := range found {
		if s.files[d.Path] != nil {
			hook = nil
			break
		}
	}
	known := len(s.files) // before the files of a restat go in
	var work []scanJob
	// The entries of cands, written into files once the reads succeed
	// after a restat; after a sweep, cands is every file and they are files.
	staged := make(map[string]*FileSummary, len(cands))
	changed := len(found) != len(s.files)
	grown := map[*FileSummary]*FileSummary{} // old summary -> its extended clone
	var added []*FileSummary                 // files new to the store
	rescanned := false
	for _, d := range cands {
		old := s.files[d.Path]
		if old != nil && old.Size == d.Info.Size && old.ModTime.Equal(d.Info.ModTime) && old.id == d.Info.ID {
			staged[d.Path] = old
			continue
		}
		changed = true
		if old != nil && old.ReadError == "" && d.Info.Size >= old.Offset {
			if tail, ok := old.unchangedPrefix(d.Info); ok {
				c := old.clone()
				staged[d.Path] = c
				work = append(work, scanJob{c, d.Info, d.Info.Size - c.Offset, tail})
				grown[old] = c
				continue
			}
		}
		fs := newFileSummary(d)
		staged[d.Path] = fs
		work = append(work, newScanJob(fs, d.Info))
		if old == nil {
			added = append(added, fs)
		} else {
			rescanned = true // rewritten, or unreadable before
		}
	}
	if err := scanAll(ctx, work, progress, hook); err != nil {
		s.synced = false
		return nil, false, err
	}
	s.synced = true // files is next from here on
	next := staged
	if dirty != nil {
		maps.Copy(s.files, staged)
		next = s.files
	}
	if !changed && s.snap != nil && rootsEqual(s.snap.Roots, roots) {
		return s.snap, false, nil
	}
	// Every known file is still there when found is the known ones and the
	// added ones.
	if s.snap != nil && !rescanned && len(found) == known+len(added) && rootsEqual(s.snap.Roots, roots) {
		if snap, ok := extendSnapshot(s.snap, s.index, grown, added, &s.ext); ok {
			s.files, s.snap = next, snap
			s.extensions++
			return snap, false, nil
		}
	}
	s.fullBuilds++
	// A full build is the moment to pack hot files that stopped growing: the
	// new snapshot takes the packed copies, the previous one keeps its own.
	quiet := s.cfg.Now().Add(-s.cfg.LiveWindow)
	for p, f := range next {
		if f.hot && f.ModTime.Before(quiet) {
			next[p] = f.cooled()
		}
	}
	s.files = next
	s.snap, s.index = buildSnapshot(s.cfg, next, roots)
	if s.cfg.Built != nil {
		s.cfg.Built()
	}
	return s.snap, hook != nil, nil
}

// look finds what is on disk: by a full sweep (discovery and a stat of every
// file), or, when the watcher vouches for everything else, by a stat of the
// files written since the last look (stated: their indexes in found; nil
// after a sweep). ok is false when the watcher says nothing changed at all.
func (s *Store) look() (found []discovered, roots []RootInfo, stated []int, ok bool) {
	if s.watch != nil && s.snap != nil {
		dirty, relist, sweep := s.watch.take()
		if !sweep && len(dirty) == 0 && len(relist) == 0 {
			s.quiet++
			return nil, nil, nil, false
		}
		if !sweep && len(relist) == 0 {
			if stated, ok := s.restat(dirty); ok {
				s.restats++
				return s.found, s.snap.Roots, stated, true
			}
		}
		if !sweep && len(relist) > 0 && !s.dirs.Linked() {
			s.narrows++
			found, roots, stated = s.narrow(relist, dirty)
			s.watch.track(s.dirs.Visited()) // a folder it had not listed (a symlink's) is watched, and swept next
			return found, roots, stated, true
		}
	}
	s.sweeps++
	found, roots = discover(s.dirs, s.cfg, s.found)
	s.found, s.synced, s.at = found, false, nil
	if s.watch != nil {
		s.watch.track(s.dirs.Visited())
	}
	return found, roots, nil, true
}

// narrow is the look after files appeared, went or moved in the folders
// relist (the watcher's word for every other folder and file): a discovery
// that lists only those folders again and stats only their files and the
// written ones, every other listing and stat kept from the last look. stated
// is the indexes in found of the files stated, or nil when a file of the
// last discovery is gone (the caller then compares every file, as after a
// sweep).
func (s *Store) narrow(relist map[string]bool, dirty []string) (found []discovered, roots []RootInfo, stated []int) {
	prev := s.found
	written := make(map[string]bool, len(dirty))
	for _, p := range dirty {
		written[p] = true
	}
	// The walk meets the files in the order the last one did, the named
	// folders' new files among them: a file of prev is found by a cursor
	// (one that went may stand before it), not by a map of 15,000 paths. A
	// file the cursor misses is stated and counts as not known, so that
	// anything else (many gone at once) compares every file.
	j := 0
	keep := func(d *discovered) bool {
		i := -1
		switch {
		case j < len(prev) && prev[j].Path == d.Path:
			i = j
		case j+1 < len(prev) && prev[j+1].Path == d.Path:
			i = j + 1
		}
		if i < 0 {
			return false // new (or met out of order)
		}
		j, d.known = i+1, true
		if written[d.Path] || relist[d.Path[:max(strings.LastIndexByte(d.Path, filepath.Separator), 0)]] {
			return false // written, or in a folder whose entries changed (a name may be another file now)
		}
		d.Info = prev[i].Info
		return true
	}
	found, roots = discoverTrusted(s.dirs, s.cfg, s.spare, relist, keep)
	s.spare, s.found, s.at = prev, found, nil // the last discovery's buffer takes the next one
	kept := 0
	for i := range found {
		if found[i].known {
			kept++
		}
		if found[i].stated {
			stated = append(stated, i)
		}
	}
	if kept != len(prev) {
		s.synced = false // a file went: compare them all
		return found, roots, nil
	}
	if stated == nil {
		stated = []int{} // nothing new or changed: still the restat's way
	}
	return found, roots, stated
}

// restat refreshes the file information of the written files in the last
// discovery and returns their indexes in it; ok is false when one of them is
// no longer a regular file (the sweep then decides).
func (s *Store) restat(dirty []string) ([]int, bool) {
	if s.at == nil {
		s.at = make(map[string]int, len(s.found))
		for i := range s.found {
			s.at[s.found[i].Path] = i
		}
	}
	stated := make([]int, 0, len(dirty))
	for _, p := range dirty {
		i, ok := s.at[p]
		if !ok {
			continue // not a file discovery lists
		}
		fi := transcript.Stat(p)
		if !fi.Regular || fi.ID != s.found[i].Info.ID {
			return nil, false
		}
		s.found[i].Info = fi
		stated = append(stated, i)
	}
	return stated, true
}

// Close stops the change watcher, if any.
func (s *Store) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.watch != nil {
		s.watch.close()
	}
}

// unchanged reports whether every found file is known with the same size,
// mtime and inode.
func unchanged(found []discovered, files map[string]*FileSummary) bool {
	for _, d := range found {
		old := files[d.Path]
		if old == nil || old.Size != d.Info.Size || !old.ModTime.Equal(d.Info.ModTime) || old.id != d.Info.ID {
			return false
		}
	}
	return true
}

func rootsEqual(a, b []RootInfo) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// scanJob is a file to read and its stat of this look.
type scanJob struct {
	f    *FileSummary
	info transcript.FileInfo
	left int64  // the bytes the read has before it, the sort's key
	tail []byte // the bytes just before f.Offset when it is not 0 (unchangedPrefix)
}

// newScanJob is the job of reading a file from its start.
func newScanJob(f *FileSummary, info transcript.FileInfo) scanJob {
	return scanJob{f, info, info.Size - f.Offset, nil}
}

// scanAll reads the queued files in parallel, largest first. Each job
// carries its stat and its sort key: finding the stat by path for each
// comparison of the sort (two map lookups of long paths) cost 120 ms of CPU
// before a fresh scan of 15,000 files could start.
func scanAll(ctx context.Context, jobs []scanJob, progress Progress, hook lineHook) error {
	if len(jobs) == 0 {
		return nil
	}
	slices.SortFunc(jobs, func(a, b scanJob) int { return cmp.Compare(b.left, a.left) })
	var mu sync.Mutex
	done := 0
	parallel(ctx, len(jobs), func(i int) {
		f := jobs[i].f
		if err := f.scanFile(ctx, jobs[i].info, jobs[i].tail, hook); err != nil {
			// Unreadable now (deleted, permission): keep what we have, flagged.
			f.Drift = true
			f.ReadError = err.Error()
		}
		mu.Lock()
		done++
		if progress != nil {
			progress(done, len(jobs))
		}
		mu.Unlock()
	})
	return ctx.Err()
}
