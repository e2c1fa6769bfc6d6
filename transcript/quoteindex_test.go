package transcript

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// quoteIndexModel is QuoteIndex byte by byte: a backslash escapes the byte
// after it.
func quoteIndexModel(b []byte) []uint32 {
	var out []uint32
	saw := false
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\\':
			saw = true
			i++
		case '"':
			e := uint32(i)
			if saw {
				e |= QuoteEscaped
			}
			out, saw = append(out, e), false
		}
	}
	return out
}

// TestQuoteIndex compares the block walk with the model on random lines of
// 64 to 703 bytes (one block, several, and a last block that overlaps the
// one before it) of quotes, backslashes in runs of every length across
// block edges and other bytes, or of quotes only, each followed in memory
// by quotes that a read past its end would count; after a list already
// holding entries and in a list of every small capacity, so that the walk
// stops and goes on at block edges; where the processor has AVX2, with its
// classifier and without, and where it has BMI1 and POPCNT, with the
// writes eight at a time and without.
func TestQuoteIndex(t *testing.T) {
	if !quoteIndexed {
		if _, ok := QuoteIndex(make([]byte, 100), nil); ok {
			t.Fatal("QuoteIndex ok without a block walk")
		}
		t.Skip("no block walk on this platform")
	}
	wide, batch := quoteAVX2, quoteBatch
	t.Cleanup(func() { quoteAVX2, quoteBatch = wide, batch })
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte{'"', '\\', 'a', '\\', 'n', '\\'}
	for v := range 4 {
		quoteAVX2, quoteBatch = v&1 != 0 && wide, v&2 != 0 && batch
		for n := 0; n < 50000; n++ {
			// The line's bytes, and quotes after them that a read past
			// its end would see.
			size := 64 + rng.IntN(640)
			buf := []byte(strings.Repeat(`"`, size+64))
			b := buf[:size]
			dense := rng.IntN(3) // quotes only, a quote in most blocks, or in few
			for i := range b {
				switch b[i] = alphabet[rng.IntN(len(alphabet))]; {
				case dense == 0:
					b[i] = '"'
				case dense == 1 && b[i] == '"' && rng.IntN(8) > 0:
					b[i] = 'x'
				}
			}
			want := quoteIndexModel(b)
			prefix := []uint32{7, 9}
			dst := make([]uint32, len(prefix), len(prefix)+rng.IntN(100))
			copy(dst, prefix)
			got, ok := QuoteIndex(b, dst)
			if !ok || !slices.Equal(got[:2], prefix) || !slices.Equal(got[2:], want) {
				t.Fatalf("QuoteIndex(%q) = %v, %v; want %v", b, got, ok, want)
			}
		}
	}
}

func TestQuoteIndexShort(t *testing.T) {
	dst := []uint32{1}
	got, ok := QuoteIndex([]byte(strings.Repeat(`"a"`, 21)), dst) // 63 bytes
	if ok || len(got) != 1 {
		t.Fatalf("QuoteIndex of 63 bytes = %v, %v; want the list as it was, false", got, ok)
	}
}

func FuzzQuoteIndex(f *testing.F) {
	f.Add([]byte(`"` + strings.Repeat(`a\"`, 40) + `"`))
	f.Add([]byte(`"` + strings.Repeat(`\\`, 33) + `"` + strings.Repeat("b", 70)))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, ok := QuoteIndex(b, nil)
		if !ok {
			return
		}
		if want := quoteIndexModel(b); !slices.Equal(got, want) {
			t.Fatalf("QuoteIndex(%q) = %v; want %v", b, got, want)
		}
	})
}
