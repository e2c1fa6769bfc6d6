package logs

import "testing"

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
