//go:build !unix

package main

import "os"

// peakRSS is not measured where the OS reports no rusage; 0 means unknown.
func peakRSS(*os.ProcessState) int64 { return 0 }
