package logs

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// discovered is one transcript file found under a root.
type discovered struct {
	path, root, projectDir, project string
	kind                            FileKind
	sessionID, agentID              string
	agentType, agentDesc            string
	info                            statInfo
}

// statInfo is what a refresh needs of a file, read without allocating.
type statInfo struct {
	size     int64
	mtime    time.Time
	dev, ino uint64
	ok       bool // a regular file
}

func statPath(p string) statInfo {
	var st syscall.Stat_t
	if err := syscall.Stat(p, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return statInfo{}
	}
	return statInfo{size: st.Size, mtime: time.Unix(st.Mtim.Sec, st.Mtim.Nsec), dev: uint64(st.Dev), ino: st.Ino, ok: true}
}

// RootInfo says what a configured log root is.
type RootInfo struct {
	Path   string
	Exists bool
}

// dirCache remembers folder listings by the folder's mtime: a folder whose
// mtime did not change has the same entries, so a refresh re-stats known
// folders instead of re-listing the tree. Agent sidecars are cached with it.
type dirCache struct {
	dirs  map[string]dirListing
	metas map[string]cachedMeta
	seen  map[string]bool     // folders visited in the current pass
	found []discovered        // the last pass's result, reused as the next one's buffer
	inode map[fileID]struct{} // folders and files visited in this pass: breaks symlink loops and duplicates
}

type fileID struct{ dev, ino uint64 }

func (c *dirCache) firstVisitID(id fileID) bool {
	if _, dup := c.inode[id]; dup {
		return false
	}
	c.inode[id] = struct{}{}
	return true
}

type dirListing struct {
	mtime   int64
	entries []listed
}

// listed is a folder entry with its full path, joined once per listing.
type listed struct {
	os.DirEntry
	full string
}

func newDirCache() *dirCache {
	return &dirCache{dirs: map[string]dirListing{}, metas: map[string]cachedMeta{}}
}

func (c *dirCache) readDir(dir string) []listed {
	var st syscall.Stat_t
	if err := syscall.Stat(dir, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		delete(c.dirs, dir)
		return nil
	}
	if !c.firstVisitID(fileID{uint64(st.Dev), st.Ino}) {
		return nil // reached again through a symlink: a loop or a duplicate
	}
	c.seen[dir] = true
	mt := st.Mtim.Nano()
	if l, ok := c.dirs[dir]; ok && l.mtime == mt {
		return l.entries
	}
	des, _ := os.ReadDir(dir)
	// The folder changed: forget the sidecars cached for it (a meta file may
	// have appeared since).
	prefix := dir + string(filepath.Separator)
	for k := range c.metas {
		if strings.HasPrefix(k, prefix) {
			delete(c.metas, k)
		}
	}
	entries := make([]listed, len(des))
	for i, e := range des {
		entries[i] = listed{DirEntry: e, full: filepath.Join(dir, e.Name())}
	}
	c.dirs[dir] = dirListing{mtime: mt, entries: entries}
	return entries
}

// prune forgets folders not visited in the last pass.
func (c *dirCache) prune() {
	for d := range c.dirs {
		if !c.seen[d] {
			delete(c.dirs, d)
		}
	}
}

func (c *dirCache) meta(path, real string) (rawAgentMeta, bool) {
	if m, ok := c.metas[path]; ok {
		return m.rawAgentMeta, m.ok
	}
	m, ok := c.readMeta(path, real)
	c.metas[path] = cachedMeta{m, ok}
	return m, ok
}

// cachedMeta remembers a sidecar, or that there is none, until its folder changes.
type cachedMeta struct {
	rawAgentMeta
	ok bool
}

func (c *dirCache) readMeta(path, real string) (rawAgentMeta, bool) {
	if st, err := os.Lstat(path); err != nil {
		return rawAgentMeta{}, false
	} else if st.Mode()&os.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(path)
		if err != nil || !within(target, real) {
			return rawAgentMeta{}, false
		}
	}
	b, err := readSmall(path, 64<<10)
	if err != nil {
		return rawAgentMeta{}, false
	}
	m, ok := decodeAgentMeta(b)
	if ok {
		m.AgentType, m.Description = clip(m.AgentType, 100), clip(m.Description, 300)
	}
	return m, ok
}

// discover lists every transcript file under the roots. Unreadable folders and
// anything that is not a transcript are skipped: discovery never fails.
func (c *dirCache) discover(roots []string) ([]discovered, []RootInfo) {
	if c.seen == nil {
		c.seen, c.inode = map[string]bool{}, map[fileID]struct{}{}
	}
	clear(c.seen)
	clear(c.inode)
	defer c.prune()
	out := c.found[:0]
	defer func() { c.found = out[:0] }()
	infos := make([]RootInfo, 0, len(roots))
	for _, root := range roots {
		real, err := filepath.EvalSymlinks(root)
		fi, err2 := os.Stat(root)
		if err != nil || err2 != nil || !fi.IsDir() {
			infos = append(infos, RootInfo{Path: root, Exists: false})
			continue
		}
		infos = append(infos, RootInfo{Path: root, Exists: true})
		projects := c.readDir(root)
		for _, p := range projects {
			pdir := p.full
			if !isDirInside(pdir, p, real) {
				continue
			}
			out = c.discoverProject(out, root, real, pdir, p.Name())
		}
	}
	return c.statAll(out), infos
}

func (c *dirCache) discoverProject(out []discovered, root, real, pdir, project string) []discovered {
	entries := c.readDir(pdir)
	for _, e := range entries {
		name, full := e.Name(), e.full
		if strings.HasSuffix(name, ".jsonl") {
			if !linkInside(full, e, real) {
				continue
			}
			stem := strings.TrimSuffix(name, ".jsonl")
			d := discovered{path: full, root: root, projectDir: pdir, project: project}
			if strings.HasPrefix(stem, "agent-") {
				d.kind, d.agentID = LegacyAgentFile, strings.TrimPrefix(stem, "agent-")
			} else {
				d.kind, d.sessionID = MainFile, stem
			}
			out = append(out, d)
			continue
		}
		if !isDirInside(full, e, real) {
			continue
		}
		var sub string
		for _, se := range c.readDir(full) {
			if se.Name() == "subagents" && se.IsDir() {
				sub = se.full
			}
		}
		if sub == "" {
			continue
		}
		out = c.walkSubagents(out, root, real, pdir, project, name, sub, 0)
	}
	return out
}

// walkSubagents finds agent-*.jsonl under a session's subagents folder, at any
// depth (workflows nest them), without following symlinks out of the root.
func (c *dirCache) walkSubagents(out []discovered, root, real, pdir, project, sessionID, dir string, depth int) []discovered {
	if depth > 8 {
		return out
	}
	entries := c.readDir(dir)
	for _, e := range entries {
		name, full := e.Name(), e.full
		if strings.HasPrefix(name, "agent-") && strings.HasSuffix(name, ".jsonl") {
			if !linkInside(full, e, real) {
				continue
			}
			id := strings.TrimSuffix(strings.TrimPrefix(name, "agent-"), ".jsonl")
			d := discovered{path: full, root: root, projectDir: pdir, project: project, kind: SubagentFile,
				sessionID: sessionID, agentID: id}
			if m, ok := c.meta(dir+string(filepath.Separator)+"agent-"+id+".meta.json", real); ok {
				d.agentType, d.agentDesc = m.AgentType, m.Description
			}
			out = append(out, d)
			continue
		}
		if isDirInside(full, e, real) {
			out = c.walkSubagents(out, root, real, pdir, project, sessionID, full, depth+1)
		}
	}
	return out
}

// isDirInside reports whether the entry is a directory, following a symlink
// only when its target stays inside the real root.
func isDirInside(full string, e os.DirEntry, real string) bool {
	if e.Type()&os.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(full)
		if err != nil || !within(target, real) {
			return false
		}
		st, err := os.Stat(target)
		return err == nil && st.IsDir()
	}
	return e.IsDir()
}

// linkInside reports whether an entry is not a symlink, or one whose target
// stays inside the real root.
func linkInside(full string, e os.DirEntry, real string) bool {
	if e.Type()&os.ModeSymlink == 0 {
		return true
	}
	target, err := filepath.EvalSymlinks(full)
	return err == nil && within(target, real)
}

// statAll stats the found files in parallel (stat is most of a refresh),
// keeping regular files seen for the first time in this pass, in order.
func (c *dirCache) statAll(found []discovered) []discovered {
	var wg sync.WaitGroup
	const workers = 4
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(found); i += workers {
				found[i].info = statPath(found[i].path)
			}
		}(w)
	}
	wg.Wait()
	out := found[:0]
	for _, d := range found {
		if d.info.ok && c.firstVisitID(fileID{d.info.dev, d.info.ino}) {
			out = append(out, d)
		}
	}
	return out
}

func within(path, root string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func readSmall(path string, max int64) ([]byte, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max))
}

// openRegular opens a file read-only without blocking (a FIFO or device put
// where a transcript belongs must not hang a scan) and refuses anything that
// is not a regular file.
func openRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &os.PathError{Op: "open", Path: path, Err: syscall.EINVAL}
	}
	return f, nil
}
