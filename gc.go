package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// gcTuner sets the collector's target (GOGC) for the phase the process is in
// (firstScanGCPercent, then servingGCPercent), but never so low that the
// heap's goal falls under gcFloor: while the heap is small, a percentage
// target collects every few megabytes. A fresh process starts with a goal
// of 4 MB, and a fresh usage_report at 1 GB went through 28 collections on
// the way to its heap (10 with the floor), each marking what was live and
// sweeping. The floor only matters while the heap is smaller than it: at
// 1 GB the summaries alone are 34 MB, so the first scan ends above it, and
// the serving target is the phase's.
//
// After each collection (a finalizer that re-arms itself) the target is set
// again from what that collection found live, and with it, unless
// GOMEMLIMIT is set, a memory limit of the goal and what the runtime holds
// besides the heap (memoryCap), so that the pages a heavy tool freed go
// back to the system. GOGC, when set, decides alone (main does not start
// the tuner).
type gcTuner struct {
	mu      sync.Mutex
	percent int  // the phase's target
	applied int  // the target set last
	limit   bool // also cap the memory (memoryCap): GOMEMLIMIT is not set
}

var gcTarget gcTuner

const (
	// gcFloor is the least heap goal the tuner keeps. Measured with 0, 32
	// and 64 MB (seven interleaved runs each): a fresh list_recent_sessions
	// at 4 GB took a median of 0.18, 0.12 and 0.14 s with a peak RSS of 44,
	// 52 and 60 MB; a fresh usage_report at 1 GB 0.55 and 0.53 s (0 and
	// 32 MB) with the same peak, 69-70 MB.
	gcFloor = 32 << 20
	// gcMaxPercent bounds the target the floor asks for: the live figure
	// of a tiny heap is not the runtime's exactly, and a target 45 times
	// over set a goal of 68 MB for a floor of 32. The floor is then
	// reached in a collection or two more.
	gcMaxPercent = 400
)

// gcSentinel is garbage whose finalizer runs once a collection has found
// it (too big for the tiny allocator, whose objects' finalizers may wait).
type gcSentinel struct{ _ [64]byte }

// start sets the first phase's target and arms the tuner.
func (g *gcTuner) start(percent int, limit bool) {
	g.limit = limit
	g.set(percent)
	g.arm()
}

// set changes the phase's target.
func (g *gcTuner) set(percent int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.percent = percent
	g.applyLocked()
}

func (g *gcTuner) arm() {
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) {
		g.mu.Lock()
		g.applyLocked()
		g.mu.Unlock()
		g.arm()
	})
}

// The runtime's heap goal is live + (live + stacks + globals) x GOGC/100;
// what it holds besides the heap's objects and free pages is the rest of
// its total, less what it gave back.
var gcSamples = []metrics.Sample{
	{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/stack:bytes"}, {Name: "/gc/scan/globals:bytes"},
	{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"},
	{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/free:bytes"},
}

func (g *gcTuner) applyLocked() {
	metrics.Read(gcSamples)
	var v [7]uint64
	for i, s := range gcSamples {
		if s.Value.Kind() == metrics.KindUint64 {
			v[i] = s.Value.Uint64()
		}
	}
	live, roots := v[0], v[0]+v[1]+v[2]
	p := floorPercent(g.percent, live, roots, gcFloor)
	if p != g.applied {
		debug.SetGCPercent(p)
		g.applied = p
	}
	if g.limit && live > 0 {
		debug.SetMemoryLimit(memoryCap(live, roots, p, besidesHeap(v[3], v[4], v[5], v[6])))
	}
}

// memoryCap is the memory limit that holds the process to its heap goal
// (live + roots x percent/100) and what the runtime holds besides the
// heap's objects and free pages (stacks, metadata, the unused ends of
// spans; other). Without it the runtime keeps freed pages up to 10% over
// the goal before it gives them back: at 4 GB, 12-16 MB after every tool
// had answered. Under a limit it gives them back as the heap nears it, and
// the collector starts when the goal is reached by either count.
func memoryCap(live, roots uint64, percent int, besides uint64) int64 {
	return int64(live + roots*uint64(percent)/100 + besides)
}

// besidesHeap is what the runtime holds apart from the heap's objects and
// free pages: its total less what it gave back, the objects and the free
// pages (0 if the samples, read one by one, disagree).
func besidesHeap(total, released, objects, free uint64) uint64 {
	if held := released + objects + free; total > held {
		return total - held
	}
	return 0
}

// floorPercent is the target to set: percent, or more while the goal it
// gives (live + roots x target/100) would be under floor, up to
// gcMaxPercent. Before the first collection (live 0) the runtime's goal is
// 4 MB x target/100.
func floorPercent(percent int, live, roots, floor uint64) int {
	if live == 0 {
		roots = 4 << 20
	}
	if live >= floor || roots == 0 {
		return percent
	}
	return max(percent, min(int((floor-live)*100/roots), gcMaxPercent))
}
