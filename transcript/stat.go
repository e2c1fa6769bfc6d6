package transcript

import "time"

// FileID identifies a file independently of its name, so a file replaced by
// rename is noticed: (device, inode) on Unix; on Windows, where that needs an
// open handle, the creation time stands in (a replacement has its own).
type FileID struct{ Dev, Ino uint64 }

// FileInfo is what a refresh needs of a path.
type FileInfo struct {
	Size    int64
	ModTime time.Time
	ID      FileID
	Regular bool // a regular file
	Dir     bool // a directory
}

// Exists reports whether the path was a regular file or a directory.
func (fi FileInfo) Exists() bool { return fi.Regular || fi.Dir }

// isSymlink reports whether path is a symlink, not following it (Inside
// asks it of every element of every path it checks); err is the lstat's.
func isSymlink(path string) (bool, error) {
	_, link, err := Lstat(path)
	return link, err
}
