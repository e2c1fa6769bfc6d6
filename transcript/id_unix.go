//go:build unix && !linux

package transcript

import (
	"os"
	"syscall"
)

func fileID(st os.FileInfo) FileID {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return FileID{uint64(s.Dev), uint64(s.Ino)}
	}
	return FileID{}
}
