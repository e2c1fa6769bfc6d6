package codex

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"
)

// File is one rollout file found under a Codex root.
type File struct {
	Path       string // absolute or as given under Root
	Root       string // the root it was found under (what openInside contains it in)
	ID         string // the thread id in the file name ("" when the name has none)
	NameTime   string // the file name's time, YYYY-MM-DDThh-mm-ss, in the writer's local time
	Archived   bool   // under archived_sessions/
	Compressed bool   // .jsonl.zst
	Size       int64  // on disk (compressed size for .zst)
	ModTime    time.Time
}

// maxDepth bounds how deep Discover walks below sessions/ (YYYY/MM/DD is 3).
const maxDepth = 8

// Discover lists the rollouts under root: sessions/YYYY/MM/DD/rollout-*.jsonl
// and archived_sessions/rollout-*.jsonl (flat, §1), each also as .jsonl.zst;
// a plain file wins over its .zst sibling. It only reads. Symlinks are
// followed only when they resolve inside root (files and folders alike),
// and a file reached twice is listed once. A missing root, or one without
// those folders, gives an empty result, not an error. Files are ordered by
// path.
func Discover(root string) ([]File, error) {
	real, err := filepath.EvalSymlinks(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(real); err != nil || !st.IsDir() {
		return nil, nil
	}
	w := &walker{root: root, real: real, seen: map[string]bool{}}
	w.walk(filepath.Join(root, "sessions"), false, 0)
	w.walk(filepath.Join(root, "archived_sessions"), true, 0)
	sort.Slice(w.out, func(i, j int) bool { return w.out[i].Path < w.out[j].Path })
	return w.out, nil
}

type walker struct {
	root, real string
	seen       map[string]bool // real paths of folders and files visited
	out        []File
}

func (w *walker) walk(dir string, archived bool, depth int) {
	if depth > maxDepth {
		return
	}
	rdir, ok := w.inside(dir)
	if !ok || w.seen[rdir] {
		return
	}
	w.seen[rdir] = true
	entries, err := os.ReadDir(dir)
	if err != nil {
		return // a folder that vanished or cannot be read is skipped
	}
	names := map[string]bool{}
	for _, e := range entries {
		names[e.Name()] = true
	}
	for _, e := range entries {
		full := filepath.Join(dir, e.Name())
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			real, ok := w.inside(full)
			if !ok {
				continue
			}
			st, err := os.Stat(real)
			if err != nil {
				continue
			}
			isDir = st.IsDir()
		}
		if isDir {
			w.walk(full, archived, depth+1)
			continue
		}
		name := e.Name()
		compressed := strings.HasSuffix(name, ".jsonl.zst")
		if !strings.HasPrefix(name, "rollout-") || !(compressed || strings.HasSuffix(name, ".jsonl")) {
			continue
		}
		if compressed && names[strings.TrimSuffix(name, ".zst")] {
			continue // the plain sibling wins
		}
		w.add(full, name, archived, compressed)
	}
}

func (w *walker) add(full, name string, archived, compressed bool) {
	real, ok := w.inside(full)
	if !ok || w.seen[real] {
		return
	}
	st, err := os.Stat(real)
	if err != nil || !st.Mode().IsRegular() {
		return
	}
	w.seen[real] = true
	nameTime, id, _ := parseName(name)
	w.out = append(w.out, File{Path: full, Root: w.root, ID: id, NameTime: nameTime, Archived: archived,
		Compressed: compressed, Size: st.Size(), ModTime: st.ModTime()})
}

// inside resolves p's symlinks and reports whether it stays inside the root.
func (w *walker) inside(p string) (string, bool) {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", false
	}
	return real, within(real, w.real)
}

// within reports whether path is root or below it (both resolved).
func within(path, root string) bool {
	rel, err := filepath.Rel(root, path)
	if err != nil || filepath.IsAbs(rel) {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// parseName reads rollout-YYYY-MM-DDThh-mm-ss-<uuid>.jsonl[.zst], and the
// paginated rollout-<ts>-<thread uuid>_<segment>.jsonl of newer builds,
// whose thread id is the first uuid (§12).
func parseName(name string) (nameTime, id string, ok bool) {
	rest, found := strings.CutPrefix(name, "rollout-")
	if !found || len(rest) < 20 || rest[19] != '-' {
		return "", "", false
	}
	nameTime, rest = rest[:19], rest[20:]
	if len(rest) < 36 || !isUUID(rest[:36]) {
		return nameTime, "", false
	}
	return nameTime, rest[:36], true
}

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// ErrOutside is returned for a path that is, or leads through a symlink,
// outside the root it must stay in.
var ErrOutside = errors.New("codex: path leads outside the root")

// openInside opens path read-only after resolving its symlinks, refusing
// anything that resolves outside root and anything that is not a regular
// file (a FIFO put where a rollout belongs must not hang a scan). Every file
// this package opens goes through it.
func openInside(root, path string) (*os.File, error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, err
	}
	if realRoot, err = filepath.Abs(realRoot); err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, err
	}
	if real, err = filepath.Abs(real); err != nil {
		return nil, err
	}
	if !within(real, realRoot) {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrOutside}
	}
	f, err := os.OpenFile(real, openFlags, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = &fs.PathError{Op: "open", Path: path, Err: fs.ErrInvalid}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// openRollout opens a rollout through openInside, decompressing .zst.
func openRollout(root, path string) (io.ReadCloser, error) {
	f, err := openInside(root, path)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(path, ".zst") {
		return f, nil
	}
	// One goroutine, and a window bound so a hostile frame header cannot
	// make the decoder reserve gigabytes.
	zr, err := zstd.NewReader(f, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(128<<20),
		zstd.WithDecoderLowmem(true))
	if err != nil {
		f.Close()
		return nil, err
	}
	return &zstdFile{zr: zr, f: f}, nil
}

type zstdFile struct {
	zr *zstd.Decoder
	f  *os.File
}

func (z *zstdFile) Read(p []byte) (int, error) { return z.zr.Read(p) }

func (z *zstdFile) Close() error {
	z.zr.Close()
	return z.f.Close()
}
