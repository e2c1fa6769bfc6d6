package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

func TestFloorPercent(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		percent           int
		live, roots, want uint64
	}{
		{50, 0, 0, 400},             // before the first collection: 4 MB x 400% would be 16 MB, capped
		{50, 1 * mb, 1 * mb, 400},   // a tiny heap: capped
		{50, 10 * mb, 12 * mb, 183}, // (32-10)/12
		{20, 20 * mb, 25 * mb, 48},  // (32-20)/25
		{50, 24 * mb, 25 * mb, 50},  // the phase's target already reaches the floor
		{20, 34 * mb, 36 * mb, 20},  // above the floor
		{50, 32 * mb, 32 * mb, 50},  // at it
		{50, 5 * mb, 0, 50},         // no roots read: the phase's
	} {
		if got := floorPercent(c.percent, c.live, c.roots, 32*mb); uint64(got) != c.want {
			t.Errorf("floorPercent(%d, %d MB, %d MB): %d, want %d", c.percent, c.live/mb, c.roots/mb, got, c.want)
		}
	}
}

func TestMemoryCap(t *testing.T) {
	const mb = 1 << 20
	// At 4 GB after the first scan: 101 MB live, 102 MB of roots, 20%,
	// 15 MB beside the heap: 101 + 20.4 + 15.
	if got, want := memoryCap(101*mb, 102*mb, 20, 15*mb), int64(101*mb+102*mb/5+15*mb); got != want {
		t.Errorf("memoryCap: %d, want %d", got, want)
	}
	if got := besidesHeap(150*mb, 5*mb, 120*mb, 10*mb); got != 15*mb {
		t.Errorf("besidesHeap: %d, want %d", got, 15*mb)
	}
	if got := besidesHeap(100*mb, 5*mb, 90*mb, 10*mb); got != 0 {
		t.Errorf("besidesHeap of samples that disagree: %d, want 0", got)
	}
}

// TestTunerSetsTheLimit applies a tuner that caps the memory and reads the
// limit back: above what the collection found live, and not the runtime's
// "no limit". A tuner without the cap leaves the limit as it was.
func TestTunerSetsTheLimit(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	ballast := make([]byte, 8<<20)
	runtime.GC()
	g := &gcTuner{limit: true}
	g.set(10)
	limit := debug.SetMemoryLimit(-1)
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	if limit == math.MaxInt64 || uint64(limit) <= live[0].Value.Uint64() {
		t.Errorf("limit %d with %d bytes live: want a limit above the live heap", limit, live[0].Value.Uint64())
	}
	debug.SetMemoryLimit(math.MaxInt64)
	(&gcTuner{}).set(10)
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("a tuner without the cap set a limit of %d", got)
	}
	runtime.KeepAlive(ballast)
}
