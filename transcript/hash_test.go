package transcript

import (
	"hash/fnv"
	"testing"
)

// TestHash63IsFNV1a: cursors written before the hash was inlined (hash/fnv then) still open.
func TestHash63IsFNV1a(t *testing.T) {
	for _, parts := range [][]string{{}, {""}, {"a"}, {"claude-code", "local", "-home-x", "3d2fbbbf-3e28"}, {"é", "\x00x"}} {
		h := fnv.New64a()
		for _, p := range parts {
			h.Write([]byte(p))
			h.Write([]byte{0})
		}
		if want := int64(h.Sum64() >> 1); Hash63(parts...) != want {
			t.Errorf("%q: %d, want %d", parts, Hash63(parts...), want)
		}
	}
}
