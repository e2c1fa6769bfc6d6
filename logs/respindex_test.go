package logs

import (
	"math/rand/v2"
	"testing"
)

// TestRespIndex: every key put is found with its last ref, through growth
// and keys that land on the same slot; keys never put are not found.
func TestRespIndex(t *testing.T) {
	homes := []*sessionHome{{}, {}, {}}
	x := newRespIndex(10, homes)
	want := map[uint64]respRef{}
	key := func(i int) uint64 { return uint64(i)<<40 | 1 } // near keys: they share slots
	for i := range 5000 {
		k := key(i % 3000) // the last 2000 replace earlier refs
		r := respRef{homes[i%3], int32(i)}
		x.put(k, r)
		want[k] = r
		if i%97 == 0 {
			x.put(idHash(string(rune(i))), respRef{homes[0], -1})
			want[idHash(string(rune(i)))] = respRef{homes[0], -1}
		}
	}
	if x.n != len(want) {
		t.Errorf("%d keys held, want %d", x.n, len(want))
	}
	for k, r := range want {
		if got, ok := x.get(k); !ok || got != r {
			t.Errorf("key %x: got %+v %v, want %+v", k, got, ok, r)
		}
	}
	for _, k := range []uint64{3001 << 40, 2, idHash("absent")} {
		if _, ok := x.get(k); ok && want[k] == (respRef{}) {
			t.Errorf("key %x found, never put", k)
		}
	}
}

// TestRespIndexDelete: puts and deletes in random order, with keys crowded
// into few homes and runs that wrap around the table's end, always agree
// with a map.
func TestRespIndexDelete(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	homes := []*sessionHome{{}, {}}
	for round := range 200 {
		x := newRespIndex(rng.IntN(20), homes)
		want := map[uint64]respRef{}
		var keys []uint64
		for range 1 + rng.IntN(40) {
			// Top bits pick the home slot: few distinct tops crowd the runs,
			// and the largest tops sit at the table's end.
			keys = append(keys, uint64(rng.IntN(4))<<62|uint64(rng.IntN(1<<20))<<1|1)
		}
		for step := range 300 {
			k := keys[rng.IntN(len(keys))]
			if rng.IntN(3) == 0 {
				x.del(k)
				delete(want, k)
			} else {
				r := respRef{homes[step%2], int32(step)}
				x.put(k, r)
				want[k] = r
			}
			if x.n != len(want) {
				t.Fatalf("round %d step %d: %d keys held, want %d", round, step, x.n, len(want))
			}
			for _, k := range keys {
				got, ok := x.get(k)
				if w, in := want[k]; ok != in || ok && got != w {
					t.Fatalf("round %d step %d: key %x: got %+v %v, want %+v %v", round, step, k, got, ok, w, in)
				}
			}
		}
	}
}
