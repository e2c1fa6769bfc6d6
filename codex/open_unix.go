//go:build unix

package codex

import (
	"os"
	"syscall"
)

// openFlags opens without blocking, so a FIFO where a rollout belongs is
// refused by the regular-file check instead of hanging the open.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK
