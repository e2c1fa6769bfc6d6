//go:build unix

package transcript

import (
	"os"
	"syscall"
)

// openReadOnly opens without blocking: a FIFO or device put where a
// transcript belongs must not hang a scan.
func openReadOnly(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// noFollow: open can refuse a symlink as the last element (O_NOFOLLOW).
const noFollow = true

// openNoFollow is openReadOnly, failing when path's last element is a
// symlink.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
}
