package transcript

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Root is one configured log root and the one containment check of the
// program: every file and folder read under it is opened through Open,
// ReadDir or ReadSmall, which refuse anything whose real location (symlinks
// resolved) is outside the root; the discovery walk admits each step with
// Admit, the same check made one path element at a time.
type Root struct {
	Path  string // as configured
	Label string // the machine this root holds ("" for the local one)
	real  string // Path with symlinks resolved; "" when the root does not exist
}

// NewRoot resolves path. A root that does not exist (or is not a folder) is
// still a Root: Exists reports false and every open under it fails.
func NewRoot(path, label string) *Root {
	r := &Root{Path: path, Label: label}
	if real, err := filepath.EvalSymlinks(path); err == nil && Stat(real).Dir {
		r.real = real
	}
	return r
}

// Exists reports whether the root was an existing folder when made.
func (r *Root) Exists() bool { return r.real != "" }

// Inside reports whether path, with every symlink resolved, stays inside the
// root. Paths are checked element by element below the root, so a symlinked
// folder anywhere on the way (a session's tool-results/ or subagents/) is
// caught, not only a symlinked file.
func (r *Root) Inside(path string) bool { return r.inside(path, true) }

// inside is Inside; without last, the path's last element is left to the
// caller (Open checks it by refusing to follow it).
func (r *Root) inside(path string, last bool) bool {
	if r.real == "" {
		return false
	}
	base := r.Path
	rel, err := filepath.Rel(base, path)
	if err != nil || escapes(rel) {
		base = r.real
		if rel, err = filepath.Rel(base, path); err != nil || escapes(rel) {
			return false
		}
	}
	if rel == "." {
		return true
	}
	// Each element's path is a prefix of base joined with rel, cut at a
	// separator: one string, no join per element.
	full := filepath.Join(base, rel)
	end := len(full)
	if !last {
		end = strings.LastIndexByte(full, filepath.Separator)
	}
	for i := len(base) + 1; i <= end; i++ {
		if i < len(full) && full[i] != filepath.Separator {
			continue
		}
		cur := full[:i]
		link, err := isSymlink(cur)
		if err != nil {
			return false
		}
		if link && !r.targetInside(cur) {
			return false
		}
	}
	return true
}

// Admit reports whether a folder entry found while walking down from the
// root may be followed: anything that is not a symlink (its folder was
// admitted already), or a symlink whose target stays inside the root. dir
// reports whether the entry, followed, is a folder.
func (r *Root) Admit(full string, e os.DirEntry) (dir, ok bool) {
	if e.Type()&os.ModeSymlink == 0 {
		return e.IsDir(), true
	}
	if !r.targetInside(full) {
		return false, false
	}
	return Stat(full).Dir, true
}

func (r *Root) targetInside(link string) bool {
	target, err := filepath.EvalSymlinks(link)
	return err == nil && within(target, r.real)
}

// Open opens a regular file inside the root read-only and without blocking.
func (r *Root) Open(path string) (*os.File, error) {
	f, err := r.open(path)
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

// open checks path and opens it. Where the system can refuse to follow a
// symlink as the last element (noFollow), only the folders on the way are
// checked first, and the file is opened that way: a file that is not a
// symlink needs no check of its own (one lstat a file fewer, and no window
// between a check and the open for a symlink to appear in). A missing file
// is reported as missing at once (its folders were checked); a symlink, or
// any other failure to open so, takes the whole check and the plain open,
// as on other systems.
func (r *Root) open(path string) (*os.File, error) {
	if noFollow {
		if !r.inside(path, false) {
			return nil, &os.PathError{Op: "open", Path: path, Err: ErrOutside}
		}
		f, err := openNoFollow(path)
		if err == nil {
			return f, nil
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	if !r.Inside(path) {
		return nil, &os.PathError{Op: "open", Path: path, Err: ErrOutside}
	}
	return openReadOnly(path)
}

// ReadDir lists a folder inside the root.
func (r *Root) ReadDir(dir string) ([]os.DirEntry, error) {
	if !r.Inside(dir) {
		return nil, &os.PathError{Op: "readdir", Path: dir, Err: ErrOutside}
	}
	return os.ReadDir(dir)
}

// ReadSmall reads at most max bytes of a regular file inside the root,
// into buf's room when it has enough, else into a new buffer with room for
// the file (io.ReadAll would grow one from 512 bytes, allocating about
// twice a large file). A caller that reads many files passes the buffer of
// the last read back.
func (r *Root) ReadSmall(path string, max int64, buf []byte) ([]byte, error) {
	f, err := r.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := bytes.NewBuffer(buf[:0])
	if st, err := f.Stat(); err == nil {
		b.Grow(int(min(st.Size(), max)) + bytes.MinRead) // room to see the end without growing
	}
	_, err = b.ReadFrom(io.LimitReader(f, max))
	return b.Bytes(), err
}

// ErrOutside is the error of an open refused by the containment check.
var ErrOutside = errOutside{}

type errOutside struct{}

func (errOutside) Error() string { return "path leads outside the log root" }

func escapes(rel string) bool {
	return rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel)
}

func within(path, root string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && !escapes(rel)
}
