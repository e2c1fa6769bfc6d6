//go:build linux

package transcript

import (
	"syscall"
	"time"
)

// Stat follows symlinks and reads size, mtime and identity without
// allocating (a refresh stats every known file). A missing path or one that
// is neither a regular file nor a directory gives the zero FileInfo.
func Stat(path string) FileInfo {
	var st syscall.Stat_t
	if syscall.Stat(path, &st) != nil {
		return FileInfo{}
	}
	return infoOf(&st)
}

// Lstat is Stat without following a symlink: one system call that gives a
// path's FileInfo when it is not a symlink (what Stat would give), or
// reports that it is one. err is the lstat's.
func Lstat(path string) (fi FileInfo, link bool, err error) {
	var st syscall.Stat_t
	if err := syscall.Lstat(path, &st); err != nil {
		return FileInfo{}, false, err
	}
	if st.Mode&syscall.S_IFMT == syscall.S_IFLNK {
		return FileInfo{}, true, nil
	}
	return infoOf(&st), false, nil
}

func infoOf(st *syscall.Stat_t) FileInfo {
	fi := FileInfo{Size: st.Size, ModTime: time.Unix(st.Mtim.Sec, st.Mtim.Nsec), ID: FileID{uint64(st.Dev), st.Ino}}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG:
		fi.Regular = true
	case syscall.S_IFDIR:
		fi.Dir = true
	default:
		return FileInfo{}
	}
	return fi
}
