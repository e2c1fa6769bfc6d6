//go:build windows

package transcript

import (
	"os"
	"syscall"
)

// fileID uses the creation time: a file index needs an open handle, and a
// file that replaces another by rename has its own creation time.
func fileID(st os.FileInfo) FileID {
	if d, ok := st.Sys().(*syscall.Win32FileAttributeData); ok {
		return FileID{Dev: uint64(d.CreationTime.HighDateTime), Ino: uint64(d.CreationTime.LowDateTime)}
	}
	return FileID{}
}
