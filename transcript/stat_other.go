//go:build !linux

package transcript

import "os"

// Stat follows symlinks and reads size, mtime and identity. A missing path or
// one that is neither a regular file nor a directory gives the zero FileInfo.
func Stat(path string) FileInfo {
	st, err := os.Stat(path)
	if err != nil {
		return FileInfo{}
	}
	fi := FileInfo{Size: st.Size(), ModTime: st.ModTime(), ID: fileID(st), Regular: st.Mode().IsRegular(), Dir: st.IsDir()}
	if !fi.Exists() {
		return FileInfo{}
	}
	return fi
}

// isSymlink reports whether path is a symlink, not following it.
func isSymlink(path string) (bool, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return false, err
	}
	return st.Mode()&os.ModeSymlink != 0, nil
}
