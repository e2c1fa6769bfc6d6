package transcript

import (
	"io/fs"
	"os"
	"path/filepath"
)

// DirCache remembers folder listings by the folder's mtime: a folder whose
// mtime did not change has the same entries, so a refresh re-stats known
// folders instead of re-listing the tree. It is not safe for concurrent
// use: one refresh at a time owns it.
type DirCache struct {
	dirs    map[string]dirListing
	seen    map[string]bool       // folders visited in the current pass
	visited map[FileID]struct{}   // folders and files visited in this pass: breaks symlink loops and duplicates
	ahead   map[string]*lookAhead // folders Prefetch is listing for this pass
	slots   chan struct{}         // bounds the look-aheads running at once
	relist  map[string]bool       // in a trusted pass (BeginTrustedPass), the folders listed again; nil otherwise
	linked  int                   // how many listings of dirs hold a symlink (Linked)
}

// lookAhead is a folder's stat, and its entries when the cache could not
// answer for it, taken in the background for a List to come.
type lookAhead struct {
	done chan struct{}
	st   FileInfo
	des  []os.DirEntry
	read bool // des was read (the cached listing was of another mtime, or none)
	skip bool // nothing was looked at (a symlink, or a path that is gone)
}

// lookAheads is how many folders Prefetch lists at once: the calls are
// file system work that a second core can do while the walk goes on.
const lookAheads = 4

type dirListing struct {
	mtime   int64
	id      FileID // the folder's identity, for a trusted pass's loop check
	links   bool   // an entry is a symlink
	entries []Listed
}

// Listed is a folder entry with its full path, joined once per listing. It
// keeps the entry's name as the end of Full and its type, not the
// os.DirEntry it was listed as (with its own copies of the folder and the
// name): a cache of a whole history's folders holds thousands.
type Listed struct {
	Full string
	name int         // the length of the name at the end of Full
	typ  fs.FileMode // the type bits (Type)
}

// Name is the entry's name.
func (l Listed) Name() string { return l.Full[len(l.Full)-l.name:] }

// IsDir reports whether the entry is a folder.
func (l Listed) IsDir() bool { return l.typ.IsDir() }

// Type is the entry's type bits.
func (l Listed) Type() fs.FileMode { return l.typ }

// Info stats the entry (not following a symlink), as os.DirEntry's Info does.
func (l Listed) Info() (fs.FileInfo, error) { return os.Lstat(l.Full) }

// NewDirCache returns an empty cache.
func NewDirCache() *DirCache {
	return &DirCache{dirs: map[string]dirListing{}, seen: map[string]bool{}, visited: map[FileID]struct{}{}, ahead: map[string]*lookAhead{}, slots: make(chan struct{}, lookAheads)}
}

// Prefetch starts listing folders the walk will List soon, in the
// background, so that their file system calls overlap the walk. It changes
// no answer: List takes what a look-ahead found as it would have found it
// itself a moment later. A folder already listed or looked ahead in this
// pass is skipped, and a symlink is not followed: the walk lists it only
// once Admit has checked where it leads.
func (c *DirCache) Prefetch(dirs ...string) {
	for _, dir := range dirs {
		if c.seen[dir] || c.ahead[dir] != nil {
			continue
		}
		if c.cached(dir) {
			continue // List answers from the cache
		}
		la := &lookAhead{done: make(chan struct{})}
		c.ahead[dir] = la
		cached, ok := c.dirs[dir]
		go func() {
			c.slots <- struct{}{}
			defer func() { <-c.slots; close(la.done) }()
			st, link, err := Lstat(dir) // not a symlink: what Stat would read
			if err != nil || link {
				la.skip = true // a symlink is followed only once the walk admits it: List looks itself
				return
			}
			la.st = st
			if la.st.Dir && (!ok || cached.mtime != la.st.ModTime.UnixNano()) {
				la.des, _ = os.ReadDir(dir)
				la.read = true
			}
		}()
	}
}

// BeginPass starts a discovery pass; EndPass forgets folders it did not visit.
func (c *DirCache) BeginPass() {
	clear(c.seen)
	clear(c.visited)
	c.endLookAheads()
	c.relist = nil
}

// BeginTrustedPass starts a pass in which a folder's cached listing is
// taken without a stat, except for the folders in relist: for a caller that
// knows (a change watcher) that only those folders' entries changed. A
// folder the cache does not know is stated and listed as always.
func (c *DirCache) BeginTrustedPass(relist map[string]bool) {
	c.BeginPass()
	c.relist = relist
}

// cached reports whether a trusted pass takes dir's listing from the cache.
func (c *DirCache) cached(dir string) bool {
	if c.relist == nil || c.relist[dir] {
		return false
	}
	_, ok := c.dirs[dir]
	return ok
}

// Linked reports whether a cached listing holds a symlink. A trusted pass
// is then unsafe: a folder reached through a link is cached under the
// link's path, and the link can be pointed elsewhere without a change to
// anything the watcher watches under that path.
func (c *DirCache) Linked() bool { return c.linked > 0 }

// put caches dir's listing, and drop forgets it, keeping linked.
func (c *DirCache) put(dir string, l dirListing) {
	c.drop(dir)
	c.dirs[dir] = l
	if l.links {
		c.linked++
	}
}

func (c *DirCache) drop(dir string) {
	if l, ok := c.dirs[dir]; ok {
		if l.links {
			c.linked--
		}
		delete(c.dirs, dir)
	}
}

// endLookAheads waits for the look-aheads of the pass and forgets them: the
// next pass looks again.
func (c *DirCache) endLookAheads() {
	for _, la := range c.ahead {
		<-la.done
	}
	clear(c.ahead)
}

// EndPass forgets the folders not visited since BeginPass.
func (c *DirCache) EndPass() {
	for d := range c.dirs {
		if !c.seen[d] {
			c.drop(d)
		}
	}
	c.endLookAheads()
	c.relist = nil
}

// FirstVisit reports whether a file or folder with this identity was not yet
// met in this pass (a second meeting is a symlink loop or a duplicate).
func (c *DirCache) FirstVisit(id FileID) bool {
	if _, dup := c.visited[id]; dup {
		return false
	}
	c.visited[id] = struct{}{}
	return true
}

// List returns the entries of a folder the walk admitted (see Root.Admit);
// nil for a folder that is gone, unreadable, or already visited in this pass.
func (c *DirCache) List(dir string) []Listed {
	if c.cached(dir) {
		l := c.dirs[dir]
		if !c.FirstVisit(l.id) {
			return nil
		}
		c.seen[dir] = true
		return l.entries
	}
	la := c.ahead[dir]
	if la != nil {
		<-la.done
		if la.skip {
			la = nil
		}
	}
	var st FileInfo
	if la != nil {
		st = la.st
	} else {
		st = Stat(dir)
	}
	if !st.Dir {
		c.drop(dir)
		return nil
	}
	if !c.FirstVisit(st.ID) {
		return nil
	}
	c.seen[dir] = true
	mt := st.ModTime.UnixNano()
	if l, ok := c.dirs[dir]; ok && l.mtime == mt && l.id == st.ID {
		return l.entries
	}
	var des []os.DirEntry
	if la != nil && la.read {
		des = la.des
	} else {
		des, _ = os.ReadDir(dir)
	}
	entries := make([]Listed, len(des))
	links := false
	for i, e := range des {
		entries[i] = Listed{Full: filepath.Join(dir, e.Name()), name: len(e.Name()), typ: e.Type()}
		links = links || e.Type()&fs.ModeSymlink != 0
	}
	c.put(dir, dirListing{mtime: mt, id: st.ID, links: links, entries: entries})
	return entries
}

// Visited returns the folders the last pass listed, in no order.
func (c *DirCache) Visited() []string {
	out := make([]string, 0, len(c.seen))
	for d := range c.seen {
		out = append(out, d)
	}
	return out
}
