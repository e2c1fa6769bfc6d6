//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSS is the child's peak resident set in KiB (macOS reports bytes).
func peakRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) / 1024
	}
	return int64(ru.Maxrss)
}
