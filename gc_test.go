package main

import "testing"

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
