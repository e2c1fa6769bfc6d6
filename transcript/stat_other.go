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
	return infoOf(st)
}

// Lstat is Stat without following a symlink: one system call that gives a
// path's FileInfo when it is not a symlink (what Stat would give), or
// reports that it is one. err is the lstat's.
func Lstat(path string) (fi FileInfo, link bool, err error) {
	st, err := os.Lstat(path)
	if err != nil {
		return FileInfo{}, false, err
	}
	if st.Mode()&os.ModeSymlink != 0 {
		return FileInfo{}, true, nil
	}
	return infoOf(st), false, nil
}

func infoOf(st os.FileInfo) FileInfo {
	fi := FileInfo{Size: st.Size(), ModTime: st.ModTime(), ID: fileID(st), Regular: st.Mode().IsRegular(), Dir: st.IsDir()}
	if !fi.Exists() {
		return FileInfo{}
	}
	return fi
}
