package logs

import "testing"

type pairKernel struct {
	name string
	fn   func(a, b []byte, c1, m1, c2, m2 byte) (int, int)
}

// pairKernels are the block kernels this processor runs.
func pairKernels() []pairKernel {
	ks := []pairKernel{{"pairScanSSE2", pairScanSSE2}}
	if pairAVX2 {
		ks = append(ks, pairKernel{"pairScan", pairScan})
	}
	return ks
}

// TestPairScanAVX2Runs: this machine runs the AVX2 kernel, so the random
// comparison covers it (a processor without AVX2 skips).
func TestPairScanAVX2Runs(t *testing.T) {
	if !pairAVX2 {
		t.Skip("no AVX2 here")
	}
	a := make([]byte, 200)
	a[150] = 'Q'
	b := make([]byte, 200)
	b[150] = 'u'
	if at, _ := pairScanAVX2(a, b, 'q', 0x20, 'u', 0x20); at != 150 {
		t.Fatalf("pairScanAVX2 found %d, want 150", at)
	}
}
