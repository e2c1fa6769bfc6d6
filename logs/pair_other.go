//go:build !amd64

package logs

const pairBlocks = false

func pairScan(a, b []byte, c1, m1, c2, m2 byte) (at, reached int) { return -1, 0 }
